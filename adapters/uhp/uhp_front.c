/*
 * uhp_front.c: one UHP session. The session owns the canonical game; every command
 * is answered from the core, except bestmove and options, which go to the engine.
 *
 * Commands are answered strictly in order: the input buffer is the queue. While an
 * engine command is outstanding no further line is read from it, and the
 * bufferevent's read watermark stops reading from the peer once one maximal line is
 * buffered, so memory stays bounded whatever the client sends. Every callback that
 * resumes work goes through the session_io's process event, so nothing re-enters the
 * session from inside an engine call, and closing always happens from the top of the
 * loop (bridge/session_io.h has the plumbing; this file keeps the protocol).
 */
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/uhp/uhp_back.h"
#include "adapters/uhp/uhp_check.h"
#include "adapters/uhp/uhp_codec.h"
#include "adapters/uhp/uhp_out.h"
#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/live.h"
#include "bridge/log.h"
#include "bridge/protocol.h"
#include "bridge/search_pool.h"
#include "bridge/session_io.h"
#include "bridge/util.h"
#include "bridge/version.h"
#include "core/game.h"

/* perft refuses a depth whose interior nodes (the previous depth's count) pass this;
 * it runs on the search pool, stops when the client goes and by max_think_time. */
#define PERFT_MAX_NODES  4000000ull
/* Slack on top of a bestmove time before the session itself asks the engine to stop. */
#define STOP_SLACK_MS    10

#define ERR_NOGAME   "err No game in progress. Try 'newgame' to start a new game."
#define ERR_GAMEOVER "err The game is over. Try 'newgame' to start a new game."

enum busy { BUSY_NONE, BUSY_START, BUSY_BESTMOVE, BUSY_OPTIONS, BUSY_PERFT };

struct uhp_front {
	struct session_io      io;           /* first (session_io_new, uhp_out_too_long); client, engine, closing */

	struct hive_game       game;
	int                    have_game;

	enum busy              busy;         /* engine command outstanding */

	struct perft_job      *perft;        /* on the search pool; made on first use */
	struct event          *perft_done_ev;
	char                  *opt_argv[3];  /* options command in flight, owned */
};

static void out_gamestring(struct uhp_front *s)
{
	/* The game changed (newgame, play, undo): the web page's copy follows. */
	session_io_live(&s->io, "uhp", "client", &s->game);
	size_t n = hive_game_format(&s->game, NULL, 0);
	char *buf = malloc(n + 1);
	if (!buf) {
		uhp_out_str(&s->io, "err Out of memory.");
		return;
	}
	hive_game_format(&s->game, buf, n + 1);
	uhp_out_line(&s->io, buf, n);
	free(buf);
}

static void out_info(struct uhp_front *s)
{
	if (s->io.engine && s->io.engine->id[0])
		uhp_out_printf(&s->io, "id %s", s->io.engine->id);
	else
		uhp_out_printf(&s->io, "id hivebridge v%s", version_string);
	uhp_out_str(&s->io, s->io.engine && (s->io.engine->caps[0] || s->io.engine->caps_known) ?
		    s->io.engine->caps : "Mosquito;Ladybug;Pillbug");
}

static void engine_failed(struct uhp_front *s, const char *why)
{
	uhp_out_printf(&s->io, "err Engine failed: %s", why && *why ? why : "unknown error");
}

/* Ends an engine command: answers ok and lets the next command run. */
static void engine_command_done(struct uhp_front *s)
{
	uhp_out_str(&s->io, "ok");
	s->busy = BUSY_NONE;
	session_io_schedule(&s->io);
}

static void started_cb(void *arg, const struct engine_result *r)
{
	struct uhp_front *s = arg;
	if (r->status != ENGINE_OK && session_io_start_failed(&s->io, r->message))
		return;
	out_info(s);
	if (r->status != ENGINE_OK)
		engine_failed(s, r->message);
	engine_command_done(s);
}

