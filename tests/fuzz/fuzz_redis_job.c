/*
 * fuzz_redis_job.c: libFuzzer target for what a worker reads from Redis
 * (bridge/match/queue_job.c). The input goes to hiredis's own reader, so the
 * decoders get reply trees of every shape RESP can make (RESP3 types included):
 * each reply as an XREADGROUP answer, an XAUTOCLAIM answer and a job entry, and
 * each element of an array as an entry. The input is also cut at 0xFF bytes into
 * the values of a well-formed job entry (game, white, opening, engine_a, ...),
 * written as RESP and read back, so that the checks of each field are reached
 * without a seed. What a decoded job promises is checked: a game in range,
 * engines without control bytes, a printable reason that fits, an ENGINE policy
 * that adds no profile.
 */
#include <hiredis/hiredis.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/config.h"
#include "bridge/match/match_int.h"
#include "bridge/match/queue.h"
#include "bridge/match/queue_job.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct config conf;
static int conf_ready;

static void check_text(const char *s, size_t max)
{
	size_t n = strlen(s);
	if (n >= max)
		abort();
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			abort();
}

static void decode(const redisReply *e)
{
	struct queue_job j;
	char why[QUEUE_JOB_WHY_MAX];
	uint64_t ms, seq;

	if (queue_job_decode(e, &j, why, sizeof why) == 0) {
		if (j.game < 1 || j.game > MATCH_MAX_GAMES || !j.engine[0] || !j.engine[1] ||
		    queue_id_parse(j.id, &ms, &seq) < 0 || !queue_job_same_limits(&j, &j) ||
		    j.max_plies > MATCH_PLY_CAP || j.depth > MATCH_MAX_DEPTH)
			abort();
		for (int p = 0; p < 2; p++) {
			for (const char *c = j.engine[p]; *c; c++)
				if ((unsigned char)*c < 0x20 || *c == 0x7f)
					abort();
			char cause[512] = "";
			size_t before = conf.nprofiles;
			int rc = config_engine_configured(&conf, j.engine[p], cause, sizeof cause);
			if (conf.nprofiles != before || (rc != 0) != (cause[0] != 0))
				abort();
		}
	} else {
		check_text(why, sizeof why);
		if (j.id[0] && queue_id_parse(j.id, &ms, &seq) < 0)
			abort();
	}
	queue_job_clear(&j);
}

static void feed(const redisReply *r, int depth)
{
	const redisReply *e;
	char cursor[QUEUE_JOB_ID_MAX];
	uint64_t ms, seq;

	if ((e = queue_read_entry(r)) != NULL)
		decode(e);
	if (queue_claim_decode(r, cursor, &e) == 0) {
		if (queue_id_parse(cursor, &ms, &seq) < 0)
			abort();
		if (e)
			decode(e);
	}
	decode(r);
	if (depth < 3 && r->type == REDIS_REPLY_ARRAY)
		for (size_t i = 0; i < r->elements; i++)
			feed(r->element[i], depth + 1);
}

static void read_all(const char *buf, size_t len)
{
	redisReader *rd = redisReaderCreate();
	struct queue_bound b = { .string_max = QUEUE_WORKER_STRING_MAX, .reply_max = QUEUE_WORKER_REPLY_MAX };
	void *reply;

	if (!rd)
		return;
	queue_bound_reader(rd, &b);     /* as a worker's reader is */
	if (redisReaderFeed(rd, buf, len) == REDIS_OK)
		while (redisReaderGetReply(rd, &reply) == REDIS_OK && reply) {
			feed(reply, 0);
			freeReplyObject(reply);
		}
	redisReaderFree(rd);
}

/* RESP of [[key, [[id, [f1, v1, ...]]]]] with the values cut from the input. */
static void templated(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "game", "white", "opening", "type", "depth", "movetime",
		"clock", "inc", "max_plies", "repetition", "engine_a", "engine_b", "live" };
	static const char *const dflt[] = { "1", "a", "", "Base", "0", "0", "0", "0", "12", "3",
		"builtin:depth=1", "builtin", "1" };
	enum { N = sizeof names / sizeof *names };
	const char *v[N + 1];
	size_t vl[N + 1], n = 0;
	const uint8_t *p = data, *end = data + size;

	/* The first piece is the ID; each later one replaces a value, in turn. */
	while (n <= N) {
		const uint8_t *cut = p < end ? memchr(p, 0xff, (size_t)(end - p)) : NULL;
		if (p >= end) {
			v[n] = n ? dflt[n - 1] : "0-1";
			vl[n] = strlen(v[n]);
		} else {
			v[n] = (const char *)p;
			vl[n] = cut ? (size_t)(cut - p) : (size_t)(end - p);
			p = cut ? cut + 1 : end;
		}
		n++;
	}
	size_t cap = 256 + size + N * 64;
	char *buf = malloc(cap);
	if (!buf)
		return;
	int o = snprintf(buf, cap, "*1\r\n*2\r\n$4\r\njobs\r\n*1\r\n*2\r\n$%zu\r\n", vl[0]);
	memcpy(buf + o, v[0], vl[0]);
	o += (int)vl[0];
	o += snprintf(buf + o, cap - (size_t)o, "\r\n*%d\r\n", 2 * N);
	for (size_t i = 0; i < N; i++) {
		o += snprintf(buf + o, cap - (size_t)o, "$%zu\r\n%s\r\n$%zu\r\n", strlen(names[i]), names[i], vl[i + 1]);
		memcpy(buf + o, v[i + 1], vl[i + 1]);
		o += (int)vl[i + 1];
		o += snprintf(buf + o, cap - (size_t)o, "\r\n");
	}
	read_all(buf, (size_t)o);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char shown[64];

	if (!conf_ready) {
		config_defaults(&conf);
		conf_ready = 1;
	}
	read_all((const char *)data, size);
	templated(data, size);
	check_text(queue_job_text(shown, sizeof shown, (const char *)data, size), sizeof shown);
	return 0;
}
