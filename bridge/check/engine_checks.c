/*
 * engine_checks.c: the checks every protocol shares, through the engine interface
 * (bridge/engine.h) on the checker's event loop: start-up, a game the engine plays
 * against itself, bestmove on reference and random positions (legality, timing, the
 * single move, the forced pass, stacks, Pillbug throws), stop, and the restart after
 * a fault. The back end speaks the protocol, enforces its time-outs and checks every
 * move with the core; the checker wraps every wait in a deadline of its own. What
 * differs between protocols comes from their check_engine_spec; the checks of the
 * reference suite (UHP's) that a protocol has no counterpart for are listed as
 * skipped, with the reason.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/check/check.h"
#include "bridge/protocol.h"

#define CHECK_SLACK_MS      2000        /* our deadline over a back end's own time-out */
#define CHECK_GROUP_FAILURES 3          /* quick engine failures before a group is dropped */
#define CHECK_STOP_AFTER_MS 300         /* an infinite search runs this long before stop */
#define CHECK_SELFPLAY      20          /* plies of the game an engine plays against itself */

/* The back end, created on first use (and again after we gave one up). */
static struct engine *ck_engine(struct checker *ck, struct result *r)
{
	char cause[256] = "";

	if (ck->engine)
		return ck->engine;
	ck->engine = engine_new(ck->base, &ck->prof, cause, sizeof cause);
	if (!ck->engine) {
		check_fail(r, "cannot create the %s back end: %s", ck->title, cause[0] ? cause : "?");
	}
	return ck->engine;
}

/* Our deadline passed before the back end's own: a back end that hangs is given
 * up (freeing it kills its engine), and the rest of the group is skipped. */
void check_engine_abandon(struct checker *ck, struct result *r, int64_t ms)
{
	sbuf_free(&r->got);
	sbuf_str(&r->got, "<nothing>");
	check_fail(r, "no result within %" PRId64 " ms, though the back end should have timed out", ms);
	engine_free(ck->engine);
	ck->engine = NULL;
	ck->faults++;
	if (!ck->lost)
		ck->lost = xasprintf("engine lost at %s (no result)", r->name);
}

/* The engine failed (the back end has dropped it; it restarts on next use). A
 * stall costs a time-out per check, so it ends the group; quick failures (an
 * illegal move, garbage, a crash) are reported until there are too many. */
static void engine_failed(struct checker *ck, const struct result *r, int64_t ms)
{
	ck->faults++;
	if (ck->lost)
		return;
	if (ms >= (int64_t)ck->prof.command_timeout_ms)
		ck->lost = xasprintf("engine lost at %s (it stalled)", r->name);
	else if (++ck->group_failures >= CHECK_GROUP_FAILURES)
		ck->lost = xasprintf("engine lost at %s (%d failures in this group)", r->name,
				  CHECK_GROUP_FAILURES);
}

/* A start failed inside another check (a restart after a fault): the report says
 * what a start sends and expects, as startup.start does, and the rest of the group
 * is skipped (each check would wait the start's time-out again). */
static void e_start_failed(struct checker *ck, struct result *r)
{
	if (!r->sent.len)
		ck->spec->note_start(ck, r);
	if (!ck->lost)
		ck->lost = xasprintf("engine lost at %s (it did not start again)", r->name);
}

/* engine_start under our deadline: the first start, or a restart after a failure
 * (nothing to do when the engine is up). 0 when it is up; else r has failed. */
static int e_start(struct checker *ck, struct result *r, int64_t *ms)
{
	struct ewait w = { .base = ck->base };
	struct engine *e = ck_engine(ck, r);
	int64_t limit = (int64_t)ck->prof.start_timeout_ms + CHECK_SLACK_MS, t0 = now_ms();
	int rc = -1;

	if (!e)
		return -1;
	if (engine_start(e, ewait_done, &w) < 0) {
		check_fail(r, "the back end is busy and does not start");
		return -1;
	}
	if (ewait_run(ck, &w, limit) < 0) {
		e_start_failed(ck, r);
		check_engine_abandon(ck, r, limit);
		return -1;
	}
	if (ms)
		*ms = now_ms() - t0;
	if (w.status == ENGINE_OK) {
		rc = 0;
	} else {
		e_start_failed(ck, r);
		check_note_got(r, "%s", w.message ? w.message : "failed");
		check_fail(r, "the engine does not start: %s", w.message ? w.message : "failed");
		ck->faults++;
	}
	ewait_free(&w);
	return rc;
}

