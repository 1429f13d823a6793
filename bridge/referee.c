/*
 * referee.c: one game between two seats (see referee.h): the turns, the clock, the
 * move record, the adjudication, the live record, the one result.
 *
 * Every way a game ends goes through referee_end(), the caller's last act: the
 * client's ended callback may free the referee.
 */
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bridge/engine.h"
#include "bridge/game_record.h"
#include "bridge/live.h"
#include "bridge/log.h"
#include "bridge/referee.h"
#include "bridge/util.h"
#include "core/errbuf.h"

#define REFEREE_REASON_MAX 512

static const char *const colour_word[2] = { "white", "black" };

struct referee {
	struct referee_conf  c;
	struct hive_game     game;
	int                  started, over;
	int                  thinking;        /* the colour whose go is outstanding, -1 */
	int64_t              clock_us[2];     /* by colour */
	int64_t              t0_us;           /* the side to move's turn began, now_us() */
	struct event        *flag;            /* its time is up */
	uint64_t            *keys;            /* position keys, one per position so far */
	size_t               nkeys, capkeys;
	uint64_t            *times_ms;        /* the time each move took */
	size_t               ntimes, captimes;
	struct referee_eval *evals;           /* with each time: the mover's last search info */
	size_t               capevals;
	struct referee_eval  info;            /* the side to move's, so far (depth 0: none) */
	size_t               start_plies;
	struct live_game    *lg;
};

static int push_u64(uint64_t **a, size_t *n, size_t *cap, uint64_t v)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		uint64_t *p = realloc(*a, c * sizeof *p);
		if (!p)
			return -1;
		*a = p;
		*cap = c;
	}
	(*a)[(*n)++] = v;
	return 0;
}

static int has_clock(const struct referee *r)
{
	return r->c.seat[0].clock_ms || r->c.seat[1].clock_ms;
}

/* A move's time, with the mover's last search info, on the record: -1 when memory is out. */
static int record_time(struct referee *r, uint64_t ms)
{
	if (push_u64(&r->times_ms, &r->ntimes, &r->captimes, ms) < 0)
		return -1;
	/* The evals follow the times' capacity; without them the time is taken back. */
	if (r->capevals < r->captimes) {
		struct referee_eval *e = realloc(r->evals, r->captimes * sizeof *e);
		if (!e) {
			r->ntimes--;
			return -1;
		}
		r->evals = e;
		r->capevals = r->captimes;
	}
	r->evals[r->ntimes - 1] = r->info;
	return 0;
}

/* The clocks on the live record; running is the colour whose time runs, -1 none. */
static void report_clocks(struct referee *r, int running)
{
	if (has_clock(r))
		live_clocks(r->lg, r->clock_us[0] / 1000, r->clock_us[1] / 1000, running);
}

/* A reason the referee words, naming the side when the rules say so. */
static void side_reason(const struct referee *r, int colour, char *buf, size_t len, const char *what)
{
	if (r->c.rules.side_names)
		snprintf(buf, len, "%s %s", colour_word[colour], what);
	else
		snprintf(buf, len, "%s", what);
}

/* Frees the seat's engine (broken, or busy with a search nobody waits for) and
 * tells the client so through its pointer. */
static void drop_engine(struct referee *r, int colour)
{
	struct engine **e = r->c.seat[colour].engine;
	if (r->thinking == colour)
		r->thinking = -1;
	if (e) {
		engine_free(*e);
		*e = NULL;
	}
}

/* --- the end ----------------------------------------------------------------------- */

/* A finished game onto the archive (the daemon's [daemon] games); a failure is
 * logged, the game goes on to its end regardless. */
static void referee_archive(const struct referee *r, int state, const char *reason)
{
	char event[64], tc[64], err[256];
	struct game_record_tags t = {
		.white = r->c.seat[HIVE_WHITE].name, .black = r->c.seat[HIVE_BLACK].name,
		.event = event, .site = "hivebridge", .result = state, .termination = reason,
	};

	snprintf(event, sizeof event, "hivebridge %s", r->c.live_kind ? r->c.live_kind : "game");
	if (game_record_time_control(&r->c.seat[0], tc, sizeof tc))
		t.time_control = tc;
	if (game_record_append_referee(r->c.archive, r, &t, err, sizeof err) < 0)
		log_note(0, "%s: not archived: %s", r->c.log_prefix, err);
}

