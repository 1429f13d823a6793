/*
 * test_engine_builtin.c: the built-in engine's time limits. engine_builtin_budget's
 * exact results (movetime, a clock at the start, in the middle and nearly out, the
 * lateness taken off, max_ms, both sides), then gos through the engine interface on
 * a real event loop and search pool: each answers a legal move, and the limits it
 * recorded (engine_builtin_timing) are the ones engine_builtin_budget gives. Nothing
 * here asserts on how long anything took: the deadline is bracketed by clock readings
 * taken before and after the go, which holds however loaded the machine is.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>
#include <event2/thread.h>

#include "bridge/engine.h"
#include "bridge/engine_builtin.h"
#include "core/game.h"
#include "tests/unit/unit.h"

#define NS 1000000LL    /* ns a ms */

static struct engine_limits clock_limits(uint64_t w, uint64_t bl, uint64_t winc, uint64_t binc)
{
	struct engine_limits l;
	memset(&l, 0, sizeof l);
	l.time_ms[0] = w;
	l.time_ms[1] = bl;
	l.inc_ms[0] = winc;
	l.inc_ms[1] = binc;
	return l;
}

/* hard and soft of engine_builtin_budget, compared at once. */
#define CHECK_BUDGET(l, side, late, want_hard, want_soft) do {                   \
		uint64_t soft_ = 99999, hard_ = engine_builtin_budget(&(l), side, late, &soft_); \
		CU_ASSERT_EQUAL(hard_, want_hard);                                 \
		CU_ASSERT_EQUAL(soft_, want_soft);                                 \
		if (hard_ != (want_hard) || soft_ != (want_soft))                  \
			fprintf(stderr, "\n%s:%d: hard %llu soft %llu, want %llu %llu\n", \
				__FILE__, __LINE__, (unsigned long long)hard_,     \
				(unsigned long long)soft_, (unsigned long long)(want_hard), \
				(unsigned long long)(want_soft));                  \
	} while (0)

static void test_budget_movetime(void)
{
	struct engine_limits l = clock_limits(60000, 60000, 1000, 1000);
	l.movetime_ms = 1000;
	/* The client asked for it: whole, no soft limit, no lateness taken off. */
	CHECK_BUDGET(l, 0, 0, 1000, 0);
	CHECK_BUDGET(l, 1, 30, 1000, 0);
	CHECK_BUDGET(l, 0, 5000, 1000, 0);
	l.max_ms = 300;
	CHECK_BUDGET(l, 0, 0, 300, 0);
	l.max_ms = 0;
	l.movetime_ms = 1;              /* UHP's time 00:00:00 */
	CHECK_BUDGET(l, 0, 0, 1, 0);
}

static void test_budget_clock(void)
{
	/* 60000 + 1000: target 60000 / 30 + 500 = 2500. */
	struct engine_limits l = clock_limits(60000, 60000, 1000, 1000);
	CHECK_BUDGET(l, 0, 0, 5000, 1250);
	CHECK_BUDGET(l, 1, 0, 5000, 1250);
	CHECK_BUDGET(l, 0, 30, 4940, 1235);
	/* More than half the target late: half of it comes off, no more. */
	CHECK_BUDGET(l, 0, 1250, 2500, 625);
	CHECK_BUDGET(l, 0, 2000, 2500, 625);
	/* The middle: 20000 left, target 666 + 500. */
	l.time_ms[0] = 20000;
	CHECK_BUDGET(l, 0, 0, 2332, 583);
	/* No increment: 60000 / 30. */
	l = clock_limits(60000, 60000, 0, 0);
	CHECK_BUDGET(l, 0, 0, 4000, 1000);
	/* moves_to_go: 60000 / 10 + 500, a quarter of what is left at most. */
	l = clock_limits(60000, 60000, 1000, 1000);
	l.moves_to_go = 10;
	CHECK_BUDGET(l, 0, 0, 13000, 3250);
}

