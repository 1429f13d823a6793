/*
 * otep_front.c: the bridge as an OTEP engine (docs/otep-hive.md, section 5). The
 * session owns the canonical game, loaded from the host's rules, position,
 * opponent-move and move lines and checked with the core; play and analyze go to
 * the engine through bridge/engine.h.
 *
 * OTEP has no stop, so the input is a queue while a search runs (its time is the
 * host's clock, or analyze's seconds). "play" waits for the "clock" that follows
 * it (OTEP sends one after every play) for at most OF_CLOCK_WAIT_MS; a different
 * line in its place is kept and handled after the move. Every resumption and every
 * close goes through an event of the session_io (bridge/session_io.h).
 */
#include <event2/event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/otep/otep_back.h"
#include "adapters/otep/otep_check.h"
#include "adapters/otep/otep_codec.h"
#include "adapters/otep/otep_hive.h"
#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/live.h"
#include "bridge/log.h"
#include "bridge/protocol.h"
#include "bridge/session_io.h"
#include "bridge/util.h"
#include "core/game.h"

/* How long "play" waits for its "clock" before searching with the last one. */
#define OF_CLOCK_WAIT_MS  500
#define OF_ERROR_MAX      1024
/* The engine option that turns search progress on (UHP engines and the built-in). */
#define OF_OPT_REPORT     "ReportIntermediateBestMoves"
#define OF_STATUS_MAX     (HIVE_MAX_PLY * (HIVE_MOVESTR_MAX + 1) + 128)

enum of_busy {
	OF_IDLE,
	OF_START,       /* engine_start outstanding: input queued */
	OF_PLAY,        /* engine_go for play: input queued */
	OF_ANALYZE      /* engine_go for analyze: input queued */
};

struct of_line {                    /* an analysis line gathered from the infos */
	struct hive_search_info info;
};

struct otep_front {
	struct session_io      io;           /* first (session_io_new): the client, the engine, the stop timer */

	struct hive_game       game;         /* the canonical game */
	int                    have_game;
	int                    said_hello;
	struct otep_clock      clock;
	int                    have_clock;

	enum of_busy           busy;
	int                    play_pending; /* play seen, its clock awaited */
	enum otep_side         play_side;
	char                  *held;         /* the line that came instead of the clock */
	size_t                 held_len;

	/* The position of the move we sent, and how often the host refused a move there. */
	uint64_t               sent_hash;
	size_t                 sent_len;
	int                    refused;

	/* analyze: the lines of the deepest iteration, best first when written. */
	int                    analyze_n;
	struct of_line         lines[OTEP_ANALYSIS_MAX];
	size_t                 nlines;

	struct event          *clock_ev;     /* the clock did not come after play */
};

/* ---- output ---- */

static void out_line(struct otep_front *s, const char *line, int n)
{
	if (n < 0) {
		log_note(s->io.id, "otep: cannot write a line");
		return;
	}
	session_io_write_line(&s->io, line, (size_t)n);
}

