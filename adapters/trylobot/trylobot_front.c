/*
 * trylobot_front.c: the bridge as a Trylobot "remote AI module". One session per TCP
 * connection from a Trylobot core: it reads "<N>#<json>" frames, answers Greetings
 * itself and every Choose Turn with the engine's move (bridge/engine.h), exactly one
 * frame per request and nothing else.
 *
 * Stateless per request: each Choose Turn is replayed from its turn_history, so both
 * colours and any number of interleaved games may share one connection.
 *
 * Think time when a request has no response_deadline (the real core never sends one):
 * the listener's think_time, or its depth, or else TRYLOBOT_FRONT_THINK_MS_DEFAULT.
 *
 * One request at a time: while the engine thinks, no further byte is taken off the
 * input buffer, and the bufferevent's read watermark stops reading from the peer, so
 * memory stays bounded whatever the client sends. Every request gets exactly one
 * frame back:
 *   - a frame that is not a request (bad JSON, unknown request_type, bad fields):
 *     json-socket's error frame {"success":false,"error":"Error: ..."}, as the real
 *     module server does, and the session goes on (the frame boundary is known);
 *   - a framing error (garbage or an oversized length in the header, invalid UTF-8):
 *     the same error frame, then the connection is closed once it is flushed.
 *     json-socket would discard its buffer and go on, but there is no delimiter to
 *     resynchronise on: the rest of the bad frame would be read as more headers and
 *     draw an error frame per TCP chunk. The real core hangs on an error frame
 *     anyway, so one answer and a close is the most useful thing to do;
 *   - a Choose Turn: always a Placement, Movement or Forfeit listed in its
 *     possible_turns, never a Special Ability (the real core rejects them all) and
 *     never an "error" key. When the engine's move cannot be sent (a pillbug throw,
 *     a move Trylobot does not list, an engine failure or time-out) the answer is
 *     the sendable move with the best one-ply score from the core's evaluation (the
 *     engine interface has no way to exclude a move from a search).
 * The client plumbing (back-pressure, idle time-out, EOF, closing) is the
 * session_io's (bridge/session_io.h); this file keeps the protocol.
 */
#include <event2/buffer.h>
#include <event2/event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adapters/trylobot/trylobot_back.h"
#include "adapters/trylobot/trylobot_check.h"
#include "adapters/trylobot/trylobot_codec.h"
#include "adapters/trylobot/trylobot_coords.h"
#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/live.h"
#include "bridge/log.h"
#include "bridge/protocol.h"
#include "bridge/session_io.h"
#include "bridge/version.h"
#include "bridge/util.h"
#include "core/game.h"
#include "core/search.h"

/* Bytes taken off the input buffer per push into the frame reader. */
#define READ_CHUNK       4096
/* Bytes that may wait in the input buffer while the engine thinks. */
#define READ_HIGH        65536
/* Extra time after the think time before the session asks the engine to stop. */
#define STOP_SLACK_MS    10
/* Think time when neither the request nor the listener gives one. */
#define TRYLOBOT_FRONT_THINK_MS_DEFAULT 1000
/* Share of a response_deadline budget kept back for the network and ourselves. */
#define DEADLINE_MARGIN_MS(b) (50 + (b) / 10)

enum busy { BUSY_NONE, BUSY_GREETING, BUSY_THINKING };

struct trylobot_front {
	struct session_io      io;           /* first (session_io_new): the client, the engine, closing */

	uint64_t               think_ms;     /* without a deadline */
	int                    depth;        /* fixed depth instead, 0 = none */

	struct tb_reader       rd;
	struct tb_parse_cache  pc;           /* the last turn_history, not parsed again */

	/* The request in flight (busy != BUSY_NONE). */
	enum busy              busy;
	struct tb_request      rq;
	int                    rp_now;       /* rp is this request's game */

	/* The game replayed for the last Choose Turn, kept for the next one: the core
	 * sends the whole history every time, and mostly it extends the last one. */
	struct tb_replay       rp;
	int                    have_rp;

	struct event          *abandon_ev;   /* no move in time: answer without it */
	int                    in_game;      /* the last Choose Turn listed moves */
	char                   live_gid[64]; /* its game_id: another one opens a new record */

	/* Answers that were the bridge's own move, not the engine's: said in the log,
	 * counted on the web page and in the next Greetings. */
	unsigned               subs;
	char                   sub_why[160]; /* the latest one's reason */
	int                    last_sub;     /* the latest answer was one */
};

