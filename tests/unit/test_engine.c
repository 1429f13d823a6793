/*
 * test_engine.c: the engine interface's own part (bridge/engine.c), over a fake back
 * end that only does what each test tells it: an engine's move is checked with the
 * core once, before done, and an illegal one (as text or as a core move) is an
 * ENGINE_FAILED result even when the back end calls it OK; one command at a time
 * (a second go, start or options is refused while one is outstanding or its result
 * undelivered); done comes from the engine's event, never from inside the call that
 * finished the job; the game is the interface's copy; infos come in order before an
 * OK result and are dropped before a failure; a freed engine calls nobody. Waits run
 * the loop under a deadline, never sleep.
 */
#include <event2/event.h>
#include <event2/thread.h>
#include "tests/unit/testutil.h"
#include "bridge/engine.h"
#include "tests/unit/unit.h"

#define DEADLINE_S 10

/* What the fake back end does with a go. */
enum fake_go {
	FAKE_HOLD,         /* nothing: the job stays outstanding until the test ends it */
	FAKE_TEXT_NOW,     /* checks text and finishes OK inside go itself */
	FAKE_TEXT_LATER,   /* the same from its advance (the engine's event) */
	FAKE_MOVE_NOW      /* checks the core move m and finishes OK inside go */
};

struct fake {
	struct engine     e;
	enum fake_go      mode;
	const char       *text;
	struct hive_move  m;
	int               check_rc;     /* engine_job_move's answer */
	char              why[256];
	int               advances;
	int               freed;
	int               ninfo;        /* infos queued by go */
	struct hive_game  seen;         /* the job's game as go saw it */
};

static void fake_answer(struct fake *f)
{
	f->check_rc = f->mode == FAKE_MOVE_NOW ?
		engine_job_move(&f->e, &f->m, NULL, f->why, sizeof f->why) :
		engine_job_move(&f->e, NULL, f->text, f->why, sizeof f->why);
	/* A careless back end: OK whatever the check said. */
	engine_job_finish(&f->e, ENGINE_OK, NULL, NULL);
}

static int fake_go(struct engine *e)
{
	struct fake *f = e->priv;

	hive_game_free(&f->seen);
	hive_game_init(&f->seen, e->job.game.type);
	CU_ASSERT_EQUAL(hive_game_copy(&f->seen, &e->job.game), HIVE_OK);
	for (int i = 0; i < f->ninfo; i++) {
		struct hive_search_info in = { .depth = i + 1 };
		engine_job_info(e, &in, 0);
	}
	if (f->mode == FAKE_TEXT_NOW || f->mode == FAKE_MOVE_NOW)
		fake_answer(f);
	return 0;
}

static void fake_advance(struct engine *e)
{
	struct fake *f = e->priv;

	f->advances++;
	if (f->mode == FAKE_TEXT_LATER && engine_job_kind(e) == ENGINE_JOB_GO)
		fake_answer(f);
	else if (engine_job_kind(e) == ENGINE_JOB_START)
		engine_job_finish(e, ENGINE_OK, NULL, NULL);
}

static void fake_free(struct engine *e)
{
	struct fake *f = e->priv;

	engine_release(e);
	hive_game_free(&f->seen);
	f->freed = 1;
}

static const struct engine_ops fake_ops = {
	.name = "fake",
	.go = fake_go,
	.advance = fake_advance,
	.free = fake_free,
};

struct run {
	struct event_base *base;
	int done;
	int in_call;                 /* 1 while an engine_* call of the test runs */
	int reentrant;               /* done came from inside one */
	enum engine_status status;
	char message[256];
	struct hive_move move;
	int infos[8], ninfos, info_after_done;
	struct engine *free_in_done; /* freed by done */
};

static void on_info(void *arg, const struct hive_search_info *info)
{
	struct run *run = arg;
	if (run->done)
		run->info_after_done = 1;
	if (run->ninfos < 8)
		run->infos[run->ninfos++] = info->depth;
}

static void on_done(void *arg, const struct engine_result *r)
{
	struct run *run = arg;
	run->done++;
	run->reentrant |= run->in_call;
	run->status = r->status;
	snprintf(run->message, sizeof run->message, "%s", r->message ? r->message : "");
	run->move = r->move;
	if (run->free_in_done)
		engine_free(run->free_in_done);
	event_base_loopbreak(run->base);
}

static void wait_done(struct run *run)
{
	unit_loop(run->base, &run->done, DEADLINE_S * 1000);
}

/* Runs the loop until nothing is active (what was kicked has run). */
static void settle(struct run *run)
{
	event_base_loop(run->base, EVLOOP_NONBLOCK);
	event_base_loop(run->base, EVLOOP_NONBLOCK);
}

static struct fake *fake_new(struct run *run)
{
	struct fake *f = calloc(1, sizeof *f);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	hive_game_init(&f->seen, 0);
	CU_ASSERT_EQUAL_FATAL(engine_init(&f->e, run->base, NULL, &fake_ops, f, NULL, 0), 0);
	return f;
}

