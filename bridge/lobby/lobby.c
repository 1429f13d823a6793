/*
 * lobby.c: remote play's games (see lobby.h): pairing, the canonical record, the
 * clocks, the referee, the house engine, disconnections and resumes, the results.
 *
 * A game is freed only from its own kick event, after every client was told it
 * ended, so that no callback ever runs on a freed game. Clients and engines act on
 * a game through its seats; nothing here writes to a socket.
 */
#include <cJSON.h>
#include <errno.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/lobby/lobby.h"
#include "bridge/lobby/lobby_int.h"
#include "bridge/live.h"
#include "bridge/log.h"
#include "bridge/referee.h"
#include "bridge/spectate.h"
#include "bridge/util.h"
#include "core/errbuf.h"

static const char *const colour_name[2] = { "White", "Black" };
static const char *const colour_word[2] = { "white", "black" };

/* Every lobby of the process, so that a uhp-spectate listener finds the one it
 * watches; the event loop is single-threaded. */
static LIST_HEAD(, lobby) lobbies = LIST_HEAD_INITIALIZER(lobbies);

static void game_kick(struct rgame *g)
{
	event_active(g->kick, EV_TIMEOUT, 1);
}

/* --- the end of a game ------------------------------------------------------------ */

const char *lobby_result_text(int state)
{
	return state == HIVE_WHITE_WINS ? "1-0" : state == HIVE_BLACK_WINS ? "0-1" :
	       state == HIVE_DRAW ? "1/2-1/2" : "*";
}

char *game_string(const struct rgame *g)
{
	if (!g->ref)
		return xstrdup(hive_gametype_name(g->type));    /* never went live */
	const struct hive_game *game = referee_game(g->ref);
	size_t n = hive_game_format(game, NULL, 0);
	char *s = malloc(n + 1);
	if (!s)
		return NULL;
	hive_game_format(game, s, n + 1);
	/* A game decided off the board (resigned, lost on time) says so in its state. */
	if (g->over && g->state != game->board.state && g->state >= HIVE_DRAW) {
		char *a = strchr(s, ';'), *b = a ? strchr(a + 1, ';') : NULL;
		if (b) {
			char *t = xasprintf("%.*s;%s%s", (int)(a - s), s, hive_state_name(g->state), b);
			free(s);
			s = t;
		}
	}
	return s;
}

/* One JSON line of schemas/match-result.json, flushed at once. */
static void game_record(struct rgame *g)
{
	struct lobby *lb = g->lb;
	char tc[64];
	if (!lb->results)
		return;
	size_t ntimes;
	const uint64_t *times = referee_times(g->ref, &ntimes);
	cJSON *o = cJSON_CreateObject();
	char *gs = game_string(g), *line = NULL;
	if (!o || !gs)
		goto out;
	lobby_conf_time_control(lb->o, tc, sizeof tc);
	cJSON_AddNumberToObject(o, "game", g->no);
	cJSON_AddStringToObject(o, "white", g->seat[0].name);
	cJSON_AddStringToObject(o, "black", g->seat[1].name);
	cJSON_AddStringToObject(o, "engine_a", "white");
	if (g->seat[0].id[0])
		cJSON_AddStringToObject(o, "white_id", g->seat[0].id);
	if (g->seat[1].id[0])
		cJSON_AddStringToObject(o, "black_id", g->seat[1].id);
	cJSON_AddStringToObject(o, "gamestring", gs);
	cJSON_AddStringToObject(o, "result", lobby_result_text(g->state));
	cJSON_AddStringToObject(o, "reason", g->reason);
	cJSON_AddNumberToObject(o, "plies", (double)referee_game(g->ref)->len);
	/* An aborted game ("*") has no score: nobody may count it. */
	if (g->state >= HIVE_DRAW)
		cJSON_AddNumberToObject(o, "a_score", g->state == HIVE_WHITE_WINS ? 1 :
					g->state == HIVE_BLACK_WINS ? 0 : 0.5);
	cJSON *t = cJSON_AddArrayToObject(o, "times_ms");
	for (size_t i = 0; t && i < ntimes; i++)
		cJSON_AddItemToArray(t, cJSON_CreateNumber((double)times[i]));
	cJSON_AddStringToObject(o, "source", "remote");
	cJSON_AddStringToObject(o, "listener", lb->lc->name);
	cJSON_AddStringToObject(o, "time_control", tc);
	if (!lb->o->move_time_ms) {
		cJSON *c = cJSON_AddArrayToObject(o, "clocks_ms");
		for (int i = 0; c && i < 2; i++)
			cJSON_AddItemToArray(c, cJSON_CreateNumber((double)referee_clock_ms(g->ref, i)));
	}
	line = cJSON_PrintUnformatted(o);
	if (!line || fprintf(lb->results, "%s\n", line) < 0 || fflush(lb->results) != 0)
		log_note(0, "lobby %s: game %u: cannot write the results file", lb->lc->name, g->no);
out:
	cJSON_Delete(o);
	free(gs);
	free(line);
}

