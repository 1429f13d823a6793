/*
 * test_queue_job.c: the worker's decoding of Redis replies (bridge/match/queue_job.c)
 * and its ENGINE policy (config_engine_configured): replies built with hiredis's own
 * reader from RESP text, as Redis (or anyone answering on its port) sends them.
 */
#include <CUnit/Basic.h>
#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/config.h"
#include "bridge/match/match_int.h"
#include "bridge/match/queue_job.h"
#include "bridge/match/worker_players.h"
#include "tests/unit/unit.h"

/* RESP text into a reply (the caller frees it). */
static redisReply *resp(const char *text, size_t len)
{
	redisReader *rd = redisReaderCreate();
	void *r = NULL;
	CU_ASSERT_FATAL(rd != NULL);
	CU_ASSERT_FATAL(redisReaderFeed(rd, text, len) == REDIS_OK);
	CU_ASSERT_FATAL(redisReaderGetReply(rd, &r) == REDIS_OK);
	redisReaderFree(rd);
	return r;
}

/* An entry [id, [f, v, ...]] from NUL-separated "f\0v\0..." pairs. */
static redisReply *entry(const char *id, const char *const *kv, size_t n)
{
	char buf[4096];
	int o = snprintf(buf, sizeof buf, "*2\r\n$%zu\r\n%s\r\n*%zu\r\n", strlen(id), id, n);
	for (size_t i = 0; i < n; i++)
		o += snprintf(buf + o, sizeof buf - (size_t)o, "$%zu\r\n%s\r\n", strlen(kv[i]), kv[i]);
	return resp(buf, (size_t)o);
}

static const char *const good[] = { "game", "7", "white", "b", "opening", "Base;InProgress;White[2];wS1;bS1 wS1-",
	"type", "Base", "depth", "0", "movetime", "0", "clock", "0", "inc", "0", "max_plies", "12",
	"repetition", "3", "engine_a", "builtin:depth=1", "engine_b", "nokamute", "live", "1" };
#define NGOOD (sizeof good / sizeof *good)

static void test_decode_good(void)
{
	struct queue_job j, k;
	char why[QUEUE_JOB_WHY_MAX];
	redisReply *e = entry("0-7", good, NGOOD);

	CU_ASSERT_EQUAL(queue_job_decode(e, &j, why, sizeof why), 0);
	CU_ASSERT_STRING_EQUAL(j.id, "0-7");
	CU_ASSERT_EQUAL(j.game, 7);
	CU_ASSERT_EQUAL(j.white, PLAYER_B);
	CU_ASSERT_STRING_EQUAL(j.opening, "Base;InProgress;White[2];wS1;bS1 wS1-");
	CU_ASSERT_EQUAL(j.max_plies, 12);
	CU_ASSERT_STRING_EQUAL(j.engine[1], "nokamute");
	CU_ASSERT(j.live);
	CU_ASSERT_EQUAL(queue_job_decode(e, &k, why, sizeof why), 0);
	CU_ASSERT(queue_job_same_limits(&j, &k));
	/* A tournament's jobs name other engines, with the same limits. */
	free(k.engine[1]);
	k.engine[1] = strdup("builtin");
	CU_ASSERT(queue_job_same_limits(&j, &k));
	k.depth = 3;
	CU_ASSERT(!queue_job_same_limits(&j, &k));
	queue_job_clear(&j);
	queue_job_clear(&k);
	freeReplyObject(e);
}

/* good with field f's value replaced by v (NULL: the pair left out). */
static int decode_with(const char *f, const char *v, struct queue_job *j, char *why, size_t whylen)
{
	const char *kv[NGOOD];
	size_t n = 0;
	for (size_t i = 0; i < NGOOD; i += 2) {
		if (!strcmp(good[i], f) && !v)
			continue;
		kv[n++] = good[i];
		kv[n++] = !strcmp(good[i], f) ? v : good[i + 1];
	}
	redisReply *e = entry("0-7", kv, n);
	int rc = queue_job_decode(e, j, why, whylen);
	freeReplyObject(e);
	return rc;
}

