/*
 * test_perft.c: perft from the start of all 8 game types against the reference tables
 * (Mzinga's CSVs and the shared TSV), and board invariants over random games.
 * Deep values belong to `make bench`; here every row up to MAX_NODES is checked.
 */
#include <CUnit/Basic.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bridge/search_pool.h"
#include "bridge/util.h"
#include "core/board.h"
#include "core/game.h"
#include "tests/unit/unit.h"

#define MAX_NODES 6000000ULL

static const char *data_dir(void)
{
	const char *d = getenv("HIVE_DATA");
	return d && *d ? d : "../shared/data";
}

static FILE *open_data(const char *name)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", data_dir(), name);
	FILE *f = fopen(path, "r");
	if (!f)
		fprintf(stderr, "cannot open %s\n", path);
	return f;
}

/* Checks "GameType<TAB>depth<TAB>count" rows (the type may be a whole GameString
 * of a new game, as in Mzinga's CSVs). Returns the number of rows checked. */
static int check_perft_file(const char *name)
{
	FILE *f = open_data(name);
	char line[4096];
	int checked = 0;
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	while (fgets(line, sizeof line, f)) {
		char *s = line;
		if (!strncmp(s, "\xEF\xBB\xBF", 3))
			s += 3;
		if (*s == '#' || *s == '\n' || *s == '\r' || !*s)
			continue;
		char *tab1 = strchr(s, '\t');
		CU_ASSERT_PTR_NOT_NULL_FATAL(tab1);
		*tab1 = 0;
		int depth = atoi(tab1 + 1);
		char *tab2 = strchr(tab1 + 1, '\t');
		CU_ASSERT_PTR_NOT_NULL_FATAL(tab2);
		unsigned long long want = strtoull(tab2 + 1, NULL, 10);
		if (want > MAX_NODES)
			continue;
		char *semi = strchr(s, ';');
		if (semi)
			*semi = 0;    /* "Base;NotStarted;White[1]" is a new game of that type */
		unsigned type;
		CU_ASSERT_EQUAL_FATAL(hive_gametype_parse(s, &type), 0);
		struct hive_board b;
		hive_board_init(&b, type);
		unsigned long long got = (unsigned long long)hive_perft(&b, depth, NULL, NULL);
		if (got != want)
			fprintf(stderr, "%s: %s perft(%d) = %llu, want %llu\n", name, s, depth, got, want);
		CU_ASSERT_EQUAL(got, want);
		CU_ASSERT_EQUAL(hive_board_check(&b), 0);
		checked++;
	}
	fclose(f);
	return checked;
}

static void test_startpos_tsv(void)
{
	/* 8 types x depths 0..4 at least; more where the counts stay small. */
	CU_ASSERT(check_perft_file("perft_startpos.tsv") >= 40);
}

static void test_mzinga_csvs(void)
{
	static const char *files[] = {
		"Base", "BaseM", "BaseL", "BaseP", "BaseML", "BaseMP", "BaseLP", "BaseMLP"
	};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char name[128];
		snprintf(name, sizeof name, "mzinga/Board_%s_PerftTest.csv", files[i]);
		CU_ASSERT(check_perft_file(name) >= 5);
	}
}

static void test_nokamute_perft(void)
{
	CU_ASSERT(check_perft_file("nokamute/perft_tests.tsv") >= 10);
}

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Random games: after every do and undo the board is consistent, undo restores the
 * exact board, listed and counted moves agree, and moves are unique. */
static void test_random_games_invariants(void)
{
	uint64_t seed = 0x9E3779B97F4A7C15ULL;
	static struct hive_move moves[HIVE_MAX_MOVES];
	for (unsigned type = 0; type < 8; type++) {
		for (int game = 0; game < 25; game++) {
			struct hive_board b, before;
			hive_board_init(&b, type);
			for (int ply = 0; ply < 300 && !hive_game_over(&b); ply++) {
				size_t n = hive_board_moves(&b, moves);
				CU_ASSERT_FATAL(n > 0 && n <= HIVE_MAX_MOVES);
				CU_ASSERT_EQUAL(n, hive_board_count_moves(&b));
				uint32_t keys[HIVE_MAX_MOVES];
				for (size_t i = 0; i < n; i++)
					keys[i] = (uint32_t)moves[i].piece << 16 | moves[i].to;
				qsort(keys, n, sizeof keys[0], cmp_u32);
				size_t dups = 0;
				for (size_t i = 1; i < n; i++)
					dups += keys[i] == keys[i - 1];
				CU_ASSERT_EQUAL(dups, 0);
				struct hive_move m = moves[rng_next(&seed) % n];
				struct hive_undo u;
				memcpy(&before, &b, sizeof b);
				hive_board_do(&b, m, &u);
				CU_ASSERT_EQUAL_FATAL(hive_board_check(&b), 0);
				hive_board_undo(&b, &u);
				CU_ASSERT_EQUAL_FATAL(memcmp(&before, &b, sizeof b), 0);
				hive_board_do(&b, m, &u);
			}
		}
	}
}

