/*
 * uhp_remote.c: remote play's viewer model (protocol uhp-remote, docs/remote-play.md):
 * a client speaks UHP, but its newgame asks the listener's lobby for an opponent
 * (another client, or the house engine) and its play is answered by the opponent's
 * move. The lobby (bridge/lobby/) keeps the game, the clocks and the referee; this
 * file is the protocol: the session, its commands and its row of the protocol table.
 *
 * An answer that waits for the opponent holds the session's input (session_io's
 * ready hook), like an engine command in uhp_front.c: the client's next command is
 * read once the answer is complete.
 */
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adapters/uhp/uhp_codec.h"
#include "adapters/uhp/uhp_out.h"
#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/lobby/lobby.h"
#include "bridge/log.h"
#include "bridge/protocol.h"
#include "bridge/session_io.h"
#include "bridge/util.h"
#include "bridge/version.h"
#include "core/game.h"

#define ERR_NOGAME  "err No game in progress. Try 'newgame' to ask for an opponent."
/* Slack on top of a hint's time before the session asks the engine to stop. */
#define HINT_STOP_SLACK_MS 10

enum rstate {
	R_IDLE,          /* no game: newgame, resume, info... */
	R_PAIRING,       /* newgame waits for an opponent */
	R_WAIT_START,    /* paired or resumed, the opponent to move: the answer is the
	                    seat line and the GameString once it is this client's turn */
	R_TURN,          /* in a game, this client to move */
	R_WAIT_MOVE,     /* play answered with the GameString, waits for the reply */
	R_HINT           /* bestmove (hints allowed) with the engine */
};

struct remote_session {
	struct session_io  io;                  /* first (uhp_out_too_long) */
	struct event_base *base;
	unsigned           id;
	const struct engine_profile *profile;   /* hints */
	struct lobby      *lb;
	enum rstate        st;
	struct seat       *seat;                /* NULL outside a game */
	char               name[32];            /* "remote#12" */
	char              *last_end;            /* how the last game ended (owned) */
	char              *final_gs;            /* its last GameString (owned) */
	int                in_command;          /* inside one of its commands */
	int                untold;              /* its game ended outside a command of its
	                                           own and nothing has said so yet */
	struct engine     *hint;                /* made on the first bestmove */
	struct hive_game   hint_game;           /* the position it searches */
	int                have_hint_game;
	struct event      *stop_ev;
};

/* The seat's GameString. */
static void out_gamestring(struct remote_session *s)
{
	char *gs = s->seat ? seat_gamestring(s->seat) : NULL;
	uhp_out_str(&s->io, gs ? gs : "err Out of memory.");
	free(gs);
}

/* The end of an answer that waited: the next command may be read. */
static void answer_done(struct remote_session *s, enum rstate next)
{
	uhp_out_str(&s->io, "ok");
	s->st = next;
	session_io_schedule(&s->io);
}

/* The answer of newgame and resume: the seat line, then the GameString. */
static void answer_seat(struct remote_session *s)
{
	char line[256];
	seat_describe(s->seat, line, sizeof line);
	uhp_out_str(&s->io, line);
	out_gamestring(s);
	answer_done(s, R_TURN);
}

/* --- what the lobby tells the session ------------------------------------------------ */

static void on_started(void *arg, struct seat *seat)
{
	struct remote_session *s = arg;
	s->seat = seat;
	if (seat_to_move(seat))
		answer_seat(s);
	else
		s->st = R_WAIT_START;
}

static void on_moved(void *arg, const char *move)
{
	struct remote_session *s = arg;
	if (s->st == R_WAIT_START) {
		answer_seat(s);
	} else if (s->st == R_WAIT_MOVE) {
		uhp_out_str(&s->io, move);
		out_gamestring(s);
		answer_done(s, R_TURN);
	}
}