/* Starts a go on g; the caller waits. -1 (r failed) if it cannot. */
static int e_go_begin(struct checker *ck, struct result *r, const struct hive_game *g,
		      const struct engine_limits *l, struct ewait *w)
{
	memset(w, 0, sizeof *w);
	w->base = ck->base;
	/* Up first (a restart after a fault), so that the time measured is the search's. */
	if (e_start(ck, r, NULL) < 0)
		return -1;
	char *gs = check_game_text(g);
	ck->spec->note_go(ck, r, gs, l);
	free(gs);
	if (engine_go(ck->engine, g, l, NULL, ewait_done, w) < 0) {
		check_fail(r, "the back end is busy and does not search");
		return -1;
	}
	return 0;
}

/* Judges a finished go: a move (the engine interface checked it with the core; an
 * illegal one is a failure), within limit_ms + the margin when limit_ms > 0. 0 with
 * *out on success. */
static int e_go_judge(struct checker *ck, struct result *r, const struct hive_game *g, struct ewait *w,
		      int64_t ms, int limit_ms, struct hive_move *out)
{
	char buf[HIVE_MOVESTR_MAX];

	switch (w->status) {
	case ENGINE_OK:
		hive_move_format(&g->board, w->move, buf, sizeof buf);
		check_note_got(r, "%s (as the core writes it) after %" PRId64 " ms", buf, ms);
		if (limit_ms > 0 && ms > limit_ms + ck->margin_ms) {
			check_fail(r, "answered after %" PRId64 " ms", ms);
			return -1;
		}
		*out = w->move;
		return 0;
	case ENGINE_INVALID:
	case ENGINE_ERROR:
		check_note_got(r, "%s", w->message ? w->message : "refused");
		check_fail(r, "the engine refused to search: %s", w->message ? w->message : "?");
		return -1;
	case ENGINE_FAILED:
	default:
		check_note_got(r, "%s", w->message ? w->message : "failed");
		check_fail(r, "engine failed: %s", w->message ? w->message : "?");
		engine_failed(ck, r, ms);
		return -1;
	}
}

/* A search of g with limits l: a legal move, within limit_ms + margin if > 0. */
static int expect_emove(struct checker *ck, struct result *r, const struct hive_game *g,
			const struct engine_limits *l, int limit_ms, struct hive_move *out)
{
	struct ewait w;
	/* A go without a time gets the protocol's own (OTEP has no depth). */
	uint64_t mt = l->movetime_ms ? l->movetime_ms : ck->spec->default_movetime_ms;
	int64_t wait = (int64_t)mt + ck->prof.command_timeout_ms + CHECK_SLACK_MS;
	int rc = -1;

	if (limit_ms > 0)
		check_expect(r, "a legal move within %d ms + %d ms margin", limit_ms, ck->margin_ms);
	else
		check_expect(r, "a legal move");
	if (e_go_begin(ck, r, g, l, &w) < 0)
		return -1;
	int64_t t0 = now_ms();
	if (ewait_run(ck, &w, wait) < 0)
		check_engine_abandon(ck, r, wait);
	else
		rc = e_go_judge(ck, r, g, &w, now_ms() - t0, limit_ms, out);
	ewait_free(&w);
	return rc;
}

/* The depth-1 search most checks use (a Trylobot module gets no depth: it has none). */
static const struct engine_limits depth1 = { .depth = 1 };

/* A group of engine checks: clean slate, unless the engine never started. */
static void egroup_begin(struct checker *ck)
{
	free(ck->lost);
	ck->lost = ck->gave_up ? xstrdup("the engine does not start") : NULL;
	ck->group_failures = 0;
}