/* Prints one intermediate result like Mzinga: move;depth;score;pv... */
static void info_cb(void *arg, const struct hive_search_info *info)
{
	struct uhp_front *s = arg;
	struct hive_board b = s->game.board;
	char line[HIVE_MAX_PLY * (HIVE_MOVESTR_MAX + 1) + 64], mv[HIVE_MOVESTR_MAX];
	size_t n = 0;

	if (info->pvlen < 1 || s->busy != BUSY_BESTMOVE)
		return;
	live_analysis(s->io.lg, info);
	for (int i = 0; i < info->pvlen && i < HIVE_MAX_PLY; i++) {
		struct hive_move m;
		struct hive_undo u;
		if (!hive_board_find_move(&b, info->pv[i], &m))
			break;
		hive_move_format(&b, m, mv, sizeof mv);
		if (i == 0)
			n += (size_t)snprintf(line + n, sizeof line - n, "%s;%d;%.2f", mv, info->depth,
					      info->score / 100.0);
		n += (size_t)snprintf(line + n, sizeof line - n, ";%s", mv);
		hive_board_do(&b, m, &u);
		if (n >= sizeof line)
			return;
	}
	if (n)
		uhp_out_line(&s->io, line, n);
}

static void bestmove_cb(void *arg, const struct engine_result *r)
{
	struct uhp_front *s = arg;
	char mv[HIVE_MOVESTR_MAX];

	evtimer_del(s->io.stop_ev);
	if (r->status == ENGINE_OK) {
		/* The interface checked it with the core (the game waited meanwhile). */
		hive_move_format(&s->game.board, r->move, mv, sizeof mv);
		uhp_out_str(&s->io, mv);
	} else if (r->status == ENGINE_FAILED) {
		engine_failed(s, r->message);
	} else {
		uhp_out_printf(&s->io, "err %s", r->message ? r->message : "The engine refused the command.");
	}
	engine_command_done(s);
}

static void options_cb(void *arg, const struct engine_result *r)
{
	struct uhp_front *s = arg;

	for (int i = 0; i < 3; i++) {
		free(s->opt_argv[i]);
		s->opt_argv[i] = NULL;
	}
	if (r->status == ENGINE_OK) {
		for (const char **l = r->lines; l && *l; l++)
			uhp_out_str(&s->io, *l);
	} else if (r->status == ENGINE_FAILED) {
		engine_failed(s, r->message);
	} else {
		uhp_out_printf(&s->io, "err %s", r->message ? r->message : "The engine refused the command.");
	}
	engine_command_done(s);
}

/* Whether the game exists and is not over; answers the error otherwise. */
static int need_live_game(struct uhp_front *s)
{
	if (!s->have_game) {
		uhp_out_str(&s->io, ERR_NOGAME);
		return 0;
	}
	if (hive_game_over(&s->game.board)) {
		uhp_out_str(&s->io, ERR_GAMEOVER);
		return 0;
	}
	return 1;
}

static int cmd_newgame(void *session, const char *arg, size_t arg_len)
{
	struct uhp_front *s = session;
	struct hive_game g;
	char err[512];
	int rc;

	hive_game_init(&g, 0);
	rc = *arg ? hive_game_parse(&g, arg, err, sizeof err) : HIVE_OK;
	if (rc != HIVE_OK) {
		hive_game_free(&g);
		uhp_out_printf(&s->io, "err %s", err);
		return 0;
	}
	if (s->have_game)
		hive_game_free(&s->game);
	s->game = g;
	s->have_game = 1;
	engine_reset(s->io.engine);
	out_gamestring(s);
	return 0;
}

static int cmd_play(void *session, const char *arg, size_t arg_len)
{
	struct uhp_front *s = session;
	struct hive_move m;
	char err[512];
	int rc;

	if (!*arg) {
		uhp_out_str(&s->io, UHP_ERR_INVALID);
		return 0;
	}
	if (!need_live_game(s))
		return 0;
	rc = hive_move_parse(&s->game.board, arg, &m, err, sizeof err);
	if (rc == HIVE_OK)
		rc = hive_game_play(&s->game, m);
	switch (rc) {
	case HIVE_OK:
		out_gamestring(s);
		break;
	case HIVE_ERR_GAMEOVER:
		uhp_out_str(&s->io, ERR_GAMEOVER);
		break;
	case HIVE_ERR_NOMEM:
		uhp_out_str(&s->io, "err Out of memory.");
		break;
	default:
		uhp_out_printf(&s->io, "invalidmove %s", err);
		break;
	}
	return 0;
}