/* The one end of a game; the caller's last act (ended may free r). */
static void referee_end(struct referee *r, int state, const char *reason, int loser)
{
	struct referee_result res = { state, reason, loser };

	if (r->over)
		return;
	r->over = 1;
	evtimer_del(r->flag);
	if (r->thinking >= 0)
		drop_engine(r, r->thinking);     /* no callback may come after the end */
	report_clocks(r, -1);
	if (state >= HIVE_DRAW)
		live_finish(r->lg, state, reason);
	else
		live_abort(r->lg, reason);
	log_note(0, "%s: %s (%s)", r->c.log_prefix, state == HIVE_WHITE_WINS ? "1-0" :
		 state == HIVE_BLACK_WINS ? "0-1" : state == HIVE_DRAW ? "1/2-1/2" : "*", reason);
	if (r->c.archive && state >= HIVE_DRAW)
		referee_archive(r, state, reason);
	r->c.ops->ended(r->c.arg, &res);
}

static void referee_lose(struct referee *r, int colour, const char *reason)
{
	referee_end(r, colour == HIVE_WHITE ? HIVE_BLACK_WINS : HIVE_WHITE_WINS, reason, colour);
}

static void lose_on_time(struct referee *r, int colour)
{
	char reason[64];
	if (r->c.rules.side_names)
		snprintf(reason, sizeof reason, "%s lost on time", colour_word[colour]);
	else
		snprintf(reason, sizeof reason, "time forfeit");
	referee_lose(r, colour, reason);
}

void referee_forfeit(struct referee *r, int colour, const char *reason)
{
	referee_lose(r, colour, reason);
}

void referee_abort(struct referee *r, const char *reason)
{
	referee_end(r, r->game.board.state < HIVE_DRAW ? r->game.board.state : HIVE_IN_PROGRESS,
		    reason, -1);
}

/* --- the adjudication ---------------------------------------------------------------- */

static unsigned key_count(const struct referee *r, uint64_t key)
{
	unsigned n = 0;
	for (size_t i = 0; i < r->nkeys; i++)
		n += r->keys[i] == key;
	return n;
}

/* Ends the game if the rules or the policy say so: 1 (and r may be gone), else 0. */
static int adjudicate(struct referee *r)
{
	const struct referee_rules *o = &r->c.rules;
	static const char *const rule_end[] = {
		[HIVE_WHITE_WINS] = "black queen surrounded",
		[HIVE_BLACK_WINS] = "white queen surrounded",
		[HIVE_DRAW] = "both queens surrounded",
	};
	char reason[128];
	int state = r->game.board.state;

	if (state >= HIVE_DRAW) {
		referee_end(r, state, rule_end[state], -1);
		return 1;
	}
	if (o->max_plies && r->game.len >= o->max_plies) {
		snprintf(reason, sizeof reason, "adjudicated: %u plies played", o->max_plies);
		referee_end(r, HIVE_DRAW, reason, -1);
		return 1;
	}
	if (o->repetition && r->nkeys && key_count(r, r->keys[r->nkeys - 1]) >= o->repetition) {
		snprintf(reason, sizeof reason, "adjudicated: position occurred %u times", o->repetition);
		referee_end(r, HIVE_DRAW, reason, -1);
		return 1;
	}
	return 0;
}

/* --- turns ------------------------------------------------------------------------- */

static void turn_begin(struct referee *r);

/* The time colour may use on this move, in us; -1 when it has no flag. */
static int64_t turn_budget_us(const struct referee *r, int colour)
{
	const struct referee_seat *s = &r->c.seat[colour];
	int64_t us = -1;
	if (s->move_ms || s->clock_ms)
		us = (s->move_ms ? (int64_t)s->move_ms * 1000 : r->clock_us[colour]) + (int64_t)s->slack_ms * 1000;
	if (s->stall_ms && (us < 0 || us > (int64_t)s->stall_ms * 1000))
		us = (int64_t)s->stall_ms * 1000;
	return us;
}

/* The mover's turn ends: its time is recorded and taken off its clock. 0, or -1
 * when the game ended instead (its time ran out, no memory): r may be gone then. */
static int turn_end(struct referee *r, int side)
{
	const struct referee_seat *s = &r->c.seat[side];
	int64_t used = (now_us() - r->t0_us), budget = turn_budget_us(r, side);

	evtimer_del(r->flag);
	if (record_time(r, (uint64_t)(used + 500) / 1000) < 0) {
		referee_abort(r, "aborted: out of memory");
		return -1;
	}
	if (budget >= 0 && used > budget) {
		if (s->clock_ms)
			r->clock_us[side] = 0;
		lose_on_time(r, side);
		return -1;
	}
	if (s->clock_ms) {
		r->clock_us[side] += (int64_t)s->inc_ms * 1000 - used;
		if (r->clock_us[side] < 0)
			r->clock_us[side] = 0;     /* within the slack */
	}
	return 0;
}

