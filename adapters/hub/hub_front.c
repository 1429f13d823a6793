/*
 * hub_front.c: the bridge as a Hub engine (docs/hub-hive.md). The session owns the
 * canonical game; pos and level are answered from the core and the codec, go goes to
 * the engine through bridge/engine.h. The parameters (`hub`, `set-param`, the
 * engine's options) are hub_front_params.c; what both share is hub_front_int.h.
 *
 * Unlike UHP, Hub keeps reading during a search (ping, stop and ponder-hit must get
 * through), so the input is a queue only while an engine start or option command is
 * outstanding. Memory stays bounded: the read watermark holds one maximal line, input
 * pauses while the client leaves more than max_buffer of answers unread, and info
 * lines are dropped (never done) while it does. Every resumption and every close
 * goes through an event of the session_io (bridge/session_io.h, which has the
 * plumbing), so nothing re-enters the session from inside an engine call.
 */
#include <event2/event.h>
#include <stdlib.h>

#include "adapters/hub/hub_back.h"
#include "adapters/hub/hub_check.h"
#include "adapters/hub/hub_front_int.h"
#include "bridge/config.h"
#include "bridge/protocol.h"

/* go think with no level yet: the profile has no limit of its own, so this one. */
#define HF_DEFAULT_MOVETIME_MS 5000
/* Slack on top of move-time before the session itself asks the engine to stop. */
#define HF_STOP_SLACK_MS       50

/* ---- session plumbing ---- */

/* ---- search ---- */

/* The engine limits of a search of the given mode under the current level. */
static void search_limits(const struct hub_front *s, enum hub_go_mode mode, struct engine_limits *l)
{
	const struct hub_level *lv = &s->level;
	int side = hive_side_to_move(&s->game.board);

	memset(l, 0, sizeof *l);
	/* Every search ends by the listener's max_think_time, pondering and analysis too. */
	l->max_ms = s->io.lim.max_think_ms;
	if (mode == HUB_GO_PONDER) {
		l->infinite = 1;         /* the clock starts at ponder-hit */
		return;
	}
	if (!s->have_level) {
		if (mode == HUB_GO_ANALYZE)
			l->infinite = 1;
		else
			l->movetime_ms = HF_DEFAULT_MOVETIME_MS;
		return;
	}
	l->depth = lv->depth;
	l->nodes = lv->nodes;
	if (lv->has_move_time)
		l->movetime_ms = lv->move_time_ms ? lv->move_time_ms : 1;
	if (lv->has_time) {
		/* 0 would mean "no clock": an overrun clock still asks for a move now. */
		l->time_ms[side] = lv->time_ms ? lv->time_ms : 1;
		l->inc_ms[side] = lv->inc_ms;
		l->moves_to_go = lv->moves;
	}
	l->infinite = lv->infinite;
}

static void info_cb(void *arg, const struct hive_search_info *info);
static void search_done(void *arg, const struct engine_result *r);

/* Starts engine_go; 0, or -1 (nothing started). */
static int search_start(struct hub_front *s, enum hub_go_mode mode)
{
	struct engine_limits l;

	search_limits(s, mode, &l);
	s->t0_ms = now_ms();
	if (engine_go(s->io.engine, &s->game, &l, info_cb, search_done, s) < 0)
		return -1;
	if (l.movetime_ms && !l.infinite)
		session_io_arm_stop(&s->io, l.movetime_ms + HF_STOP_SLACK_MS);
	return 0;
}