static void test_budget_little_left(void)
{
	struct engine_limits l = clock_limits(300, 300, 1000, 1000);
	/* The share is capped at half of what is left: 150; hard a quarter, at least the
	 * target, and 50 ms + late before the flag. */
	CHECK_BUDGET(l, 0, 0, 150, 75);
	CHECK_BUDGET(l, 0, 30, 120, 60);
	CHECK_BUDGET(l, 0, 199, 51, 25);
	CHECK_BUDGET(l, 0, 200, 50, 25);
	CHECK_BUDGET(l, 0, 5000, 50, 25);
	l.time_ms[0] = 120;
	CHECK_BUDGET(l, 0, 0, 60, 30);
	CHECK_BUDGET(l, 0, 30, 30, 15);
	/* Too little left for the reserve: a quarter of it. */
	l.time_ms[0] = 60;
	CHECK_BUDGET(l, 0, 0, 15, 7);
	l.time_ms[0] = 10;
	CHECK_BUDGET(l, 0, 0, 2, 1);
	CHECK_BUDGET(l, 0, 100, 2, 1);
	/* Fronts pass 1 ms for a clock that ran out: the quickest search, never none. */
	l.time_ms[0] = 1;
	CHECK_BUDGET(l, 0, 0, 1, 0);
	CHECK_BUDGET(l, 0, 1000, 1, 0);
	/* 0 with a clock set elsewhere (an increment, the other side's time): out of
	 * time, the quickest search. No clock at all: no limit. */
	l.time_ms[0] = 0;
	CHECK_BUDGET(l, 0, 0, 1, 0);
	l = clock_limits(0, 0, 1000, 0);
	CHECK_BUDGET(l, 0, 0, 1, 0);
	l = clock_limits(0, 5000, 0, 0);
	CHECK_BUDGET(l, 0, 0, 1, 0);
	l = clock_limits(0, 0, 0, 0);
	CHECK_BUDGET(l, 0, 0, 0, 0);
	l = clock_limits(300, 300, 0, 0);
	CHECK_BUDGET(l, 0, 0, 20, 5);
	/* Under 30 ms and no increment the clock's share rounds to 0: still a limit. */
	l = clock_limits(29, 29, 0, 0);
	CHECK_BUDGET(l, 0, 0, 2, 0);
	l.time_ms[0] = 3;
	CHECK_BUDGET(l, 0, 0, 1, 0);
}

/* Over a grid of clocks: never 0, never at the flag when it can be avoided, the
 * reserve kept when there is room for it, soft under hard, and more lateness never
 * a later limit. */
static void test_budget_properties(void)
{
	static const uint64_t incs[] = { 0, 100, 1000, 30000 };
	int bad = 0;
	for (size_t k = 0; k < sizeof incs / sizeof incs[0]; k++)
		for (uint64_t left = 1; left <= 200000; left += left < 400 ? 1 : left / 50) {
			struct engine_limits l = clock_limits(left, 5, incs[k], 0);
			uint64_t prev = UINT64_MAX;
			for (uint64_t late = 0; late <= 3000; late += late < 300 ? 1 : 100) {
				uint64_t soft, hard = engine_builtin_budget(&l, 0, late, &soft);
				int ok = hard >= 1 && (left < 2 || hard < left) && hard <= prev &&
					(left <= 100 + late || hard + 50 + late <= left) &&
					(!soft || soft < hard) && (left < 1000 || soft);
				if (!ok && bad++ < 5)
					fprintf(stderr, "\nleft %llu inc %llu late %llu: hard %llu soft %llu\n",
						(unsigned long long)left, (unsigned long long)incs[k],
						(unsigned long long)late, (unsigned long long)hard,
						(unsigned long long)soft);
				prev = hard;
			}
		}
	CU_ASSERT_EQUAL(bad, 0);
}

static void test_budget_max_ms(void)
{
	struct engine_limits l = clock_limits(60000, 60000, 1000, 1000);
	l.max_ms = 3000;
	CHECK_BUDGET(l, 0, 0, 3000, 1250);
	/* A soft limit not under the hard one is none. */
	l.max_ms = 1000;
	CHECK_BUDGET(l, 0, 0, 1000, 0);
	l.max_ms = 1250;
	CHECK_BUDGET(l, 0, 0, 1250, 0);
	l.max_ms = 1251;
	CHECK_BUDGET(l, 0, 0, 1251, 1250);
	/* Depth or nodes only, or infinite: no limit but max_ms. */
	l = clock_limits(0, 0, 0, 0);
	l.depth = 4;
	CHECK_BUDGET(l, 0, 0, 0, 0);
	l.max_ms = 500;
	CHECK_BUDGET(l, 1, 0, 500, 0);
	l = clock_limits(60000, 60000, 1000, 1000);
	l.infinite = 1;
	CHECK_BUDGET(l, 0, 0, 0, 0);
	l.max_ms = 700;
	CHECK_BUDGET(l, 0, 0, 700, 0);
}

static void test_budget_huge(void)
{
	/* Hub's level takes up to INT64_MAX ms: capped so the deadline fits in ns. */
	struct engine_limits l = clock_limits(0, 0, 0, 0);
	l.movetime_ms = 9000000000000000ULL;
	CHECK_BUDGET(l, 0, 0, ENGINE_BUILTIN_BUDGET_MAX_MS, 0);
	l = clock_limits(UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX);
	/* No overflow on the way either (the soft limit, past the cap, is none). */
	CHECK_BUDGET(l, 0, 0, ENGINE_BUILTIN_BUDGET_MAX_MS, 0);
	CHECK_BUDGET(l, 1, UINT64_MAX / 2, ENGINE_BUILTIN_BUDGET_MAX_MS, 0);
	l = clock_limits(300, 300, 1000, 1000);
	CHECK_BUDGET(l, 0, UINT64_MAX, 50, 25);
}