/* Plays the side to move's legal move (its turn ended in time), then adjudicates or
 * starts the next turn; -1 when memory is out (the game aborted, r may be gone). */
static int referee_apply(struct referee *r, struct hive_move legal)
{
	int side = hive_side_to_move(&r->game.board);
	char mv[HIVE_MOVESTR_MAX];

	hive_move_format(&r->game.board, legal, mv, sizeof mv);
	if (hive_game_play(&r->game, legal) != HIVE_OK ||
	    push_u64(&r->keys, &r->nkeys, &r->capkeys, hive_board_position_key(&r->game.board)) < 0) {
		referee_abort(r, "aborted: out of memory");
		return -1;
	}
	log_note(0, "%s ply %zu: %s plays %s (%llu ms)", r->c.log_prefix, r->game.len,
		 r->c.seat[side].name, mv, (unsigned long long)r->times_ms[r->ntimes - 1]);
	live_update(r->lg, &r->game);
	if (r->c.ops->moved)
		r->c.ops->moved(r->c.arg, side, mv);
	if (!r->over && !adjudicate(r))
		turn_begin(r);
	return 0;
}

static void on_info(void *arg, const struct hive_search_info *info)
{
	struct referee *r = arg;
	if (info && info->depth > 0)
		r->info = (struct referee_eval){ info->depth, info->score };
	live_analysis(r->lg, info);
}

/* An engine seat's answer: every engine result is handled here, and nowhere else.
 * The time is checked first, then the move with the core before it is played; a
 * failure loses the game with engine_failure_reason's words, and a broken engine
 * (or one that played an illegal move) is freed: after res is read, which it owns. */
static void on_engine_done(void *arg, const struct engine_result *res)
{
	struct referee *r = arg;
	int side = r->thinking;
	char why[REFEREE_REASON_MAX], reason[REFEREE_REASON_MAX + 16];
	int ok = 0, broken = res->status == ENGINE_FAILED;

	if (side < 0 || r->over)
		return;
	r->thinking = -1;
	struct hive_move legal = res->move;    /* checked by the interface (engine.h) */
	if (res->status != ENGINE_OK)
		engine_failure_reason(res, why, sizeof why);
	else
		ok = 1;
	if (broken)
		drop_engine(r, side);
	if (turn_end(r, side) < 0)
		return;
	if (ok) {
		referee_apply(r, legal);
		return;
	}
	side_reason(r, side, reason, sizeof reason, why);
	referee_lose(r, side, reason);
}

/* The limits of an engine seat's search: its budget and the time control. */
static void turn_limits(const struct referee *r, int side, struct engine_limits *l)
{
	const struct referee_seat *s = &r->c.seat[side];

	memset(l, 0, sizeof *l);
	l->depth = s->depth;
	l->movetime_ms = s->movetime_ms;
	l->max_ms = s->max_ms;
	if (s->move_ms) {
		/* The engine's own overhead must fit in the move's time; and the flag falls
		 * then: an engine that rounds its time or answers late is asked for less
		 * (UHP: whole seconds, rounded down). */
		uint64_t margin = s->move_ms / 10 < 100 ? s->move_ms / 10 : 100;
		l->movetime_ms = s->move_ms - margin ? s->move_ms - margin : 1;
		l->deadline_ms = s->move_ms + s->slack_ms;
	}
	for (int c = 0; c < 2; c++) {
		if (!r->c.seat[c].clock_ms)
			continue;
		l->time_ms[c] = r->clock_us[c] > 1000 ? (uint64_t)r->clock_us[c] / 1000 : 1;
		l->inc_ms[c] = r->c.seat[c].inc_ms;
	}
}

/* The side to move's time starts; an engine is asked for its move. */
static void turn_begin(struct referee *r)
{
	int side = hive_side_to_move(&r->game.board);
	const struct referee_seat *s = &r->c.seat[side];
	int64_t us = turn_budget_us(r, side);

	r->t0_us = now_us();
	r->info = (struct referee_eval){ 0, 0 };
	if (us >= 0) {
		us += 1000;
		struct timeval tv = { (time_t)(us / 1000000), (suseconds_t)(us % 1000000) };
		evtimer_add(r->flag, &tv);
	}
	report_clocks(r, side);
	if (!s->engine) {
		if (r->c.ops->to_move)
			r->c.ops->to_move(r->c.arg, side);
		return;
	}
	struct engine_limits l;
	char reason[96];
	turn_limits(r, side, &l);
	r->thinking = side;
	if (!*s->engine || engine_go(*s->engine, &r->game, &l, on_info, on_engine_done, r) < 0) {
		drop_engine(r, side);
		side_reason(r, side, reason, sizeof reason, "engine crashed: cannot start a search");
		referee_lose(r, side, reason);
	}
}

