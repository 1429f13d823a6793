/*
 * http_lobby.c: persons who play each other through the page, in the remote-play
 * lobbies (bridge/lobby/lobby.h) of the daemon's uhp-remote listeners. A web person
 * is a lobby client like a UHP connection: it joins, waits, takes a seat and acts
 * through seat_play and seat_resign, so the lobby stays the one referee and a web
 * person meets a UHP client as readily as another web person.
 *
 * A web seat is known to its page by a token of its own (never the lobby's resume
 * token, never shown to anyone else). Presence: a seat is there while an event
 * stream names it (/api/events?seat=TOKEN) or, with none, for WEB_IDLE_MS after its
 * last request. When the last stream closes the person has left: a waiting one
 * leaves the queue, a seated one is detached (seat_detach: the lobby's grace period,
 * then the game is lost) and comes back with its token (lobby_resume) by opening a
 * stream again or by /api/lobby/resume. A finished seat lingers while its page
 * looks, then is freed.
 *
 * Nothing here calls a lobby from weblobby_free: the lobbies may be gone already.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include <event2/event.h>

#include "bridge/http/http_int.h"
#include "bridge/live.h"
#include "bridge/lobby/lobby.h"
#include "bridge/log.h"
#include "bridge/util.h"

#define WEB_IDLE_MS        (30u * 1000u)
#define WEB_MAX_PER_PEER   4     /* waiting, playing or away, per peer address */
#define WEB_MAX_SEATS      128   /* every record, finished ones included */

enum wstate { W_WAITING, W_PLAYING, W_AWAY, W_OVER };
static const char *const wstate_name[] = { "waiting", "playing", "away", "over" };

struct wseat {
	struct weblobby   *w;
	char               token[WEB_TOKEN_LEN + 1];
	char               peer[64];
	struct lobby      *lb;
	char               lobby[64];
	unsigned           type;
	enum wstate        state;
	struct seat       *seat;          /* while playing */
	char               seat_token[64]; /* the lobby's, for lobby_resume */
	int                colour;        /* -1 until seated */
	unsigned           game;          /* the live id, 0 until seated */
	char               opponent[64];
	char               reason[300];
	unsigned           nstreams;
	int                leaving;       /* its last stream closed: a request is no stay */
	struct event      *absent;        /* nobody there: leave, detach or free */
	LIST_ENTRY(wseat)  link;          /* w->seats */
};

struct weblobby {
	struct event_base *base;
	LIST_HEAD(, wseat) seats;         /* newest first (empty when zeroed) */
	unsigned           nseats;
	void             (*notify)(void *arg, const char *token, const char *json);
	void              *arg;
};

static const struct seat_ops web_ops;

static int is_active(const struct wseat *ws)
{
	return ws->state != W_OVER;
}

static void wseat_free(struct wseat *ws)
{
	struct weblobby *w = ws->w;
	LIST_REMOVE(ws, link);
	w->nseats--;
	util_event_free(&ws->absent);
	free(ws);
}

static void absent_arm(struct wseat *ws, unsigned ms)
{
	struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 };
	evtimer_add(ws->absent, &tv);
}

static cJSON *seat_json(const struct wseat *ws)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "lobby", ws->lobby);
	cJSON_AddStringToObject(o, "state", wstate_name[ws->state]);
	cJSON_AddStringToObject(o, "type", hive_gametype_name(ws->type));
	if (ws->colour >= 0)
		cJSON_AddStringToObject(o, "color", ws->colour == HIVE_WHITE ? "w" : "b");
	else
		cJSON_AddNullToObject(o, "color");
	if (ws->game)
		cJSON_AddNumberToObject(o, "game", ws->game);
	else
		cJSON_AddNullToObject(o, "game");
	if (ws->opponent[0])
		cJSON_AddStringToObject(o, "opponent", ws->opponent);
	else
		cJSON_AddNullToObject(o, "opponent");
	cJSON_AddBoolToObject(o, "to_move", ws->state == W_PLAYING && ws->seat && seat_to_move(ws->seat));
	cJSON_AddStringToObject(o, "reason", ws->reason);
	return o;
}

/* The seat's page hears of its change on its event streams. */
static void wseat_notify(struct wseat *ws)
{
	if (!ws->nstreams || !ws->w->notify)
		return;
	cJSON *o = seat_json(ws);
	char *s = o ? cJSON_PrintUnformatted(o) : NULL;
	cJSON_Delete(o);
	if (s)
		ws->w->notify(ws->w->arg, ws->token, s);
	cJSON_free(s);
}