static int go(struct run *run, struct fake *f, const struct hive_game *g)
{
	static const struct engine_limits l = { .depth = 1 };
	run->in_call = 1;
	int rc = engine_go(&f->e, g, &l, on_info, on_done, run);
	run->in_call = 0;
	return rc;
}

/* A move as text or as a core move, legal or not, through the check. */
static void test_move_checked(void)
{
	struct run run = { .base = event_base_new() };
	struct hive_game g;
	struct hive_move want;
	char err[128];

	hive_game_init(&g, 0);
	CU_ASSERT_EQUAL_FATAL(hive_game_parse(&g, "Base;InProgress;White[2];wS1;bS1 wS1-", err, sizeof err), HIVE_OK);
	struct fake *f = fake_new(&run);

	/* Legal text: OK, and the move is the core's, ready to play. */
	f->mode = FAKE_TEXT_LATER;
	f->text = "wQ -wS1";
	CU_ASSERT_EQUAL(hive_move_parse(&g.board, f->text, &want, err, sizeof err), HIVE_OK);
	CU_ASSERT_EQUAL(go(&run, f, &g), 0);
	wait_done(&run);
	CU_ASSERT_EQUAL(run.done, 1);
	CU_ASSERT_EQUAL(f->check_rc, 0);
	CU_ASSERT_EQUAL(run.status, ENGINE_OK);
	CU_ASSERT(run.move.piece == want.piece && run.move.from == want.from && run.move.to == want.to);
	struct hive_game after;
	hive_game_init(&after, 0);
	CU_ASSERT_EQUAL(hive_game_copy(&after, &g), HIVE_OK);
	CU_ASSERT_EQUAL(hive_game_play(&after, run.move), HIVE_OK);
	hive_game_free(&after);

	/* Illegal text (Black's queen on White's turn): FAILED, though the back end said OK. */
	run.done = 0;
	f->text = "bQ bS1-";
	CU_ASSERT_EQUAL(go(&run, f, &g), 0);
	wait_done(&run);
	CU_ASSERT_EQUAL(run.done, 1);
	CU_ASSERT_EQUAL(f->check_rc, -1);
	CU_ASSERT_EQUAL(run.status, ENGINE_FAILED);
	CU_ASSERT(!strncmp(f->why, "illegal move \"bQ bS1-\": ", 24));

	/* Unreadable text: its own words. */
	run.done = 0;
	f->text = "no such move";
	CU_ASSERT_EQUAL(go(&run, f, &g), 0);
	wait_done(&run);
	CU_ASSERT_EQUAL(run.status, ENGINE_FAILED);
	CU_ASSERT(!strncmp(f->why, "unreadable move \"no such move\": ", 32));

	/* A core move the rules forbid: a placement far from the hive. */
	run.done = 0;
	f->mode = FAKE_MOVE_NOW;
	f->m = (struct hive_move){ want.piece ^ 1, HIVE_NOWHERE, 3 };
	CU_ASSERT_EQUAL(go(&run, f, &g), 0);
	wait_done(&run);
	CU_ASSERT_EQUAL(run.done, 1);
	CU_ASSERT_EQUAL(f->check_rc, -1);
	CU_ASSERT_EQUAL(run.status, ENGINE_FAILED);
	CU_ASSERT(!strncmp(f->why, "illegal move: ", 14));

	engine_free(&f->e);
	CU_ASSERT(f->freed);
	free(f);
	hive_game_free(&g);
	event_base_free(run.base);
}

/* One command at a time: refused while outstanding, and while its result waits. */
static void test_one_command(void)
{
	struct run run = { .base = event_base_new() };
	struct hive_game g;
	const char *get[] = { "get", "x" };

	hive_game_init(&g, 0);
	struct fake *f = fake_new(&run);
	f->mode = FAKE_HOLD;
	CU_ASSERT_EQUAL(go(&run, f, &g), 0);
	settle(&run);
	CU_ASSERT_EQUAL(engine_go(&f->e, &g, &(struct engine_limits){ .depth = 1 }, NULL, on_done, &run), -1);
	CU_ASSERT_EQUAL(engine_start(&f->e, on_done, &run), -1);
	CU_ASSERT_EQUAL(engine_options(&f->e, 2, get, on_done, &run), -1);
	CU_ASSERT(engine_busy(&f->e));

	/* Finished but undelivered: still busy, still refused. */
	f->text = "wG1";
	f->mode = FAKE_TEXT_NOW;
	fake_answer(f);
	CU_ASSERT_EQUAL(engine_job_kind(&f->e), ENGINE_JOB_NONE);
	CU_ASSERT(engine_busy(&f->e));
	CU_ASSERT_EQUAL(go(&run, f, &g), -1);
	CU_ASSERT_EQUAL(run.done, 0);
	wait_done(&run);
	CU_ASSERT_EQUAL(run.done, 1);
	CU_ASSERT_EQUAL(run.status, ENGINE_OK);
	CU_ASSERT(!engine_busy(&f->e));

	/* Free again: a malformed options request is refused, a good one goes. */
	CU_ASSERT_EQUAL(engine_options(&f->e, 1, get, on_done, &run), -1);
	CU_ASSERT_EQUAL(engine_start(&f->e, on_done, &run), 0);
	run.done = 0;
	wait_done(&run);
	CU_ASSERT_EQUAL(run.done, 1);
	CU_ASSERT_EQUAL(run.status, ENGINE_OK);

	engine_free(&f->e);
	free(f);
	hive_game_free(&g);
	event_base_free(run.base);
}