/* Queues a frame (NULL: none could be built) for the client and logs it; consumes it. */
static void out_frame(struct trylobot_front *s, char *frame, size_t len)
{
	if (!frame) {
		/* Nothing sensible can be sent: the core will wait; say so in the log. */
		log_note(s->io.id, "cannot build an answer (out of memory)");
		return;
	}
	session_io_write(&s->io, frame, len);
	const char *json = strchr(frame, '#');
	json = json ? json + 1 : frame;
	log_proto(s->io.id, LOG_CLIENT_OUT, json, len - (size_t)(json - frame));
	free(frame);
}

/* Frames msg, queues it for the client and logs it; consumes msg. The ids it
 * carries are the request's, exactly as sent. */
static void out_msg(struct trylobot_front *s, cJSON *msg)
{
	size_t len = 0;
	char *frame = msg && !tb_echo_ids(msg, &s->rq) ? tb_frame_build(msg, &len) : NULL;
	cJSON_Delete(msg);
	out_frame(s, frame, len);
}

/* json-socket's error frame; msg is prefixed like JavaScript's Error.toString(). */
static void out_error(struct trylobot_front *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_error(struct trylobot_front *s, const char *fmt, ...)
{
	char msg[TB_ERR_MAX + 64];
	va_list ap;
	int n = snprintf(msg, sizeof msg, "Error: ");
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
	va_end(ap);
	out_msg(s, tb_error_json(msg));
}

/* A Choose Turn answer, printed straight (no cJSON tree: this is the hot path). */
static void out_turn(struct trylobot_front *s, const struct tb_turn *t)
{
	size_t len = 0;
	char *frame = tb_turn_answer_frame(t, &s->rq, &len);
	out_frame(s, frame, len);
}

/* Forgets the request in flight and takes the next one. */
static void request_done(struct trylobot_front *s)
{
	evtimer_del(s->io.stop_ev);
	evtimer_del(s->abandon_ev);
	tb_request_free(&s->rq);
	s->rp_now = 0;
	s->busy = BUSY_NONE;
	session_io_schedule(&s->io);
}

/*
 * Greetings.
 */

static void greet(struct trylobot_front *s, const char *failure)
{
	char long_name[192], desc[512];
	const char *pname = s->io.profile && s->io.profile->name ? s->io.profile->name : "builtin";
	const char *engine_id = s->io.engine && s->io.engine->id[0] ? s->io.engine->id : pname;
	struct tb_identity id = {
		.name = "hivebridge",
		.long_name = long_name,
		.version = version_string,
		.description = desc,
		.author = "hivebridge",
	};

	/* Never name an engine that is not answering: the core shows long_name as the
	 * player it plays against. */
	if (failure) {
		snprintf(long_name, sizeof long_name, "hivebridge: engine %s not answering", pname);
		snprintf(desc, sizeof desc, "Hive engine bridge; engine %s cannot play: %s", pname, failure);
	} else if (s->last_sub) {
		snprintf(long_name, sizeof long_name, "hivebridge: %s, not answering (the bridge answers for it)",
			 engine_id);
	} else {
		snprintf(long_name, sizeof long_name, "hivebridge: %s", engine_id);
	}
	if (!failure) {
		if (s->subs)
			snprintf(desc, sizeof desc, "Hive engine bridge playing with engine profile %s; "
				 "%u answer%s on this connection %s the bridge's own move, not the "
				 "engine's (the latest: %s)", pname, s->subs, s->subs == 1 ? "" : "s",
				 s->subs == 1 ? "was" : "were", s->sub_why);
		else
			snprintf(desc, sizeof desc, "Hive engine bridge playing with engine profile %s", pname);
	}
	cJSON *msg = tb_greetings_answer_json(&id, s->rq.request_id);
	/* A module that cannot play says so: the core then lists it INACTIVE. */
	if (msg && failure)
		cJSON_ReplaceItemInObjectCaseSensitive(msg, "active", cJSON_CreateFalse());
	out_msg(s, msg);
}

static void started_cb(void *arg, const struct engine_result *r)
{
	struct trylobot_front *s = arg;
	if (r->status != ENGINE_OK)
		log_note(s->io.id, "engine did not start: %s", r->message ? r->message : "?");
	greet(s, r->status == ENGINE_OK ? NULL : (r->message ? r->message : "engine failed"));
	request_done(s);
}

/* Returns 1 when the answer comes later (engine starting). */
static int cmd_greetings(struct trylobot_front *s)
{
	char cause[256] = "";
	struct engine *e = session_io_engine(&s->io, cause, sizeof cause);
	if (!e) {
		log_note(s->io.id, "no engine: %s", cause[0] ? cause : "?");
		greet(s, cause[0] ? cause : "cannot create the engine");
		return 0;
	}
	s->busy = BUSY_GREETING;
	if (engine_start(e, started_cb, s) < 0) {
		s->busy = BUSY_NONE;
		greet(s, "the engine cannot start now");
		return 0;
	}
	return 1;
}

/*
 * Choose Turn.
 */

/* One-ply score of m for the side to move: wins first, then the core's evaluation. */
static int one_ply_score(const struct hive_board *b, struct hive_move m)
{
	struct hive_board c = *b;
	struct hive_undo u;
	int side = hive_side_to_move(b);
	hive_board_do(&c, m, &u);
	switch (c.state) {
	case HIVE_WHITE_WINS:
		return side == HIVE_WHITE ? HIVE_SCORE_WIN : -HIVE_SCORE_WIN;
	case HIVE_BLACK_WINS:
		return side == HIVE_BLACK ? HIVE_SCORE_WIN : -HIVE_SCORE_WIN;
	case HIVE_DRAW:
		return 0;
	default:
		return -hive_evaluate(&c);
	}
}

/* The first sendable moves, up to max: how many there are (0: none, *t untouched;
 * else *t is the first). Cheap with a small max: no scores, no move generation. */
static size_t count_sendable(const struct trylobot_front *s, struct tb_turn *t, size_t max)
{
	return tb_replay_sendable(&s->rp, &s->rq.state.possible, t, max);
}

/* The sendable move with the best one-ply score into *t; how many sendable moves
 * there are (0: none, *t untouched). */
static size_t best_sendable(const struct trylobot_front *s, struct tb_turn *t)
{
	const struct hive_board *b = &s->rp.game.board;
	struct hive_move *moves = malloc(HIVE_MAX_MOVES * sizeof *moves);
	size_t n, count = 0;
	int best = 0;

	if (!moves)
		return 0;
	n = hive_board_moves(b, moves);
	for (size_t i = 0; i < n; i++) {
		struct tb_turn cand;
		if (tb_replay_answer(&s->rp, &s->rq.state.possible, moves[i], &cand, NULL, 0) != 1)
			continue;
		int score = one_ply_score(b, moves[i]);
		if (!count || score > best) {
			best = score;
			*t = cand;
		}
		count++;
	}
	free(moves);
	return count;
}

/* The first Placement or Movement Trylobot lists; 0 if there is none. */
static int first_listed(const struct tb_turns *possible, struct tb_turn *t)
{
	for (size_t i = 0; i < possible->n; i++) {
		if (possible->v[i].type == TB_PLACEMENT || possible->v[i].type == TB_MOVEMENT) {
			*t = possible->v[i];
			return 1;
		}
	}
	return 0;
}

/* Answers without the engine's move: the best sendable move by one ply if the game
 * was replayed, else the first listed one; Forfeit only if nothing can be sent. */
static void answer_fallback(struct trylobot_front *s, const char *why)
{
	struct tb_turn t;
	const char *what;
	memset(&t, 0, sizeof t);
	if (s->rp_now && best_sendable(s, &t)) {
		what = "the best sendable move by one ply";
	} else if (first_listed(&s->rq.state.possible, &t)) {
		what = "the first listed turn";
	} else {
		/* Only Special Abilities are listed: the real core rejects every answer. */
		t.type = TB_FORFEIT;
		what = "Forfeit (nothing sendable is listed)";
	}
	/* Never silent: the operator (stderr, the log), the page and the next
	 * Greetings are told that this move is not the engine's. */
	s->subs++;
	s->last_sub = 1;
	snprintf(s->sub_why, sizeof s->sub_why, "%s", why);
	log_warn(s->io.id, "substitution %u: %s; answering %s instead of the engine", s->subs, why, what);
	if (s->rp_now)
		live_substitution(s->io.lg, why);
	out_turn(s, &t);
}

static void bestmove_cb(void *arg, const struct engine_result *r)
{
	struct trylobot_front *s = arg;
	struct tb_turn t;
	char why[TB_ERR_MAX + 64], err[TB_ERR_MAX];

	evtimer_del(s->io.stop_ev);
	evtimer_del(s->abandon_ev);
	if (r->status != ENGINE_OK) {
		snprintf(why, sizeof why, "engine %s: %s", r->status == ENGINE_FAILED ? "failed" : "error",
			 r->message ? r->message : "?");
		answer_fallback(s, why);
	} else {
		/* The interface checked the move with the core; is it a turn Trylobot takes? */
		int rc = tb_replay_answer(&s->rp, &s->rq.state.possible, r->move, &t, err, sizeof err);
		if (rc == 1) {
			s->last_sub = 0;
			out_turn(s, &t);
		} else {
			char mv[HIVE_MOVESTR_MAX];
			hive_move_format(&s->rp.game.board, r->move, mv, sizeof mv);
			snprintf(why, sizeof why, "engine move %s cannot be sent: %s", mv,
				 rc == 0 ? err : "not legal");
			answer_fallback(s, why);
		}
	}
	request_done(s);
}

/* The engine did not answer in time: answer without it and drop it (engine_free
 * guarantees no late callback); the next request creates a fresh one. */
static void abandon_event(evutil_socket_t fd, short what, void *arg)
{
	struct trylobot_front *s = arg;
	if (s->busy != BUSY_THINKING)
		return;
	log_note(s->io.id, "engine gave no move in time: dropping it");
	session_io_drop_engine(&s->io);
	answer_fallback(s, "engine time-out");
	request_done(s);
}

static void arm(struct event *ev, uint64_t ms)
{
	struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 };
	evtimer_add(ev, &tv);
}