static int cmd_validmoves(void *session, const char *arg, size_t arg_len)
{
	struct uhp_front *s = session;
	struct hive_move *moves;
	char *buf, mv[HIVE_MOVESTR_MAX];
	size_t n, len = 0;

	if (arg_len) {
		uhp_out_str(&s->io, UHP_ERR_INVALID);
		return 0;
	}
	if (!need_live_game(s))
		return 0;
	moves = malloc(HIVE_MAX_MOVES * sizeof *moves);
	buf = malloc(HIVE_MAX_MOVES * (HIVE_MOVESTR_MAX + 1) + 1);
	if (!moves || !buf) {
		free(moves);
		free(buf);
		uhp_out_str(&s->io, "err Out of memory.");
		return 0;
	}
	n = hive_board_moves(&s->game.board, moves);
	for (size_t i = 0; i < n; i++) {
		hive_move_format(&s->game.board, moves[i], mv, sizeof mv);
		len += (size_t)sprintf(buf + len, "%s%s", i ? ";" : "", mv);
	}
	uhp_out_line(&s->io, buf, len);
	free(moves);
	free(buf);
	return 0;
}

/* Returns 1 when the command went to the engine (the answer comes later). */
static int cmd_bestmove(void *session, const char *arg, size_t arg_len)
{
	struct uhp_front *s = session;
	struct uhp_bestmove bm;
	struct engine_limits l;
	struct engine *e;
	char cause[256] = "";

	if (uhp_bestmove_parse(arg, arg_len, &bm) < 0) {
		uhp_out_str(&s->io, UHP_ERR_INVALID);
		return 0;
	}
	if (!need_live_game(s))
		return 0;
	if (!(e = session_io_engine(&s->io, cause, sizeof cause))) {
		engine_failed(s, cause);
		return 0;
	}
	if (s->io.lim.max_depth && bm.kind == UHP_BEST_DEPTH && bm.depth > s->io.lim.max_depth) {
		uhp_out_printf(&s->io, "err Depth %d is beyond this server's limit of %d.", bm.depth,
			   s->io.lim.max_depth);
		return 0;
	}
	if (s->io.lim.max_think_ms && bm.kind == UHP_BEST_TIME && bm.time_ms > s->io.lim.max_think_ms) {
		uhp_out_printf(&s->io, "err A search of %llu s is beyond this server's limit of %u s.",
			   (unsigned long long)(bm.time_ms / 1000), s->io.lim.max_think_ms / 1000);
		return 0;
	}
	memset(&l, 0, sizeof l);
	l.max_ms = s->io.lim.max_think_ms;
	if (bm.kind == UHP_BEST_DEPTH) {
		l.depth = bm.depth > 0 ? bm.depth : 1;
	} else {
		/* 00:00:00 still asks for a move: the shortest search there is. */
		l.movetime_ms = bm.time_ms ? bm.time_ms : 1;
	}
	s->busy = BUSY_BESTMOVE;
	if (engine_go(e, &s->game, &l, info_cb, bestmove_cb, s) < 0) {
		s->busy = BUSY_NONE;
		engine_failed(s, "the engine cannot search now");
		return 0;
	}
	if (bm.kind == UHP_BEST_TIME && s->busy == BUSY_BESTMOVE)
		session_io_arm_stop(&s->io, l.movetime_ms + STOP_SLACK_MS);
	return 1;
}

static int cmd_undo(void *session, const char *arg, size_t arg_len)
{
	struct uhp_front *s = session;
	uint64_t n;

	if (uhp_undo_parse(arg, arg_len, &n) < 0) {
		uhp_out_str(&s->io, UHP_ERR_INVALID);
		return 0;
	}
	if (!s->have_game) {
		uhp_out_str(&s->io, ERR_NOGAME);
		return 0;
	}
	if (n < 1 || n > s->game.len || hive_game_undo(&s->game, (size_t)n) != HIVE_OK) {
		uhp_out_printf(&s->io, "err Unable to undo %llu moves.", (unsigned long long)n);
		return 0;
	}
	out_gamestring(s);
	return 0;
}