static void seat_drop_engine(struct seat *s)
{
	engine_free(s->engine);
	s->engine = NULL;
	s->starting = 0;
}

/* Decides the game (state HIVE_*; a state below HIVE_DRAW aborts it without a
 * result, "*") and tells both sides; the game is freed later. The referee's end
 * comes here, and so does the end of a game that never went live. */
static void game_end(struct rgame *g, int state, const char *reason)
{
	char why[LOBBY_REASON_MAX + 16];

	if (g->over)
		return;
	g->over = 1;
	g->state = state;
	snprintf(g->reason, sizeof g->reason, "%s", reason);
	if (!g->ref)
		log_note(0, "lobby %s: game %u: %s (%s)", g->lb->lc->name, g->no, lobby_result_text(state), reason);
	if (g->live)
		game_record(g);
	spectators_end(g);
	if (g->live || state < HIVE_DRAW)
		snprintf(why, sizeof why, "%s %s", lobby_result_text(state), reason);
	else
		snprintf(why, sizeof why, "%s", reason);
	for (int c = 0; c < 2; c++) {
		struct seat *s = &g->seat[c];
		evtimer_del(s->grace);
		if (s->engine && s->starting)
			seat_drop_engine(s);
		if (s->client) {
			void *client = s->client;
			s->client = NULL;
			s->ops->ended(client, why);
		}
	}
	game_kick(g);
}

/* The side loses: reason says why ("white resigned", ...). */
static void game_forfeit(struct rgame *g, int side, const char *reason)
{
	if (g->ref)
		referee_forfeit(g->ref, side, reason);
	else
		game_end(g, side == HIVE_WHITE ? HIVE_BLACK_WINS : HIVE_WHITE_WINS, reason);
}

/* --- the referee's hooks ------------------------------------------------------------ */

/* colour played move: the opponent's client (a connected engine has no moved) and the
 * spectators are told. */
static void game_moved(void *arg, int colour, const char *move)
{
	struct rgame *g = arg;
	struct seat *other = &g->seat[1 - colour];
	if (other->client && other->ops->moved)
		other->ops->moved(other->client, move);
	spectators_update(g);
}

static void game_ended(void *arg, const struct referee_result *res)
{
	game_end(arg, res->state, res->reason);
}

static const struct referee_ops game_referee_ops = {
	.moved = game_moved,
	.ended = game_ended,
};

static void on_grace(evutil_socket_t fd, short what, void *arg)
{
	struct seat *s = arg;
	char reason[64];
	if (s->g->over || s->client)
		return;
	snprintf(reason, sizeof reason, "%s disconnected", colour_word[s->colour]);
	game_forfeit(s->g, s->colour, reason);
}

/* --- starting and freeing games ----------------------------------------------------- */

static void game_free(struct rgame *g)
{
	struct lobby *lb = g->lb;
	LIST_REMOVE(g, link);
	lb->ngames--;
	/* First: it frees an engine busy with a search. */
	referee_free(g->ref);
	spectators_free(g);
	for (int c = 0; c < 2; c++) {
		engine_free(g->seat[c].engine);
		if (g->seat[c].grace)
			event_free(g->seat[c].grace);
	}
	if (g->kick)
		event_free(g->kick);
	free(g);
}

static void engine_started(void *arg, const struct engine_result *r)
{
	struct seat *s = arg;
	struct rgame *g = s->g;
	char why[LOBBY_REASON_MAX];

	s->starting = 0;
	if (r->status != ENGINE_OK) {
		snprintf(why, sizeof why, "aborted: the house engine did not start: %s",
			 r->message ? r->message : "no reason given");
		seat_drop_engine(s);
		game_end(g, HIVE_DRAW, why);
		return;
	}
	if (s->engine->id[0])
		snprintf(s->id, sizeof s->id, "%s", s->engine->id);
	game_kick(g);
}