static void out_error(struct otep_front *s, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void out_error(struct otep_front *s, int code, const char *fmt, ...)
{
	char msg[OF_ERROR_MAX], line[OF_ERROR_MAX + 32];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	out_line(s, line, otep_format_error(line, sizeof line, OTEP_FROM_ENGINE, code, msg));
	session_io_flush(&s->io);
}

/* A MoveString with '_' for its spaces, as OTEP lines carry it. */
static void move_token(const struct hive_board *b, struct hive_move m, char *buf, size_t len)
{
	hive_move_format(b, m, buf, len);
	for (char *c = buf; *c; c++)
		if (*c == ' ')
			*c = '_';
}

/* ---- engine ---- */

static void report_cb(void *arg, const struct engine_result *r)
{
	struct otep_front *s = arg;

	s->busy = OF_IDLE;
	if (r->status != ENGINE_OK)
		log_note(s->io.id, "otep: no search progress from this engine: %s",
			 r->message ? r->message : "?");
	session_io_schedule(&s->io);
}

/* hello and the one notation, once. */
static void say_hello(struct otep_front *s)
{
	char line[64];

	if (s->said_hello)
		return;
	s->said_hello = 1;
	out_line(s, line, otep_format_hello(line, sizeof line));
	out_line(s, line, otep_format_simple_moves(line, sizeof line, 1));
	session_io_flush(&s->io);
}

static void started_cb(void *arg, const struct engine_result *r)
{
	struct otep_front *s = arg;
	static const char *const report[] = { "set", OF_OPT_REPORT, "True" };

	s->busy = OF_IDLE;
	if (r->status != ENGINE_OK && session_io_start_failed(&s->io, r->message))
		return;
	say_hello(s);
	if (r->status != ENGINE_OK) {
		/* Said at the next play; the back end restarts on use. */
		log_note(s->io.id, "otep: engine did not start: %s", r->message ? r->message : "?");
	} else if (strcmp(s->io.engine->ops->name, "otep") != 0) {
		/* status lines and analysis need the engine's iterations. */
		s->busy = OF_START;
		if (engine_options(s->io.engine, 3, (const char **)report, report_cb, s) == 0)
			return;
		s->busy = OF_IDLE;
	}
	session_io_schedule(&s->io);
}

/* "status depth D score S nodes N pv m|m|..." for the host's display. */
static void info_status(struct otep_front *s, const struct hive_search_info *info)
{
	char text[OF_STATUS_MAX], line[OF_STATUS_MAX + 16], ev[32], mv[HIVE_MOVESTR_MAX];
	struct hive_board b = s->game.board;
	size_t n;

	otep_eval_format(ev, sizeof ev, info->score);
	n = (size_t)snprintf(text, sizeof text, "depth %d score %s nodes %llu", info->depth, ev,
			     (unsigned long long)info->nodes);
	for (int i = 0; i < info->pvlen && n + HIVE_MOVESTR_MAX + 8 < sizeof text; i++) {
		struct hive_move m;
		struct hive_undo u;
		if (!hive_board_find_move(&b, info->pv[i], &m))
			break;
		move_token(&b, m, mv, sizeof mv);
		n += (size_t)snprintf(text + n, sizeof text - n, "%s%s", i ? "|" : " pv ", mv);
		hive_board_do(&b, m, &u);
	}
	out_line(s, line, otep_format_status(line, sizeof line, text));
}

static void info_cb(void *arg, const struct hive_search_info *info)
{
	struct otep_front *s = arg;

	if ((s->busy != OF_PLAY && s->busy != OF_ANALYZE) || s->io.finishing)
		return;
	live_analysis(s->io.lg, info);
	if (s->busy == OF_ANALYZE && info->pvlen > 0 &&
	    hive_board_find_move(&s->game.board, info->pv[0], &(struct hive_move){ 0 })) {
		/* A deeper iteration replaces the lines; one of the same depth (an engine
		 * that gives several lines) joins them, one per first move. */
		if (s->nlines && info->depth > s->lines[0].info.depth)
			s->nlines = 0;
		size_t i;
		for (i = 0; i < s->nlines; i++)
			if (s->lines[i].info.pv[0].piece == info->pv[0].piece &&
			    s->lines[i].info.pv[0].to == info->pv[0].to)
				break;
		if (i < OTEP_ANALYSIS_MAX) {
			s->lines[i].info = *info;
			if (i == s->nlines)
				s->nlines++;
		}
	}
	if (!session_io_output_full(&s->io))
		info_status(s, info);   /* a host that does not read misses progress only */
}

static int line_cmp(const void *a, const void *b)
{
	const struct of_line *x = a, *y = b;
	return (y->info.score > x->info.score) - (y->info.score < x->info.score);
}

/* analysis n (list eval)... from the gathered lines, else from the move alone. */
static void out_analysis(struct otep_front *s, const struct hive_move *move)
{
	static char mvs[OTEP_ANALYSIS_MAX][HIVE_MAX_PLY][HIVE_MOVESTR_MAX];
	const char *ptrs[OTEP_ANALYSIS_MAX][HIVE_MAX_PLY];
	struct otep_moves lists[OTEP_ANALYSIS_MAX];
	size_t n = 0;

	qsort(s->lines, s->nlines, sizeof s->lines[0], line_cmp);
	for (size_t i = 0; i < s->nlines && n < (size_t)s->analyze_n; i++) {
		const struct hive_search_info *info = &s->lines[i].info;
		struct hive_board b = s->game.board;
		size_t k = 0;
		for (int j = 0; j < info->pvlen && j < HIVE_MAX_PLY; j++) {
			struct hive_move m;
			struct hive_undo u;
			if (!hive_board_find_move(&b, info->pv[j], &m))
				break;
			hive_move_format(&b, m, mvs[n][k], HIVE_MOVESTR_MAX);
			ptrs[n][k] = mvs[n][k];
			k++;
			hive_board_do(&b, m, &u);
		}
		if (k == 0)
			continue;
		lists[n] = (struct otep_moves){ .moves = ptrs[n], .n = k, .eval_cp = info->score };
		n++;
	}
	if (n == 0 && move) {
		hive_move_format(&s->game.board, *move, mvs[0][0], HIVE_MOVESTR_MAX);
		ptrs[0][0] = mvs[0][0];
		lists[0] = (struct otep_moves){ .moves = ptrs[0], .n = 1, .eval_cp = 0 };
		n = 1;
	}
	if (n == 0) {
		out_error(s, OTEP_ERR_NONCRITICAL, "analyze: the engine gave no line");
		return;
	}
	size_t cap = n * HIVE_MAX_PLY * (HIVE_MOVESTR_MAX + 1) + 64 * n + 64;
	char *line = malloc(cap);
	if (!line) {
		out_error(s, OTEP_ERR_NONCRITICAL, "analyze: out of memory");
		return;
	}
	out_line(s, line, otep_format_analysis(line, cap, lists, n));
	free(line);
	session_io_flush(&s->io);
}

static void search_done(void *arg, const struct engine_result *r)
{
	struct otep_front *s = arg;
	enum of_busy was = s->busy;
	char mv[HIVE_MOVESTR_MAX], line[64];

	evtimer_del(s->io.stop_ev);
	s->busy = OF_IDLE;
	if (s->io.finishing)
		return;
	/* An OK move was checked with the core by the interface. */
	int ok = r->status == ENGINE_OK;
	if (was == OF_ANALYZE) {
		if (ok || s->nlines)
			out_analysis(s, ok ? &r->move : NULL);
		else
			out_error(s, OTEP_ERR_NONCRITICAL, "analyze: engine %s: %s",
				  r->status == ENGINE_FAILED ? "failed" : "error",
				  r->message && *r->message ? r->message : "unknown error");
	} else if (ok) {
		hive_move_format(&s->game.board, r->move, mv, sizeof mv);
		out_line(s, line, otep_format_move(line, sizeof line, mv));
		s->sent_hash = s->game.board.hash;
		s->sent_len = s->game.len;
		session_io_flush(&s->io);
	} else {
		/* No move will come: for the host, the game is over. */
		out_error(s, OTEP_ERR_CRITICAL, "engine %s: %s",
			  r->status == ENGINE_FAILED ? "failed" : "error",
			  r->message && *r->message ? r->message : "unknown error");
	}
	session_io_schedule(&s->io);
}

/* Starts the engine on the current game; 0, or -1 after the error is written. */
static int search_start(struct otep_front *s, enum of_busy busy, const struct engine_limits *l)
{
	char cause[256] = "";

	if (!session_io_engine(&s->io, cause, sizeof cause)) {
		out_error(s, busy == OF_PLAY ? OTEP_ERR_CRITICAL : OTEP_ERR_NONCRITICAL,
			  "engine failed: %s", cause[0] ? cause : "cannot create it");
		return -1;
	}
	s->busy = busy;
	if (engine_go(s->io.engine, &s->game, l, info_cb, search_done, s) < 0) {
		s->busy = OF_IDLE;
		out_error(s, busy == OF_PLAY ? OTEP_ERR_CRITICAL : OTEP_ERR_NONCRITICAL,
			  "the engine cannot search now");
		return -1;
	}
	return 0;
}

/* play with the clock we have: the side to move's time, or its overtime period. */
static void play_now(struct otep_front *s)
{
	struct engine_limits l;
	int side = hive_side_to_move(&s->game.board);

	evtimer_del(s->clock_ev);
	s->play_pending = 0;
	memset(&l, 0, sizeof l);
	l.max_ms = s->io.lim.max_think_ms;
	if (s->io.lim.depth) {
		l.depth = s->io.lim.depth;
	} else if (s->have_clock) {
		const struct otep_clock *c = &s->clock;
		if (c->in_overtime[side] || (c->ms[side] == 0 && c->has_overtime && c->overtimes[side] > 0))
			l.movetime_ms = c->ms[side] ? (uint64_t)c->ms[side] : (uint64_t)c->overtime_s * 1000;
		else {
			for (int k = 0; k < 2; k++)
				l.time_ms[k] = c->ms[k] > 0 ? (uint64_t)c->ms[k] : 1;
			/* The overtime after the main time is a floor of its own. */
			if (c->has_overtime && c->overtimes[side] > 0)
				l.inc_ms[side] = (uint64_t)c->overtime_s * 1000;
		}
		if (!l.movetime_ms && !l.time_ms[side])
			l.movetime_ms = 1;
	} else {
		l.movetime_ms = s->io.lim.think_ms ? s->io.lim.think_ms : 1000;
	}
	if (l.movetime_ms == 0 && l.time_ms[side] == 0 && !l.depth)
		l.movetime_ms = 1000;
	search_start(s, OF_PLAY, &l);
}

static void clock_event(evutil_socket_t fd, short what, void *arg)
{
	struct otep_front *s = arg;

	if (s->play_pending && s->busy == OF_IDLE && !s->io.finishing) {
		log_note(s->io.id, "otep: no clock after play; searching with the last one");
		play_now(s);
	}
}

/* Only analyze is stopped by the timer: a play's time is the host's clock. */
static int io_searching(void *arg)
{
	const struct otep_front *s = arg;
	return s->busy == OF_ANALYZE;
}

/* ---- commands ---- */

/* Replaces the canonical game with the one a host line describes. */
static int load_game(struct otep_front *s, const struct otep_msg *m)
{
	char err[512];
	struct hive_game g;

	hive_game_init(&g, 0);
	if (otep_game_from_msg(m, &g, err, sizeof err) < 0) {
		hive_game_free(&g);
		out_error(s, OTEP_ERR_NONCRITICAL, "%s: %s", otep_cmd_name(m->cmd), err);
		return -1;
	}
	if (s->have_game)
		hive_game_free(&s->game);
	s->game = g;
	s->have_game = 1;
	session_io_live(&s->io, "otep", "host", &s->game);
	return 0;
}

static void cmd_rules(struct otep_front *s, const struct otep_msg *m)
{
	session_io_live_end(&s->io);  /* a new game: a new record on the web page */
	if (load_game(s, m) == 0) {
		s->refused = 0;
		s->sent_len = (size_t)-1;
		engine_reset(s->io.engine);
		log_note(s->io.id, "otep: new %s game", hive_gametype_name(s->game.type));
	}
}

static void cmd_game(struct otep_front *s, const struct otep_msg *m)
{
	load_game(s, m);
}

static void cmd_clock(struct otep_front *s, const struct otep_msg *m)
{
	s->clock = m->clock;
	s->have_clock = 1;
	live_clocks(s->io.lg, m->clock.ms[0], m->clock.ms[1],
		    s->have_game && !hive_game_over(&s->game.board) ? hive_side_to_move(&s->game.board) : -1);
	if (s->play_pending)
		play_now(s);
}

static void cmd_play(struct otep_front *s, const struct otep_msg *m)
{
	if (!s->have_game) {
		out_error(s, OTEP_ERR_NONCRITICAL, "play: no game yet: send rules first");
		return;
	}
	if (hive_game_over(&s->game.board)) {
		out_error(s, OTEP_ERR_NONCRITICAL, "play: the game is over (%s)",
			  hive_state_name(s->game.board.state));
		return;
	}
	if (m->side != otep_side_to_move(&s->game.board)) {
		out_error(s, OTEP_ERR_NONCRITICAL, "play %s: it is %s's move in the position",
			  otep_side_name(m->side), otep_side_name(otep_side_to_move(&s->game.board)));
		return;
	}
	s->play_pending = 1;
	s->play_side = m->side;
	struct timeval tv = { 0, OF_CLOCK_WAIT_MS * 1000 };
	evtimer_add(s->clock_ev, &tv);
}

static void cmd_analyze(struct otep_front *s, const struct otep_msg *m)
{
	struct engine_limits l;
	uint64_t ms = (uint64_t)m->seconds * 1000;

	if (!s->have_game) {
		out_error(s, OTEP_ERR_NONCRITICAL, "analyze: no game yet: send rules or position first");
		return;
	}
	if (hive_game_over(&s->game.board)) {
		out_error(s, OTEP_ERR_NONCRITICAL, "analyze: the game is over");
		return;
	}
	if (s->io.lim.max_think_ms && (ms == 0 || ms > s->io.lim.max_think_ms))
		ms = s->io.lim.max_think_ms;
	memset(&l, 0, sizeof l);
	l.infinite = 1;               /* ended by stop_ev: OTEP gives seconds, not a clock */
	l.max_ms = s->io.lim.max_think_ms;
	s->analyze_n = m->number;
	s->nlines = 0;
	if (search_start(s, OF_ANALYZE, &l) == 0)
		session_io_arm_stop(&s->io, ms ? ms : 1000);
}

static void cmd_error(struct otep_front *s, const struct otep_msg *m)
{
	if (!s->have_game || s->sent_len != s->game.len || s->sent_hash != s->game.board.hash) {
		log_note(s->io.id, "otep: the host sent error %d for no move of ours", m->code);
		return;
	}
	/* The host refused our move: the play that follows searches again. Twice in
	 * the same position, the two sides do not play by the same rules. */
	if (++s->refused >= 2) {
		out_error(s, OTEP_ERR_CRITICAL, "the host refuses a legal move: rules disagree");
		s->refused = 0;
		return;
	}
	log_note(s->io.id, "otep: the host refused our move (error %d)", m->code);
}

static void cmd_finish(struct otep_front *s, const struct otep_msg *m)
{
	static const int states[] = {
		[OTEP_FINISH_DRAW] = HIVE_DRAW, [OTEP_FINISH_WHITE] = HIVE_WHITE_WINS,
		[OTEP_FINISH_BLACK] = HIVE_BLACK_WINS,
	};
	log_note(s->io.id, "otep: finish %d", m->code);
	if (m->code >= OTEP_FINISH_DRAW && m->code <= OTEP_FINISH_BLACK && s->io.lg && !s->io.lg->finished)
		live_finish(s->io.lg, states[m->code], "the host's finish");
	session_io_live_end(&s->io);
	s->refused = 0;
	s->play_pending = 0;
	evtimer_del(s->clock_ev);
	if (s->have_game)
		hive_game_free(&s->game);
	s->have_game = 0;
	engine_reset(s->io.engine);
}

static void cmd_goodbye(struct otep_front *s, const struct otep_msg *m)
{
	session_io_finish(&s->io, 1);
}

static void cmd_nothing(struct otep_front *s, const struct otep_msg *m)
{
	/* hello and side from the host: nothing to do (side matters only to engines
	 * that would analyse for one colour; evaluations are the side to move's). */
}

static void (*const of_cmds[OTEP_NCMDS])(struct otep_front *, const struct otep_msg *) = {
	[OTEP_HELLO] = cmd_nothing,
	[OTEP_RULES] = cmd_rules,
	[OTEP_POSITION] = cmd_game,
	[OTEP_SIDE] = cmd_nothing,
	[OTEP_CLOCK] = cmd_clock,
	[OTEP_ANALYZE] = cmd_analyze,
	[OTEP_PLAY] = cmd_play,
	[OTEP_MOVE] = cmd_game,
	[OTEP_ERROR] = cmd_error,
	[OTEP_OPPONENT_MOVE] = cmd_game,
	[OTEP_FINISH] = cmd_finish,
	[OTEP_GOODBYE] = cmd_goodbye,
};

static void session_command(struct otep_front *s, const char *line, size_t len)
{
	struct otep_msg m;
	char err[512];

	if (otep_msg_parse_max(line, len, s->io.lim.max_line, OTEP_FROM_HOST, &m, err, sizeof err) < 0) {
		log_note(s->io.id, "otep: line refused: %s", err);
		out_error(s, OTEP_ERR_NONCRITICAL, "%s", err);
	} else if (of_cmds[m.cmd]) {
		of_cmds[m.cmd](s, &m);
	}
	otep_msg_free(&m);
}

/* A line while play waits for its clock: the play goes first, the line after it. */
static void io_line(void *arg, char *line, size_t len)
{
	struct otep_front *s = arg;

	log_proto(s->io.id, LOG_CLIENT_IN, line, len);
	if (s->play_pending && (len < 6 || strncmp(line, "clock", 5) != 0 ||
				(line[5] != ' ' && line[5] != '\t'))) {
		free(s->held);
		s->held = malloc(len + 1);
		if (s->held) {
			memcpy(s->held, line, len + 1);
			s->held_len = len;
		}
		play_now(s);
		return;
	}
	session_command(s, line, len);
}

/* ---- input: the session_io hooks ---- */

static int io_ready(void *arg)
{
	struct otep_front *s = arg;

	if (s->busy != OF_IDLE)
		return 0;
	if (s->held) {
		/* Handled here, before the next line is read. */
		char *held = s->held;
		size_t n = s->held_len;
		s->held = NULL;
		session_command(s, held, n);
		free(held);
		return s->busy == OF_IDLE && !s->io.finishing;
	}
	return 1;
}

static int io_busy(void *arg)
{
	const struct otep_front *s = arg;
	return s->busy != OF_IDLE || s->play_pending;
}

static void io_too_long(void *arg)
{
	struct otep_front *s = arg;
	out_error(s, OTEP_ERR_NONCRITICAL, "line too long: more than %zu bytes, discarded",
		  s->io.lim.max_line);
}

static void io_eof(void *arg)
{
	struct otep_front *s = arg;
	log_note(s->io.id, "client EOF: goodbye");
}

static void io_finishing(void *arg)
{
	struct otep_front *s = arg;
	evtimer_del(s->clock_ev);
	s->play_pending = 0;
	if ((s->busy == OF_PLAY || s->busy == OF_ANALYZE) && s->io.engine)
		engine_stop(s->io.engine);
}

static int io_in_game(void *arg)
{
	const struct otep_front *s = arg;
	return s->have_game && !hive_game_over(&s->game.board);
}

static const struct session_io_ops otep_io_ops = {
	.ready = io_ready,
	.busy = io_busy,
	.in_game = io_in_game,
	.line = io_line,
	.too_long = io_too_long,
	.eof = io_eof,
	.finishing = io_finishing,
	.max_line_default = OTEP_LINE_MAX,
	.searching = io_searching,
};

static void otep_front_free(void *session)
{
	struct otep_front *s = session;

	if (!s)
		return;
	session_io_free(&s->io);       /* the engine first: it calls nothing afterwards */
	util_event_free(&s->clock_ev);
	if (s->have_game)
		hive_game_free(&s->game);
	free(s->held);
	free(s);
}

static void *otep_front_new(struct event_base *base, struct bufferevent *in, struct bufferevent *out,
			    unsigned id, const struct engine_profile *profile,
			    const struct session_limits *lim, front_closed_cb *closed, void *arg)
{
	struct otep_front *s = session_io_new(sizeof *s, base, in, out, id, profile, lim, &otep_io_ops,
					      closed, arg);
	char cause[256] = "";

	if (!s)
		return NULL;
	s->sent_len = (size_t)-1;
	if (!(s->clock_ev = evtimer_new(base, clock_event, s))) {
		otep_front_free(s);
		return NULL;
	}
	/* hello at once (the host's 5 seconds run); on stdio, once the engine has
	 * started, so that one that cannot start exits before saying anything. */
	if (!lim->start_failed)
		say_hello(s);
	int rc = session_io_start(&s->io, started_cb, s, cause, sizeof cause);
	if (rc == 0) {
		s->busy = OF_START;
	} else if (rc < 0) {
		log_note(id, "otep: no engine: %s", cause[0] ? cause : "?");
		say_hello(s);
	}
	return s;
}

static size_t otep_front_refusal(char *buf, size_t len, const char *why)
{
	int n = len > 1 ? otep_format_error(buf, len - 1, OTEP_FROM_ENGINE, OTEP_ERR_CRITICAL, why) : -1;
	if (n <= 0)
		return 0;
	buf[n++] = '\n';
	buf[n] = 0;
	return (size_t)n;
}

/* OTEP's row of the protocol table (bridge/protocol.h). A session ends by itself on
 * goodbye, input EOF, an I/O error or the idle time-out; a refused client gets
 * "error -1 WHY". */
const struct protocol protocol_otep = {
	.name = "otep",
	.title = "OTEP",
	.description = "the OpenTafl engine protocol carried over to Hive (docs/otep-hive.md)",
	.target = PROTOCOL_COMMAND,
	.stdio = 1,
	.engine_help = "an external OTEP engine: its .ini file, or a command line",
	.front = { .session_new = otep_front_new,
		   .session_free = otep_front_free, .refusal = otep_front_refusal },
	.back_new = otep_back_new,
	.back_check = otep_back_check,
	.check_engine = &otep_check_spec,
	.check_suite = otep_check_suite,
};
