/*
 * test_queue_reply.c: what match --queue reads from Redis, decoded without a
 * connection (bridge/match/queue_reply.c, match_result_check), on reply trees that
 * hiredis's reader builds from RESP text: the right shapes, and every wrong one
 * the coordinator once trusted (a stream named by an integer or a nil, entries
 * of integers, forged results). Also the ad-hoc ENGINE profiles' names (config.c).
 */
#include <CUnit/Basic.h>
#include <cJSON.h>
#include <hiredis/read.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bridge/config.h"
#include "bridge/match/match_int.h"
#include "bridge/match/queue.h"
#include "tests/unit/unit.h"

/* One reply from RESP text; the caller frees it (freeReplyObject). */
static redisReply *resp(const char *text)
{
	redisReader *rd = redisReaderCreate();
	void *r = NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(rd);
	redisReaderFeed(rd, text, strlen(text));
	CU_ASSERT_EQUAL(redisReaderGetReply(rd, &r), REDIS_OK);
	redisReaderFree(rd);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	return r;
}

#define RES "$15\r\nhivebridge:m:r\r\n"

static void test_xread(void)
{
	/* The segfault of issue 27: stream names an integer and a nil, then ours. */
	redisReply *r = resp("*3\r\n*2\r\n:5\r\n*0\r\n*2\r\n$-1\r\n*0\r\n"
			     "*2\r\n$14\r\nhivebridge:m:r\r\n*3\r\n"
			     "*2\r\n$3\r\n1-1\r\n*2\r\n$4\r\ngame\r\n$1\r\n7\r\n"
			     "*2\r\n:9\r\n*0\r\n"
			     "*2\r\n$5\r\n1-x-1\r\n*0\r\n");
	CU_ASSERT(queue_xread_answer(r));
	CU_ASSERT_PTR_NULL(queue_xread_stream(r, "hivebridge:m:e"));
	const redisReply *es = queue_xread_stream(r, "hivebridge:m:r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(es);
	CU_ASSERT_EQUAL(es->elements, 3);
	CU_ASSERT_STRING_EQUAL(queue_entry_id(es->element[0]), "1-1");
	CU_ASSERT_STRING_EQUAL(queue_field(es->element[0], "game"), "7");
	CU_ASSERT_PTR_NULL(queue_entry_id(es->element[1]));     /* an integer ID */
	CU_ASSERT_PTR_NULL(queue_entry_id(es->element[2]));     /* not an ID to send back */
	freeReplyObject(r);
	r = resp("*-1\r\n");                                      /* nothing new */
	CU_ASSERT(queue_xread_answer(r));
	CU_ASSERT_PTR_NULL(queue_xread_stream(r, "hivebridge:m:r"));
	freeReplyObject(r);
	r = resp(":42\r\n");
	CU_ASSERT(!queue_xread_answer(r));
	CU_ASSERT_PTR_NULL(queue_xread_stream(r, "hivebridge:m:r"));
	freeReplyObject(r);
	/* A field whose value is an array, a name that is an integer. */
	r = resp("*2\r\n$3\r\n1-1\r\n*4\r\n$4\r\ngame\r\n*1\r\n:1\r\n:4\r\n$4\r\nline\r\n");
	CU_ASSERT_PTR_NOT_NULL(queue_entry_id(r));
	CU_ASSERT_PTR_NULL(queue_field(r, "game"));
	CU_ASSERT_PTR_NULL(queue_field(r, "line"));
	freeReplyObject(r);
	CU_ASSERT(queue_id_valid("0-0"));
	CU_ASSERT(queue_id_valid("18446744073709551615-18446744073709551615"));
	CU_ASSERT(!queue_id_valid("1-"));
	CU_ASSERT(!queue_id_valid("-1"));
	CU_ASSERT(!queue_id_valid("1-1 "));
	CU_ASSERT(!queue_id_valid("123456789012345678901-1"));
}

static void test_others(void)
{
	const char *f[2];
	long long v;
	struct queue_pending per[2];
	size_t n;
	struct queue_dead d;

	redisReply *r = resp("*2\r\n$3\r\nsig\r\n$-1\r\n");
	CU_ASSERT_EQUAL(queue_strings(r, 2, f), 0);
	CU_ASSERT_STRING_EQUAL(f[0], "sig");
	CU_ASSERT_PTR_NULL(f[1]);
	CU_ASSERT_EQUAL(queue_strings(r, 3, f), -1);
	CU_ASSERT_EQUAL(queue_integer(r, &v), -1);
	freeReplyObject(r);
	r = resp("*2\r\n:1\r\n*0\r\n");
	CU_ASSERT_EQUAL(queue_strings(r, 2, f), -1);
	freeReplyObject(r);
	r = resp("$1\r\n1\r\n");
	CU_ASSERT_EQUAL(queue_integer(r, &v), -1);
	CU_ASSERT_EQUAL(queue_pending_decode(r, per, 2, &n), -1);
	freeReplyObject(r);
	r = resp("*4\r\n:3\r\n$3\r\n1-1\r\n$3\r\n1-3\r\n*3\r\n*2\r\n$2\r\nw1\r\n$1\r\n2\r\n"
		 "*2\r\n:5\r\n$1\r\n1\r\n*2\r\n$2\r\nw2\r\n$2\r\n-1\r\n");
	CU_ASSERT_EQUAL(queue_pending_decode(r, per, 2, &n), 0);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_STRING_EQUAL(per[0].name, "w1");
	CU_ASSERT_EQUAL(per[0].count, 2);
	freeReplyObject(r);
	r = resp("*4\r\n:0\r\n$-1\r\n$-1\r\n*-1\r\n");           /* nothing pending */
	CU_ASSERT_EQUAL(queue_pending_decode(r, per, 2, &n), 0);
	CU_ASSERT_EQUAL(n, 0);
	freeReplyObject(r);
	r = resp("*2\r\n$3\r\n2-1\r\n*6\r\n$4\r\ngame\r\n$1\r\n3\r\n$6\r\nreason\r\n$2\r\nno\r\n$6\r\nworker\r\n:1\r\n");
	CU_ASSERT_EQUAL(queue_dead_decode(r, 4, &d), 0);
	CU_ASSERT_EQUAL(d.game, 3);
	CU_ASSERT_STRING_EQUAL(d.reason, "no");
	CU_ASSERT_PTR_NULL(d.worker);
	CU_ASSERT_EQUAL(queue_dead_decode(r, 2, &d), 0);        /* past --games: no game */
	CU_ASSERT_EQUAL(d.game, 0);
	freeReplyObject(r);
}

static void test_escape(void)
{
	char b[32];
	CU_ASSERT_STRING_EQUAL(queue_escape(b, sizeof b, "a\033[2J\\b\x07\xff"), "a\\x1b[2J\\\\b\\x07\\xff");
	CU_ASSERT_STRING_EQUAL(queue_escape(b, sizeof b, NULL), "?");
	queue_escape(b, 12, "\033\033\033\033\033");
	CU_ASSERT_STRING_EQUAL(b, "\\x1b\\x1b...");
	CU_ASSERT(strlen(queue_escape(b, sizeof b, "0123456789012345678901234567890123456789")) < sizeof b);
}

static const char *labels[2] = { "A", "B" };
static char op0[] = "Base;InProgress;Black[1];wA1";
static char *ops[] = { op0 };

static int check(const char *line, size_t nopenings, unsigned *game, double *score, char *why)
{
	struct match_result_rules rr = { .games = 4, .label = { labels[0], labels[1] }, .openings = ops,
					 .nopenings = nopenings, .type = 0, .worker = "w" };
	cJSON *o = match_result_check(line, &rr, game, score, why, 128);
	if (!o)
		return -1;
	char *text = cJSON_PrintUnformatted(o);
	CU_ASSERT_PTR_NULL(strstr(text, "evil"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"worker\":\"w\""));
	cJSON_free(text);
	cJSON_Delete(o);
	return 0;
}

#define OK1 "\"white\":\"A\",\"black\":\"B\",\"engine_a\":\"white\",\"gamestring\":\"Base;NotStarted;White[1]\""

static void test_results(void)
{
	unsigned g;
	double sc;
	char why[128];

	CU_ASSERT_EQUAL(check("{\"game\":1," OK1 ",\"result\":\"1/2-1/2\",\"reason\":\"r\",\"plies\":0,"
			      "\"a_score\":0.5,\"times_ms\":[],\"evil\":1}", 0, &g, &sc, why), 0);
	CU_ASSERT_EQUAL(g, 1);
	CU_ASSERT_EQUAL(sc, 0.5);
	/* Each forgery of issue 27, and more. */
	const char *bad[] = {
		"{\"game\":9," OK1 ",\"result\":\"1/2-1/2\",\"reason\":\"r\",\"plies\":0,\"a_score\":0.5,\"times_ms\":[]}",
		"{\"game\":3.9," OK1 ",\"result\":\"1/2-1/2\",\"reason\":\"r\",\"plies\":0,\"a_score\":0.5,\"times_ms\":[]}",
		"{\"game\":3," OK1 ",\"result\":\"0-1\",\"reason\":\"r\",\"plies\":0,\"a_score\":1,\"times_ms\":[]}",
		"{\"game\":3," OK1 ",\"result\":\"1/2-1/2\",\"reason\":\"r\",\"plies\":-1,\"a_score\":0.5,\"times_ms\":[]}",
		"{\"game\":1," OK1 ",\"result\":\"1/2-1/2\",\"reason\":\"r\",\"plies\":0,\"a_score\":0.5,\"times_ms\":[]} {}",
		"{\"game\":2," OK1 ",\"result\":\"1/2-1/2\",\"reason\":\"r\",\"plies\":0,\"a_score\":0.5,\"times_ms\":[]}",
		"{\"game\":1,\"white\":\"X\",\"black\":\"B\",\"engine_a\":\"white\",\"gamestring\":\"Base;NotStarted;White[1]\","
		"\"result\":\"1/2-1/2\",\"reason\":\"r\",\"plies\":0,\"a_score\":0.5,\"times_ms\":[]}",
		"{\"game\":1," OK1 ",\"result\":\"1/2-1/2\",\"reason\":\"r\",\"plies\":3,\"a_score\":0.5,\"times_ms\":[]}",
		"{\"game\":1," OK1 ",\"result\":\"1/2-1/2\",\"reason\":\"r\",\"plies\":0,\"a_score\":0.5,\"times_ms\":[1.5]}",
		"{\"game\":1," OK1 ",\"result\":\"1/2-1/2\",\"reason\":\"\",\"plies\":0,\"a_score\":0.5,\"times_ms\":[]}",
		/* An illegal move (a Queen on black's first turn); evals that are no pairs. */
		"{\"game\":1,\"white\":\"A\",\"black\":\"B\",\"engine_a\":\"white\",\"gamestring\":"
		"\"Base;InProgress;White[2];wS1;bQ wS1-\",\"result\":\"1/2-1/2\",\"reason\":\"r\",\"plies\":2,"
		"\"a_score\":0.5,\"times_ms\":[1,2]}",
		"{\"game\":1," OK1 ",\"result\":\"1/2-1/2\",\"reason\":\"r\",\"plies\":0,\"a_score\":0.5,"
		"\"times_ms\":[1],\"evals\":[[1,2],[3,4]]}",
		"{\"game\":1," OK1 ",\"result\":\"1/2-1/2\",\"reason\":\"r\",\"plies\":0,\"a_score\":0.5,"
		"\"times_ms\":[1],\"evals\":[[1]]}",
		"{\"game\":1," OK1 ",\"result\":\"1/2-1/2\",\"reason\":\"r\",\"plies\":0,\"a_score\":0.5,"
		"\"times_ms\":[1],\"evals\":[[1,-1]]}",
		"{\"game\":1," OK1 ",\"result\":\"1/2-1/2\",\"reason\":\"r\",\"plies\":0,\"a_score\":0.5,"
		"\"times_ms\":[1],\"evals\":[[1e12,2]]}",
		"{\"game\":1," OK1 ",\"result\":\"1/2-1/2\",\"reason\":\"r\",\"plies\":0,\"a_score\":0.5,"
		"\"times_ms\":[1],\"evals\":{}}",
		"[1]", "", "{\"game\":1",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		CU_ASSERT_EQUAL(check(bad[i], 0, &g, &sc, why), -1);
	/* With an opening: the gamestring must start with it. */
	CU_ASSERT_EQUAL(check("{\"game\":1," OK1 ",\"result\":\"1/2-1/2\",\"reason\":\"r\",\"plies\":0,"
			      "\"a_score\":0.5,\"times_ms\":[]}", 1, &g, &sc, why), -1);
	CU_ASSERT_EQUAL(check("{\"game\":1,\"white\":\"A\",\"black\":\"B\",\"engine_a\":\"white\","
			      "\"gamestring\":\"Base;InProgress;Black[1];wA1\",\"result\":\"1-0\",\"reason\":\"r\","
			      "\"plies\":1,\"a_score\":1,\"times_ms\":[]}", 1, &g, &sc, why), 0);
	CU_ASSERT_EQUAL(sc, 1);
	/* Evals, one [score, depth] per time at most, kept as sent. */
	struct match_result_rules rr = { .games = 4, .label = { labels[0], labels[1] }, .type = 0 };
	cJSON *o = match_result_check("{\"game\":1,\"white\":\"A\",\"black\":\"B\",\"engine_a\":\"white\","
				      "\"gamestring\":\"Base;InProgress;Black[1];wA1\",\"result\":\"1-0\",\"reason\":\"r\","
				      "\"plies\":1,\"a_score\":1,\"times_ms\":[5,6],\"evals\":[[-35,2]]}", &rr, &g, &sc,
				      why, sizeof why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	char *text = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(o, "evals"));
	CU_ASSERT_STRING_EQUAL(text, "[[-35,2]]");
	cJSON_free(text);
	cJSON_Delete(o);
	/* A line too long is refused before it is parsed. */
	size_t n = MATCH_RESULT_MAX + 2;
	char *big = malloc(n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(big);
	memset(big, ' ', n - 1);
	big[0] = '{';
	big[n - 2] = '}';
	big[n - 1] = 0;
	CU_ASSERT_PTR_NULL(match_result_check(big, &rr, &g, &sc, why, sizeof why));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "longer than"));
	free(big);
}

/* A tournament's result: game g's pairing ((g - 1) / 2 mod 3), its colours, its
 * round's opening ((g - 1) / 2 / 3 mod 2), as tournament --queue numbers its jobs. */
static int check_rr(unsigned game, const char *white, const char *black, const char *ea, const char *gs,
		    const char *res, double a_score, double *sc)
{
	static const char *const names[] = { "A", "B", "C" };
	static const unsigned char pairs[][2] = { { 0, 1 }, { 0, 2 }, { 1, 2 } };
	static char o0[] = "Base;InProgress;Black[1];wA1", o1[] = "Base;InProgress;Black[1];wS1";
	static char *ops2[] = { o0, o1 };
	struct match_result_rules rr = { .games = 12, .labels = names, .pairs = pairs, .npairs = 3,
					 .openings = ops2, .nopenings = 2, .type = 0 };
	char line[512], why[128];
	unsigned g;

	snprintf(line, sizeof line, "{\"game\":%u,\"white\":\"%s\",\"black\":\"%s\",\"engine_a\":\"%s\","
		 "\"gamestring\":\"%s\",\"result\":\"%s\",\"reason\":\"r\",\"plies\":1,\"a_score\":%g,"
		 "\"times_ms\":[]}", game, white, black, ea, gs, res, a_score);
	cJSON *o = match_result_check(line, &rr, &g, sc, why, sizeof why);
	if (!o)
		return strstr(why, "engines") ? -1 : -2;
	CU_ASSERT_EQUAL(g, game);
	cJSON_Delete(o);
	return 0;
}

static void test_tournament_results(void)
{
	const char *wa = "Base;InProgress;Black[1];wA1", *ws = "Base;InProgress;Black[1];wS1";
	double sc;

	/* Game 3: A (white) against C, the first opening. */
	CU_ASSERT_EQUAL(check_rr(3, "A", "C", "white", wa, "1-0", 1, &sc), 0);
	CU_ASSERT_EQUAL(sc, 1);
	CU_ASSERT_EQUAL(check_rr(3, "A", "B", "white", wa, "1-0", 1, &sc), -1);   /* another pairing's */
	CU_ASSERT_EQUAL(check_rr(3, "B", "C", "white", wa, "1-0", 1, &sc), -1);
	/* Game 4: its twin, colours swapped; A's score from the job's engine_a. */
	CU_ASSERT_EQUAL(check_rr(4, "A", "C", "white", wa, "1-0", 1, &sc), -1);
	CU_ASSERT_EQUAL(check_rr(4, "C", "A", "black", wa, "1-0", 0, &sc), 0);
	CU_ASSERT_EQUAL(sc, 0);
	CU_ASSERT_EQUAL(check_rr(4, "C", "A", "white", wa, "1-0", 1, &sc), -2);   /* engine_a is black */
	/* Game 6: B against C; game 7: A against B again, the second round's opening. */
	CU_ASSERT_EQUAL(check_rr(6, "C", "B", "black", wa, "1/2-1/2", 0.5, &sc), 0);
	CU_ASSERT_EQUAL(check_rr(7, "A", "B", "white", wa, "1-0", 1, &sc), -2);
	CU_ASSERT_EQUAL(check_rr(7, "A", "B", "white", ws, "1-0", 1, &sc), 0);
	CU_ASSERT_EQUAL(check_rr(13, "A", "B", "white", wa, "1-0", 1, &sc), -2);  /* no such game */
}

/* An ENGINE command's profile beside a config profile named as it once was. */
static void test_adhoc_names(void)
{
	struct config c;
	char cause[512] = "";
	int depth;
	char path[] = "/tmp/test_queue_reply.XXXXXX";
	int fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("[engine command2]\nkind = builtin\n", f);
	fclose(f);
	config_defaults(&c);
	CU_ASSERT_EQUAL_FATAL(config_load(&c, path, cause, sizeof cause), 0);
	const struct engine_profile *p = config_engine_parse(&c, "uhp:/x/e", &depth, cause, sizeof cause);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	char *name = strdup(p->name);
	CU_ASSERT(strcmp(name, "command2") != 0);
	CU_ASSERT_PTR_NOT_NULL(strchr(name, ' '));
	p = config_profile(&c, name);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->kind, "uhp");
	CU_ASSERT_STRING_EQUAL(config_profile(&c, "command2")->kind, "builtin");
	/* Its name as an ENGINE is a command, not that profile. */
	p = config_engine_parse(&c, name, &depth, cause, sizeof cause);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT(strcmp(p->name, name) != 0);
	free(name);
	config_free(&c);
	unlink(path);
}