static void on_ended(void *arg, const char *why)
{
	struct remote_session *s = arg;

	free(s->last_end);
	free(s->final_gs);
	s->last_end = xstrdup(why);
	s->final_gs = s->seat ? seat_gamestring(s->seat) : NULL;
	s->seat = NULL;
	switch (s->st) {
	case R_PAIRING:
		uhp_out_printf(&s->io, "err %s", why);
		answer_done(s, R_IDLE);
		break;
	case R_WAIT_START:
	case R_WAIT_MOVE:
		/* The opponent resigned, lost on time or left: no move comes. */
		uhp_out_printf(&s->io, "remote over %s", why);
		uhp_out_str(&s->io, s->final_gs ? s->final_gs : "err Out of memory.");
		answer_done(s, R_IDLE);
		break;
	case R_TURN:
		/* This client's own move or resignation, or its time: the command that
		 * caused it (or the next one) says so. */
		s->untold = !s->in_command;
		s->st = R_IDLE;
		break;
	case R_HINT:
		/* hint_done answers the bestmove; the next command says how it ended. */
		s->untold = 1;
		break;
	default:
		break;
	}
}

static const struct seat_ops remote_seat_ops = {
	.started = on_started,
	.moved = on_moved,
	.ended = on_ended,
};

/* --- commands -------------------------------------------------------------------- */

/* Answers the error when there is no game to play in; 1 when there is one. */
static int need_turn(struct remote_session *s)
{
	if (s->st == R_TURN)
		return 1;
	s->untold = 0;
	if (s->last_end)
		uhp_out_printf(&s->io, "err The game is over (%s). Try 'newgame' to ask for an opponent.", s->last_end);
	else
		uhp_out_str(&s->io, ERR_NOGAME);
	return 0;
}

/* Returns 1 when the answer waits for the opponent. */
static int cmd_newgame(void *session, const char *arg, size_t arg_len)
{
	struct remote_session *s = session;
	unsigned type = 0;
	char why[256];

	if (s->st == R_TURN) {
		uhp_out_str(&s->io, "err A game is in progress: play it, or resign it first.");
		return 0;
	}
	if (*arg && hive_gametype_parse(arg, &type) != HIVE_OK) {
		uhp_out_str(&s->io, "err The server sets up remote games: newgame takes a GameTypeString "
			   "(Base, Base+MLP...), not a GameString.");
		return 0;
	}
	if (lobby_join(s->lb, type, s->name, s, &remote_seat_ops, why, sizeof why) < 0) {
		uhp_out_printf(&s->io, "err %s", why);
		return 0;
	}
	free(s->last_end);
	s->last_end = NULL;
	s->untold = 0;
	s->st = R_PAIRING;
	return 1;
}

static int cmd_resume(void *session, const char *token, size_t arg_len)
{
	struct remote_session *s = session;
	char why[256];
	struct seat *seat;

	if (s->st == R_TURN) {
		uhp_out_str(&s->io, "err A game is in progress on this connection.");
		return 0;
	}
	if (!*token) {
		uhp_out_str(&s->io, "err Usage: resume TOKEN (the token of the 'remote' line).");
		return 0;
	}
	if (!(seat = lobby_resume(s->lb, token, s, &remote_seat_ops, why, sizeof why))) {
		uhp_out_printf(&s->io, "err %s", why);
		return 0;
	}
	s->seat = seat;
	free(s->last_end);
	s->last_end = NULL;
	s->untold = 0;
	if (seat_to_move(seat)) {
		char line[256];
		seat_describe(seat, line, sizeof line);
		uhp_out_str(&s->io, line);
		out_gamestring(s);
		s->st = R_TURN;
		return 0;
	}
	s->st = R_WAIT_START;
	return 1;
}

/* Returns 1 when the answer waits for the opponent. */
static int cmd_play(void *session, const char *move, size_t arg_len)
{
	struct remote_session *s = session;
	char err[512];

	if (!*move) {
		uhp_out_str(&s->io, UHP_ERR_INVALID);
		return 0;
	}
	if (!need_turn(s))
		return 0;
	switch (seat_play(s->seat, move, err, sizeof err)) {
	case SEAT_INVALID:
		uhp_out_printf(&s->io, "invalidmove %s", err);
		return 0;
	case SEAT_NOT_TURN:
		uhp_out_str(&s->io, "err It is not your turn.");
		return 0;
	case SEAT_OVER:
		uhp_out_printf(&s->io, "err The game is over (%s).", s->last_end ? s->last_end : "?");
		return 0;
	case SEAT_OK:
		break;
	}
	if (!s->seat) {
		/* The move ended the game: its last GameString says how. */
		uhp_out_str(&s->io, s->final_gs ? s->final_gs : "err Out of memory.");
		return 0;
	}
	out_gamestring(s);
	session_io_flush(&s->io);
	s->st = R_WAIT_MOVE;
	return 1;
}

