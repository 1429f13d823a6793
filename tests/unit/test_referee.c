/*
 * test_referee.c: bridge/referee.c driven by scripted seats on a real event loop,
 * no sockets: a remote seat plays the next move of its script from an event (as a
 * client's line would arrive), an engine seat is a fake back end (struct engine_ops)
 * that answers go with its script's next move, an illegal move, a failure, or never.
 * Each game runs until the referee's one result; a guard timer fails a game that
 * hangs instead.
 */
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/engine.h"
#include "bridge/referee.h"
#include "core/game.h"
#include "tests/unit/unit.h"

/* 13 plies to White's win (tests/integration/remote_play.sh's game). */
static const char *const win[] = {
	"wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wA1 -wQ", "bG1 bQ-", "wA2 wA1\\", "bG2 \\bG1",
	"wG1 /wA1", "bG3 bQ\\", "wG2 -wG1", "bB1 bS1\\", "wA1 -bG2", NULL
};
/* Four plies, then both queens step out and back: the position after ply 4 comes
 * again after plies 8 and 12. */
static const char *const shuffle[] = {
	"wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-",
	"wQ \\wS1", "bQ bS1\\", "wQ -wS1", "bQ bS1-",
	"wQ \\wS1", "bQ bS1\\", "wQ -wS1", "bQ bS1-",
	"wQ \\wS1", "bQ bS1\\", "wQ -wS1", "bQ bS1-", NULL
};

/* A script's special words. */
#define ILLEGAL "!illegal"     /* an engine answers a pass while moves exist */
#define FAIL    "!fail"        /* an engine breaks (ENGINE_FAILED, "boom") */
#define STALL   "!stall"       /* nobody answers */

struct harness;

struct fake {
	struct engine       e;
	struct harness     *h;
};

struct harness {
	struct event_base      *base;
	struct referee         *r;
	const char *const      *script;      /* one script for both sides, by ply */
	struct engine          *eng[2];      /* by colour, NULL for a remote seat */
	int                     remote[2];
	struct event           *remote_ev;
	struct event           *guard;
	int                     ended, ended_calls, hung;
	struct referee_result   res;
	char                    reason[256];
	int                     engines_freed;
	size_t                  moved;
};

/* --- the fake engine -------------------------------------------------------------- */

/* Answers go from the job's game (the interface's copy): the script's move as text,
 * which the interface checks; an illegal core move, which it turns into a failure;
 * a failure; or nothing. */
static int fake_go(struct engine *e)
{
	struct fake *f = e->priv;
	const char *mv = f->h->script[e->job.game.len];
	char err[256];

	if (!mv || !strcmp(mv, STALL))
		return 0;
	if (!strcmp(mv, FAIL)) {
		engine_job_finish(e, ENGINE_FAILED, "boom", NULL);
		return 0;
	}
	struct hive_move pass = { .piece = HIVE_PASS_PIECE };
	/* Its search's last iteration first, as a back end reports it: depth ply + 1. */
	struct hive_search_info info = { .depth = (int)e->job.game.len + 1, .score = 10 * (int)e->job.game.len };
	engine_job_info(e, &info, 1);
	int rc = !strcmp(mv, ILLEGAL) ? engine_job_move(e, &pass, NULL, err, sizeof err) :
		 engine_job_move(e, NULL, mv, err, sizeof err);
	CU_ASSERT_EQUAL(rc, !strcmp(mv, ILLEGAL) ? -1 : 0);
	/* As a back end does: the interface's reason fails the engine. */
	engine_job_finish(e, rc ? ENGINE_FAILED : ENGINE_OK, rc ? err : NULL, NULL);
	return 0;
}

static void fake_free(struct engine *e)
{
	struct fake *f = e->priv;
	f->h->engines_freed++;
	engine_release(e);
	free(f);
}

static const struct engine_ops fake_ops = { .name = "fake", .go = fake_go, .free = fake_free };