/* A stop callback that says stop on its calls-th call. */
static int stop_at(void *arg)
{
	int *left = arg;
	return --*left <= 0;
}

/* The stop callback: a perft it never stops counts what the plain one counts, having
 * been asked between the subtrees above the bulk depth; one it stops is -1 and leaves
 * the board as it was; at or below the bulk depth it is never asked. */
static void test_perft_stop(void)
{
	struct hive_board b, before;
	hive_board_init(&b, 0);
	int64_t plain = hive_perft(&b, 5, NULL, NULL);
	CU_ASSERT_EQUAL(plain, 516240);      /* Base perft(5) */
	int calls = 1 << 30;
	CU_ASSERT_EQUAL(hive_perft(&b, 5, stop_at, &calls), plain);
	/* Asked before each move at plies 1 and 2 (subtrees of 4 and 3 plies): perft(1) + perft(2). */
	CU_ASSERT_EQUAL(calls, (1 << 30) - (4 + 96));
	memcpy(&before, &b, sizeof b);
	calls = 7;
	CU_ASSERT_EQUAL(hive_perft(&b, 5, stop_at, &calls), -1);
	CU_ASSERT_EQUAL(calls, 0);
	CU_ASSERT_EQUAL(memcmp(&before, &b, sizeof b), 0);
	calls = 1;
	CU_ASSERT_EQUAL(hive_perft(&b, HIVE_PERFT_BULK_DEPTH, stop_at, &calls),
			hive_perft(&b, HIVE_PERFT_BULK_DEPTH, NULL, NULL));
	CU_ASSERT_EQUAL(calls, 1);
	char line[128];
	hive_perft_format(line, sizeof line, 6, 12219480, 38500);
	CU_ASSERT_STRING_EQUAL(line, "perft(6) = 12219480 in 38 ms. 317389 KN/s");
}

/* A perft job's done, waited for on the test's thread. */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t  cond;
	int             done;
} perft_wait = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };

static void perft_job_done(void *arg)
{
	pthread_mutex_lock(&perft_wait.lock);
	perft_wait.done = 1;
	pthread_cond_signal(&perft_wait.cond);
	pthread_mutex_unlock(&perft_wait.lock);
}

static void perft_job_wait(void)
{
	pthread_mutex_lock(&perft_wait.lock);
	while (!perft_wait.done)
		pthread_cond_wait(&perft_wait.cond, &perft_wait.lock);
	perft_wait.done = 0;
	pthread_mutex_unlock(&perft_wait.lock);
}

/* p on the pool, until its done. */
static void perft_job_run(struct perft_job *p)
{
	CU_ASSERT_EQUAL_FATAL(search_pool_perft(p), 0);
	perft_job_wait();
	search_pool_cancel(&p->job);      /* the worker may still be leaving it */
}

/* The pool's perft (the fronts'): every depth counted and timed; refused past
 * max_nodes; stopped by its deadline and by search_pool_cancel, done called each time. */
static void test_pool_perft(void)
{
	static struct perft_job p;
	hive_board_init(&p.board, 0);
	p.done = perft_job_done;
	p.depth = 4;
	perft_job_run(&p);
	CU_ASSERT_EQUAL(p.end, PERFT_DONE);
	CU_ASSERT_EQUAL(p.reached, 5);
	CU_ASSERT_EQUAL(p.count[3], 1440);
	CU_ASSERT_EQUAL(p.count[4], 21600);

	/* perft(3) = 1440 interior nodes for depth 4: beyond 1000. */
	p.depth = 8;
	p.max_nodes = 1000;
	perft_job_run(&p);
	CU_ASSERT_EQUAL(p.end, PERFT_TOO_BIG);
	CU_ASSERT_EQUAL(p.reached, 4);

	/* perft(12) takes hours: the deadline ends it, however loaded the machine. */
	p.depth = PERFT_JOB_MAX_DEPTH;
	p.max_nodes = 0;
	p.deadline_us = now_us() + 20000;
	perft_job_run(&p);
	CU_ASSERT_EQUAL(p.end, PERFT_DEADLINE);
	CU_ASSERT(p.reached >= 1 && p.reached < PERFT_JOB_MAX_DEPTH);
	CU_ASSERT(now_us() >= p.deadline_us);

	p.deadline_us = 0;
	p.reached = -1;
	CU_ASSERT_EQUAL_FATAL(search_pool_perft(&p), 0);
	search_pool_cancel(&p.job);
	/* Cancelled while queued it never ran; while running it ran done before returning. */
	if (p.reached != -1) {
		perft_job_wait();
		CU_ASSERT_EQUAL(p.end, PERFT_STOPPED);
	}
}

static const struct unit_test tests[] = {
	{ "start positions (shared TSV)", test_startpos_tsv },
	{ "start positions (Mzinga CSVs)", test_mzinga_csvs },
	{ "nokamute perft tests", test_nokamute_perft },
	{ "random games keep the board consistent", test_random_games_invariants },
	{ "a stop callback stops perft and leaves the board", test_perft_stop },
	{ "the pool's perft: counts, max_nodes, deadline, cancel", test_pool_perft },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "perft",
	.tests = tests,
};