static int cmd_resign(void *session, const char *reason, size_t arg_len)
{
	struct remote_session *s = session;
	if (!need_turn(s))
		return 0;
	seat_resign(s->seat, reason);
	uhp_out_str(&s->io, s->final_gs ? s->final_gs : "err Out of memory.");
	return 0;
}

static int cmd_validmoves(void *session, const char *arg, size_t arg_len)
{
	struct remote_session *s = session;
	struct hive_move *moves;
	struct sbuf b = { 0 };
	char mv[HIVE_MOVESTR_MAX];

	if (!need_turn(s))
		return 0;
	const struct hive_board *board = &seat_game(s->seat)->board;
	moves = xreallocarray(NULL, HIVE_MAX_MOVES, sizeof *moves);
	size_t n = hive_board_moves(board, moves);
	for (size_t i = 0; i < n; i++) {
		hive_move_format(board, moves[i], mv, sizeof mv);
		if (i)
			sbuf_add(&b, ";", 1);
		sbuf_str(&b, mv);
	}
	char *line = sbuf_take(&b);
	uhp_out_str(&s->io, line);
	free(line);
	free(moves);
	return 0;
}

static void hint_stop(evutil_socket_t fd, short what, void *arg)
{
	struct remote_session *s = arg;
	if (s->st == R_HINT && s->hint)
		engine_stop(s->hint);
}

static void hint_done(void *arg, const struct engine_result *r)
{
	struct remote_session *s = arg;
	char mv[HIVE_MOVESTR_MAX];

	evtimer_del(s->stop_ev);
	/* The interface checked the move with the core, on hint_game as given. */
	if (r->status == ENGINE_OK) {
		hive_move_format(&s->hint_game.board, r->move, mv, sizeof mv);
		uhp_out_str(&s->io, mv);
	} else {
		uhp_out_printf(&s->io, "err No hint: %s", r->message ? r->message : "the engine failed");
		/* After r is read: the result is the engine's own, freed with it. */
		if (r->status == ENGINE_FAILED) {
			engine_free(s->hint);
			s->hint = NULL;
		}
	}
	/* The game may have ended meanwhile (the clock runs during a hint). */
	answer_done(s, s->seat ? R_TURN : R_IDLE);
}

/* Returns 1 when the engine works on it. */
static int cmd_bestmove(void *session, const char *arg, size_t arg_len)
{
	struct remote_session *s = session;
	struct uhp_bestmove bm;
	struct engine_limits l;
	char cause[256] = "";

	if (!lobby_hints(s->lb)) {
		uhp_out_str(&s->io, "err Hints are off in remote games on this server: bestmove is not allowed.");
		return 0;
	}
	if (uhp_bestmove_parse(arg, arg_len, &bm) < 0) {
		uhp_out_str(&s->io, UHP_ERR_INVALID);
		return 0;
	}
	if (!need_turn(s))
		return 0;
	if (!s->hint && !(s->hint = engine_new(s->base, s->profile, cause, sizeof cause))) {
		uhp_out_printf(&s->io, "err No hint: %s", cause[0] ? cause : "no engine");
		return 0;
	}
	engine_set_log_id(s->hint, s->id);
	if (s->have_hint_game)
		hive_game_free(&s->hint_game);
	s->have_hint_game = hive_game_copy(&s->hint_game, seat_game(s->seat)) == HIVE_OK;
	if (!s->have_hint_game) {
		uhp_out_str(&s->io, "err Out of memory.");
		return 0;
	}
	memset(&l, 0, sizeof l);
	l.max_ms = s->io.lim.max_think_ms;
	if (bm.kind == UHP_BEST_DEPTH) {
		int d = bm.depth > 0 ? bm.depth : 1;
		l.depth = s->io.lim.max_depth && d > s->io.lim.max_depth ? s->io.lim.max_depth : d;
	} else {
		l.movetime_ms = bm.time_ms ? bm.time_ms : 1;
		if (s->io.lim.max_think_ms && l.movetime_ms > s->io.lim.max_think_ms)
			l.movetime_ms = s->io.lim.max_think_ms;
	}
	s->st = R_HINT;
	if (engine_go(s->hint, &s->hint_game, &l, NULL, hint_done, s) < 0) {
		s->st = R_TURN;
		uhp_out_str(&s->io, "err No hint: the engine cannot search now.");
		return 0;
	}
	if (l.movetime_ms && s->st == R_HINT && !s->hint->ops->keeps_time) {
		uint64_t ms = l.movetime_ms + HINT_STOP_SLACK_MS;
		struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 };
		evtimer_add(s->stop_ev, &tv);
	}
	return 1;
}

