/*
 * queue_job.c: the worker's reading of Redis replies (XREADGROUP, XAUTOCLAIM, a job
 * entry), without a connection. Nothing in a reply is trusted: any element may be
 * of any type, a field may be missing, repeated, hold a NUL or be a number out of
 * range; the answer is then "no entry" or a job refused with a reason.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/config.h"
#include "bridge/match/match_int.h"
#include "bridge/match/queue_job.h"
#include "bridge/referee.h"
#include "bridge/util.h"
#include "core/game.h"

static int is_string(const redisReply *r)
{
	return r && r->type == REDIS_REPLY_STRING && r->str;
}

static int is_array(const redisReply *r)
{
	return r && r->type == REDIS_REPLY_ARRAY && (r->elements == 0 || r->element);
}

const char *queue_job_text(char *dst, size_t len, const char *src, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)src[i];
		char tmp[5];
		size_t k = 1;
		if (c < 0x20 || c >= 0x7f)
			k = (size_t)snprintf(tmp, sizeof tmp, "\\x%02x", c);
		else
			tmp[0] = (char)c;
		/* Room for it, and for "..." if more follows. */
		if (o + k + (i + 1 < n ? 3 : 0) >= len) {
			snprintf(dst + o, len - o, "...");
			return dst;
		}
		memcpy(dst + o, tmp, k);
		o += k;
	}
	dst[o] = 0;
	return dst;
}

int queue_id_parse(const char *s, uint64_t *ms, uint64_t *seq)
{
	unsigned long long a, b;
	size_t n = strspn(s, "0123456789");
	char part[24];

	if (n == 0 || n > 20 || s[n] != '-')
		return -1;
	memcpy(part, s, n);
	part[n] = 0;
	if (parse_uint(part, 0, UINT64_MAX, &a) < 0 || parse_uint(s + n + 1, 0, UINT64_MAX, &b) < 0 ||
	    strlen(s + n + 1) > 20)
		return -1;
	*ms = a;
	*seq = b;
	return 0;
}

/* An entry [id, [f, v, ...]] with a valid ID; its fields array into *fields. */
static const char *entry_id(const redisReply *e, const redisReply **fields)
{
	uint64_t ms, seq;

	if (!is_array(e) || e->elements != 2 || !is_string(e->element[0]) ||
	    e->element[0]->len >= QUEUE_JOB_ID_MAX || strlen(e->element[0]->str) != e->element[0]->len ||
	    queue_id_parse(e->element[0]->str, &ms, &seq) < 0)
		return NULL;
	*fields = e->element[1];
	return e->element[0]->str;
}

/* Field name's value: 1 with *v, 0 if absent, -1 (why set) if it is not a string
 * of at most max bytes without NUL. The first of repeated fields counts. */
static int field(const redisReply *f, const char *name, size_t max, const char **v, char *why, size_t whylen)
{
	for (size_t i = 0; i + 1 < f->elements; i += 2) {
		const redisReply *k = f->element[i], *val = f->element[i + 1];
		if (!is_string(k) || k->len != strlen(name) || memcmp(k->str, name, k->len))
			continue;
		if (!is_string(val)) {
			snprintf(why, whylen, "field %s is not a string", name);
			return -1;
		}
		if (strlen(val->str) != val->len || val->len > max) {
			snprintf(why, whylen, "field %s: %s", name,
				 val->len > max ? "too long" : "holds a NUL byte");
			return -1;
		}
		*v = val->str;
		return 1;
	}
	return 0;
}

/* A number field into *out (absent: left as it is); -1 with why if bad. */
static int field_uint(const redisReply *f, const char *name, unsigned long long hi,
		      unsigned long long *out, char *why, size_t whylen)
{
	const char *v;
	char shown[40];
	int rc = field(f, name, 64, &v, why, whylen);

	if (rc <= 0)
		return rc;
	if (parse_uint(v, 0, hi, out) < 0) {
		snprintf(why, whylen, "field %s: \"%s\" is not a number from 0 to %llu", name,
			 queue_job_text(shown, sizeof shown, v, strlen(v)), hi);
		return -1;
	}
	return 0;
}