/* Both sides are ready: the referee takes the game, with the lobby's clock (a house
 * engine gets LOBBY_ENGINE_SLACK_MS over its time for its protocol's overhead, UHP's
 * bestmove counting whole seconds; a client's time is its own). */
static int game_go_live(struct rgame *g)
{
	const struct lobby_conf *o = g->lb->o;
	char err[128];
	struct referee_conf c = {
		.base = g->lb->base,
		.rules = { .max_plies = o->max_plies, .repetition = o->repetition, .side_names = 1 },
		.live_kind = g->lb->lc->protocol ? g->lb->lc->protocol : "remote",
		.log_prefix = g->log_prefix,
		.archive = g->lb->conf->games_path,
		.ops = &game_referee_ops,
		.arg = g,
	};
	snprintf(g->log_prefix, sizeof g->log_prefix, "lobby %s: game %u", g->lb->lc->name, g->no);
	for (int i = 0; i < 2; i++) {
		struct seat *s = &g->seat[i];
		c.seat[i] = (struct referee_seat){
			.name = s->name,
			.engine = s->is_engine ? &s->engine : NULL,
			.clock_ms = o->clock_ms,
			.inc_ms = o->inc_ms,
			.move_ms = o->move_time_ms,
			.slack_ms = s->is_engine ? LOBBY_ENGINE_SLACK_MS : 0,
		};
	}
	if (!(g->ref = referee_new(&c, g->type, NULL, err, sizeof err)))
		return -1;
	g->live = 1;
	return 0;
}

/* The game's next step, from the loop: start the house engine, go live, or free. */
static void on_kick(evutil_socket_t fd, short what, void *arg)
{
	struct rgame *g = arg;

	if (g->over) {
		game_free(g);
		return;
	}
	if (g->live)
		return;
	for (int c = 0; c < 2; c++) {
		struct seat *s = &g->seat[c];
		if (s->is_engine && !s->started) {
			s->started = 1;
			s->starting = 1;
			if (engine_start(s->engine, engine_started, s) < 0) {
				s->starting = 0;
				game_end(g, HIVE_DRAW, "aborted: the house engine did not start");
			}
			return;
		}
	}
	if (game_go_live(g) < 0) {
		game_end(g, HIVE_DRAW, "aborted: out of memory");
		return;
	}
	log_note(0, "lobby %s: game %u starts: %s (White) - %s (Black)", g->lb->lc->name, g->no,
		 g->seat[0].name, g->seat[1].name);
	for (int c = 0; c < 2 && !g->over; c++)
		if (g->seat[c].client)
			g->seat[c].ops->started(g->seat[c].client, &g->seat[c]);
	if (!g->over)
		referee_start(g->ref);
}

/* A game of type between two seats, set up by the caller's fill; NULL when out of
 * memory or the lobby's games are all taken. */
static struct rgame *game_new(struct lobby *lb, unsigned type)
{
	struct rgame *g = calloc(1, sizeof *g);
	if (!g)
		return NULL;
	g->lb = lb;
	g->no = ++lb->next_no;
	g->type = type;
	g->kick = event_new(lb->base, -1, 0, on_kick, g);
	for (int c = 0; c < 2; c++) {
		g->seat[c].g = g;
		g->seat[c].colour = c;
		g->seat[c].grace = evtimer_new(lb->base, on_grace, &g->seat[c]);
	}
	LIST_INSERT_HEAD(&lb->games, g, link);
	lb->ngames++;
	if (!g->kick || !g->seat[0].grace || !g->seat[1].grace) {
		game_free(g);
		return NULL;
	}
	return g;
}

static void seat_client(struct seat *s, const char *name, void *client, const struct seat_ops *ops)
{
	snprintf(s->name, sizeof s->name, "%s", name);
	s->client = client;
	s->ops = ops;
	random_token(s->token, LOBBY_TOKEN_LEN);
}

/* The waiter takes seat s: a client, or a connected engine (started already),
 * which the seat owns from now on. */