static int cmd_info(void *session, const char *arg, size_t arg_len)
{
	struct remote_session *s = session;

	uhp_out_printf(&s->io, "id hivebridge v%s (remote play)", version_string);
	uhp_out_str(&s->io, "Mosquito;Ladybug;Pillbug");
	return 0;
}

static int cmd_pass(void *session, const char *arg, size_t arg_len)
{
	struct remote_session *s = session;

	if (!arg_len)
		return cmd_play(s, "pass", 4);
	uhp_out_str(&s->io, UHP_ERR_INVALID);
	return 0;
}

static int cmd_undo(void *session, const char *arg, size_t arg_len)
{
	struct remote_session *s = session;
	uhp_out_str(&s->io, "err Moves cannot be taken back in a remote game.");
	return 0;
}

static int cmd_options(void *session, const char *arg, size_t arg_len)
{
	struct remote_session *s = session;
	uhp_out_str(&s->io, "err A remote game has no engine options.");
	return 0;
}

static int cmd_perft(void *session, const char *arg, size_t arg_len)
{
	struct remote_session *s = session;
	uhp_out_str(&s->io, "err perft is not available in remote play.");
	return 0;
}

/* The commands of remote play, in help's order: UHP's, and two words of its own. */
static const struct uhp_cmd_entry remote_cmds[] = {
	{ UHP_CMD_INFO,       "info",                                          cmd_info },
	{ UHP_CMD_NEWGAME,    "newgame [GameTypeString]   ask for an opponent", cmd_newgame },
	{ UHP_CMD_PLAY,       "play MoveString            your move; answered with the opponent's",
	  cmd_play },
	{ UHP_CMD_PASS,       "pass",                                          cmd_pass },
	{ UHP_CMD_UNKNOWN,    "resign [reason]",                               cmd_resign },
	{ UHP_CMD_UNKNOWN,    "resume TOKEN               take your seat back after a disconnection",
	  cmd_resume },
	{ UHP_CMD_VALIDMOVES, "validmoves",                                    cmd_validmoves },
	{ UHP_CMD_BESTMOVE,   "bestmove time hh:mm:ss | bestmove depth N   (when the server allows hints)",
	  cmd_bestmove },
	{ UHP_CMD_HELP,       "help",                                          NULL },
	{ UHP_CMD_EXIT,       "exit",                                          NULL },
	{ UHP_CMD_UNDO,       NULL,                                            cmd_undo },
	{ UHP_CMD_OPTIONS,    NULL,                                            cmd_options },
	{ UHP_CMD_PERFT,      NULL,                                            cmd_perft },
};

static void session_command(void *session, char *line, size_t len)
{
	struct remote_session *s = session;
	s->in_command = 1;
	uhp_out_command(&s->io, s, "Available commands (remote play):", remote_cmds,
			sizeof remote_cmds / sizeof remote_cmds[0], line, len);
	s->in_command = 0;
}

/* --- the session ----------------------------------------------------------------- */

static int io_ready(void *arg)
{
	const struct remote_session *s = arg;
	return s->st == R_IDLE || s->st == R_TURN;
}