static struct engine *fake_new(struct harness *h)
{
	struct fake *f = calloc(1, sizeof *f);
	CU_ASSERT_FATAL(f != NULL);
	f->h = h;
	CU_ASSERT_FATAL(engine_init(&f->e, h->base, NULL, &fake_ops, f, NULL, 0) == 0);
	return &f->e;
}

/* --- the client ------------------------------------------------------------------- */

/* A remote seat's next move arrives, as a client's line would. */
static void on_remote(evutil_socket_t fd, short what, void *arg)
{
	struct harness *h = arg;
	const struct hive_game *g = referee_game(h->r);
	const char *mv = h->script[g->len];
	char err[128];

	if (!mv || !strcmp(mv, STALL))
		return;
	CU_ASSERT_EQUAL(referee_play(h->r, hive_side_to_move(&g->board), mv, err, sizeof err), REFEREE_OK);
}

static void to_move(void *arg, int colour)
{
	struct harness *h = arg;
	CU_ASSERT(h->remote[colour]);
	CU_ASSERT(referee_to_move(h->r, colour));
	event_active(h->remote_ev, EV_TIMEOUT, 1);
}

static void moved(void *arg, int colour, const char *move)
{
	struct harness *h = arg;
	CU_ASSERT_STRING_EQUAL(move, h->script[h->moved]);
	CU_ASSERT_EQUAL(colour, (int)(h->moved & 1));
	h->moved++;
}

static void ended(void *arg, const struct referee_result *res)
{
	struct harness *h = arg;
	h->ended = 1;
	h->ended_calls++;
	h->res = *res;
	snprintf(h->reason, sizeof h->reason, "%s", res->reason);
	h->res.reason = h->reason;
	event_base_loopbreak(h->base);
}

static const struct referee_ops ops = { .to_move = to_move, .moved = moved, .ended = ended };

static void on_guard(evutil_socket_t fd, short what, void *arg)
{
	struct harness *h = arg;
	h->hung = 1;
	event_base_loopbreak(h->base);
}

/* A referee over script, engine[c] saying which colours are engines; the seats'
 * time controls (by colour) and the rules as given. start: a game to begin from, or
 * NULL. */
static void setup(struct harness *h, const char *const *script, const int engine[2],
		  const struct referee_seat tc[2], const struct referee_rules *rules,
		  const struct hive_game *start)
{
	char err[128];

	memset(h, 0, sizeof *h);
	h->base = event_base_new();
	CU_ASSERT_FATAL(h->base != NULL);
	h->script = script;
	h->remote_ev = event_new(h->base, -1, 0, on_remote, h);
	h->guard = evtimer_new(h->base, on_guard, h);
	struct referee_conf c = {
		.base = h->base,
		.rules = *rules,
		.log_prefix = "test",
		.ops = &ops,
		.arg = h,
	};
	for (int i = 0; i < 2; i++) {
		c.seat[i] = tc[i];
		c.seat[i].name = i ? "black" : "white";
		if (engine[i]) {
			h->eng[i] = fake_new(h);
			c.seat[i].engine = &h->eng[i];
		} else {
			c.seat[i].engine = NULL;
			h->remote[i] = 1;
		}
	}
	if (start)
		h->moved = start->len;
	h->r = referee_new(&c, 0, start, err, sizeof err);
	CU_ASSERT_FATAL(h->r != NULL);
}

/* Runs the game until its result (or 10 s, a failure). */
static void run(struct harness *h)
{
	struct timeval tv = { 10, 0 };
	evtimer_add(h->guard, &tv);
	referee_start(h->r);
	if (!h->ended)
		event_base_dispatch(h->base);
	CU_ASSERT(!h->hung);
	CU_ASSERT(h->ended);
}

static void teardown(struct harness *h)
{
	referee_free(h->r);
	for (int i = 0; i < 2; i++)
		engine_free(h->eng[i]);
	event_free(h->remote_ev);
	event_free(h->guard);
	event_base_free(h->base);
}