static void seat_waiter(struct seat *s, struct waiter *w)
{
	seat_client(s, w->name, w->client, w->ops);
	if (w->engine) {
		s->token[0] = 0;         /* an engine is never resumed */
		s->is_engine = 1;
		s->started = 1;
		s->engine = w->engine;
		w->engine = NULL;
		if (s->engine->id[0])
			snprintf(s->id, sizeof s->id, "%s", s->engine->id);
	}
}

/* --- waiting for an opponent --------------------------------------------------------- */

static void waiter_free(struct waiter *w)
{
	struct lobby *lb = w->lb;
	LIST_REMOVE(w, link);
	lb->nwaiting--;
	if (w->timer)
		event_free(w->timer);
	engine_free(w->engine);
	free(w);
}

/* The waiter's time is up: the house engine takes it, or it gets no game. */
static void on_wait(evutil_socket_t fd, short what, void *arg)
{
	struct waiter *w = arg;
	struct lobby *lb = w->lb;
	char why[128];

	if (lb->house && lb->ngames < lb->o->max_games) {
		struct rgame *g = game_new(lb, w->type);
		char cause[96] = "";
		if (g) {
			/* House games alternate colours. */
			int c = (int)(lb->house_games++ & 1);
			struct seat *h = &g->seat[1 - c];
			seat_waiter(&g->seat[c], w);
			h->is_engine = 1;
			snprintf(h->name, sizeof h->name, "house:%s", lb->house->name);
			h->engine = engine_new(lb->base, lb->house, cause, sizeof cause);
			waiter_free(w);
			if (!h->engine) {
				snprintf(why, sizeof why, "aborted: the house engine: %s",
					 cause[0] ? cause : "cannot be created");
				game_end(g, HIVE_DRAW, why);
				return;
			}
			game_kick(g);
			return;
		}
	}
	void *client = w->client;
	const struct seat_ops *ops = w->ops;
	snprintf(why, sizeof why, "No opponent for %s came within %u s.", hive_gametype_name(w->type),
		 (lb->o->wait_ms + 999) / 1000);
	waiter_free(w);
	ops->ended(client, why);
}

/* A client (or, with e, a connected engine that lb takes) asks for a game. */
static int lobby_enter(struct lobby *lb, unsigned type, const char *name, struct engine *e,
		       void *client, const struct seat_ops *ops, char *err, size_t errlen)
{
	if (lb->closing)
		return errbuf_set(err, errlen, "%s", LOBBY_CLOSING);
	if (lb->ngames >= lb->o->max_games)
		return errbuf_set(err, errlen, "Too many games in progress (%u); try again later.",
				  lb->o->max_games);
	struct waiter *me = calloc(1, sizeof *me);
	if (!me || !(me->timer = evtimer_new(lb->base, on_wait, me))) {
		free(me);
		return errbuf_set(err, errlen, "Out of memory.");
	}
	me->lb = lb;
	me->client = client;
	me->ops = ops;
	me->type = type;
	snprintf(me->name, sizeof me->name, "%s", name);
	struct waiter *w;
	LIST_FOREACH(w, &lb->waiters, link) {
		if (w->type != type || w->client == client)
			continue;
		struct rgame *g = game_new(lb, type);
		if (!g)
			break;
		me->engine = e;
		/* The one who waited plays White. */
		seat_waiter(&g->seat[0], w);
		seat_waiter(&g->seat[1], me);
		waiter_free(w);
		event_free(me->timer);
		free(me);
		game_kick(g);
		return 0;
	}
	if (lb->nwaiting >= lb->o->max_waiting) {
		event_free(me->timer);
		free(me);
		return errbuf_set(err, errlen, "Too many players waiting (%u); try again later.",
				  lb->o->max_waiting);
	}
	me->engine = e;
	LIST_INSERT_HEAD(&lb->waiters, me, link);
	lb->nwaiting++;
	unsigned ms = lb->house && lb->o->house_wait_ms < lb->o->wait_ms ? lb->o->house_wait_ms
									  : lb->o->wait_ms;
	struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 };
	evtimer_add(me->timer, &tv);
	return 0;
}

int lobby_join(struct lobby *lb, unsigned type, const char *name, void *client,
	       const struct seat_ops *ops, char *err, size_t errlen)
{
	return lobby_enter(lb, type, name, NULL, client, ops, err, errlen);
}

