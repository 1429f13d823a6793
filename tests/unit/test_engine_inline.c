/*
 * test_engine_inline.c: the built-in engine's go at depth 1, which runs on the loop
 * thread when the position has few moves and on the search pool otherwise. Either
 * way the answer comes once, from the loop, never from inside go; an engine freed
 * right after go answers nothing; stop and reset right after go leave the answer
 * legal. Waits are on the loop with a deadline, never sleeps.
 */
#include <time.h>
#include <event2/event.h>
#include <event2/thread.h>
#include "tests/unit/testutil.h"
#include "bridge/engine.h"
#include "bridge/engine_builtin.h"
#include "tests/unit/unit.h"

#define DEADLINE_S 30

struct run {
	struct event_base *base;
	const struct hive_board *b;
	int done, legal;
	enum engine_status status;
};

static void on_done(void *arg, const struct engine_result *r)
{
	struct run *run = arg;
	struct hive_move m;
	run->done++;
	run->status = r->status;
	run->legal = r->status == ENGINE_OK && hive_board_find_move(run->b, r->move, &m) &&
		     m.piece == r->move.piece && m.to == r->move.to;
	event_base_loopbreak(run->base);
}

/* Runs the loop until the answer is in or the deadline passes. */
static void wait_done(struct run *run)
{
	unit_loop(run->base, &run->done, DEADLINE_S * 1000);
}

/* Positions of a random game (fixed seed) of the given type with at most / more than
 * the given number of moves; the first one found. */
static void position(struct hive_game *g, unsigned type, size_t min, size_t max, uint64_t seed)
{
	static struct hive_move moves[HIVE_MAX_MOVES], next[HIVE_MAX_MOVES];
	struct tu_rng rng = { seed };
	for (int tries = 0; tries < 1000; tries++) {
		hive_game_init(g, type);
		for (int ply = 0; ply < 80; ply++) {
			size_t n = hive_board_moves(&g->board, moves);
			if (ply >= 8 && n >= min && n <= max && moves[0].piece != HIVE_PASS_PIECE)
				return;
			/* The move leaving the most moves of four tried: large positions come fast. */
			size_t k = tu_rng_below(&rng, n), most = 0;
			for (int t = 0; t < 4; t++) {
				size_t j = tu_rng_below(&rng, n);
				struct hive_undo u;
				hive_board_do(&g->board, moves[j], &u);
				size_t c = hive_game_over(&g->board) ? 0 : hive_board_moves(&g->board, next);
				hive_board_undo(&g->board, &u);
				if (c > most) {
					most = c;
					k = j;
				}
			}
			if (hive_game_play(g, moves[k]) != HIVE_OK || hive_game_over(&g->board))
				break;
		}
		hive_game_free(g);
	}
	CU_FAIL_FATAL("no position with that many moves");
}

/* CLOCK_MONOTONIC ns, as engine_builtin_timing counts. */
static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static struct event_base *base_new(void)
{
	struct event_base *base = event_base_new();
	CU_ASSERT_PTR_NOT_NULL_FATAL(base);
	return base;
}

/* Small (on the loop) and large (on the pool) positions: one legal answer each, and
 * none before go has returned and the loop runs. */
static void test_depth1_answers(void)
{
	struct run run = { .base = base_new() };
	char cause[256] = "";
	struct engine *e = engine_builtin_new(run.base, NULL, cause, sizeof cause);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	for (int i = 0; i < 8; i++) {
		struct hive_game g;
		int large = i & 1;
		position(&g, 7, large ? 160 : 20, large ? HIVE_MAX_MOVES : 60, 1000 + (uint64_t)i);
		struct engine_limits l = { .depth = 1 };
		run.b = &g.board;
		run.done = run.legal = 0;
		CU_ASSERT_EQUAL(engine_go(e, &g, &l, NULL, on_done, &run), 0);
		int64_t returned = now_ns();
		CU_ASSERT_EQUAL(run.done, 0);
		wait_done(&run);
		CU_ASSERT_EQUAL(run.done, 1);
		CU_ASSERT(run.legal);
		/* A small position was searched inside go, on this thread. */
		struct engine_builtin_timing t;
		CU_ASSERT_EQUAL_FATAL(engine_builtin_timing(e, &t), 0);
		if (!large)
			CU_ASSERT(t.searched_ns > 0 && t.searched_ns <= returned);
		/* Nothing more comes. */
		event_base_loop(run.base, EVLOOP_NONBLOCK);
		CU_ASSERT_EQUAL(run.done, 1);
		if (i % 4 == 2)
			engine_reset(e);
		hive_game_free(&g);
	}
	engine_free(e);
	event_base_free(run.base);
}

/* Freed right after go (the answer already made active, or the pool searching):
 * no callback ever, nothing touched after the free (ASan). */
static void test_free_after_go(void)
{
	for (int i = 0; i < 4; i++) {
		struct run run = { .base = base_new() };
		char cause[256] = "";
		struct engine *e = engine_builtin_new(run.base, NULL, cause, sizeof cause);
		CU_ASSERT_PTR_NOT_NULL_FATAL(e);
		struct hive_game g;
		int large = i & 1;
		position(&g, 7, large ? 160 : 20, large ? HIVE_MAX_MOVES : 60, 2000 + (uint64_t)i);
		struct engine_limits l = { .depth = 1, .max_ms = 1 };
		run.b = &g.board;
		CU_ASSERT_EQUAL(engine_go(e, &g, &l, NULL, on_done, &run), 0);
		engine_free(e);
		event_base_loop(run.base, EVLOOP_NONBLOCK);
		CU_ASSERT_EQUAL(run.done, 0);
		hive_game_free(&g);
		event_base_free(run.base);
	}
}

/* Stop and reset right after go, then a second go: each answers once, legally. */
static void test_stop_reset_after_go(void)
{
	struct run run = { .base = base_new() };
	char cause[256] = "";
	struct engine *e = engine_builtin_new(run.base, NULL, cause, sizeof cause);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	for (int i = 0; i < 4; i++) {
		struct hive_game g;
		int large = i & 1;
		position(&g, 7, large ? 160 : 20, large ? HIVE_MAX_MOVES : 60, 3000 + (uint64_t)i);
		struct engine_limits l = { .depth = 1, .max_ms = 1 };
		run.b = &g.board;
		run.done = run.legal = 0;
		CU_ASSERT_EQUAL(engine_go(e, &g, &l, NULL, on_done, &run), 0);
		engine_stop(e);
		engine_reset(e);      /* a go is outstanding: nothing to forget yet */
		wait_done(&run);
		CU_ASSERT_EQUAL(run.done, 1);
		CU_ASSERT(run.legal);
		engine_reset(e);
		run.done = run.legal = 0;
		CU_ASSERT_EQUAL(engine_go(e, &g, &l, NULL, on_done, &run), 0);
		wait_done(&run);
		CU_ASSERT_EQUAL(run.done, 1);
		CU_ASSERT(run.legal);
		hive_game_free(&g);
	}
	engine_free(e);
	event_base_free(run.base);
}

static int inline_setup(void)
{
	return evthread_use_pthreads() < 0 ? -1 : 0;
}

static const struct unit_test tests[] = {
	{ "depth 1 answers once, on the loop or the pool", test_depth1_answers },
	{ "freed right after go: no answer", test_free_after_go },
	{ "stop and reset right after go", test_stop_reset_after_go },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "engine_inline",
	.setup = inline_setup,
	.tests = tests,
};