/* A reply whose headers claim more elements than QUEUE_MAX_ELEMENTS is a reader
 * error before any table is allocated; a reply within it reads as before. */
static void test_bounded_reader(void)
{
	static const char *const huge[] = {
		"*666666662\r\n",                                  /* one header */
		"*1048576\r\n*2\r\n",                             /* together past the bound */
	};
	struct queue_bound b = { 0 };
	void *reply = NULL;
	for (size_t i = 0; i < sizeof huge / sizeof *huge; i++) {
		redisReader *rd = redisReaderCreate();
		CU_ASSERT_FATAL(rd != NULL);
		queue_bound_reader(rd, &b);
		CU_ASSERT_EQUAL(redisReaderFeed(rd, huge[i], strlen(huge[i])), REDIS_OK);
		CU_ASSERT_EQUAL(redisReaderGetReply(rd, &reply), REDIS_ERR);
		CU_ASSERT_PTR_NULL(reply);
		CU_ASSERT_PTR_NOT_NULL(strstr(b.why, "elements"));
		redisReaderFree(rd);
	}
	redisReader *rd = redisReaderCreate();
	CU_ASSERT_FATAL(rd != NULL);
	queue_bound_reader(rd, &b);
	const char *ok = "*2\r\n$1\r\na\r\n*1\r\n:5\r\n";
	CU_ASSERT_EQUAL(redisReaderFeed(rd, ok, strlen(ok)), REDIS_OK);
	CU_ASSERT_EQUAL(redisReaderGetReply(rd, &reply), REDIS_OK);
	const redisReply *r = reply;
	CU_ASSERT_FATAL(r != NULL && r->type == REDIS_REPLY_ARRAY && r->elements == 2);
	CU_ASSERT_EQUAL(r->element[1]->element[0]->integer, 5);
	freeReplyObject(reply);
	redisReaderFree(rd);
}

