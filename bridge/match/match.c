/*
 * match.c: `hivebridge match [options] ENGINE_A ENGINE_B`, refereed games between
 * two engines on one event loop.
 *
 * The arbiter model of the UHP remote-play proposal: each player is its own engine
 * session (struct engine), the canonical game lives here, and a player only ever
 * gets "search this game" (engine_go). Every move that comes back is checked with
 * the core before it is played; a bad move, a broken engine, a stall or an empty
 * clock loses the game for that engine, and a broken engine is replaced (engine_free
 * + engine_new) before its next game.
 *
 * A slot runs one game at a time with its own pair of engines; --concurrency K
 * runs K slots. A slot is a small state machine driven by engine callbacks (always
 * delivered from the loop), its clock timer, and a kick event that starts the next
 * game from the loop rather than from deep inside the previous one.
 *
 * Game g (1-based) uses opening (g - 1) / 2 and gives white to ENGINE_A when g is
 * odd, so each opening is played twice with colours swapped. A tournament is the
 * same with N engines: game g belongs to pairing ((g - 1) / 2) % P, so the games of
 * every pairing interleave in one list that the slots take from until it is empty
 * (K slots stay busy until fewer than K games are left), and a slot's engines are
 * replaced when its next game is another pairing's. Results go to the
 * results file, one JSON line per game, flushed as each game ends; --resume reads
 * them back, skips the games already there and plays the rest.
 *
 * The files: match.c (this: the referee and the game loop), match_setup.c (options,
 * engines, openings), match_results.c (results file, resume, score), match_viewer.c
 * (TCP viewers), sprt.c (the statistics).
 */
#include <errno.h>
#include <event2/event.h>
#include <event2/thread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/http/http.h"
#include "bridge/live.h"
#include "bridge/log.h"
#include "bridge/match/match.h"
#include "bridge/match/match_int.h"
#include "bridge/proc.h"
#include "bridge/protocol.h"
#include "bridge/referee.h"
#include "bridge/util.h"
#include "core/game.h"

/* At shutdown, how long engines get to exit before they are killed. */
#define MATCH_DRAIN_MS            3000
/* The reason recorded for the games a signal cuts short. */
#define MATCH_ABORT_REASON        "aborted: match interrupted"

#define slot_abandon match_slot_abandon
static void match_check_done(struct match *m);

/* The canonical GameString of g; the caller frees it. NULL on no memory. */
char *match_game_string(const struct hive_game *g)
{
	size_t n = hive_game_format(g, NULL, 0);
	char *s = malloc(n + 1);
	if (s)
		hive_game_format(g, s, n + 1);
	return s;
}

/* --- slots ------------------------------------------------------------------------ */

/* Next game without a result, 0 when there is none. */
static unsigned match_take_game(struct match *m)
{
	while (m->next_game <= m->o.games && m->done[m->next_game])
		m->next_game++;
	if (m->next_game > m->o.games)
		return 0;
	return m->next_game++;
}

static void slot_kick(struct slot *s)
{
	event_active(s->kick, EV_TIMEOUT, 1);
}

unsigned match_schedule(const struct match *m, unsigned g, int side[2], int *white, int *opening)
{
	unsigned pair = match_game_place(m->npairs, m->nopenings, g, white, opening);

	side[0] = m->pairs[pair][0];
	side[1] = m->pairs[pair][1];
	return pair;
}

/* The colour side p has in the slot's game. */
static int slot_colour(const struct slot *s, int p)
{
	return p == s->white ? HIVE_WHITE : HIVE_BLACK;
}

static void slot_drop_engine(struct slot *s, int p)
{
	engine_free(s->eng[p]);
	s->eng[p] = NULL;
	s->ready[p] = 0;
	s->eng_of[p] = -1;
	s->engine_id[p][0] = 0;
	if (s->starting == p)
		s->starting = -1;
}

/* The slot's engines onto the sides of its next game: one of a player who plays
 * again is kept (moved to its side), any other is freed (a tournament's slot runs
 * two engines at most). */