/* Whether every listed turn is a Forfeit (the only answer is then Forfeit). */
static int only_forfeit(const struct tb_turns *possible)
{
	for (size_t i = 0; i < possible->n; i++)
		if (possible->v[i].type != TB_FORFEIT)
			return 0;
	return possible->n > 0;
}

/* The replayed game on the web page: one record per game_id (a core plays many). */
static void live_follow(struct trylobot_front *s)
{
	const char *gid = s->rq.game_id ? s->rq.game_id : "";
	if (s->io.lg && strncmp(s->live_gid, gid, sizeof s->live_gid - 1) != 0)
		session_io_live_end(&s->io);
	snprintf(s->live_gid, sizeof s->live_gid, "%s", gid);
	session_io_live(&s->io, "trylobot", "core", &s->rp.game);
}

/* Returns 1 when the answer comes later (engine thinking). */
static int cmd_choose_turn(struct trylobot_front *s)
{
	const struct tb_turns *possible = &s->rq.state.possible;
	struct engine_limits l;
	struct tb_turn t;
	struct engine *e;
	char err[TB_ERR_MAX], why[TB_ERR_MAX + 32];
	char cause[200] = "";
	uint64_t soft = 0, hard;

	/* The core keeps its connection open while its player thinks. */
	s->in_game = possible->n > 0;
	if (possible->n == 0) {
		/* possible_turns null: the game is over and nothing can be answered. */
		out_error(s, "Choose Turn: possible_turns is empty (is the game over?)");
		return 0;
	}
	if (only_forfeit(possible)) {
		memset(&t, 0, sizeof t);
		t.type = TB_FORFEIT;
		out_turn(s, &t);
		return 0;
	}
	if (tb_replay_sync(&s->rp, s->have_rp, &s->rq.state, err, sizeof err) < 0) {
		s->have_rp = 0;
		snprintf(why, sizeof why, "cannot replay the game: %s", err);
		answer_fallback(s, why);
		return 0;
	}
	s->have_rp = s->rp_now = 1;
	live_follow(s);
	if (hive_game_over(&s->rp.game.board)) {
		answer_fallback(s, "the game is over after turn_history");
		return 0;
	}
	size_t nsend = count_sendable(s, &t, 2);
	if (nsend == 0) {
		answer_fallback(s, "no legal move is listed in possible_turns");
		return 0;
	}
	if (nsend == 1) {
		out_turn(s, &t);          /* nothing to choose */
		return 0;
	}
	if (!(e = session_io_engine(&s->io, cause, sizeof cause))) {
		snprintf(why, sizeof why, "no engine: %s", cause[0] ? cause : "?");
		answer_fallback(s, why);
		return 0;
	}

	memset(&l, 0, sizeof l);
	uint64_t cmd_ms = s->io.profile && s->io.profile->command_timeout_ms ? s->io.profile->command_timeout_ms : 10000;
	if (s->rq.response_deadline > s->rq.request_timestamp && s->rq.request_timestamp > 0) {
		/* The core's clock: only the difference means anything here. */
		uint64_t budget = (uint64_t)(s->rq.response_deadline - s->rq.request_timestamp);
		/* The spec has no refusal for Choose Turn, and answering early is always
		 * allowed: a deadline beyond the listener's max_think_time is clamped. */
		if (s->io.lim.max_think_ms && budget > s->io.lim.max_think_ms)
			budget = s->io.lim.max_think_ms;
		uint64_t margin = DEADLINE_MARGIN_MS(budget);
		l.movetime_ms = budget > 2 * margin ? budget - margin : budget / 2;
		if (!l.movetime_ms)
			l.movetime_ms = 1;
		soft = l.movetime_ms + STOP_SLACK_MS;
		hard = budget > margin / 2 ? budget - margin / 2 : budget;
		if (hard < soft + STOP_SLACK_MS)
			hard = soft + STOP_SLACK_MS;
		/* The answer is due before the abandon: an engine that rounds its time
		 * or answers late is asked for less (UHP: whole seconds, rounded down). */
		l.deadline_ms = hard;
	} else if (s->depth > 0) {
		l.depth = s->depth;
		hard = cmd_ms;
	} else {
		l.movetime_ms = s->think_ms ? s->think_ms : 1;
		soft = l.movetime_ms + STOP_SLACK_MS;
		hard = l.movetime_ms + cmd_ms;
		/* No client deadline: think_time is used (UHP: whole seconds, rounded
		 * down, one at least), the profile's command_timeout is the grace. */
		l.deadline_ms = hard;
	}
	/* Bounded whatever the listener's own think_time or depth say. */
	if (s->io.lim.max_think_ms)
		l.max_ms = s->io.lim.max_think_ms > s->think_ms ? s->io.lim.max_think_ms : s->think_ms;
	s->busy = BUSY_THINKING;
	if (engine_go(e, &s->rp.game, &l, NULL, bestmove_cb, s) < 0) {
		s->busy = BUSY_NONE;
		answer_fallback(s, "the engine cannot search now");
		return 0;
	}
	if (soft)
		arm(s->io.stop_ev, soft);
	arm(s->abandon_ev, hard);
	return 1;
}