static void on_flag(evutil_socket_t fd, short what, void *arg)
{
	struct referee *r = arg;
	int side = hive_side_to_move(&r->game.board);

	if (r->over)
		return;
	if (r->c.seat[side].clock_ms)
		r->clock_us[side] = 0;
	/* The record just lacks this time when memory is out. */
	(void)record_time(r, (uint64_t)((now_us() - r->t0_us) + 500) / 1000);
	if (r->thinking == side)
		drop_engine(r, side);   /* its search is abandoned with it */
	lose_on_time(r, side);
}

/* --- the game ------------------------------------------------------------------------ */

struct referee *referee_new(const struct referee_conf *c, unsigned type, const struct hive_game *start,
			    char *err, size_t errlen)
{
	struct referee *r = calloc(1, sizeof *r);
	struct hive_board b;
	struct hive_undo u;

	if (!r) {
		errbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	r->c = *c;
	r->thinking = -1;
	hive_game_init(&r->game, type);
	if ((start && hive_game_copy(&r->game, start) != HIVE_OK) ||
	    !(r->flag = evtimer_new(c->base, on_flag, r)))
		goto nomem;
	r->start_plies = r->game.len;
	for (int i = 0; i < 2; i++)
		r->clock_us[i] = (int64_t)c->seat[i].clock_ms * 1000;
	/* The start's positions count towards a repetition, as they would over a board. */
	hive_board_init(&b, r->game.type);
	for (size_t i = 0;; i++) {
		if (push_u64(&r->keys, &r->nkeys, &r->capkeys, hive_board_position_key(&b)) < 0)
			goto nomem;
		if (i == r->game.len)
			break;
		hive_board_do(&b, r->game.hist[i].move, &u);
	}
	if (c->live_kind)
		r->lg = live_open(c->live_kind, c->seat[0].name, c->seat[1].name, &r->game, c->live_owner);
	return r;
nomem:
	errbuf_set(err, errlen, "out of memory");
	referee_free(r);
	return NULL;
}

void referee_start(struct referee *r)
{
	if (r->started || r->over)
		return;
	r->started = 1;
	/* Watchers learn the game runs, and whose turn it is (a web page: the person's). */
	live_update(r->lg, &r->game);
	if (!adjudicate(r))
		turn_begin(r);
}

enum referee_rc referee_play(struct referee *r, int colour, const char *move, char *err, size_t errlen)
{
	struct hive_move m;

	if (r->over)
		return REFEREE_OVER;
	if (!r->started || r->c.seat[colour].engine || hive_side_to_move(&r->game.board) != colour)
		return REFEREE_NOT_TURN;
	if (hive_move_parse(&r->game.board, move, &m, err, errlen) != HIVE_OK)
		return REFEREE_INVALID;
	if (turn_end(r, colour) < 0)
		return REFEREE_OVER;
	referee_apply(r, m);
	return REFEREE_OK;
}

void referee_free(struct referee *r)
{
	if (!r)
		return;
	if (r->thinking >= 0)
		drop_engine(r, r->thinking);
	if (r->flag)
		event_free(r->flag);
	live_close(r->lg);
	hive_game_free(&r->game);
	free(r->keys);
	free(r->times_ms);
	free(r->evals);
	free(r);
}

const struct hive_game *referee_game(const struct referee *r)
{
	return &r->game;
}

int referee_to_move(const struct referee *r, int colour)
{
	return r->started && !r->over && hive_side_to_move(&r->game.board) == colour;
}

int referee_over(const struct referee *r)
{
	return r->over;
}

int64_t referee_clock_ms(const struct referee *r, int colour)
{
	return r->clock_us[colour] > 0 ? r->clock_us[colour] / 1000 : 0;
}

const uint64_t *referee_times(const struct referee *r, size_t *n)
{
	*n = r->ntimes;
	return r->times_ms;
}

const struct referee_eval *referee_evals(const struct referee *r, size_t *n)
{
	*n = r->ntimes;
	return r->evals;
}

size_t referee_start_plies(const struct referee *r)
{
	return r->start_plies;
}

const char *referee_seat_name(const struct referee *r, int colour)
{
	return r->c.seat[colour].name;
}

struct live_game *referee_live(const struct referee *r)
{
	return r->lg;
}