static void slot_seat_engines(struct slot *s)
{
	int keep = (s->eng[0] && s->eng_of[0] == s->side[0]) || (s->eng[1] && s->eng_of[1] == s->side[1]);
	int cross = (s->eng[1] && s->eng_of[1] == s->side[0]) || (s->eng[0] && s->eng_of[0] == s->side[1]);
	if (!keep && cross) {
		struct engine *e = s->eng[0];
		int r = s->ready[0], of = s->eng_of[0];
		char id[sizeof s->engine_id[0]];
		memcpy(id, s->engine_id[0], sizeof id);
		s->eng[0] = s->eng[1], s->ready[0] = s->ready[1], s->eng_of[0] = s->eng_of[1];
		memcpy(s->engine_id[0], s->engine_id[1], sizeof id);
		s->eng[1] = e, s->ready[1] = r, s->eng_of[1] = of;
		memcpy(s->engine_id[1], id, sizeof id);
	}
	for (int k = 0; k < 2; k++)
		if (s->eng[k] && s->eng_of[k] != s->side[k])
			slot_drop_engine(s, k);
}

static void slot_reset(struct slot *s)
{
	/* The referee frees a busy engine with it: that one starts afresh. */
	referee_free(s->ref);
	s->ref = NULL;
	for (int p = 0; p < 2; p++)
		if (!s->eng[p])
			s->ready[p] = 0;
	s->game_no = 0;
	s->playing = 0;
	s->opening = -1;
	s->opening_gs = NULL;
}

/* A fatal error (out of memory, results file): stop everything. */
static void match_fail(struct match *m)
{
	m->failed = 1;
	m->stopping = 1;
	for (unsigned i = 0; i < m->nslots; i++)
		slot_abandon(&m->slots[i]);
	match_check_done(m);
}

/* An engine that never started in this match: no game can be played with it, so
 * the match ends rather than record a forfeit per game (as cutechess-cli does). */
static void match_abort(struct match *m, int p, const char *reason)
{
	if (m->engine_dead) {
		m->engine_dead(m, p, reason);
		return;
	}
	fprintf(stderr, "hivebridge %s: engine \"%s\" %s; %s aborted\n", match_cmd(m), m->pl[p].label,
		reason + (strncmp(reason, "engine crashed: ", 16) ? 0 : 16), match_cmd(m));
	match_fail(m);
}

/* A signal cut the game short: written to the results without a result ("*",
 * reason; --resume plays it again), then dropped. */
static void slot_aborted(struct slot *s, int state, const char *reason)
{
	struct match *m = s->m;
	const struct hive_game *g = referee_game(s->ref);

	log_note(0, "match: game %u aborted at ply %zu", s->game_no, g->len);
	results_write(m, s, state, reason);
	printf("Aborted game %u (%s vs %s): %s {%s}, %zu plies\n", s->game_no,
	       slot_label(s, s->white), slot_label(s, 1 - s->white), results_text(state), reason, g->len);
	slot_reset(s);
}

/* The referee's result: state HIVE_WHITE_WINS, HIVE_BLACK_WINS or HIVE_DRAW; none
 * when a signal (or memory) cut the game short. */
static void slot_ended(void *arg, const struct referee_result *res)
{
	struct slot *s = arg;
	struct match *m = s->m;
	int state = res->state;
	const char *reason = res->reason;

	if (state < HIVE_DRAW) {
		if (m->interrupted)
			slot_aborted(s, state, reason);
		else
			match_fail(m);           /* out of memory */
		return;
	}
	if (m->game_ended) {
		m->game_ended(s, state, reason);
		slot_reset(s);
		slot_kick(s);
		return;
	}
	/* The PGN first: a kill between the two leaves a game the results lack, which
	 * --resume cuts from the PGN and plays again. */
	if (pgnout_write(m, s, state, reason) < 0 || results_write(m, s, state, reason) < 0) {
		match_fail(m);
		return;
	}
	results_count(m, s->game_no, results_a_score(state, s->white));
	m->played++;
	printf("Finished game %u (%s vs %s): %s {%s}, %zu plies\n", s->game_no,
	       slot_label(s, s->white), slot_label(s, 1 - s->white), results_text(state), reason,
	       referee_game(s->ref)->len);
	if (m->npairs > 1) {
		int side[2], white, op;
		results_print_pair(m, match_schedule(m, s->game_no, side, &white, &op));
	} else {
		results_print_score(m);     /* with the SPRT line */
	}
	if (m->o.sprt_set && m->verdict == SPRT_CONTINUE) {
		double llr;
		m->verdict = results_verdict(m, &llr);
		if (m->verdict != SPRT_CONTINUE) {
			printf("SPRT: %s accepted after %u games (llr %.3f)\n",
			       m->verdict == SPRT_ACCEPT_H1 ? "H1" : "H0", m->total, llr);
			fflush(stdout);
			m->stopping = 1;
		}
	}
	match_web_record(m, s, state, reason);
	slot_reset(s);
	if (m->stopping) {
		/* Decided: the games still running no longer matter. */
		for (unsigned i = 0; i < m->nslots; i++)
			if (&m->slots[i] != s)
				slot_abandon(&m->slots[i]);
	}
	slot_kick(s);
}