/* Handles one complete frame; returns 1 when its answer comes later. */
static int session_frame(struct trylobot_front *s, const char *json, size_t len)
{
	char err[TB_ERR_MAX];

	log_proto(s->io.id, LOG_CLIENT_IN, json, len);
	if (tb_request_parse_next(json, len, &s->rq, &s->pc, err, sizeof err) < 0) {
		log_note(s->io.id, "bad request: %s", err);
		out_error(s, "%s", err);
		return 0;
	}
	int later = s->rq.type == TB_REQ_GREETINGS ? cmd_greetings(s) : cmd_choose_turn(s);
	if (!later) {
		tb_request_free(&s->rq);
		s->rp_now = 0;
	}
	return later;
}

/* The session_io hooks: one request at a time, the input buffer is the queue. */
static int io_ready(void *arg)
{
	const struct trylobot_front *s = arg;
	return s->busy == BUSY_NONE;
}

/* Feeds up to one chunk of the input to the frame reader; a complete frame is
 * handled at once. */
static int io_input(void *arg, struct evbuffer *inb)
{
	struct trylobot_front *s = arg;
	size_t avail = evbuffer_get_length(inb);
	if (!avail)
		return 0;
	size_t take = avail < READ_CHUNK ? avail : READ_CHUNK;
	const unsigned char *p = evbuffer_pullup(inb, (ev_ssize_t)take);
	size_t used = 0;
	if (!p) {
		log_note(s->io.id, "out of memory reading input");
		session_io_finish(&s->io, 0);
		return -1;
	}
	int rc = tb_reader_push(&s->rd, p, take, &used);
	if (rc < 0) {
		char shown[48];
		/* From the offending byte (the last one consumed) on. */
		size_t at = used ? used - 1 : 0, k = take - at < 40 ? take - at : 40;
		snprintf(shown, sizeof shown, "%.*s", (int)k, (const char *)p + at);
		log_note(s->io.id, "framing error: %s", tb_reader_error(&s->rd));
		log_proto(s->io.id, LOG_CLIENT_IN, shown, strlen(shown));
		evbuffer_drain(inb, avail);
		out_error(s, "%s", tb_reader_error(&s->rd));
		session_io_finish(&s->io, 1);
		return -1;
	}
	if (rc == 1) {
		size_t flen;
		const char *frame = tb_reader_frame(&s->rd, &flen);
		/* The frame lives in the reader, not the evbuffer: drain first. */
		evbuffer_drain(inb, used);
		session_frame(s, frame, flen);
		return 1;
	}
	evbuffer_drain(inb, used);
	return 1;
}