static void info_cb(void *arg, const struct hive_search_info *info)
{
	struct hub_front *s = arg;
	struct hive_board b = s->game.board;
	char mvs[HIVE_MAX_PLY][HIVE_MOVESTR_MAX];
	const char *pv[HIVE_MAX_PLY];
	char line[HIVE_MAX_PLY * (HIVE_MOVESTR_MAX + 1) + 256];
	size_t n = 0;
	char why[128];

	if (s->busy != HF_SEARCH || s->io.finishing)
		return;
	s->last = *info;
	s->have_last = 1;
	live_analysis(s->io.lg, info);
	if (session_io_output_full(&s->io))
		return;          /* a client that does not read misses progress, not results */
	for (int i = 0; i < info->pvlen && i < HIVE_MAX_PLY; i++) {
		struct hive_move m;
		struct hive_undo u;
		if (!hive_board_find_move(&b, info->pv[i], &m))
			break;       /* the rest of the PV is not trustworthy */
		hive_move_format(&b, m, mvs[n], sizeof mvs[n]);
		pv[n] = mvs[n];
		n++;
		hive_board_do(&b, m, &u);
	}
	struct hub_info hi = {
		.depth = info->depth, .has_score = 1, .score_cp = info->score,
		.nodes = info->nodes, .has_time = 1, .time_ms = (uint64_t)(now_ms() - s->t0_ms),
		.pv = pv, .pvlen = n,
	};
	int len = hub_info_write(line, sizeof line, &hi, why, sizeof why);
	if (len < 0) {
		log_note(s->io.id, "hub: cannot write info: %s", why);
		return;
	}
	out_line(s, line, (size_t)len);
}

/* done move=... [ponder=...] for a legal move of the current position. */
static void out_done(struct hub_front *s, struct hive_move move)
{
	char mv[HIVE_MOVESTR_MAX], pd[HIVE_MOVESTR_MAX] = "", line[128], why[128];

	hive_move_format(&s->game.board, move, mv, sizeof mv);
	if (s->have_last && s->last.pvlen >= 2 && s->last.pv[0].piece == move.piece &&
	    s->last.pv[0].to == move.to) {
		struct hive_board b = s->game.board;
		struct hive_undo u;
		struct hive_move reply;
		hive_board_do(&b, move, &u);
		if (hive_board_find_move(&b, s->last.pv[1], &reply))
			hive_move_format(&b, reply, pd, sizeof pd);
	}
	int n = hub_done_write(line, sizeof line, mv, pd, why, sizeof why);
	if (n < 0) {
		log_note(s->io.id, "hub: cannot write done: %s", why);
		return;
	}
	out_line(s, line, (size_t)n);
}

/* The engine gave no usable move, but every go gets one done: the best move of the
 * last reported iteration, else the first legal move. */
static void out_done_fallback(struct hub_front *s)
{
	struct hive_move m, *moves;

	if (s->have_last && s->last.pvlen > 0 &&
	    hive_board_find_move(&s->game.board, s->last.pv[0], &m)) {
		out_done(s, m);
		return;
	}
	moves = malloc(HIVE_MAX_MOVES * sizeof *moves);
	if (moves && hive_board_moves(&s->game.board, moves) > 0)
		out_done(s, moves[0]);
	else
		log_note(s->io.id, "hub: no move to answer with");
	free(moves);
}

static void search_done(void *arg, const struct engine_result *r)
{
	struct hub_front *s = arg;
	evtimer_del(s->io.stop_ev);
	if (s->io.finishing) {
		s->busy = HF_IDLE;
		return;
	}
	if (s->restart && !s->stopping && r->status == ENGINE_OK) {
		/* ponder-hit: the same position, now with the clock running. */
		s->restart = 0;
		if (search_start(s, HUB_GO_THINK) == 0)
			return;
		log_note(s->io.id, "hub: cannot search again after ponder-hit; the pondering move stands");
	}
	s->restart = 0;
	if (r->status == ENGINE_OK) {
		out_done(s, r->move);      /* checked with the core by the interface */
	} else {
		out_error(s, "engine %s: %s", r->status == ENGINE_FAILED ? "failed" : "error",
			  r->message && *r->message ? r->message : "unknown error");
		out_done_fallback(s);
	}
	s->busy = HF_IDLE;
	session_io_schedule(&s->io);
}

/* ---- commands ---- */

static void cmd_init(struct hub_front *s, const struct hub_msg *m)
{
	out_str(s, "ready");
}

static void cmd_new_game(struct hub_front *s, const struct hub_msg *m)
{
	s->have_last = 0;
	engine_reset(s->io.engine);
	session_io_live_end(&s->io);   /* the next pos opens the new game on the web page */
	log_note(s->io.id, "hub: new game");
}