/* The UHP checks that have no counterpart in the other protocols. */
static const struct uhp_only {
	const char *name;
	int         required;
	const char *what;
} uhp_only_checks[] = {
	{ "startup.info-unprompted", 1, "unprompted info block" },
	{ "startup.info-command", 1, "info command" },
	{ "movegen.validmoves", 1, "validmoves (the bridge lists the moves itself)" },
	{ "gameflow.newgame", 1, "newgame" },
	{ "gameflow.play-undo", 1, "play, pass and undo (each search gets the whole game)" },
	{ "gameflow.end", 1, "game-end states (the bridge keeps the game)" },
	{ "rejections.invalidmove", 1, "invalidmove and err for bad moves" },
	{ "robustness.unknown-command", 1, "err for an unknown command" },
	{ "robustness.blank-line", 1, "blank lines" },
	{ "robustness.long-line", 1, "err for an overlong line" },
};

/* Records the UHP-only checks of group (the name's prefix) as skipped. */
static void skip_uhp_only(struct checker *ck, const char *group)
{
	size_t n = strlen(group);
	for (size_t i = 0; i < sizeof uhp_only_checks / sizeof uhp_only_checks[0]; i++) {
		if (strncmp(uhp_only_checks[i].name, group, n) || uhp_only_checks[i].name[n] != '.')
			continue;
		struct result *r = check_push(ck, uhp_only_checks[i].required, xstrdup(uhp_only_checks[i].name));
		check_skip(r, "not part of the %s protocol: UHP's %s", ck->title, uhp_only_checks[i].what);
	}
}

static void egroup_startup(struct checker *ck)
{
	const struct check_engine_spec *spec = ck->spec;
	struct result *r = check_begin(ck, 1, "startup.start");
	struct sbuf unknown = { 0 };
	int64_t ms = 0;

	spec->note_start(ck, r);
	if (e_start(ck, r, &ms) < 0) {
		check_end(r);
		ck->gave_up = 1;
		egroup_begin(ck);       /* the rest is skipped: the engine does not start */
	} else {
		check_note_got(r, "%s after %" PRId64 " ms", spec->started, ms);
		check_end(r);
		snprintf(ck->id, sizeof ck->id, "%s", ck->engine->id);
		snprintf(ck->caps, sizeof ck->caps, "%s", ck->engine->caps);
		check_caps_parse(ck, ck->caps, &unknown);
		sbuf_free(&unknown);
	}
	r = check_begin(ck, spec->id_required, "startup.id");
	if (r) {
		spec->check_id(ck, r);
		check_end(r);
	}
	r = check_begin(ck, 0, "startup.capabilities");
	if (r) {
		if (spec->no_caps)
			check_skip(r, "%s", spec->no_caps);
		else
			spec->check_caps(ck, r);
		check_end(r);
	}
	if (spec->startup_more)
		spec->startup_more(ck);
	skip_uhp_only(ck, "startup");
}

/* A random position of type where the side to move can throw an enemy piece with
 * its Pillbug (or a Mosquito next to one). 0 when g holds one; else g is freed. */
static int pillbug_position(struct checker *ck, struct hive_game *g, unsigned type)
{
	struct hive_move moves[HIVE_MAX_MOVES];

	for (int tries = 0; tries < 400; tries++) {
		check_random_game(ck, g, type, 8 + (int)(check_random(ck) % 40));
		int side = hive_side_to_move(&g->board);
		size_t n = hive_board_moves(&g->board, moves);
		for (size_t i = 0; i < n; i++)
			if (moves[i].piece != HIVE_PASS_PIECE && HIVE_PIECE_COLOR(moves[i].piece) != side)
				return 0;
		hive_game_free(g);
	}
	return -1;
}