static void io_eof(void *arg)
{
	struct trylobot_front *s = arg;
	if (!tb_reader_idle(&s->rd))
		log_note(s->io.id, "client closed inside a frame");
}

static int io_in_game(void *arg)
{
	const struct trylobot_front *s = arg;
	return s->in_game;
}

/* A Choose Turn is what the stop timer ends. */
static int io_searching(void *arg)
{
	const struct trylobot_front *s = arg;
	return s->busy == BUSY_THINKING;
}

static const struct session_io_ops trylobot_io_ops = {
	.ready = io_ready,
	.searching = io_searching,
	.in_game = io_in_game,
	.input = io_input,
	.eof = io_eof,
	.read_high = READ_HIGH,
};

static void trylobot_front_free(void *session)
{
	struct trylobot_front *s = session;

	if (!s)
		return;
	session_io_free(&s->io);       /* the engine first: it calls nothing afterwards */
	util_event_free(&s->abandon_ev);
	tb_reader_free(&s->rd);
	tb_parse_cache_free(&s->pc);
	tb_request_free(&s->rq);
	if (s->have_rp)
		tb_replay_free(&s->rp);
	free(s);
}

static void *trylobot_front_new(struct event_base *base, struct bufferevent *in,
				struct bufferevent *out, unsigned id,
				const struct engine_profile *profile,
				const struct session_limits *lim, front_closed_cb *closed,
				void *arg)
{
	struct trylobot_front *s = session_io_new(sizeof *s, base, in, out, id, profile, lim,
						  &trylobot_io_ops, closed, arg);

	if (!s)
		return NULL;
	/* The listener's think time (config think_time/depth) when the request has no deadline. */
	s->think_ms = lim->think_ms ? lim->think_ms : TRYLOBOT_FRONT_THINK_MS_DEFAULT;
	s->depth = lim->depth > 0 && lim->depth <= HIVE_MAX_PLY ? lim->depth : 0;
	/* Real histories grow past 64 KiB in long games: a frame may be as large as the
	 * larger of max_line and the codec's default bound. */
	tb_reader_init(&s->rd, lim->max_line > TB_FRAME_MAX_DEFAULT ? lim->max_line
								    : TB_FRAME_MAX_DEFAULT);
	if (!(s->abandon_ev = evtimer_new(base, abandon_event, s))) {
		trylobot_front_free(s);
		return NULL;
	}
	return s;
}