/* A move was played (after the referee's check). */
static void slot_moved(void *arg, int colour, const char *move)
{
	struct slot *s = arg;
	viewer_broadcast(s->m, s->game_no, referee_game(s->ref));
	if (s->m->game_moved)
		s->m->game_moved(s);
}

static const struct referee_ops slot_referee_ops = {
	.moved = slot_moved,
	.ended = slot_ended,
};

/* The engine's reports are set (or refused: its moves go without score and depth). */
static void on_reporting(void *arg, const struct engine_result *r)
{
	struct slot *s = arg;
	int p = s->starting;

	s->starting = -1;
	if (p < 0 || !s->game_no)
		return;
	s->ready[p] = 1;
	slot_kick(s);
}

static void on_started(void *arg, const struct engine_result *r)
{
	struct slot *s = arg;
	int p = s->starting;
	char reason[512];

	s->starting = -1;
	if (p < 0 || !s->game_no)
		return;
	if (r->status != ENGINE_OK) {
		snprintf(reason, sizeof reason, "engine crashed: did not start: %s",
			 r->message ? r->message : "no reason given");
		slot_drop_engine(s, p);
		if (!s->m->pl[s->side[p]].started) {
			match_abort(s->m, s->side[p], reason);
			return;
		}
		referee_forfeit(s->ref, slot_colour(s, p), reason);
		return;
	}
	s->m->pl[s->side[p]].started = 1;
	snprintf(s->engine_id[p], sizeof s->engine_id[p], "%s", s->eng[p]->id);
	log_note(0, "match: slot %u: %s is \"%s\"", s->id, slot_label(s, p), s->eng[p]->id);
	/* --pgnout writes each move's score and depth, and a worker (game_ended set)
	 * sends them for its coordinator's: the built-in engine reports its iterations
	 * only when asked to (the others that can, do on their own). */
	if ((s->m->o.pgnout_path || s->m->game_ended) && !strcmp(s->eng[p]->ops->name, "builtin")) {
		static const char *const report[] = { "set", "ReportIntermediateBestMoves", "True" };
		s->starting = p;
		if (engine_options(s->eng[p], 3, (const char **)report, on_reporting, s) == 0)
			return;
		s->starting = -1;
	}
	s->ready[p] = 1;
	slot_kick(s);
}

/* Creates and starts what the slot's players lack; 1 once both are ready. */
static int slot_prepare(struct slot *s)
{
	struct match *m = s->m;

	for (int p = 0; p < 2; p++) {
		if (!s->eng[p]) {
			char cause[256] = "";
			s->eng[p] = engine_new(m->base, m->pl[s->side[p]].profile, cause, sizeof cause);
			if (!s->eng[p]) {
				fprintf(stderr, "hivebridge %s: %s: %s\n", match_cmd(m), slot_label(s, p),
					cause[0] ? cause : "cannot create the engine");
				match_fail(m);
				return 0;
			}
			s->eng_of[p] = s->side[p];
			engine_set_log_id(s->eng[p], s->id * 2 + (unsigned)p + 1);
		}
		if (!s->ready[p]) {
			s->starting = p;
			if (engine_start(s->eng[p], on_started, s) < 0) {
				s->starting = -1;
				slot_drop_engine(s, p);
				if (!m->pl[s->side[p]].started)
					match_abort(m, s->side[p], "engine crashed: cannot be started");
				else
					referee_forfeit(s->ref, slot_colour(s, p),
							"engine crashed: cannot be started");
			}
			return 0;
		}
	}
	return 1;
}