static void test_budget_sides(void)
{
	/* Each side's own clock: white 60000 + 1000, black 20000 + 0 (666). */
	struct engine_limits l = clock_limits(60000, 20000, 1000, 0);
	CHECK_BUDGET(l, 0, 0, 5000, 1250);
	CHECK_BUDGET(l, 1, 0, 1332, 333);
	l = clock_limits(60000, 100, 1000, 1000);
	CHECK_BUDGET(l, 0, 0, 5000, 1250);
	CHECK_BUDGET(l, 1, 0, 25, 12);
}

/* ---- gos through the engine interface ---- */

static struct event_base *base;

struct run {
	int               done;
	int               timed_out;
	enum engine_status status;
	struct hive_move  move;
};

static void on_done(void *arg, const struct engine_result *r)
{
	struct run *run = arg;
	run->done = 1;
	run->status = r->status;
	run->move = r->move;
}

static void on_timeout(evutil_socket_t fd, short what, void *arg)
{
	((struct run *)arg)->timed_out = 1;
}

/* Runs the loop until the command is done, or 60 s as a safety net (a failure). */
static void run_wait(struct run *run)
{
	struct timeval tv = { 60, 0 };
	struct event *t = evtimer_new(base, on_timeout, run);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	evtimer_add(t, &tv);
	while (!run->done && !run->timed_out)
		event_base_loop(base, EVLOOP_ONCE);
	event_free(t);
	CU_ASSERT_FALSE(run->timed_out);
}

static int64_t mono_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* One go of g under l: a legal move, and the limits recorded are engine_builtin_budget's
 * for the lateness the go used (its deadline between the clock read just before the
 * go and just after it, plus the hard limit). Returns the ms the go took (0 on a
 * failure) and the move in *m. */
static uint64_t go_check(struct engine *e, struct hive_game *g, const struct engine_limits *l,
			 struct hive_move *m)
{
	struct run run;
	struct engine_builtin_timing t;
	int side = hive_side_to_move(&g->board);

	memset(&run, 0, sizeof run);
	int64_t before = mono_ns();
	CU_ASSERT_EQUAL_FATAL(engine_go(e, g, l, NULL, on_done, &run), 0);
	int64_t after = mono_ns();
	CU_ASSERT_EQUAL(engine_builtin_timing(e, &t), -1);    /* outstanding */
	run_wait(&run);
	int64_t answered = mono_ns();
	CU_ASSERT_EQUAL(run.status, ENGINE_OK);
	CU_ASSERT_TRUE(hive_board_find_move(&g->board, run.move, m));
	CU_ASSERT_EQUAL_FATAL(engine_builtin_timing(e, &t), 0);

	uint64_t soft, hard = engine_builtin_budget(l, side, (uint64_t)(t.late_ns / NS), &soft);
	CU_ASSERT_TRUE(t.late_ns >= 0);
	CU_ASSERT_TRUE(hard > 0);
	CU_ASSERT_TRUE(t.deadline_ns - (int64_t)hard * NS >= before);
	CU_ASSERT_TRUE(t.deadline_ns - (int64_t)hard * NS <= after);
	if (soft) {
		CU_ASSERT_EQUAL(t.deadline_ns - t.soft_ns, (int64_t)(hard - soft) * NS);
	} else {
		CU_ASSERT_EQUAL(t.soft_ns, 0);
	}
	/* The worker's readings, in order, all seen by the loop. */
	CU_ASSERT_TRUE(t.started_ns >= before && t.searched_ns >= t.started_ns);
	CU_ASSERT_TRUE(answered >= t.searched_ns);
	CU_ASSERT_TRUE(!t.stopped_ns || (t.stopped_ns >= t.deadline_ns &&
					 t.stopped_ns <= t.searched_ns));
	CU_ASSERT_TRUE(t.cpu_ns > 0 && t.cpu_unwind_ns >= 0);   /* engine_builtin_timing_cpu(1) */
	return (uint64_t)((answered - before) / NS) + 1;
}

static struct engine *engine_with_threads(const char *threads)
{
	char cause[256] = "";
	struct engine *e = engine_builtin_new(base, NULL, cause, sizeof cause);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	const char *argv[] = { "set", "Threads", threads };
	struct run run;
	memset(&run, 0, sizeof run);
	CU_ASSERT_EQUAL_FATAL(engine_options(e, 3, argv, on_done, &run), 0);
	run_wait(&run);
	CU_ASSERT_EQUAL(run.status, ENGINE_OK);
	return e;
}

/* A short game on a clock, kept as match keeps it (a clock that ran out goes on at
 * 1 ms: what happens to the clock is the load's, and not asserted). */