static size_t trylobot_front_refusal(char *buf, size_t len, const char *why)
{
	char msg[TB_ERR_MAX + 64];
	size_t n = 0;

	snprintf(msg, sizeof msg, "Error: %s", why);
	cJSON *o = tb_error_json(msg);
	char *frame = o ? tb_frame_build(o, &n) : NULL;
	cJSON_Delete(o);
	if (!frame || n >= len)
		n = 0;
	else
		memcpy(buf, frame, n + 1);
	free(frame);
	return n;
}

/* Trylobot's row of the protocol table (bridge/protocol.h). A session ends by itself
 * when the peer closes, on an I/O error or once a framing error is answered; a
 * refused client gets json-socket's error frame, "Error: WHY". */
const struct protocol protocol_trylobot = {
	.name = "trylobot",
	.title = "Trylobot",
	.description = "Trylobot's AI-module API: length-prefixed JSON frames over TCP",
	.target = PROTOCOL_ADDRESS,
	.default_port = 51337,         /* Trylobot's own default */
	.engine_help = "a Trylobot AI module",
	.front = { .session_new = trylobot_front_new, .session_free = trylobot_front_free,
		   .refusal = trylobot_front_refusal },
	.back_new = trylobot_back_new,
	.check_engine = &trylobot_check_spec,
};