/* Plays a ';'-separated list of MoveStrings on g; -1 with the culprit in err. */
static int play_list(struct hive_game *g, const char *list, char *err, size_t errlen)
{
	const char *cur = list, *item;
	size_t len;
	char mv[64], why[256];
	struct hive_move m;

	while (hub_list_next(&cur, &item, &len)) {
		if (len >= sizeof mv) {
			snprintf(err, errlen, "invalid move '%.32s...': too long", item);
			return -1;
		}
		memcpy(mv, item, len);
		mv[len] = 0;
		int rc = hive_move_parse(&g->board, mv, &m, why, sizeof why);
		if (rc == HIVE_OK)
			rc = hive_game_play(g, m);
		if (rc == HIVE_ERR_NOMEM)
			snprintf(why, sizeof why, "out of memory");
		if (rc != HIVE_OK) {
			snprintf(err, errlen, "invalid move '%s': %s", mv, why);
			return -1;
		}
	}
	return 0;
}

static void cmd_pos(struct hub_front *s, const struct hub_msg *m)
{
	const char *pos = hub_msg_get(m, "pos"), *var = hub_msg_get(m, "variant");
	const char *moves = hub_msg_get(m, "moves");
	char err[512], list[256];
	unsigned type = s->variant;
	struct hive_game g;

	/* Whatever happens below, the previous position is gone. */
	if (s->have_pos)
		hive_game_free(&s->game);
	s->have_pos = 0;
	s->have_last = 0;
	if (var && hive_gametype_parse(var, &type) != 0) {
		hub_params_variants(list, sizeof list, ", ", " or ");
		out_error(s, "unknown variant '%.64s' (%s)", var, list);
		return;
	}
	hive_game_init(&g, type);
	if (pos) {
		if (hive_game_parse(&g, pos, err, sizeof err) != HIVE_OK) {
			out_error(s, "bad position: %s", err);
			hive_game_free(&g);
			return;
		}
		if (var && g.type != type) {
			out_error(s, "pos= is a %s game but variant= says %s", hive_gametype_name(g.type),
				  hive_gametype_name(type));
			hive_game_free(&g);
			return;
		}
	}
	if (moves && play_list(&g, moves, err, sizeof err) < 0) {
		out_error(s, "%s", err);
		hive_game_free(&g);
		return;
	}
	s->game = g;
	s->have_pos = 1;
	session_io_live(&s->io, "hub", "client", &s->game);
}

static void cmd_level(struct hub_front *s, const struct hub_msg *m)
{
	struct hub_level lv;
	char err[256];

	if (hub_level_parse(m, &lv, err, sizeof err) < 0) {
		out_error(s, "%s", err);
		return;
	}
	if (s->io.lim.max_depth && lv.depth > s->io.lim.max_depth) {
		out_error(s, "depth=%d is beyond this server's limit (%d)", lv.depth, s->io.lim.max_depth);
		return;
	}
	if (s->io.lim.max_think_ms && lv.has_move_time && lv.move_time_ms > s->io.lim.max_think_ms) {
		out_error(s, "move-time is beyond this server's limit (%u s)", s->io.lim.max_think_ms / 1000);
		return;
	}
	s->level = lv;
	s->have_level = 1;
}

static void cmd_go(struct hub_front *s, const struct hub_msg *m)
{
	enum hub_go_mode mode;
	char err[256], cause[256] = "";

	if (hub_go_parse(m, &mode, err, sizeof err) < 0) {
		out_error(s, "%s", err);
		return;
	}
	if (!s->have_pos) {
		out_error(s, "no position: send pos first");
		return;
	}
	if (hive_game_over(&s->game.board)) {
		out_error(s, "the game is over");
		return;
	}
	if (!session_io_engine(&s->io, cause, sizeof cause)) {
		out_error(s, "engine failed: %s", cause[0] ? cause : "cannot create it");
		return;
	}
	s->busy = HF_SEARCH;
	s->mode = mode;
	s->stopping = 0;
	s->restart = 0;
	s->have_last = 0;
	if (search_start(s, mode) < 0) {
		s->busy = HF_IDLE;
		out_error(s, "the engine cannot search now");
	}
}