static void egroup_bestmove(struct checker *ck)
{
	struct hive_move m, moves[HIVE_MAX_MOVES];
	struct hive_game g;
	struct result *r;
	unsigned best = ck->caps_type & 7;

	/* The start position of every game type the engine plays. */
	for (unsigned t = 0; t < 8; t++) {
		if (t & ~ck->caps_type)
			continue;
		r = check_begin(ck, 1, "bestmove.start[%s]", hive_gametype_name(t));
		if (!r)
			continue;
		hive_game_init(&g, t);
		expect_emove(ck, r, &g, &depth1, 0, &m);
		hive_game_free(&g);
		check_end(r);
	}

	check_random_game(ck, &g, best, 12);
	r = check_begin(ck, 1, "bestmove.depth-1");
	if (r)
		expect_emove(ck, r, &g, &depth1, 0, &m);
	check_end(r);
	r = check_begin(ck, 1, "bestmove.time-1s");
	if (r) {
		struct engine_limits l = { .movetime_ms = 1000 };
		expect_emove(ck, r, &g, &l, 1000, &m);
	}
	check_end(r);
	hive_game_free(&g);

	r = check_begin(ck, 1, "bestmove.single-move");
	if (r && check_load_position(r, &g, POS_SINGLE_MOVE) == 0) {
		check_needs(ck, r, g.type);
		if (hive_board_moves(&g.board, moves) != 1)
			check_skip(r, "the core sees more than one move");
		if (r->st == ST_RUN && expect_emove(ck, r, &g, &depth1, 0, &m) == 0 &&
		    (m.piece != moves[0].piece || m.to != moves[0].to))
			check_fail(r, "not the only legal move");
		hive_game_free(&g);
	}
	check_end(r);

	/* Hub never asks for a finished game, but a forced pass is a legal position;
	 * Trylobot offers only Forfeit there, and Forfeit is the only answer. */
	r = check_begin(ck, 1, "bestmove.forced-pass");
	if (r && check_load_position(r, &g, POS_FORCED_PASS) == 0) {
		struct hive_move pass = { HIVE_PASS_PIECE, HIVE_NOWHERE, HIVE_NOWHERE }, legal;
		if (!hive_board_find_move(&g.board, pass, &legal))
			check_skip(r, "the core does not see a forced pass");
		if (r->st == ST_RUN && expect_emove(ck, r, &g, &depth1, 0, &m) == 0 && m.piece != HIVE_PASS_PIECE)
			check_fail(r, "not %s", ck->spec->pass_name);
		check_expect(r, "%s, the only legal move", ck->spec->pass_expect);
		hive_game_free(&g);
	}
	check_end(r);

	r = check_begin(ck, 1, "bestmove.stacks");
	if (r && check_load_position(r, &g, POS_BEETLE_GATE) == 0) {
		int stacked = 0;
		for (int p = 0; p < HIVE_PIECES; p++)
			stacked |= g.board.pos[p] != HIVE_NOWHERE && g.board.level[p] > 0;
		if (!stacked)
			check_skip(r, "the core sees no stack");
		else if (check_needs(ck, r, g.type) == 0)
			expect_emove(ck, r, &g, &depth1, 0, &m);
		hive_game_free(&g);
	}
	check_end(r);

	r = check_begin(ck, 1, "bestmove.pillbug");
	if (r && check_needs(ck, r, HIVE_EXP_P) == 0) {
		if (pillbug_position(ck, &g, best) < 0) {
			check_skip(r, "no random position with a Pillbug throw found");
		} else {
			expect_emove(ck, r, &g, &depth1, 0, &m);
			hive_game_free(&g);
		}
	}
	check_end(r);

	for (int i = 0; i < ck->positions && check_position(ck, i, &g) == 0; i++) {
		r = check_begin(ck, 1, "bestmove.random[%d]", i);
		if (r && check_needs(ck, r, g.type) == 0)
			expect_emove(ck, r, &g, &depth1, 0, &m);
		check_end(r);
		hive_game_free(&g);
	}

	r = check_push(ck, 1, xstrdup("bestmove.game-over"));
	check_skip(r, "the %s protocol never asks for a move in a finished game", ck->title);
}

/* Whether every legal move of b moves a piece of the side not to move (a throw). */
static int only_opponent_moves(const struct hive_board *b)
{
	struct hive_move moves[HIVE_MAX_MOVES];
	size_t n = hive_board_moves(b, moves);
	for (size_t i = 0; i < n; i++)
		if (moves[i].piece >= HIVE_PIECES ||
		    HIVE_PIECE_COLOR(moves[i].piece) == hive_side_to_move(b))
			return 0;
	return n > 0;
}