static void test_decode_refused(void)
{
	static const struct { const char *f, *v, *why; } cases[] = {
		{ "opening", "Base;InProgress;White[2];wS1;zz", "opening" },
		{ "engine_b", NULL, "no engine_b" },
		{ "engine_a", "", "no engine_a" },
		{ "engine_a", "builtin\033[2J", "control byte" },
		{ "depth", "x", "depth" },
		{ "depth", "65", "depth" },
		{ "max_plies", "-1", "max_plies" },
		/* The command line's bounds: no job removes the ply cap or ends every game. */
		{ "max_plies", "0", "max_plies" },
		{ "max_plies", "60001", "max_plies" },
		{ "repetition", "1", "repetition" },
		{ "repetition", "1001", "repetition" },
		{ "white", "c", "white" },
		{ "type", "Chess", "type" },
		{ "game", "0", "game" },
		{ "game", "1000001", "game" },
		{ "game", NULL, "no game number" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct queue_job j;
		char why[QUEUE_JOB_WHY_MAX];
		CU_ASSERT_EQUAL(decode_with(cases[i].f, cases[i].v, &j, why, sizeof why), -1);
		CU_ASSERT_PTR_NOT_NULL(strstr(why, cases[i].why));
		for (const char *c = why; *c; c++)
			CU_ASSERT((unsigned char)*c >= 0x20 && (unsigned char)*c < 0x7f);
		/* Named by its ID always, by its game when it had one. */
		CU_ASSERT_STRING_EQUAL(j.id, "0-7");
		CU_ASSERT_EQUAL(j.game, strcmp(cases[i].f, "game") ? 7u : 0u);
		queue_job_clear(&j);
	}
}

static void test_shapes(void)
{
	/* Ill-typed: a value that is an integer, a nil ID, a fields list of odd length. */
	static const char *const texts[] = {
		"*2\r\n$3\r\n0-1\r\n*2\r\n$4\r\ngame\r\n:7\r\n",
		"*2\r\n$-1\r\n*0\r\n",
		"*2\r\n$3\r\n0-1\r\n*1\r\n$4\r\ngame\r\n",
		"*2\r\n$3\r\nab1\r\n*0\r\n",
		":5\r\n",
		"*-1\r\n",
	};
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
		struct queue_job j;
		char why[QUEUE_JOB_WHY_MAX], cursor[QUEUE_JOB_ID_MAX];
		const redisReply *e;
		redisReply *r = resp(texts[i], strlen(texts[i]));
		CU_ASSERT_EQUAL(queue_job_decode(r, &j, why, sizeof why), -1);
		queue_job_clear(&j);
		CU_ASSERT_PTR_NULL(queue_read_entry(r));
		/* [ID, [...]] is XAUTOCLAIM's shape too: the others are not. */
		if (i != 0 && i != 2)
			CU_ASSERT_EQUAL(queue_claim_decode(r, cursor, &e), -1);
		freeReplyObject(r);
	}
	/* XAUTOCLAIM: the cursor comes back with the entry (a deleted one is nil). */
	const char *claim = "*3\r\n$4\r\n0-11\r\n*1\r\n*-1\r\n*0\r\n";
	redisReply *r = resp(claim, strlen(claim));
	char cursor[QUEUE_JOB_ID_MAX];
	const redisReply *e = NULL;
	CU_ASSERT_EQUAL(queue_claim_decode(r, cursor, &e), 0);
	CU_ASSERT_STRING_EQUAL(cursor, "0-11");
	CU_ASSERT(e && e->type == REDIS_REPLY_NIL);
	freeReplyObject(r);
	const char *bad = "*2\r\n$4\r\nzz-1\r\n*0\r\n";
	r = resp(bad, strlen(bad));
	CU_ASSERT_EQUAL(queue_claim_decode(r, cursor, &e), -1);
	freeReplyObject(r);
}

static void test_policy(void)
{
	struct config c;
	char cause[512] = "";

	config_defaults(&c);
	size_t n = c.nprofiles;
	CU_ASSERT_EQUAL(config_engine_configured(&c, "builtin", cause, sizeof cause), 0);
	CU_ASSERT_EQUAL(config_engine_configured(&c, "builtin:depth=3", cause, sizeof cause), 0);
	static const char *const refused[] = { "uhp:/bin/sh -c 'id'", "hub:/x/e", "otep:/x.ini", "trylobot:h:1",
		"/usr/bin/nokamute", "nokamute uhp", "builtin:depth=0", "builtin:fast", "" };
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
		CU_ASSERT_EQUAL(config_engine_configured(&c, refused[i], cause, sizeof cause), -1);
		CU_ASSERT(cause[0] != 0);
		cause[0] = 0;
	}
	/* A plain NAME this worker lacks: another worker may have it. */
	CU_ASSERT_EQUAL(config_engine_configured(&c, "nokamute", cause, sizeof cause), 1);
	CU_ASSERT(cause[0] != 0);
	CU_ASSERT_EQUAL(c.nprofiles, n);
	/* An ad-hoc profile (made from a command) is no profile NAME a job may give. */
	int depth = 0;
	cause[0] = 0;
	const struct engine_profile *adhoc = config_engine_parse(&c, "uhp:/bin/true x", &depth, cause, sizeof cause);
	CU_ASSERT_PTR_NOT_NULL_FATAL(adhoc);
	cause[0] = 0;
	CU_ASSERT_EQUAL(config_engine_configured(&c, adhoc->name, cause, sizeof cause), -1);
	config_free(&c);
}

/* A worker's players (worker_players.c): one per ENGINE its jobs name, under the
 * ENGINE policy, made without adding to the configuration's profiles, and room
 * made again from those no slot uses. */