/* Sets up game g between the players side[0] and side[1]: the opening, the players'
 * seats and budgets, the referee; 0 or -1 (no memory, or a worker's opening that
 * does not parse). */
static int slot_setup(struct slot *s, unsigned g, const int side[2], int white, int opening_index,
		      const char *opening)
{
	struct match *m = s->m;
	struct hive_game start;
	char err[256];

	s->side[0] = side[0];
	s->side[1] = side[1];
	slot_seat_engines(s);
	s->game_no = g;
	s->white = white;
	s->opening = opening_index;
	s->opening_gs = opening;
	snprintf(s->log_prefix, sizeof s->log_prefix, "match: game %u", g);
	hive_game_init(&start, m->o.type);
	if (opening && hive_game_parse(&start, opening, err, sizeof err) != HIVE_OK) {
		/* A local match checked them at load: only memory can fail here. */
		fprintf(stderr, "hivebridge %s: opening %d: %s\n", match_cmd(m), opening_index + 1, err);
		hive_game_free(&start);
		return -1;
	}
	struct referee_conf c = {
		.base = m->base,
		.rules = { .max_plies = m->o.max_plies, .repetition = m->o.repetition },
		/* A worker's games are shown by its coordinator. */
		.live_kind = m->slot_idle ? NULL : "match",
		.log_prefix = s->log_prefix,
		.ops = &slot_referee_ops,
		.arg = s,
	};
	for (int colour = 0; colour < 2; colour++) {
		int p = colour == HIVE_WHITE ? white : 1 - white;
		struct referee_seat *st = &c.seat[colour];
		st->name = slot_label(s, p);
		st->engine = &s->eng[p];
		const struct player *pl = &m->pl[s->side[p]];
		if (pl->depth || pl->movetime_ms) {
			/* An engine's own limit (builtin:depth=N, builtin:movetime=MS) replaces the match's. */
			st->depth = pl->depth;
			st->movetime_ms = pl->movetime_ms;
		} else {
			st->depth = m->o.depth;
			st->movetime_ms = m->o.movetime_ms;
			st->clock_ms = m->o.clock_ms;
			st->inc_ms = m->o.inc_ms;
		}
		if (!st->depth && !st->movetime_ms && !st->clock_ms)
			st->movetime_ms = MATCH_DEFAULT_MOVETIME_MS;
		if (m->o.max_move_ms) {
			/* A worker's game is bounded whatever its job says (a depth has no
			 * deadline): the engine is asked to stop a little before the flag. */
			st->stall_ms = m->o.max_move_ms;
			st->max_ms = m->o.max_move_ms - MATCH_MOVE_MARGIN(m->o.max_move_ms);
		}
	}
	s->ref = referee_new(&c, m->o.type, &start, err, sizeof err);
	hive_game_free(&start);
	if (!s->ref)
		return -1;
	/* Each game starts from a clean slate, as a fresh engine would. */
	for (int p = 0; p < 2; p++)
		if (s->ready[p])
			engine_reset(s->eng[p]);
	return 0;
}

static void slot_next(struct slot *s)
{
	struct match *m = s->m;

	if (!s->game_no && m->slot_idle) {
		if (!m->stopping)
			m->slot_idle(s);
		return;
	}
	if (!s->game_no) {
		unsigned g = m->stopping ? 0 : match_take_game(m);
		if (!g) {
			match_check_done(m);
			return;
		}
		int side[2], white, op;
		match_schedule(m, g, side, &white, &op);
		if (slot_setup(s, g, side, white, op, op >= 0 ? m->openings[op] : NULL) < 0) {
			slot_reset(s);
			match_fail(m);
			return;
		}
		printf("Started game %u of %u (%s vs %s)\n", g, m->o.games, slot_label(s, s->white),
		       slot_label(s, 1 - s->white));
		fflush(stdout);
		viewer_broadcast(m, s->game_no, referee_game(s->ref));
	}
	if (s->starting >= 0 || s->playing)
		return;
	if (slot_prepare(s)) {
		s->playing = 1;
		referee_start(s->ref);
	}
}