/* This client's turn: a silence is measured against game_idle_timeout. */
static int io_in_game(void *arg)
{
	const struct remote_session *s = arg;
	return s->st == R_TURN;
}

static const struct session_io_ops remote_io_ops = {
	.ready = io_ready,
	.in_game = io_in_game,
	.line = session_command,
	.too_long = uhp_out_too_long,      /* io comes first in the session */
	.max_line_default = 65536,
};

static void remote_session_free(void *arg)
{
	struct remote_session *s = arg;
	if (!s)
		return;
	/* Out of the lobby first: nothing calls back into the session afterwards. */
	if (s->lb) {
		if (s->seat)
			seat_detach(s->seat);
		else if (s->st == R_PAIRING)
			lobby_leave(s->lb, s);
	}
	engine_free(s->hint);
	if (s->have_hint_game)
		hive_game_free(&s->hint_game);
	util_event_free(&s->stop_ev);
	session_io_free(&s->io);
	free(s->last_end);
	free(s->final_gs);
	free(s);
}

/* The daemon stops (its lobby aborted the games already): a client whose game ended
 * while it was to move, or thinking with a hint, is told as a waiting client is
 * ("remote over", the final GameString, "ok"); then the session closes once the
 * client has its answers or hangs up (session_io_shutdown; the grace bounds it). */
static void remote_session_shutdown(void *arg)
{
	struct remote_session *s = arg;

	if (s->st == R_HINT) {
		evtimer_del(s->stop_ev);
		engine_free(s->hint);     /* no callback fires afterwards */
		s->hint = NULL;
		s->st = R_IDLE;
	}
	if (s->untold && s->last_end) {
		uhp_out_printf(&s->io, "remote over %s", s->last_end);
		uhp_out_str(&s->io, s->final_gs ? s->final_gs : "err Out of memory.");
		uhp_out_str(&s->io, "ok");
		s->untold = 0;
	}
	log_note(s->id, "remote-play session closes: the server is shutting down");
	session_io_shutdown(&s->io);
}

static void *remote_session_new(struct event_base *base, struct bufferevent *in,
				struct bufferevent *out, unsigned id,
				const struct engine_profile *profile,
				const struct session_limits *lim, front_closed_cb *closed, void *arg)
{
	struct remote_session *s = calloc(1, sizeof *s);

	if (!s) {
		session_io_release(in, out);
		return NULL;
	}
	s->base = base;
	s->id = id;
	s->profile = profile;
	s->lb = lim->shared;
	snprintf(s->name, sizeof s->name, "remote#%u", id);
	if (session_io_init(&s->io, base, in, out, id, lim, &remote_io_ops, s, closed, arg) < 0 ||
	    !(s->stop_ev = evtimer_new(base, hint_stop, s)) || !s->lb) {
		s->lb = NULL;
		remote_session_free(s);
		return NULL;
	}
	log_note(id, "remote-play session opened");
	/* The info block, as a UHP engine greets its viewer. */
	uhp_out_printf(&s->io, "id hivebridge v%s (remote play)", version_string);
	uhp_out_str(&s->io, "Mosquito;Ladybug;Pillbug");
	uhp_out_str(&s->io, "ok");
	return s;
}

static void *remote_listener_new(struct event_base *base, const struct config *c,
				 const struct listener_conf *lc, char *err, size_t errlen)
{
	return lobby_new(base, c, lc, err, errlen);
}

static void remote_listener_free(void *lb)
{
	lobby_free(lb);
}

static void remote_listener_shutdown(void *lb, const char *reason)
{
	lobby_shutdown(lb, reason);
}

const struct protocol protocol_uhp_remote = {
	.name = "uhp-remote",
	.title = "UHP remote play",
	.description = "remote play, the viewer model: UHP whose newgame finds an opponent and "
		       "whose play is answered by the opponent's move",
	.target = PROTOCOL_ADDRESS,
	.front = { .session_new = remote_session_new, .session_free = remote_session_free,
		   .session_shutdown = remote_session_shutdown,
		   .refusal = uhp_out_refusal, .listener_new = remote_listener_new,
		   .listener_free = remote_listener_free,
		   .listener_shutdown = remote_listener_shutdown },
};