static const int both_remote[2] = { 0, 0 };
static const struct referee_seat no_clock[2];
static const struct referee_rules no_rules;

/* --- the tests -------------------------------------------------------------------- */

static void test_queen_surrounded(void)
{
	struct harness h;
	const int white_engine[2] = { 1, 0 };
	size_t n;

	setup(&h, win, white_engine, no_clock, &no_rules, NULL);
	run(&h);
	CU_ASSERT_EQUAL(h.res.state, HIVE_WHITE_WINS);
	CU_ASSERT_STRING_EQUAL(h.reason, "black queen surrounded");
	CU_ASSERT_EQUAL(h.res.loser, -1);
	CU_ASSERT_EQUAL(h.ended_calls, 1);
	CU_ASSERT_EQUAL(referee_game(h.r)->len, 13);
	CU_ASSERT_EQUAL(h.moved, 13);
	CU_ASSERT(referee_times(h.r, &n) != NULL && n == 13);
	/* Each engine move has its search's last info, the remote seat's none. */
	const struct referee_eval *ev = referee_evals(h.r, &n);
	CU_ASSERT_FATAL(ev != NULL && n == 13);
	for (size_t i = 0; i < n; i++) {
		CU_ASSERT_EQUAL(ev[i].depth, i % 2 == 0 ? (int)i + 1 : 0);
		CU_ASSERT_EQUAL(ev[i].score, i % 2 == 0 ? 10 * (int)i : 0);
	}
	CU_ASSERT_EQUAL(referee_start_plies(h.r), 0);
	CU_ASSERT(referee_over(h.r));
	CU_ASSERT(!referee_to_move(h.r, HIVE_BLACK));
	/* A working engine stays the client's. */
	CU_ASSERT(h.eng[HIVE_WHITE] != NULL);
	CU_ASSERT_EQUAL(h.engines_freed, 0);
	teardown(&h);
}

static void test_illegal_refused(void)
{
	struct harness h;
	static const char *const script[] = { "wS1", STALL, NULL };
	char err[128] = "";

	/* A remote seat's illegal move changes nothing; out of turn is refused too. */
	setup(&h, script, both_remote, no_clock, &no_rules, NULL);
	CU_ASSERT_EQUAL(referee_play(h.r, HIVE_WHITE, "wS1", err, sizeof err), REFEREE_NOT_TURN);
	referee_start(h.r);
	CU_ASSERT_EQUAL(referee_play(h.r, HIVE_WHITE, "wQ", err, sizeof err), REFEREE_INVALID);
	CU_ASSERT(err[0] != 0);
	CU_ASSERT_EQUAL(referee_play(h.r, HIVE_WHITE, "nonsense", err, sizeof err), REFEREE_INVALID);
	CU_ASSERT_EQUAL(referee_play(h.r, HIVE_BLACK, "bS1", err, sizeof err), REFEREE_NOT_TURN);
	CU_ASSERT_EQUAL(referee_game(h.r)->len, 0);
	CU_ASSERT(referee_to_move(h.r, HIVE_WHITE));
	CU_ASSERT_EQUAL(referee_play(h.r, HIVE_WHITE, "wS1", err, sizeof err), REFEREE_OK);
	CU_ASSERT_EQUAL(referee_game(h.r)->len, 1);
	CU_ASSERT(!h.ended);
	referee_abort(h.r, "aborted: test");
	CU_ASSERT(h.ended && h.res.state < HIVE_DRAW);
	CU_ASSERT_STRING_EQUAL(h.reason, "aborted: test");
	CU_ASSERT_EQUAL(referee_play(h.r, HIVE_BLACK, "bS1 wS1-", err, sizeof err), REFEREE_OVER);
	teardown(&h);

	/* An engine's illegal move loses (the side named on request), and the engine
	 * that played it is freed. */
	static const char *const bad[] = { "wS1", ILLEGAL, NULL };
	const int black_engine[2] = { 0, 1 };
	struct referee_rules named = { .side_names = 1 };
	setup(&h, bad, black_engine, no_clock, &named, NULL);
	run(&h);
	CU_ASSERT_EQUAL(h.res.state, HIVE_WHITE_WINS);
	CU_ASSERT_EQUAL(h.res.loser, HIVE_BLACK);
	CU_ASSERT_STRING_EQUAL(h.reason, "black illegal move: pass while moves exist");
	CU_ASSERT(h.eng[HIVE_BLACK] == NULL);
	CU_ASSERT_EQUAL(h.engines_freed, 1);
	teardown(&h);

	/* A broken engine loses with match's words. */
	static const char *const broken[] = { FAIL, NULL };
	const int white_engine[2] = { 1, 0 };
	setup(&h, broken, white_engine, no_clock, &no_rules, NULL);
	run(&h);
	CU_ASSERT_EQUAL(h.res.state, HIVE_BLACK_WINS);
	CU_ASSERT_STRING_EQUAL(h.reason, "engine crashed: boom");
	CU_ASSERT(h.eng[HIVE_WHITE] == NULL);
	teardown(&h);
}