/* Game g on an idle slot, for a match whose games come from elsewhere. */
int match_slot_begin(struct slot *s, unsigned g, const int side[2], int white, int opening_index,
		     const char *opening)
{
	if (s->game_no)
		return -1;
	if (slot_setup(s, g, side, white, opening_index, opening) < 0) {
		slot_reset(s);
		return -1;
	}
	printf("Started game %u (%s vs %s)\n", g, slot_label(s, s->white), slot_label(s, 1 - s->white));
	fflush(stdout);
	if (s->m->game_moved)
		s->m->game_moved(s);
	slot_kick(s);
	return 0;
}

static void slot_kick_cb(evutil_socket_t fd, short what, void *arg)
{
	slot_next(arg);
}

/* Drops the slot's game without a result (the match is stopping). */
void match_slot_abandon(struct slot *s)
{
	if (!s->game_no)
		return;
	log_note(0, "match: game %u abandoned", s->game_no);
	/* An engine busy with a command is freed: no callback fires after that (the
	 * referee frees the one searching). */
	if (s->starting >= 0)
		slot_drop_engine(s, s->starting);
	slot_reset(s);
}

void match_slot_release(struct slot *s)
{
	for (int p = 0; p < 2 && !s->game_no; p++)
		if (s->eng[p])
			slot_drop_engine(s, p);
}

static void match_check_done(struct match *m)
{
	for (unsigned i = 0; i < m->nslots; i++)
		if (m->slots[i].game_no)
			return;
	if (!m->stopping) {
		/* A game left to play: an idle slot's kick will take it. */
		unsigned g = m->next_game;
		while (g <= m->o.games && m->done[g])
			g++;
		if (g <= m->o.games)
			return;
	}
	if (m->http && !m->failed && !m->interrupted) {
		/* The dashboard outlives the games: the page stays up until a signal. */
		if (!m->web_lingering) {
			m->web_lingering = 1;
			fprintf(stderr, "hivebridge %s: played out; the web page stays up until SIGINT or SIGTERM\n",
				match_cmd(m));
			live_notify_match();
		}
		return;
	}
	match_exit(m);
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
	struct match *m = arg;
	if (m->web_lingering || m->interrupted) {
		/* Played out, or a second signal: no more waiting. */
		log_note(0, "match: signal %d: %s", (int)sig,
			 m->interrupted ? "stopping now" : "the web page closes");
		event_base_loopexit(m->base, NULL);
		return;
	}
	log_note(0, "match: signal %d: stopping", (int)sig);
	fprintf(stderr, "hivebridge %s: interrupted\n", match_cmd(m));
	m->interrupted = 1;
	m->stopping = 1;
	/* The games in progress end without a result (slot_aborted). */
	for (unsigned i = 0; i < m->nslots; i++) {
		struct slot *s = &m->slots[i];
		if (s->game_no && s->starting >= 0)
			slot_drop_engine(s, s->starting);
		if (s->game_no)
			referee_abort(s->ref, MATCH_ABORT_REASON);
	}
	http_shutdown(m->http, MATCH_ABORT_REASON);
	fflush(stdout);
	/* The viewers and the page get their last lines (bounded), then the loop ends. */
	match_exit(m);
}

int match_slots_create(struct match *m)
{
	m->nslots = m->o.concurrency < m->o.games ? m->o.concurrency : m->o.games;
	m->slots = calloc(m->nslots, sizeof *m->slots);
	if (!m->slots)
		return -1;
	for (unsigned i = 0; i < m->nslots; i++) {
		struct slot *s = &m->slots[i];
		s->m = m;
		s->id = i;
		s->starting = -1;
		s->opening = -1;
		s->side[0] = s->eng_of[0] = -1;
		s->side[1] = s->eng_of[1] = -1;
		s->kick = event_new(m->base, -1, 0, slot_kick_cb, s);
		if (!s->kick)
			return -1;
	}
	return 0;
}

void match_free(struct match *m)
{
	for (unsigned i = 0; m->slots && i < m->nslots; i++) {
		struct slot *s = &m->slots[i];
		referee_free(s->ref);
		engine_free(s->eng[0]);
		engine_free(s->eng[1]);
		if (s->kick)
			event_free(s->kick);
	}
	free(m->slots);
	viewer_free_all(m);
	match_web_free(m);
	if (m->sig_int)
		event_free(m->sig_int);
	if (m->sig_term)
		event_free(m->sig_term);
	if (m->base) {
		/* Engines still exiting get a moment, then are killed and reaped. */
		proc_drain(m->base, MATCH_DRAIN_MS);
		event_base_free(m->base);
	}
	if (m->results)
		fclose(m->results);
	for (size_t i = 0; i < m->nopenings; i++)
		free(m->openings[i]);
	free(m->openings);
	free(m->done);
	free(m->prec);
	free(m->ppenta);
	config_free(&m->conf);
	log_close();
}