int lobby_join_engine(struct lobby *lb, const char *name, struct engine *e, void *client,
		      const struct seat_ops *ops, char *err, size_t errlen)
{
	return lobby_enter(lb, lb->o->game_type, name, e, client, ops, err, errlen);
}

void lobby_leave(struct lobby *lb, void *client)
{
	struct waiter *w;
	LIST_FOREACH(w, &lb->waiters, link) {
		if (w->client == client) {
			waiter_free(w);
			return;
		}
	}
	/* Paired, but its game has not started yet (a house engine starting): no game. */
	struct rgame *g;
	LIST_FOREACH(g, &lb->games, link) {
		for (int c = 0; c < 2; c++) {
			if (!g->live && !g->over && g->seat[c].client == client) {
				g->seat[c].client = NULL;
				game_end(g, HIVE_DRAW, "aborted: a player left before the start");
				return;
			}
		}
	}
}

struct seat *lobby_resume(struct lobby *lb, const char *token, void *client,
			  const struct seat_ops *ops, char *err, size_t errlen)
{
	struct rgame *g;
	LIST_FOREACH(g, &lb->games, link) {
		for (int c = 0; c < 2; c++) {
			struct seat *s = &g->seat[c];
			if (s->is_engine || g->over || strcmp(s->token, token))
				continue;
			if (s->client) {
				errbuf_set(err, errlen, "That seat is in use by another connection.");
				return NULL;
			}
			evtimer_del(s->grace);
			s->client = client;
			s->ops = ops;
			log_note(0, "lobby %s: game %u: %s resumed", lb->lc->name, g->no, colour_word[c]);
			return s;
		}
	}
	errbuf_set(err, errlen, "No game in progress holds a seat for that token.");
	return NULL;
}

struct lobby *lobby_find(const char *name)
{
	struct lobby *lb;
	LIST_FOREACH(lb, &lobbies, reg)
		if (!strcmp(lb->lc->name, name))
			return lb;
	return NULL;
}

struct lobby *lobby_next(const struct lobby *lb)
{
	return lb ? LIST_NEXT(lb, reg) : LIST_FIRST(&lobbies);
}

const char *lobby_name(const struct lobby *lb)
{
	return lb->lc->name;
}

const char *lobby_protocol(const struct lobby *lb)
{
	return lb->lc->protocol ? lb->lc->protocol : "";
}

void lobby_time_control(const struct lobby *lb, char *buf, unsigned len)
{
	lobby_conf_time_control(lb->o, buf, len);
}

unsigned lobby_grace_ms(const struct lobby *lb)
{
	return lb->o->grace_ms;
}

unsigned lobby_waiting(const struct lobby *lb)
{
	return lb->nwaiting;
}

unsigned lobby_games(const struct lobby *lb)
{
	return lb->ngames;
}

struct spectate *lobby_spectate(struct lobby *lb)
{
	return lb->spectate;
}

int lobby_hints(const struct lobby *lb)
{
	return lb->o->hints;
}

/* --- seats ------------------------------------------------------------------------ */

enum seat_rc seat_play(struct seat *s, const char *move, char *err, size_t errlen)
{
	struct rgame *g = s->g;

	if (g->over)
		return SEAT_OVER;
	if (!g->live)
		return SEAT_NOT_TURN;
	switch (referee_play(g->ref, s->colour, move, err, errlen)) {
	case REFEREE_OK: return SEAT_OK;
	case REFEREE_INVALID: return SEAT_INVALID;
	case REFEREE_NOT_TURN: return SEAT_NOT_TURN;
	default: return SEAT_OVER;
	}
}

void seat_resign(struct seat *s, const char *reason)
{
	char why[LOBBY_REASON_MAX];
	if (s->g->over)
		return;
	snprintf(why, sizeof why, "%s resigned%s%.*s", colour_word[s->colour], *reason ? ": " : "",
		 LOBBY_REASON_MAX / 2, reason);
	game_forfeit(s->g, s->colour, why);
}

void seat_lost(struct seat *s, const char *why)
{
	char reason[LOBBY_REASON_MAX];
	if (s->g->over)
		return;
	snprintf(reason, sizeof reason, "%s %.*s", colour_word[s->colour], LOBBY_REASON_MAX / 2, why);
	game_forfeit(s->g, s->colour, reason);
}