static void test_flag(void)
{
	struct harness h;
	static const char *const script[] = { "wS1", STALL, NULL };
	const int black_engine[2] = { 0, 1 };
	size_t n;

	/* A remote seat out of its time a move: match's words. White's time is long, so
	 * that a loaded machine cannot make it lose first. */
	struct referee_seat per_move[2] = { { .move_ms = 60000 }, { .move_ms = 30 } };
	setup(&h, script, both_remote, per_move, &no_rules, NULL);
	run(&h);
	CU_ASSERT_EQUAL(h.res.state, HIVE_WHITE_WINS);
	CU_ASSERT_EQUAL(h.res.loser, HIVE_BLACK);
	CU_ASSERT_STRING_EQUAL(h.reason, "time forfeit");
	CU_ASSERT(referee_times(h.r, &n) != NULL && n == 2);
	teardown(&h);

	/* An engine that never answers on a clock: its clock empties, its search is
	 * abandoned with it (freed), remote play's words. */
	struct referee_seat clock[2] = { { .clock_ms = 60000 }, { .clock_ms = 40 } };
	struct referee_rules named = { .side_names = 1 };
	setup(&h, script, black_engine, clock, &named, NULL);
	CU_ASSERT_EQUAL(referee_clock_ms(h.r, HIVE_BLACK), 40);
	run(&h);
	CU_ASSERT_EQUAL(h.res.state, HIVE_WHITE_WINS);
	CU_ASSERT_STRING_EQUAL(h.reason, "black lost on time");
	CU_ASSERT_EQUAL(referee_clock_ms(h.r, HIVE_BLACK), 0);
	CU_ASSERT(referee_clock_ms(h.r, HIVE_WHITE) > 0);
	CU_ASSERT(h.eng[HIVE_BLACK] == NULL);
	CU_ASSERT_EQUAL(h.engines_freed, 1);
	teardown(&h);

	/* A seat with no time limit at all (a depth: worker --max-move-ms): the hard
	 * cap a move is its flag, the engine thinking then abandoned. */
	struct referee_seat capped[2] = { { .depth = 3, .stall_ms = 60000 }, { .depth = 64, .stall_ms = 40 } };
	setup(&h, script, black_engine, capped, &no_rules, NULL);
	run(&h);
	CU_ASSERT_EQUAL(h.res.state, HIVE_WHITE_WINS);
	CU_ASSERT_EQUAL(h.res.loser, HIVE_BLACK);
	CU_ASSERT_STRING_EQUAL(h.reason, "time forfeit");
	CU_ASSERT(h.eng[HIVE_BLACK] == NULL);
	teardown(&h);
}

static void test_ply_cap(void)
{
	struct harness h;
	struct referee_rules cap = { .max_plies = 6 };

	setup(&h, win, both_remote, no_clock, &cap, NULL);
	run(&h);
	CU_ASSERT_EQUAL(h.res.state, HIVE_DRAW);
	CU_ASSERT_STRING_EQUAL(h.reason, "adjudicated: 6 plies played");
	CU_ASSERT_EQUAL(referee_game(h.r)->len, 6);
	teardown(&h);
}