static void wseat_over(struct wseat *ws, const char *why)
{
	ws->state = W_OVER;
	ws->seat = NULL;
	snprintf(ws->reason, sizeof ws->reason, "%s", why);
	wseat_notify(ws);
	if (!ws->nstreams)
		absent_arm(ws, WEB_IDLE_MS);
}

/* --- what the lobby tells a web seat ------------------------------------------------ */

static void web_started(void *client, struct seat *seat)
{
	struct wseat *ws = client;
	ws->state = W_PLAYING;
	ws->seat = seat;
	ws->colour = seat_colour(seat);
	ws->game = seat_live_id(seat);
	snprintf(ws->seat_token, sizeof ws->seat_token, "%s", seat_token(seat));
	snprintf(ws->opponent, sizeof ws->opponent, "%s", seat_opponent(seat));
	log_note(0, "http: web seat of %s: game %u as %s against %s", ws->peer, ws->game,
		 ws->colour == HIVE_WHITE ? "white" : "black", ws->opponent);
	wseat_notify(ws);
}

static void web_moved(void *client, const char *move)
{
	wseat_notify(client);
}

static void web_ended(void *client, const char *why)
{
	wseat_over(client, why);
}

static const struct seat_ops web_ops = {
	.started = web_started,
	.moved = web_moved,
	.ended = web_ended,
};

/* --- presence --------------------------------------------------------------------- */

/* Some request or stream of the seat's page: it is there. */
static void wseat_seen(struct wseat *ws)
{
	if (!ws->nstreams && !ws->leaving && ws->state != W_AWAY)
		absent_arm(ws, WEB_IDLE_MS);
}

/* An away seat is told nothing by its game (seat_detach): one whose game was decided
 * meanwhile (the grace ran out, the opponent resigned, a flag fell) is over with the
 * result the live registry kept, rather than away, and counted active, until its own
 * timer at grace + 1 s. 1 if it is over now. */
static int wseat_settle(struct wseat *ws)
{
	if (ws->state != W_AWAY || !ws->game)
		return 0;
	const struct live_game *lg = live_find(ws->game);
	if (lg && !lg->finished && !lg->closed)
		return 0;
	char why[sizeof ws->reason];
	if (lg && lg->finished)
		snprintf(why, sizeof why, "%s %s", lg->state == HIVE_WHITE_WINS ? "1-0" :
			 lg->state == HIVE_BLACK_WINS ? "0-1" : "1/2-1/2", lg->reason);
	else
		snprintf(why, sizeof why, "the game ended while you were away");
	wseat_over(ws, why);
	return 1;
}

/* Takes a seat that was left back from the lobby: 0, or -1 (the game is over). */
static int wseat_resume(struct wseat *ws)
{
	struct lobby *lb = lobby_find(ws->lobby);
	struct seat *s = lb == ws->lb ? lobby_resume(lb, ws->seat_token, ws, &web_ops, NULL, 0) : NULL;
	if (!s) {
		if (!wseat_settle(ws))
			wseat_over(ws, "the game ended while you were away");
		return -1;
	}
	ws->seat = s;
	ws->state = W_PLAYING;
	/* Back: the timer set when it left would detach it again at grace + 1 s. */
	evtimer_del(ws->absent);
	ws->leaving = 0;
	wseat_seen(ws);
	log_note(0, "http: web seat of %s: back in game %u", ws->peer, ws->game);
	wseat_notify(ws);
	return 0;
}

static void on_absent(evutil_socket_t fd, short what, void *arg)
{
	struct wseat *ws = arg;
	ws->leaving = 0;
	switch (ws->state) {
	case W_WAITING:
		lobby_leave(ws->lb, ws);
		wseat_over(ws, "left the lobby");
		break;
	case W_PLAYING:
		log_note(0, "http: web seat of %s: left game %u", ws->peer, ws->game);
		seat_detach(ws->seat);
		ws->seat = NULL;
		ws->state = W_AWAY;
		/* The lobby decides the game after its grace; the record goes a little later. */
		absent_arm(ws, lobby_grace_ms(ws->lb) + 1000);
		break;
	case W_AWAY:
		if (wseat_settle(ws))
			break;      /* kept a while, for its page to read the result */
		ws->state = W_OVER;
		snprintf(ws->reason, sizeof ws->reason, "did not come back");
		/* fall through */
	case W_OVER:
		if (!ws->nstreams)
			wseat_free(ws);
		break;
	}
}

static struct wseat *wseat_find(struct weblobby *w, const char *token)
{
	if (!token || strlen(token) != WEB_TOKEN_LEN)
		return NULL;
	for (struct wseat *ws = LIST_FIRST(&w->seats); ws; ws = LIST_NEXT(ws, link))
		if (guard_token_eq(token, ws->token))
			return ws;
	return NULL;
}