void seat_detach(struct seat *s)
{
	unsigned ms = s->g->lb->o->grace_ms;
	struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 };

	s->client = NULL;
	if (s->g->over)
		return;
	log_note(0, "lobby %s: game %u: %s disconnected, seat held %u ms", s->g->lb->lc->name,
		 s->g->no, colour_word[s->colour], ms);
	evtimer_add(s->grace, &tv);
}

const struct hive_game *seat_game(const struct seat *s)
{
	return referee_game(s->g->ref);
}

int seat_to_move(const struct seat *s)
{
	/* Already while the clients are told the game started, before its clock runs. */
	return !s->g->over && s->g->live && hive_side_to_move(&referee_game(s->g->ref)->board) == s->colour;
}

char *seat_gamestring(const struct seat *s)
{
	return game_string(s->g);
}

int seat_colour(const struct seat *s)
{
	return s->colour;
}

const char *seat_token(const struct seat *s)
{
	return s->token;
}

const char *seat_opponent(const struct seat *s)
{
	return s->g->seat[1 - s->colour].name;
}

unsigned seat_live_id(const struct seat *s)
{
	struct live_game *lg = s->g->ref ? referee_live(s->g->ref) : NULL;
	return lg ? lg->id : 0;
}

void seat_describe(const struct seat *s, char *buf, size_t len)
{
	char tc[64];
	lobby_conf_time_control(s->g->lb->o, tc, sizeof tc);
	snprintf(buf, len, "remote game=%u color=%s token=%s opponent=%s timecontrol=%s", s->g->no,
		 colour_name[s->colour], s->token, s->g->seat[1 - s->colour].name, tc);
}

/* --- the lobby -------------------------------------------------------------------- */

void lobby_shutdown(struct lobby *lb, const char *reason)
{
	lb->closing = 1;
	struct waiter *w;
	while ((w = LIST_FIRST(&lb->waiters))) {
		void *client = w->client;
		const struct seat_ops *ops = w->ops;
		waiter_free(w);
		ops->ended(client, LOBBY_CLOSING);
	}
	/* game_end frees nothing (games go at their kick) and no game starts now. */
	struct rgame *g;
	LIST_FOREACH(g, &lb->games, link) {
		if (g->over)
			continue;
		if (!g->ref) {
			game_end(g, HIVE_NOT_STARTED, reason);
			continue;
		}
		log_note(0, "lobby %s: game %u aborted at ply %zu", lb->lc->name, g->no,
			 referee_game(g->ref)->len);
		referee_abort(g->ref, reason);
	}
}

struct lobby *lobby_new(struct event_base *base, const struct config *c,
			const struct listener_conf *lc, char *err, size_t errlen)
{
	struct lobby *lb = calloc(1, sizeof *lb);
	if (!lb) {
		errbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	lb->base = base;
	lb->conf = c;
	lb->lc = lc;
	lb->o = &lc->lobby;
	if (lb->o->house_engine && !(lb->house = config_profile(c, lb->o->house_engine))) {
		errbuf_set(err, errlen, "house_engine: no [engine %s]", lb->o->house_engine);
		free(lb);
		return NULL;
	}
	if (!(lb->spectate = spectators_new(lb))) {
		errbuf_set(err, errlen, "out of memory");
		free(lb);
		return NULL;
	}
	if (lb->o->results && !(lb->results = fopen(lb->o->results, "a"))) {
		errbuf_set(err, errlen, "results %s: cannot open: %s", lb->o->results, strerror(errno));
		spectate_free(lb->spectate);
		free(lb);
		return NULL;
	}
	LIST_INSERT_HEAD(&lobbies, lb, reg);
	return lb;
}

void lobby_free(struct lobby *lb)
{
	if (!lb)
		return;
	LIST_REMOVE(lb, reg);
	while (!LIST_EMPTY(&lb->waiters))
		waiter_free(LIST_FIRST(&lb->waiters));
	/* Sessions are gone by now: no client is told anything. */
	struct rgame *g;
	while ((g = LIST_FIRST(&lb->games))) {
		for (int c = 0; c < 2; c++)
			g->seat[c].client = NULL;
		game_free(g);
	}
	spectate_free(lb->spectate);
	if (lb->results)
		fclose(lb->results);
	free(lb);
}