static void cmd_ponder_hit(struct hub_front *s, const struct hub_msg *m)
{
	struct engine_limits l;

	if (s->busy != HF_SEARCH || s->mode != HUB_GO_PONDER || s->stopping)
		return;      /* it crossed the done on the wire */
	s->mode = HUB_GO_THINK;
	search_limits(s, HUB_GO_THINK, &l);
	if (l.infinite)
		return;      /* nothing to count: the search goes on until stop */
	/* The limits count from now: end the pondering search, then search again
	 * (the engine's tables keep most of the work). */
	s->restart = 1;
	engine_stop(s->io.engine);
}

static void cmd_stop(struct hub_front *s, const struct hub_msg *m)
{
	if (s->busy != HF_SEARCH || s->stopping)
		return;
	s->stopping = 1;
	s->restart = 0;
	engine_stop(s->io.engine);
}

static void cmd_ping(struct hub_front *s, const struct hub_msg *m)
{
	out_str(s, "pong");
}

static void cmd_quit(struct hub_front *s, const struct hub_msg *m)
{
	session_io_finish(&s->io, 1);
}

/* One table drives dispatch; in_search marks what a search lets through. */
static const struct hf_cmd {
	const char *name;
	int         in_search;
	void      (*run)(struct hub_front *s, const struct hub_msg *m);
} hf_cmds[] = {
	{ "hub", 0, hub_params_cmd_hub },
	{ "set-param", 0, hub_params_cmd_set },
	{ "init", 0, cmd_init },
	{ "new-game", 0, cmd_new_game },
	{ "pos", 0, cmd_pos },
	{ "level", 0, cmd_level },
	{ "go", 0, cmd_go },
	{ "ponder-hit", 1, cmd_ponder_hit },
	{ "stop", 1, cmd_stop },
	{ "ping", 1, cmd_ping },
	{ "quit", 1, cmd_quit },
};

/* The line hook: runs one command line. */
static void session_command(void *session, char *line, size_t len)
{
	struct hub_front *s = session;
	struct hub_msg m;
	char err[512];

	log_proto(s->io.id, LOG_CLIENT_IN, line, len);
	if (hub_line_parse_max(line, len, s->io.lim.max_line, &m, err, sizeof err) < 0) {
		out_error(s, "%s", err);
		hub_msg_free(&m);
		return;
	}
	const struct hf_cmd *c = NULL;
	for (size_t i = 0; i < sizeof hf_cmds / sizeof hf_cmds[0]; i++)
		if (!strcmp(hf_cmds[i].name, m.cmd))
			c = &hf_cmds[i];
	if (!c) {
		if (*m.cmd)
			log_note(s->io.id, "hub: unknown command '%.32s' ignored", m.cmd);
	} else if (s->busy == HF_SEARCH && !c->in_search) {
		out_error(s, "%s is not allowed during a search (only ping, ponder-hit and stop)",
			  c->name);
	} else {
		c->run(s, &m);
	}
	hub_msg_free(&m);
}

/* ---- input: the session_io hooks ---- */

/* Whether the next command may run now: a search lets some through. */
static int io_ready(void *arg)
{
	const struct hub_front *s = arg;
	return s->busy == HF_IDLE || s->busy == HF_SEARCH;
}

/* A go is what the stop timer ends (and closing). */
static int io_searching(void *arg)
{
	const struct hub_front *s = arg;
	return s->busy == HF_SEARCH;
}

static int io_busy(void *arg)
{
	const struct hub_front *s = arg;
	return s->busy != HF_IDLE;
}

static void io_too_long(void *arg)
{
	struct hub_front *s = arg;
	out_error(s, "line too long: more than %zu bytes, discarded", s->io.lim.max_line);
}