void queue_job_clear(struct queue_job *j)
{
	free(j->opening);
	free(j->engine[0]);
	free(j->engine[1]);
	j->opening = j->engine[0] = j->engine[1] = NULL;
}

int queue_job_decode(const redisReply *e, struct queue_job *j, char *why, size_t whylen)
{
	const redisReply *f = NULL;
	const char *id = entry_id(e, &f), *v;
	unsigned long long n;
	char shown[64];

	memset(j, 0, sizeof *j);
	why[0] = 0;
	j->max_plies = REFEREE_MAX_PLIES;
	j->repetition = REFEREE_REPETITION;
	if (!id) {
		snprintf(why, whylen, "not a stream entry with an ID");
		return -1;
	}
	snprintf(j->id, sizeof j->id, "%s", id);
	if (!is_array(f) || f->elements % 2) {
		snprintf(why, whylen, "its fields are not a list of names and values");
		return -1;
	}
	/* The game first: a job set aside is named by it. */
	if (field(f, "game", 16, &v, why, whylen) <= 0) {
		if (!*why)
			snprintf(why, whylen, "no game number");
		return -1;
	}
	if (parse_uint(v, 1, MATCH_MAX_GAMES, &n) < 0) {
		snprintf(why, whylen, "game \"%s\" is not a number from 1 to %d",
			 queue_job_text(shown, sizeof shown, v, strlen(v)), MATCH_MAX_GAMES);
		return -1;
	}
	j->game = (unsigned)n;
	int rc = field(f, "white", 1, &v, why, whylen);
	if (rc <= 0 || (strcmp(v, "a") && strcmp(v, "b"))) {
		if (rc >= 0)
			snprintf(why, whylen, "white is not \"a\" or \"b\"");
		return -1;
	}
	j->white = v[0] == 'a' ? PLAYER_A : PLAYER_B;
	if ((rc = field(f, "type", 64, &v, why, whylen)) < 0)
		return -1;
	if (rc > 0 && hive_gametype_parse(v, &j->type) != 0) {
		snprintf(why, whylen, "type \"%s\" is not a game type",
			 queue_job_text(shown, sizeof shown, v, strlen(v)));
		return -1;
	}
	n = 0;
	if (field_uint(f, "depth", MATCH_MAX_DEPTH, &n, why, whylen) < 0)
		return -1;
	j->depth = (int)n;
	n = 0;
	if (field_uint(f, "movetime", 86400000ULL, &n, why, whylen) < 0)
		return -1;
	j->movetime_ms = n;
	n = 0;
	if (field_uint(f, "clock", 86400000ULL * 7, &n, why, whylen) < 0)
		return -1;
	j->clock_ms = n;
	n = 0;
	if (field_uint(f, "inc", 86400000ULL, &n, why, whylen) < 0)
		return -1;
	j->inc_ms = n;
	n = j->max_plies;
	if (field_uint(f, "max_plies", MATCH_PLY_CAP, &n, why, whylen) < 0)
		return -1;
	if (!MATCH_PLIES_OK(n)) {
		/* The command line's bounds: 0 would be no ply cap at all. */
		snprintf(why, whylen, "field max_plies: %llu is not a number from 1 to %d", n, MATCH_PLY_CAP);
		return -1;
	}
	j->max_plies = (unsigned)n;
	n = j->repetition;
	if (field_uint(f, "repetition", MATCH_REPETITION_CAP, &n, why, whylen) < 0)
		return -1;
	if (!MATCH_REPETITION_OK(n)) {
		snprintf(why, whylen, "field repetition: 1 would end every game (0 is off, else 2 to %d)",
			 MATCH_REPETITION_CAP);
		return -1;
	}
	j->repetition = (unsigned)n;
	for (int p = 0; p < 2; p++) {
		const char *name = p ? "engine_b" : "engine_a";
		if ((rc = field(f, name, QUEUE_JOB_ENGINE_MAX, &v, why, whylen)) <= 0 || !*v) {
			if (rc >= 0)
				snprintf(why, whylen, "no %s", name);
			return -1;
		}
		for (const char *c = v; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f) {
				snprintf(why, whylen, "%s \"%s\" holds a control byte", name,
					 queue_job_text(shown, sizeof shown, v, strlen(v)));
				return -1;
			}
		if (!(j->engine[p] = strdup(v))) {
			snprintf(why, whylen, "no memory");
			return -1;
		}
	}
	if ((rc = field(f, "live", 1, &v, why, whylen)) < 0)
		return -1;
	j->live = rc > 0 && !strcmp(v, "1");
	if ((rc = field(f, "opening", QUEUE_JOB_OPENING_MAX, &v, why, whylen)) < 0)
		return -1;
	if (rc > 0 && *v) {
		/* Parsed here, as a local match checks its openings file at load. */
		char err[160] = "", errs[200], *copy = strdup(v), *gs = NULL;
		if (!copy) {
			snprintf(why, whylen, "no memory");
			return -1;
		}
		rc = match_opening_parse(copy, -1, &gs, err, sizeof err);
		if (rc != 1) {
			snprintf(why, whylen, "opening \"%s\": %s",
				 queue_job_text(shown, sizeof shown, v, strlen(v)),
				 rc < 0 ? queue_job_text(errs, sizeof errs, err, strlen(err)) : "not a GameString");
			free(copy);
			return -1;
		}
		memmove(copy, gs, strlen(gs) + 1);
		j->opening = copy;
	}
	return 0;
}