/* A job finished inside go is delivered by the event, after go returned; done may
 * free the engine; a freed engine with a result waiting calls nobody. */
static void test_done_deferred(void)
{
	struct run run = { .base = event_base_new() };
	struct hive_game g;

	hive_game_init(&g, 0);
	struct fake *f = fake_new(&run);
	f->mode = FAKE_TEXT_NOW;
	f->text = "wA1";
	CU_ASSERT_EQUAL(go(&run, f, &g), 0);
	CU_ASSERT_EQUAL(run.done, 0);
	CU_ASSERT_EQUAL(f->check_rc, 0);
	run.free_in_done = &f->e;
	wait_done(&run);
	CU_ASSERT_EQUAL(run.done, 1);
	CU_ASSERT_EQUAL(run.reentrant, 0);
	CU_ASSERT_EQUAL(run.status, ENGINE_OK);
	CU_ASSERT(f->freed);
	free(f);

	/* Freed with its result waiting: no callback. */
	run.done = 0;
	run.free_in_done = NULL;
	f = fake_new(&run);
	f->mode = FAKE_TEXT_NOW;
	f->text = "wA1";
	CU_ASSERT_EQUAL(go(&run, f, &g), 0);
	engine_free(&f->e);
	free(f);
	settle(&run);
	CU_ASSERT_EQUAL(run.done, 0);

	hive_game_free(&g);
	event_base_free(run.base);
}

/* The job's game is the interface's copy: the caller's may change meanwhile. */
static void test_game_copied(void)
{
	struct run run = { .base = event_base_new() };
	struct hive_game g;
	struct hive_move m;
	char err[128];

	hive_game_init(&g, 0);
	struct fake *f = fake_new(&run);
	f->mode = FAKE_TEXT_LATER;
	f->text = "bS1 wS1-";
	CU_ASSERT_EQUAL_FATAL(hive_move_parse(&g.board, "wS1", &m, err, sizeof err), HIVE_OK);
	CU_ASSERT_EQUAL_FATAL(hive_game_play(&g, m), HIVE_OK);
	CU_ASSERT_EQUAL(go(&run, f, &g), 0);
	/* The caller undoes its move at once: the engine still answers the game it got. */
	CU_ASSERT_EQUAL(hive_game_undo(&g, 1), HIVE_OK);
	wait_done(&run);
	CU_ASSERT_EQUAL(run.done, 1);
	CU_ASSERT_EQUAL(f->seen.len, 1);
	CU_ASSERT_EQUAL(run.status, ENGINE_OK);
	CU_ASSERT_EQUAL(f->check_rc, 0);

	engine_free(&f->e);
	free(f);
	hive_game_free(&g);
	event_base_free(run.base);
}

/* Infos queued during a go come in order before an OK result; none after it, and
 * none before a failure. */
static void test_infos(void)
{
	struct run run = { .base = event_base_new() };
	struct hive_game g;

	hive_game_init(&g, 0);
	struct fake *f = fake_new(&run);
	f->mode = FAKE_TEXT_LATER;
	f->text = "wG1";
	f->ninfo = 3;
	CU_ASSERT_EQUAL(go(&run, f, &g), 0);
	wait_done(&run);
	CU_ASSERT_EQUAL(run.status, ENGINE_OK);
	CU_ASSERT_EQUAL(run.ninfos, 3);
	CU_ASSERT(run.infos[0] == 1 && run.infos[1] == 2 && run.infos[2] == 3);
	CU_ASSERT_EQUAL(run.info_after_done, 0);

	run.done = run.ninfos = 0;
	f->text = "bG1";        /* illegal: White to move */
	CU_ASSERT_EQUAL(go(&run, f, &g), 0);
	wait_done(&run);
	CU_ASSERT_EQUAL(run.status, ENGINE_FAILED);
	CU_ASSERT_EQUAL(run.ninfos, 0);

	engine_free(&f->e);
	free(f);
	hive_game_free(&g);
	event_base_free(run.base);
}

/* engine_kick is safe from a worker thread only on a base made after this. */
static int engine_setup(void)
{
	return evthread_use_pthreads() < 0 ? -1 : 0;
}

static const struct unit_test tests[] = {
	{ "the move is checked once, before done", test_move_checked },
	{ "one command at a time", test_one_command },
	{ "done from the event, never re-entrantly", test_done_deferred },
	{ "the game is copied", test_game_copied },
	{ "infos before an OK result only", test_infos },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "engine",
	.setup = engine_setup,
	.tests = tests,
};