/* Input closed and fully read: as quit, even during a search (the GUI is gone). */
static void io_eof(void *arg)
{
	struct hub_front *s = arg;
	log_note(s->io.id, "client EOF: quit");
}

/* stdio: the input ended during a search. One with a limit ends by itself and its
 * done goes out; an endless one (analyze, ponder, level infinite) is stopped as by
 * stop, so that its done goes out too. */
static void io_eof_busy(void *arg)
{
	struct hub_front *s = arg;
	struct engine_limits l;

	if (s->busy != HF_SEARCH || s->stopping)
		return;
	search_limits(s, s->mode, &l);
	if (!l.infinite)
		return;
	log_note(s->io.id, "client EOF during an endless search: stop");
	cmd_stop(s, NULL);
}

/* Closing stops a search, whose done then goes nowhere. */
static void io_finishing(void *arg)
{
	struct hub_front *s = arg;
	if (io_searching(s) && s->io.engine)
		engine_stop(s->io.engine);
}

/* A position set and not over: a game in progress (idle time-outs). */
static int io_in_game(void *arg)
{
	const struct hub_front *s = arg;
	return s->have_pos && !hive_game_over(&s->game.board);
}

static const struct session_io_ops hub_io_ops = {
	.ready = io_ready,
	.searching = io_searching,
	.in_game = io_in_game,
	.busy = io_busy,
	.line = session_command,
	.too_long = io_too_long,
	.eof = io_eof,
	.eof_busy = io_eof_busy,
	.finishing = io_finishing,
	.max_line_default = HUB_LINE_MAX,
};

static void *hub_front_new(struct event_base *base, struct bufferevent *in, struct bufferevent *out,
			   unsigned id, const struct engine_profile *profile,
			   const struct session_limits *lim, front_closed_cb *closed, void *arg)
{
	struct hub_front *s = session_io_new(sizeof *s, base, in, out, id, profile, lim, &hub_io_ops,
					     closed, arg);
	char cause[256] = "";

	if (!s)
		return NULL;
	s->variant = HIVE_EXP_M | HIVE_EXP_L | HIVE_EXP_P;
	s->hash_mb = profile && profile->hash_mb ? profile->hash_mb : 16;
	s->hash_mb_max = profile && profile->hash_mb_max ? (int)profile->hash_mb_max : HF_HASH_MAX;
	if ((size_t)s->hash_mb_max < s->hash_mb)
		s->hash_mb_max = (int)s->hash_mb;

	/* The engine starts now, so that "hub" can list its options at once. */
	int rc = session_io_start(&s->io, hub_params_started, s, cause, sizeof cause);
	if (rc == 0)
		s->busy = HF_START;
	else if (rc < 0)
		log_note(id, "hub: no engine: %s", cause[0] ? cause : "?");
	return s;
}

static void hub_front_free(void *session)
{
	struct hub_front *s = session;

	if (!s)
		return;
	session_io_free(&s->io);       /* the engine first: it calls nothing afterwards */
	if (s->have_pos)
		hive_game_free(&s->game);
	hub_params_free(s);
	free(s);
}

/* One "error message=..." line: the answer to a client refused before any session. */
static size_t hub_front_refusal(char *buf, size_t len, const char *why)
{
	int n = len > 1 ? hub_error_write(buf, len - 1, why) : -1;
	if (n <= 0)
		return 0;
	buf[n++] = '\n';
	buf[n] = 0;
	return (size_t)n;
}

/* Hub's row of the protocol table (bridge/protocol.h). A session ends by itself on
 * quit, input EOF, an I/O error or the idle time-out; a refused client gets one
 * "error message=WHY" line. */
const struct protocol protocol_hub = {
	.name = "hub",
	.title = "Hub",
	.description = "Hub-style key=value lines (docs/hub-hive.md)",
	.target = PROTOCOL_COMMAND,
	.default_port = 5002,
	.stdio = 1,
	.engine_help = "an external Hub engine",
	.front = { .session_new = hub_front_new, .session_free = hub_front_free,
		   .refusal = hub_front_refusal },
	.back_new = hub_back_new,
	.check_engine = &hub_check_spec,
};