/* A --movetime that an engine's protocol cannot express (UHP counts whole seconds)
 * is rounded up by its back end: say so at the start, not after a slow match. */
static void match_warn_time_step(const struct match *m)
{
	for (unsigned p = 0; p < m->npl && m->o.movetime_ms; p++) {
		const struct engine_profile *pr = m->pl[p].profile;
		const struct protocol *proto = pr && pr->kind ? protocol_by_kind(pr->kind) : NULL;
		uint64_t step = proto ? proto->time_step_ms : 0;
		int seen = 0;

		for (unsigned q = 0; q < p; q++)
			seen |= m->pl[q].profile == pr;
		if (!step || m->o.movetime_ms % step == 0 || seen)
			continue;
		fprintf(stderr, "hivebridge %s: warning: engine \"%s\" (%s) counts time in steps of "
			"%llu ms: --movetime %llu gives it %llu ms a move\n", match_cmd(m), m->pl[p].label,
			proto->title, (unsigned long long)step, (unsigned long long)m->o.movetime_ms,
			(unsigned long long)((m->o.movetime_ms + step - 1) / step * step));
	}
}

/* The games: a match's --games, a tournament's --games per pairing (default: each
 * opening with both colours, else 2) times its pairings; -1 after saying why. */
static int match_count_games(struct match *m)
{
	if (!m->o.tournament) {
		m->npl = 2;
		m->npairs = 1;
		m->pairs[0][0] = 0;
		m->pairs[0][1] = 1;
		if (!m->o.games_set)
			m->o.games = m->nopenings ? (unsigned)(2 * m->nopenings) : 2;
		return 0;
	}
	tournament_pairings(m);
	uint64_t per = m->o.games_set ? m->o.games : m->nopenings ? 2 * (uint64_t)m->nopenings : 2;
	if (per * m->npairs > MATCH_MAX_GAMES) {
		fprintf(stderr, "hivebridge tournament: %u pairings of %llu games are more than %u games\n",
			m->npairs, (unsigned long long)per, MATCH_MAX_GAMES);
		return -1;
	}
	m->per_pair = (unsigned)per;
	m->o.games = (unsigned)(per * m->npairs);
	return 0;
}

void match_report_end(struct match *m, unsigned ndead, const char *dead_stream)
{
	printf("%s finished: %u games played now, %u of %u with a result%s\n",
	       m->o.tournament ? "Tournament" : "Match", m->played, m->total, m->o.games,
	       m->interrupted ? " (interrupted)" : "");
	if (ndead)
		printf("Not played: %u games whose jobs workers set aside (their reasons are above, and on %s)\n",
		       ndead, dead_stream);
	if (m->o.tournament)
		tournament_print_standings(m);
	else
		results_print_score(m);
	if (m->o.sprt_set)
		printf("SPRT: %s\n", m->verdict == SPRT_ACCEPT_H1 ? "H1 accepted" :
		       m->verdict == SPRT_ACCEPT_H0 ? "H0 accepted" : "undecided");
	fflush(stdout);
}