static void clock_game(const char *threads, unsigned type, int plies)
{
	struct engine *e = engine_with_threads(threads);
	struct hive_game g;
	int64_t clk[2] = { 1500, 1500 };
	const uint64_t inc = 50;

	hive_game_init(&g, type);
	for (int ply = 0; ply < plies && !hive_game_over(&g.board); ply++) {
		int side = hive_side_to_move(&g.board);
		struct engine_limits l = clock_limits(clk[0] > 0 ? (uint64_t)clk[0] : 1,
						      clk[1] > 0 ? (uint64_t)clk[1] : 1, inc, inc);
		struct hive_move m;
		uint64_t used = go_check(e, &g, &l, &m);
		if (ply == 0) {
			/* A fresh engine has seen no lateness. */
			struct engine_builtin_timing t;
			CU_ASSERT_EQUAL(engine_builtin_timing(e, &t), 0);
			CU_ASSERT_EQUAL(t.late_ns, 0);
		}
		clk[side] += (int64_t)inc - (int64_t)used;
		if (CU_get_number_of_failures() || hive_game_play(&g, m) != HIVE_OK)
			break;
	}
	hive_game_free(&g);
	engine_free(e);
}

static void test_go_clock(void)
{
	clock_game("1", 0, 10);     /* Base */
}

static void test_go_clock_threads(void)
{
	clock_game("2", HIVE_EXP_M | HIVE_EXP_L | HIVE_EXP_P, 6);
}

static void test_go_movetime(void)
{
	struct engine *e = engine_with_threads("1");
	struct hive_game g;
	struct hive_move m;
	struct engine_limits l;

	hive_game_init(&g, HIVE_EXP_M | HIVE_EXP_L | HIVE_EXP_P);
	memset(&l, 0, sizeof l);
	/* time 00:00:00 (the bridge's 1 ms floor), then a movetime and a max_ms. */
	for (int i = 0; i < 6 && !hive_game_over(&g.board); i++) {
		l.movetime_ms = i < 4 ? 1 : 30;
		l.max_ms = i == 5 ? 10 : 0;
		go_check(e, &g, &l, &m);
		if (CU_get_number_of_failures() || hive_game_play(&g, m) != HIVE_OK)
			break;
	}
	hive_game_free(&g);
	engine_free(e);
}

/* A go of centuries (Hub's level allows it), stopped: a legal move, and a deadline
 * that did not overflow (UBSan would stop the test). */
static void test_go_huge(void)
{
	struct engine *e = engine_with_threads("1");
	struct hive_game g;
	struct hive_move m;
	struct engine_limits l = clock_limits(0, 0, 0, 0);
	struct engine_builtin_timing t;
	struct run run;

	hive_game_init(&g, 0);
	l.movetime_ms = 9000000000000000ULL;
	memset(&run, 0, sizeof run);
	int64_t before = mono_ns();
	CU_ASSERT_EQUAL_FATAL(engine_go(e, &g, &l, NULL, on_done, &run), 0);
	int64_t after = mono_ns();
	engine_stop(e);
	run_wait(&run);
	CU_ASSERT_EQUAL(run.status, ENGINE_OK);
	CU_ASSERT_TRUE(hive_board_find_move(&g.board, run.move, &m));
	CU_ASSERT_EQUAL_FATAL(engine_builtin_timing(e, &t), 0);
	int64_t span = (int64_t)ENGINE_BUILTIN_BUDGET_MAX_MS * NS;
	CU_ASSERT_TRUE(t.deadline_ns - span >= before && t.deadline_ns - span <= after);
	CU_ASSERT_EQUAL(t.stopped_ns, 0);
	hive_game_free(&g);
	engine_free(e);
}

static int builtin_setup(void)
{
	if (evthread_use_pthreads() < 0 || !(base = event_base_new()))
		return -1;
	engine_builtin_timing_cpu(1);
	return 0;
}

static int builtin_teardown(void)
{
	event_base_free(base);
	return 0;
}

static const struct unit_test tests[] = {
	{ "budget: movetime", test_budget_movetime },
	{ "budget: clock", test_budget_clock },
	{ "budget: little time left", test_budget_little_left },
	{ "budget: properties over a grid", test_budget_properties },
	{ "budget: max_ms, depth, infinite", test_budget_max_ms },
	{ "budget: both sides", test_budget_sides },
	{ "budget: centuries", test_budget_huge },
	{ "go: clock game, one thread", test_go_clock },
	{ "go: clock game, two threads", test_go_clock_threads },
	{ "go: movetime and time 00:00:00", test_go_movetime },
	{ "go: centuries, stopped", test_go_huge },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "engine_builtin",
	.setup = builtin_setup,
	.teardown = builtin_teardown,
	.tests = tests,
};
