/*
 * queue_reply.c: Redis replies as match --queue and worker read them, decoded
 * without a connection (so that tests/fuzz/fuzz_redis_reply.c feeds them any
 * reply). Whoever can write to Redis, or answer on its port, chooses these
 * replies: every element's type is checked before it is used, a stream entry's ID
 * is checked before it becomes a cursor, and text is escaped before a terminal
 * sees it.
 */
#include <stdio.h>
#include <string.h>

#include "bridge/match/queue.h"
#include "bridge/util.h"

static int is_string(const redisReply *r)
{
	return r && r->type == REDIS_REPLY_STRING && r->str;
}

int queue_id_valid(const char *id)
{
	size_t a = strspn(id, "0123456789");
	if (a == 0 || a > 20 || id[a] != '-')
		return 0;
	size_t b = strspn(id + a + 1, "0123456789");
	return b > 0 && b <= 20 && id[a + 1 + b] == 0;
}

const char *queue_entry_id(const redisReply *e)
{
	if (!e || e->type != REDIS_REPLY_ARRAY || e->elements != 2 || !is_string(e->element[0]) ||
	    !e->element[1] || e->element[1]->type != REDIS_REPLY_ARRAY || e->element[1]->elements % 2)
		return NULL;
	return queue_id_valid(e->element[0]->str) ? e->element[0]->str : NULL;
}

int queue_xread_answer(const redisReply *r)
{
	return r && (r->type == REDIS_REPLY_NIL || r->type == REDIS_REPLY_ARRAY);
}

const redisReply *queue_xread_stream(const redisReply *r, const char *key)
{
	size_t n = strlen(key);

	if (!r || r->type != REDIS_REPLY_ARRAY)
		return NULL;
	for (size_t i = 0; i < r->elements; i++) {
		const redisReply *st = r->element[i];
		if (!st || st->type != REDIS_REPLY_ARRAY || st->elements != 2 || !is_string(st->element[0]) ||
		    !st->element[1] || st->element[1]->type != REDIS_REPLY_ARRAY)
			continue;
		if (st->element[0]->len == n && !memcmp(st->element[0]->str, key, n))
			return st->element[1];
	}
	return NULL;
}

int queue_strings(const redisReply *r, size_t n, const char **out)
{
	if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const redisReply *e = r->element[i];
		if (is_string(e))
			out[i] = e->str;
		else if (e && e->type == REDIS_REPLY_NIL)
			out[i] = NULL;
		else
			return -1;
	}
	return 0;
}

int queue_integer(const redisReply *r, long long *v)
{
	if (!r || r->type != REDIS_REPLY_INTEGER)
		return -1;
	*v = r->integer;
	return 0;
}

int queue_pending_decode(const redisReply *r, struct queue_pending *out, size_t max, size_t *n)
{
	*n = 0;
	/* [count, first ID, last ID, [[consumer, count], ...]]: nils when none are pending. */
	if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 4 || r->element[0]->type != REDIS_REPLY_INTEGER)
		return -1;
	const redisReply *per = r->element[3];
	if (per->type == REDIS_REPLY_NIL)
		return 0;
	if (per->type != REDIS_REPLY_ARRAY)
		return -1;
	for (size_t i = 0; i < per->elements && *n < max; i++) {
		const redisReply *e = per->element[i];
		unsigned long long v;
		if (e->type != REDIS_REPLY_ARRAY || e->elements != 2 || !is_string(e->element[0]) ||
		    !is_string(e->element[1]) || parse_uint(e->element[1]->str, 0, 1000000000ULL, &v) < 0)
			continue;
		out[*n].name = e->element[0]->str;
		out[*n].count = (unsigned)v;
		(*n)++;
	}
	return 0;
}

int queue_dead_decode(const redisReply *e, unsigned games, struct queue_dead *d)
{
	const char *id = queue_entry_id(e), *g;
	unsigned long long v;

	memset(d, 0, sizeof *d);
	if (!id)
		return -1;
	d->entry = id;
	g = queue_field(e, "game");
	d->game = g && parse_uint(g, 1, games, &v) == 0 ? (unsigned)v : 0;
	d->game_text = g;
	d->worker = queue_field(e, "worker");
	d->reason = queue_field(e, "reason");
	d->job = queue_field(e, "id");
	return 0;
}

const char *queue_escape(char *dst, size_t len, const char *src)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	if (len < 8) {
		if (len)
			dst[0] = 0;
		return dst;
	}
	if (!src)
		src = "?";
	for (const unsigned char *s = (const unsigned char *)src; *s; s++) {
		/* Room for the longest escape, "...", and the NUL. */
		if (o + 4 + 4 > len) {
			memcpy(dst + o, "...", 3);
			o += 3;
			break;
		}
		if (*s == '\\') {
			dst[o++] = '\\';
			dst[o++] = '\\';
		} else if (*s >= 0x20 && *s < 0x7f) {
			dst[o++] = (char)*s;
		} else {
			dst[o++] = '\\';
			dst[o++] = 'x';
			dst[o++] = hex[*s >> 4];
			dst[o++] = hex[*s & 15];
		}
	}
	dst[o] = 0;
	return dst;
}