/* The engine plays a game against itself, every move legal; the back end sends
 * each position as the continuation of the previous one. */
static void egroup_gameflow(struct checker *ck)
{
	struct result *r = check_begin(ck, 1, "gameflow.selfplay");
	struct hive_game g;
	struct hive_move m;
	int ply;

	skip_uhp_only(ck, "gameflow");
	if (!r)
		return;
	hive_game_init(&g, ck->caps_type & 7);
	int stuck = 0;
	for (ply = 0; ply < CHECK_SELFPLAY && !hive_game_over(&g.board); ply++) {
		if (ck->spec->no_opponent_moves && only_opponent_moves(&g.board)) {
			stuck = 1;
			break;
		}
		sbuf_free(&r->sent);      /* the report shows the ply that failed */
		if (expect_emove(ck, r, &g, &depth1, 0, &m) < 0 || hive_game_play(&g, m) != HIVE_OK)
			break;
	}
	if (r->st == ST_RUN)
		r->reason = xasprintf("%d plies%s", ply, hive_game_over(&g.board) ? " to the end" :
				      stuck ? ", to a position whose only moves throw an opponent's piece,"
				      " which the protocol cannot send" : "");
	hive_game_free(&g);
	check_end(r);
}

/* "stop" during an infinite search gets a legal move. */
static void check_stop(struct checker *ck)
{
	struct result *r = check_begin(ck, 1, "robustness.stop");
	struct hive_game g;
	struct hive_move m;
	struct ewait w;
	struct engine_limits inf = { .infinite = 1 };

	if (!r)
		return;
	if (ck->spec->no_stop) {
		check_skip(r, "%s", ck->spec->no_stop);
		check_end(r);
		return;
	}
	check_expect(r, "done with a legal move within %u ms of stop", ck->prof.stop_timeout_ms);
	check_random_game(ck, &g, ck->caps_type & 7, 10);
	if (e_go_begin(ck, r, &g, &inf, &w) == 0) {
		int64_t t0 = now_ms(), wait = (int64_t)ck->prof.stop_timeout_ms + CHECK_SLACK_MS;
		/* It may finish on its own before (Hub allows that); else it is stopped. */
		if (ewait_run(ck, &w, CHECK_STOP_AFTER_MS) < 0) {
			check_note_sent(r, "stop");
			engine_stop(ck->engine);
			t0 = now_ms();
		}
		if (!w.finished && ewait_run(ck, &w, wait) < 0)
			check_engine_abandon(ck, r, wait);
		else
			e_go_judge(ck, r, &g, &w, now_ms() - t0, 0, &m);
		ewait_free(&w);
	}
	hive_game_free(&g);
	check_end(r);
}

static void egroup_robustness(struct checker *ck)
{
	/* After a failure the back end restarts the engine on next use. */
	struct result *r = check_begin(ck, 1, "robustness.restart");
	if (r) {
		check_expect(r, "the engine starts again after a failure");
		if (!ck->faults)
			check_skip(r, "no failure to recover from");
		else
			e_start(ck, r, NULL);
		check_end(r);
	}
	check_stop(ck);
	skip_uhp_only(ck, "robustness");
	r = check_push(ck, 0, xstrdup("robustness.stdin-closed"));
	check_skip(r, "not checked through the %s back end, which ends the engine itself", ck->title);
}

void check_engine_suite(struct checker *ck, const struct protocol *pr)
{
	ck->spec = pr->check_engine;
	ck->title = pr->title;
	egroup_begin(ck);
	egroup_startup(ck);
	egroup_begin(ck);
	skip_uhp_only(ck, "movegen");
	egroup_begin(ck);
	egroup_gameflow(ck);
	skip_uhp_only(ck, "rejections");
	egroup_begin(ck);
	egroup_bestmove(ck);
	egroup_begin(ck);
	egroup_robustness(ck);
	engine_free(ck->engine);
	ck->engine = NULL;
}