static int cmd_options(void *session, const char *arg, size_t arg_len)
{
	struct uhp_front *s = session;
	struct uhp_options_req o;
	struct engine *e;
	char cause[256] = "";
	int argc = 0;

	if (uhp_options_parse(arg, arg_len, &o) < 0) {
		uhp_out_str(&s->io, UHP_ERR_INVALID);
		return 0;
	}
	if (!(e = session_io_engine(&s->io, cause, sizeof cause))) {
		engine_failed(s, cause);
		return 0;
	}
	if (o.kind != UHP_OPTIONS_LIST) {
		s->opt_argv[argc++] = strdup(o.kind == UHP_OPTIONS_GET ? "get" : "set");
		s->opt_argv[argc++] = strndup(o.name, o.name_len);
		if (o.kind == UHP_OPTIONS_SET)
			s->opt_argv[argc++] = strndup(o.value, o.value_len);
		for (int i = 0; i < argc; i++) {
			if (!s->opt_argv[i]) {
				uhp_out_str(&s->io, "err Out of memory.");
				for (int j = 0; j < argc; j++) {
					free(s->opt_argv[j]);
					s->opt_argv[j] = NULL;
				}
				return 0;
			}
		}
	}
	s->busy = BUSY_OPTIONS;
	if (engine_options(e, argc, (const char **)s->opt_argv, options_cb, s) < 0) {
		s->busy = BUSY_NONE;
		for (int i = 0; i < 3; i++) {
			free(s->opt_argv[i]);
			s->opt_argv[i] = NULL;
		}
		engine_failed(s, "the engine cannot take options now");
		return 0;
	}
	return 1;
}

/* The perft's end (a pool worker): the loop prints it. */
static void perft_finished(void *arg)
{
	struct uhp_front *s = arg;
	event_active(s->perft_done_ev, EV_READ, 0);
}

static void perft_done(evutil_socket_t fd, short what, void *arg)
{
	struct uhp_front *s = arg;
	struct perft_job *p = s->perft;

	if (s->busy != BUSY_PERFT)
		return;
	search_pool_cancel(&p->job);      /* the worker may still be leaving it */
	for (int d = 0; d < p->reached; d++) {
		char line[128];
		hive_perft_format(line, sizeof line, d, p->count[d], p->us[d]);
		uhp_out_str(&s->io, line);
	}
	if (p->end == PERFT_TOO_BIG)
		uhp_out_printf(&s->io, "err perft(%d) would take too long here; use 'hivebridge perft'.", p->reached);
	else if (p->end != PERFT_DONE)
		uhp_out_printf(&s->io, "err perft(%d) stopped at this server's limit of %u s.", p->reached,
			   s->io.lim.max_think_ms / 1000);
	engine_command_done(s);
}

/* Returns 1 when the perft went to the pool (the answer comes later). */
static int cmd_perft(void *session, const char *arg, size_t arg_len)
{
	struct uhp_front *s = session;
	struct perft_job *p;
	int depth, max = PERFT_JOB_MAX_DEPTH;

	if (s->io.lim.max_depth && s->io.lim.max_depth < max)
		max = s->io.lim.max_depth;
	if (uhp_perft_parse(arg, arg_len, max, &depth) < 0) {
		uhp_out_printf(&s->io, "err Usage: perft DEPTH (0 to %d).", max);
		return 0;
	}
	if (!s->have_game) {
		uhp_out_str(&s->io, ERR_NOGAME);
		return 0;
	}
	if (!s->perft) {
		if (!(p = calloc(1, sizeof *p)) ||
		    !(s->perft_done_ev = event_new(s->io.base, -1, 0, perft_done, s))) {
			free(p);
			uhp_out_str(&s->io, "err Out of memory.");
			return 0;
		}
		p->done = perft_finished;
		p->arg = s;
		p->max_nodes = PERFT_MAX_NODES;
		s->perft = p;
	}
	p = s->perft;
	p->board = s->game.board;
	p->depth = depth;
	p->deadline_us = s->io.lim.max_think_ms ? now_us() + (int64_t)s->io.lim.max_think_ms * 1000 : 0;
	if (search_pool_perft(p) < 0) {
		uhp_out_str(&s->io, "err No thread to run perft on.");
		return 0;
	}
	s->busy = BUSY_PERFT;
	return 1;
}

static int cmd_info(void *session, const char *arg, size_t arg_len)
{
	out_info(session);
	return 0;
}

static int cmd_pass(void *session, const char *arg, size_t arg_len)
{
	struct uhp_front *s = session;

	if (arg_len)
		uhp_out_str(&s->io, UHP_ERR_INVALID);
	else
		cmd_play(s, "pass", 4);
	return 0;
}