static void test_players(void)
{
	struct match m;
	struct worker_players wp;
	char why[256], spec[32];

	memset(&m, 0, sizeof m);
	memset(&wp, 0, sizeof wp);
	config_defaults(&m.conf);
	const struct engine_profile *profiles = m.conf.profiles;
	size_t nprofiles = m.conf.nprofiles;
	int a = worker_player(&m, &wp, "builtin:depth=3", 0, -1, why, sizeof why);
	CU_ASSERT_EQUAL(a, 0);
	CU_ASSERT_EQUAL(m.pl[0].depth, 3);
	CU_ASSERT_PTR_EQUAL(m.pl[0].profile, config_profile(&m.conf, "builtin"));
	CU_ASSERT_STRING_EQUAL(m.pl[0].label, "builtin:depth=3");
	CU_ASSERT_EQUAL(worker_player(&m, &wp, "builtin", 0, a, why, sizeof why), 1);
	CU_ASSERT_EQUAL(worker_player(&m, &wp, "builtin:depth=3", 0, -1, why, sizeof why), 0);
	/* Commands are refused, a plain NAME is a profile this machine lacks. */
	CU_ASSERT_EQUAL(worker_player(&m, &wp, "uhp:/bin/true", 0, -1, why, sizeof why), WORKER_PLAYER_REFUSED);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "--allow-engine-commands"));
	CU_ASSERT_EQUAL(worker_player(&m, &wp, "nokamute", 0, -1, why, sizeof why), WORKER_PLAYER_LACKS);
	CU_ASSERT_EQUAL(worker_player(&m, &wp, "builtin:junk", 1, -1, why, sizeof why), WORKER_PLAYER_REFUSED);
	/* Allowed, a command is made in a configuration of its own. */
	int c = worker_player(&m, &wp, "uhp:/bin/true", 1, -1, why, sizeof why);
	CU_ASSERT_EQUAL(c, 2);
	CU_ASSERT_PTR_NOT_NULL(wp.own[2]);
	CU_ASSERT_PTR_EQUAL(m.conf.profiles, profiles);
	CU_ASSERT_EQUAL(m.conf.nprofiles, nprofiles);
	/* More ENGINEs than the table holds: with no slot, room is made again, and never
	 * from the job's other player. */
	for (int d = 1; d <= 40; d++) {
		snprintf(spec, sizeof spec, "builtin:depth=%d", d);
		int p = worker_player(&m, &wp, spec, 0, a, why, sizeof why);
		CU_ASSERT(p >= 0 && p < MATCH_MAX_PLAYERS && (p != a || d == 3));
		CU_ASSERT_EQUAL(m.pl[p].depth, d);
	}
	CU_ASSERT_STRING_EQUAL(m.pl[a].label, "builtin:depth=3");
	CU_ASSERT(m.npl <= MATCH_MAX_PLAYERS);
	worker_players_free(&m, &wp);
	config_free(&m.conf);
}

/* worker --max-move-ms: a job's own movetime or an engine's over the cap is said;
 * a depth (no time of its own) is not: match.c caps its seat instead. */
static void test_over_cap(void)
{
	struct queue_job j;
	char why[QUEUE_JOB_WHY_MAX];

	/* The engine's margin (a second at most) fits under the cap too. */
	CU_ASSERT_EQUAL(decode_with("movetime", "59000", &j, why, sizeof why), 0);
	CU_ASSERT(!queue_job_over_cap(&j, 60000, why, sizeof why));
	CU_ASSERT(queue_job_over_cap(&j, 59999, why, sizeof why));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "movetime 59000 ms is over 58999 ms, this worker's --max-move-ms 59999"));
	queue_job_clear(&j);
	CU_ASSERT_EQUAL(decode_with("movetime", "900", &j, why, sizeof why), 0);
	CU_ASSERT(!queue_job_over_cap(&j, 1000, why, sizeof why));
	CU_ASSERT(queue_job_over_cap(&j, 998, why, sizeof why));
	queue_job_clear(&j);
	CU_ASSERT_EQUAL(decode_with("engine_b", "builtin:movetime=3600000", &j, why, sizeof why), 0);
	CU_ASSERT(queue_job_over_cap(&j, 60000, why, sizeof why));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "engine_b's movetime"));
	queue_job_clear(&j);
	CU_ASSERT_EQUAL(decode_with("engine_a", "builtin:depth=64", &j, why, sizeof why), 0);
	CU_ASSERT(!queue_job_over_cap(&j, 100, why, sizeof why));
	queue_job_clear(&j);
}

static const struct unit_test tests[] = {
	{ "a good job", test_decode_good },
	{ "jobs that cannot be played", test_decode_refused },
	{ "replies of other shapes", test_shapes },
	{ "the ENGINE policy", test_policy },
	{ "a worker's players", test_players },
	{ "a time a move over --max-move-ms", test_over_cap },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "queue_job",
	.tests = tests,
};