int weblobby_stream_open(struct weblobby *w, const char *token)
{
	struct wseat *ws = wseat_find(w, token);
	if (!ws)
		return -1;
	ws->nstreams++;
	ws->leaving = 0;
	evtimer_del(ws->absent);
	if (ws->state == W_AWAY && !wseat_settle(ws))
		wseat_resume(ws);
	return 0;
}

int weblobby_seat_live(struct weblobby *w, const char *token)
{
	const struct wseat *ws = w ? wseat_find(w, token) : NULL;
	return ws && is_active(ws);
}

void weblobby_stream_closed(struct weblobby *w, const char *token)
{
	struct wseat *ws = wseat_find(w, token);
	if (!ws || !ws->nstreams)
		return;
	if (--ws->nstreams == 0 && ws->state != W_AWAY) {
		ws->leaving = ws->state != W_OVER;
		absent_arm(ws, ws->state == W_OVER ? WEB_IDLE_MS : 0);
	}
}

void weblobby_request_seat_event(struct weblobby *w, const char *token)
{
	struct wseat *ws = wseat_find(w, token);
	if (ws)
		wseat_notify(ws);
}

/* --- requests --------------------------------------------------------------------- */

static cJSON *err(int *status, int code, const char *why)
{
	cJSON *o = cJSON_CreateObject();
	*status = code;
	cJSON_AddStringToObject(o, "error", why);
	return o;
}

cJSON *weblobby_list(struct weblobby *w)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *a = cJSON_AddArrayToObject(o, "lobbies");
	static const char *const types[] = { "Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP",
					     "Base+LP", "Base+MLP" };
	for (struct lobby *lb = lobby_next(NULL); lb; lb = lobby_next(lb)) {
		if (strcmp(lobby_protocol(lb), "uhp-remote"))
			continue;
		char tc[64];
		cJSON *e = cJSON_CreateObject();
		lobby_time_control(lb, tc, sizeof tc);
		cJSON_AddStringToObject(e, "name", lobby_name(lb));
		cJSON_AddStringToObject(e, "time_control", tc);
		cJSON_AddNumberToObject(e, "grace_s", lobby_grace_ms(lb) / 1000.0);
		cJSON_AddNumberToObject(e, "waiting", lobby_waiting(lb));
		cJSON_AddNumberToObject(e, "games", lobby_games(lb));
		cJSON *t = cJSON_AddArrayToObject(e, "types");
		for (size_t i = 0; i < sizeof types / sizeof *types; i++)
			cJSON_AddItemToArray(t, cJSON_CreateString(types[i]));
		cJSON_AddItemToArray(a, e);
	}
	return o;
}

/* The oldest seat of peer waiting with no page watching it: its page is gone (or
 * never was), so it gives way to a new join of the same address. */
static struct wseat *wseat_stale(struct weblobby *w, const char *peer)
{
	struct wseat *old = NULL;
	for (struct wseat *ws = LIST_FIRST(&w->seats); ws; ws = LIST_NEXT(ws, link))
		if (ws->state == W_WAITING && !ws->nstreams && !strcmp(ws->peer, peer))
			old = ws;       /* newest first: the last one is the oldest */
	return old;
}