/* UHP's commands, in help's order. */
static const struct uhp_cmd_entry uhp_cmds[] = {
	{ UHP_CMD_INFO,       "info",                                  cmd_info },
	{ UHP_CMD_NEWGAME,    "newgame [GameTypeString|GameString]",   cmd_newgame },
	{ UHP_CMD_PLAY,       "play MoveString",                       cmd_play },
	{ UHP_CMD_PASS,       "pass",                                  cmd_pass },
	{ UHP_CMD_VALIDMOVES, "validmoves",                            cmd_validmoves },
	{ UHP_CMD_BESTMOVE,   "bestmove time hh:mm:ss\nbestmove depth N", cmd_bestmove },
	{ UHP_CMD_UNDO,       "undo [MovesToUndo]",                    cmd_undo },
	{ UHP_CMD_OPTIONS,    "options [get OptionName | set OptionName OptionValue]", cmd_options },
	{ UHP_CMD_PERFT,      "perft DEPTH",                           cmd_perft },
	{ UHP_CMD_HELP,       "help",                                  NULL },
	{ UHP_CMD_EXIT,       "exit",                                  NULL },
};

/* The line hook: runs one command line (NUL-terminated, no newline). */
static void session_command(void *session, char *line, size_t len)
{
	struct uhp_front *s = session;

	uhp_out_command(&s->io, s, "Available commands:", uhp_cmds,
			sizeof uhp_cmds / sizeof uhp_cmds[0], line, len);
}

/* The session_io hooks: the input is the queue, held while the engine works. */
static int io_ready(void *arg)
{
	const struct uhp_front *s = arg;
	return s->busy == BUSY_NONE;
}

/* A game is in progress from newgame until it ends: its silence may last longer. */
static int io_in_game(void *arg)
{
	const struct uhp_front *s = arg;
	return s->have_game && !hive_game_over(&s->game.board);
}

/* A bestmove is what the stop timer ends. */
static int io_searching(void *arg)
{
	const struct uhp_front *s = arg;
	return s->busy == BUSY_BESTMOVE;
}

static const struct session_io_ops uhp_io_ops = {
	.ready = io_ready,
	.searching = io_searching,
	.in_game = io_in_game,
	.line = session_command,
	.too_long = uhp_out_too_long,      /* io comes first in the session */
	.max_line_default = 65536,
};

static void *uhp_front_new(struct event_base *base, struct bufferevent *in, struct bufferevent *out,
			   unsigned id, const struct engine_profile *profile,
			   const struct session_limits *lim, front_closed_cb *closed, void *arg)
{
	struct uhp_front *s = session_io_new(sizeof *s, base, in, out, id, profile, lim, &uhp_io_ops,
					     closed, arg);
	char cause[256] = "";

	if (!s)
		return NULL;

	/* The info block answers once the engine is ready; commands wait for it. */
	int rc = session_io_start(&s->io, started_cb, s, cause, sizeof cause);
	if (rc == 0) {
		s->busy = BUSY_START;
	} else if (rc < 0) {
		out_info(s);
		engine_failed(s, cause);
		uhp_out_str(&s->io, "ok");
	}
	return s;
}

static void uhp_front_free(void *session)
{
	struct uhp_front *s = session;

	if (!s)
		return;
	/* The engine first (session_io_free): it stops and joins any search, and calls
	 * nothing after; likewise a perft. */
	session_io_free(&s->io);
	if (s->perft) {
		search_pool_cancel(&s->perft->job);
		event_free(s->perft_done_ev);
		free(s->perft);
	}
	if (s->have_game)
		hive_game_free(&s->game);
	for (int i = 0; i < 3; i++)
		free(s->opt_argv[i]);
	free(s);
}

/* UHP's row of the protocol table (bridge/protocol.h), the first: the default. A
 * session prints the info block at once, and ends by itself on exit, EOF after the
 * last answer, an I/O error or the idle time-out. */
const struct protocol protocol_uhp = {
	.name = "uhp",
	.title = "UHP",
	.description = "the Universal Hive Protocol: text lines, each answer ended by \"ok\"",
	.target = PROTOCOL_COMMAND,
	.default_port = 5000,
	.stdio = 1,
	.engine_help = "an external UHP engine",
	.front = { .session_new = uhp_front_new, .session_free = uhp_front_free,
		   .refusal = uhp_out_refusal },
	.back_new = uhp_back_new,
	.check_suite = uhp_check_suite,
	.time_step_ms = 1000,        /* bestmove time hh:mm:ss */
};