int queue_job_same_limits(const struct queue_job *a, const struct queue_job *b)
{
	return a->type == b->type && a->depth == b->depth && a->movetime_ms == b->movetime_ms &&
	       a->clock_ms == b->clock_ms && a->inc_ms == b->inc_ms && a->max_plies == b->max_plies &&
	       a->repetition == b->repetition;
}

int queue_job_over_cap(const struct queue_job *j, uint64_t cap, char *why, size_t whylen)
{
	/* The engine answers late by its overhead: the cap's margin is kept for it. */
	uint64_t most = cap - MATCH_MOVE_MARGIN(cap);

	if (j->movetime_ms > most) {
		snprintf(why, whylen, "movetime %" PRIu64 " ms is over %" PRIu64 " ms, this worker's --max-move-ms "
			 "%" PRIu64 " less its margin", j->movetime_ms, most, cap);
		return 1;
	}
	for (int p = 0; p < 2; p++)
		if (j->engine[p] && config_engine_movetime(j->engine[p]) > most) {
			snprintf(why, whylen, "engine_%c's movetime is over %" PRIu64 " ms, this worker's "
				 "--max-move-ms %" PRIu64 " less its margin", 'a' + p, most, cap);
			return 1;
		}
	return 0;
}

const redisReply *queue_read_entry(const redisReply *r)
{
	if (!is_array(r) || r->elements < 1)
		return NULL;
	const redisReply *st = r->element[0];
	if (!is_array(st) || st->elements != 2 || !is_array(st->element[1]) || st->element[1]->elements < 1)
		return NULL;
	return st->element[1]->element[0];
}

int queue_claim_decode(const redisReply *r, char *cursor, const redisReply **entry)
{
	uint64_t ms, seq;

	*entry = NULL;
	if (!is_array(r) || r->elements < 2 || !is_string(r->element[0]) ||
	    r->element[0]->len >= QUEUE_JOB_ID_MAX || strlen(r->element[0]->str) != r->element[0]->len ||
	    queue_id_parse(r->element[0]->str, &ms, &seq) < 0 || !is_array(r->element[1]))
		return -1;
	memcpy(cursor, r->element[0]->str, r->element[0]->len + 1);
	/* A deleted entry shows as nil (Redis 6.2): no entry, the scan goes on. */
	if (r->element[1]->elements >= 1)
		*entry = r->element[1]->element[0];
	return 0;
}