/* A worker's bounds: one string over its cap, or strings of one reply together
 * over theirs, are a reader error that says which; each element is charged
 * QUEUE_ELEMENT_COST bytes too (many empty strings are no free reply); replies
 * within them read, the count starting again with each reply. */
static void test_bounded_bytes(void)
{
	struct queue_bound b = { .string_max = 8, .reply_max = 3 * QUEUE_ELEMENT_COST + 12 };
	static const struct { const char *resp, *why; } cases[] = {
		{ "$9\r\n123456789\r\n", "string of more than 8 bytes" },
		{ "*3\r\n$1\r\na\r\n$9\r\n123456789\r\n$1\r\nb\r\n", "string of more than 8 bytes" },
		{ "*3\r\n$8\r\n12345678\r\n$8\r\n12345678\r\n$8\r\n12345678\r\n", "reply of more than" },
		{ "*1\r\n*2\r\n$7\r\n1234567\r\n$6\r\n123456\r\n", "reply of more than" },
		/* Four empty strings: 0 bytes, but four elements. */
		{ "*4\r\n$0\r\n\r\n$0\r\n\r\n$0\r\n\r\n$0\r\n\r\n", "reply of more than" },
		{ "*2\r\n*2\r\n:1\r\n:2\r\n*0\r\n", "reply of more than" },
	};
	void *reply = NULL;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		redisReader *rd = redisReaderCreate();
		CU_ASSERT_FATAL(rd != NULL);
		b.why[0] = 0;
		queue_bound_reader(rd, &b);
		CU_ASSERT_EQUAL(redisReaderFeed(rd, cases[i].resp, strlen(cases[i].resp)), REDIS_OK);
		CU_ASSERT_EQUAL(redisReaderGetReply(rd, &reply), REDIS_ERR);
		CU_ASSERT_PTR_NOT_NULL(strstr(b.why, cases[i].why));
		redisReaderFree(rd);
	}
	redisReader *rd = redisReaderCreate();
	CU_ASSERT_FATAL(rd != NULL);
	b.why[0] = 0;
	queue_bound_reader(rd, &b);
	const char *ok = "*2\r\n$8\r\n12345678\r\n$4\r\n1234\r\n$8\r\n12345678\r\n";
	CU_ASSERT_EQUAL(redisReaderFeed(rd, ok, strlen(ok)), REDIS_OK);
	for (int k = 0; k < 2; k++) {
		CU_ASSERT_EQUAL(redisReaderGetReply(rd, &reply), REDIS_OK);
		CU_ASSERT_PTR_NOT_NULL(reply);
		freeReplyObject(reply);
	}
	CU_ASSERT_STRING_EQUAL(b.why, "");
	redisReaderFree(rd);
}

static const struct unit_test tests[] = {
	{ "xread", test_xread },
	{ "hmget, integers, xpending, dead", test_others },
	{ "escape", test_escape },
	{ "results", test_results },
	{ "a tournament's results", test_tournament_results },
	{ "ad-hoc profile names", test_adhoc_names },
	{ "bounded reader", test_bounded_reader },
	{ "bounded bytes", test_bounded_bytes },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "queue_reply",
	.tests = tests,
};