static cJSON *do_join(struct weblobby *w, const cJSON *b, const char *peer, int *status)
{
	struct join_req r;
	char bad[128];
	unsigned mine = 0, active = 0;
	char why[256] = "";

	if (body_join(b, &r, status, bad, sizeof bad) < 0)
		return err(status, *status, bad);
	struct lobby *lb = lobby_find(r.lobby);
	if (!lb || strcmp(lobby_protocol(lb), "uhp-remote"))
		return err(status, 404, "no such remote-play lobby");
	for (struct wseat *ws = LIST_FIRST(&w->seats); ws; ws = LIST_NEXT(ws, link)) {
		wseat_settle(ws);
		if (!is_active(ws))
			continue;
		active++;
		mine += !strcmp(ws->peer, peer);
	}
	/* At the address's cap, a seat nobody watches makes room for its own page. */
	struct wseat *stale = mine >= WEB_MAX_PER_PEER ? wseat_stale(w, peer) : NULL;
	if (stale) {
		log_note(0, "http: web seat of %s: leaves lobby %s for a newer join", peer, stale->lobby);
		lobby_leave(stale->lb, stale);
		wseat_over(stale, "left the lobby: a newer join from the same address took its place");
		mine--;
		active--;
	}
	if (mine >= WEB_MAX_PER_PEER)
		return err(status, 429, "too many web players from your address");
	if (active >= WEB_MAX_ACTIVE)
		return err(status, 429, "too many web players");
	/* Finished records make room first. */
	for (struct wseat *ws = LIST_FIRST(&w->seats), *next; ws && w->nseats >= WEB_MAX_SEATS; ws = next) {
		next = LIST_NEXT(ws, link);
		if (!is_active(ws) && !ws->nstreams)
			wseat_free(ws);
	}
	if (w->nseats >= WEB_MAX_SEATS)
		return err(status, 429, "too many web players");
	struct wseat *ws = calloc(1, sizeof *ws);
	if (!ws || !(ws->absent = evtimer_new(w->base, on_absent, ws))) {
		free(ws);
		return err(status, 500, "out of memory");
	}
	ws->w = w;
	ws->lb = lb;
	ws->type = r.type;
	ws->colour = -1;
	snprintf(ws->lobby, sizeof ws->lobby, "%s", lobby_name(lb));
	snprintf(ws->peer, sizeof ws->peer, "%s", peer);
	random_token(ws->token, WEB_TOKEN_LEN);
	LIST_INSERT_HEAD(&w->seats, ws, link);
	w->nseats++;
	if (lobby_join(lb, r.type, r.name, ws, &web_ops, why, sizeof why) < 0) {
		cJSON *o = err(status, 503, why[0] ? why : "the lobby is full");
		wseat_free(ws);
		return o;
	}
	log_note(0, "http: web seat of %s: %s waits in lobby %s", peer, r.name, ws->lobby);
	wseat_seen(ws);
	*status = 201;
	cJSON *o = seat_json(ws);
	cJSON_AddStringToObject(o, "token", ws->token);
	return o;
}

cJSON *weblobby_request(struct weblobby *w, const char *action, const cJSON *b, const char *peer,
			int *status)
{
	if (!strcmp(action, "join"))
		return do_join(w, b, peer, status);
	const char *tok;
	char bad[128];
	if (body_need_str(b, "token", BODY_WANT_TOKEN, &tok, status, bad, sizeof bad) < 0)
		return err(status, *status, bad);
	struct wseat *ws = wseat_find(w, tok);
	if (!ws)
		return err(status, 404, "no such seat (it ended, or was never yours)");
	wseat_settle(ws);
	wseat_seen(ws);
	*status = 200;
	if (!strcmp(action, "seat")) {
		/* nothing more: the answer is the seat */
	} else if (!strcmp(action, "cancel")) {
		if (ws->state != W_WAITING)
			return err(status, 409, "not waiting");
		lobby_leave(ws->lb, ws);
		wseat_over(ws, "cancelled");
	} else if (!strcmp(action, "resume")) {
		if (ws->state == W_AWAY)
			wseat_resume(ws);
		if (ws->state == W_OVER)
			return err(status, 410, ws->reason);
	} else if (!strcmp(action, "move")) {
		const cJSON *jm = cJSON_GetObjectItemCaseSensitive(b, "move");
		char why[256] = "";
		if (!cJSON_IsString(jm))
			return err(status, 400, "want {\"token\": TOKEN, \"move\": MOVESTRING}");
		if (ws->state != W_PLAYING)
			return err(status, 409, ws->state == W_AWAY ? "away: resume first" : "not in a game");
		switch (seat_play(ws->seat, jm->valuestring, why, sizeof why)) {
		case SEAT_OK:
			break;
		case SEAT_INVALID:
			return err(status, 422, why[0] ? why : "illegal move");
		case SEAT_NOT_TURN:
			return err(status, 409, "not your turn");
		case SEAT_OVER:
			return err(status, 409, "the game is over");
		}
	} else if (!strcmp(action, "resign")) {
		if (ws->state != W_PLAYING)
			return err(status, 409, "not in a game");
		seat_resign(ws->seat, "");
	} else {
		return err(status, 404, "no such action");
	}
	/* A move or a resignation may have ended the game and freed ws through its
	 * absent timer only later: ws is still valid here. */
	return seat_json(ws);
}

struct weblobby *weblobby_new(struct event_base *base,
			      void (*notify)(void *arg, const char *token, const char *json), void *arg)
{
	struct weblobby *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->base = base;
	w->notify = notify;
	w->arg = arg;
	return w;
}

void weblobby_free(struct weblobby *w)
{
	if (!w)
		return;
	while (!LIST_EMPTY(&w->seats))
		wseat_free(LIST_FIRST(&w->seats));
	free(w);
}
