/*
 * fuzz_redis_reply.c: libFuzzer target for what match --queue's coordinator reads
 * from Redis. The input is RESP as a server would send it: hiredis's own reader
 * (redisReaderCreate, Feed, GetReply) turns it into reply trees, any shape RESP
 * allows, and each one goes to every decoder the coordinator uses
 * (bridge/match/queue_reply.c, match_result_check): XREAD's streams and their
 * entries, fields, the dead-letter entries, XPENDING's summary, HMGET's pair,
 * integers, and each stream entry's "line" as a result (of a match, or of a
 * tournament of three engines). An accepted result must
 * be one: a game number of the match, a score of 0, 1/2 or 1, and a rebuilt line
 * that match_result_check accepts again unchanged.
 */
#include <cJSON.h>
#include <hiredis/read.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/match/match_int.h"
#include "bridge/match/queue.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define GAMES 8

static char opening0[] = "Base;InProgress;Black[1];wA1";
static char *openings[] = { opening0 };

/* A tournament's three engines and pairings (tournament --queue), for every third line. */
static const char *const names[] = { "builtin:depth=1", "builtin", "nokamute" };
static const unsigned char pairs[][2] = { { 0, 1 }, { 0, 2 }, { 1, 2 } };

static void check_result(const char *line, const char *worker)
{
	size_t n = line ? strlen(line) : 0;
	struct match_result_rules rr = {
		.games = GAMES, .label = { "builtin:depth=1", "builtin" }, .openings = openings,
		.nopenings = n % 2, .type = 0, .worker = worker,
		.labels = names, .pairs = pairs, .npairs = n % 3 == 0 ? 3 : 0,
	};
	unsigned game = 0, game2 = 0;
	double score = -1, score2 = -1;
	char why[160];
	cJSON *o = match_result_check(line, &rr, &game, &score, why, sizeof why);
	if (!o)
		return;
	if (game < 1 || game > GAMES || !(score == 0 || score == 0.5 || score == 1)) {
		fprintf(stderr, "fuzz_redis_reply: game %u, score %g accepted\n", game, score);
		abort();
	}
	/* What is written must pass the same check (without the worker it names). */
	char *text = cJSON_PrintUnformatted(o);
	cJSON_DeleteItemFromObjectCaseSensitive(o, "worker");
	char *bare = cJSON_PrintUnformatted(o);
	rr.worker = NULL;
	cJSON *again = bare ? match_result_check(bare, &rr, &game2, &score2, why, sizeof why) : NULL;
	if (bare && (!again || game2 != game || score2 != score)) {
		fprintf(stderr, "fuzz_redis_reply: the rebuilt line is refused: %s (%s)\n", bare, why);
		abort();
	}
	cJSON_Delete(again);
	cJSON_free(bare);
	cJSON_free(text);
	cJSON_Delete(o);
}

static void entries(const redisReply *es)
{
	char buf[64];
	struct queue_dead d;

	for (size_t j = 0; es && j < es->elements; j++) {
		const redisReply *e = es->element[j];
		const char *id = queue_entry_id(e);
		if (id && !queue_id_valid(id))
			abort();
		queue_escape(buf, sizeof buf, queue_field(e, "worker"));
		queue_escape(buf, sizeof buf, queue_field(e, "text"));
		queue_field(e, "gs");
		if (queue_dead_decode(e, GAMES, &d) == 0 && (d.game > GAMES || !d.entry))
			abort();
		check_result(queue_field(e, "line"), queue_field(e, "worker"));
	}
}

static void decode(const redisReply *r)
{
	const char *pair[2];
	struct queue_pending per[4];
	size_t n;
	long long v;

	if (queue_xread_answer(r)) {
		entries(queue_xread_stream(r, "hivebridge:m:results"));
		entries(queue_xread_stream(r, "hivebridge:m:events"));
		entries(queue_xread_stream(r, "hivebridge:m:dead"));
		entries(queue_xread_stream(r, "hivebridge:m:progress"));
		/* XRANGE's answer: the entries themselves. */
		if (r->type == REDIS_REPLY_ARRAY)
			entries(r);
	}
	if (queue_pending_decode(r, per, 4, &n) == 0 && n > 4)
		abort();
	queue_strings(r, 2, pair);
	queue_integer(r, &v);
	queue_is_error(r, "BUSYGROUP");
	queue_entry_id(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	redisReader *rd = redisReaderCreate();
	struct queue_bound b = { 0 };
	void *reply;
	int left = 64;

	if (!rd)
		return 0;
	queue_bound_reader(rd, &b);     /* as the coordinator's reader is */
	if (redisReaderFeed(rd, (const char *)data, size) == REDIS_OK)
		while (left-- > 0 && redisReaderGetReply(rd, &reply) == REDIS_OK && reply) {
			decode(reply);
			freeReplyObject(reply);
		}
	redisReaderFree(rd);
	return 0;
}