int match_run(struct match *m)
{
	char err[512] = "";
	int status = 1, prc;
	const char *cmd = match_cmd(m);

	signal(SIGPIPE, SIG_IGN);
	if (m->o.config_path && config_load(&m->conf, m->o.config_path, err, sizeof err) < 0) {
		fprintf(stderr, "hivebridge %s: %s\n", cmd, err[0] ? err : "cannot load the configuration");
		return 1;
	}
	if (m->o.log_path && log_open(m->o.log_path) < 0) {
		fprintf(stderr, "hivebridge %s: log %s: cannot open: %s\n", cmd, m->o.log_path, strerror(errno));
		return 1;
	}
	if (m->o.queue) {
		/* Engine names resolve on the workers: here they are labels. */
		m->npl = m->o.nspec;
		for (unsigned p = 0; p < m->npl; p++)
			m->pl[p].label = m->o.spec[p];
	} else if ((prc = match_players_resolve(m)) != 0) {
		return prc == 2 ? 2 : 1;
	}
	if (m->o.openings_path && match_openings_load(m) < 0)
		return 1;
	if (match_count_games(m) < 0)
		return 2;
	m->done = calloc((size_t)m->o.games + 1, 1);
	m->prec = calloc(m->npairs, sizeof *m->prec);
	m->ppenta = calloc(m->npairs, sizeof *m->ppenta);
	if (!m->done || !m->prec || !m->ppenta)
		return 1;
	m->next_game = 1;
	if (m->o.queue) {
		/* The games go to workers: no engine runs here (bridge/match/match_queue.c). */
		return match_queue_run(m);
	}
	if (results_open(m) < 0 || pgnout_open(m) < 0)
		return 1;

	/* The built-in engine hands its results over from a worker thread. */
	evthread_use_pthreads();
	m->base = event_base_new();
	if (!m->base || match_slots_create(m) < 0) {
		fprintf(stderr, "hivebridge %s: cannot set up the event loop\n", cmd);
		return 1;
	}
	if (m->o.viewer && viewer_listen(m, m->o.viewer) < 0)
		return 1;
	if (m->o.http && match_web_start(m) < 0)
		return 1;
	m->sig_int = evsignal_new(m->base, SIGINT, on_signal, m);
	m->sig_term = evsignal_new(m->base, SIGTERM, on_signal, m);
	if (!m->sig_int || !m->sig_term || evsignal_add(m->sig_int, NULL) < 0 ||
	    evsignal_add(m->sig_term, NULL) < 0) {
		fprintf(stderr, "hivebridge %s: cannot catch signals\n", cmd);
		return 1;
	}

	/* Without openings, two deterministic engines at fixed depths play the same two
	 * games over and over: the extra games add nothing. */
	int fixed = 1;
	for (unsigned p = 0; p < m->npl; p++)
		fixed &= m->o.depth || m->pl[p].depth;
	if (!m->nopenings && m->o.games > 2 * m->npairs && fixed)
		fprintf(stderr, "hivebridge %s: warning: no --openings and fixed depths: deterministic "
			"engines play each pairing's games 3.. as copies of its first two\n", cmd);
	match_warn_time_step(m);
	if (m->o.tournament) {
		printf("Tournament (%s) of %u engines: %u pairings, %u games each, %u games (%u already "
		       "played), %s, concurrency %u\n", m->o.gauntlet ? "gauntlet" : "round-robin", m->npl,
		       m->npairs, m->per_pair, m->o.games, m->total,
		       m->nopenings ? "openings from file" : hive_gametype_name(m->o.type), m->nslots);
	} else {
		printf("Match %s vs %s: %u games (%u already played), %s, concurrency %u\n",
		       m->pl[0].label, m->pl[1].label, m->o.games, m->total,
		       m->nopenings ? "openings from file" : hive_gametype_name(m->o.type), m->nslots);
		if (m->total)
			results_print_score(m);
	}
	if (m->o.sprt_set && m->total) {
		double llr;
		m->verdict = results_verdict(m, &llr);
		m->stopping = m->verdict != SPRT_CONTINUE;
	}
	fflush(stdout);
	for (unsigned i = 0; i < m->nslots; i++)
		slot_kick(&m->slots[i]);
	event_base_dispatch(m->base);

	match_report_end(m, 0, NULL);
	status = m->interrupted || m->failed ? 1 : 0;
	return status;
}

int match_command(int argc, char **argv, int tournament)
{
	struct match m;
	int status;

	memset(&m, 0, sizeof m);
	config_defaults(&m.conf);
	int prc = match_parse_args(argc, argv, &m.o, tournament);
	if (prc != 0) {
		if (prc > 0) {
			match_help(stdout, tournament ? MATCH_CMD_TOURNAMENT : MATCH_CMD_MATCH);
		} else
			fprintf(stderr, "Try 'hivebridge %s --help'.\n", tournament ? "tournament" : "match");
		config_free(&m.conf);
		return prc > 0 ? 0 : 2;
	}
	status = match_run(&m);
	match_free(&m);
	return status;
}

int match_main(int argc, char **argv)
{
	return match_command(argc, argv, 0);
}