static void test_repetition(void)
{
	struct harness h;
	const int engines[2] = { 1, 1 };
	struct referee_rules twice = { .repetition = 2 }, thrice = { .repetition = 3 };
	struct hive_game start;
	char err[128];

	setup(&h, shuffle, engines, no_clock, &twice, NULL);
	run(&h);
	CU_ASSERT_EQUAL(h.res.state, HIVE_DRAW);
	CU_ASSERT_STRING_EQUAL(h.reason, "adjudicated: position occurred 2 times");
	CU_ASSERT_EQUAL(referee_game(h.r)->len, 8);
	teardown(&h);

	setup(&h, shuffle, engines, no_clock, &thrice, NULL);
	run(&h);
	CU_ASSERT_STRING_EQUAL(h.reason, "adjudicated: position occurred 3 times");
	CU_ASSERT_EQUAL(referee_game(h.r)->len, 12);
	teardown(&h);

	/* The start's positions count: from ply 8, the third time comes at ply 12. */
	hive_game_init(&start, 0);
	CU_ASSERT_FATAL(hive_game_parse(&start, "Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;"
					"wQ \\wS1;bQ bS1\\;wQ -wS1;bQ bS1-", err, sizeof err) == HIVE_OK);
	setup(&h, shuffle, both_remote, no_clock, &thrice, &start);
	run(&h);
	CU_ASSERT_STRING_EQUAL(h.reason, "adjudicated: position occurred 3 times");
	CU_ASSERT_EQUAL(referee_game(h.r)->len, 12);
	teardown(&h);
	hive_game_free(&start);
}

/* A resignation while the other side's engine thinks: the engine's search is
 * abandoned with it (freed), nothing fires afterwards. */
static void on_resign(evutil_socket_t fd, short what, void *arg)
{
	struct harness *h = arg;
	referee_forfeit(h->r, HIVE_BLACK, "black resigned");
}

static void test_resign(void)
{
	struct harness h;
	static const char *const script[] = { "wS1", "bS1 wS1-", STALL, NULL };
	const int white_engine[2] = { 1, 0 };

	setup(&h, script, white_engine, no_clock, &no_rules, NULL);
	/* Once White thinks over its second move. */
	struct event *ev = event_new(h.base, -1, 0, on_resign, &h);
	referee_start(h.r);
	event_base_loop(h.base, EVLOOP_NONBLOCK);
	event_base_loop(h.base, EVLOOP_NONBLOCK);
	event_base_loop(h.base, EVLOOP_NONBLOCK);
	CU_ASSERT_EQUAL(referee_game(h.r)->len, 2);
	CU_ASSERT(!h.ended);
	event_active(ev, EV_TIMEOUT, 1);
	run(&h);
	CU_ASSERT_EQUAL(h.res.state, HIVE_WHITE_WINS);
	CU_ASSERT_EQUAL(h.res.loser, HIVE_BLACK);
	CU_ASSERT_STRING_EQUAL(h.reason, "black resigned");
	CU_ASSERT(h.eng[HIVE_WHITE] == NULL);
	CU_ASSERT_EQUAL(h.engines_freed, 1);
	/* Once over, nothing more ends it. */
	referee_forfeit(h.r, HIVE_WHITE, "white resigned");
	referee_abort(h.r, "aborted");
	CU_ASSERT_EQUAL(h.ended_calls, 1);
	event_free(ev);
	teardown(&h);
}

static const struct unit_test tests[] = {
	{ "a legal game to a queen surrounded", test_queen_surrounded },
	{ "an illegal move refused, an engine's lost", test_illegal_refused },
	{ "the flag", test_flag },
	{ "the ply cap", test_ply_cap },
	{ "repetition", test_repetition },
	{ "resignation", test_resign },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "referee",
	.tests = tests,
};
