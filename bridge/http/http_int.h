/*
 * http_int.h: what the files of bridge/http/ share (http.c the server, routes and
 * Server-Sent Events; http_pos.c positions as JSON; http_play.c games against an
 * engine; http_assets.c the page). Not for use outside bridge/http/.
 */
#ifndef BRIDGE_HTTP_INT_H
#define BRIDGE_HTTP_INT_H

#include <stddef.h>
#include <cJSON.h>
#include "core/game.h"

struct event_base;
struct config;
struct live_game;

/* http_pos.c */
/* The position after ply plies of g (ply <= g->len): pieces with axial coordinates,
 * stacks, hands, whose turn, the last move and, while the game goes on, the legal
 * moves from the core. NULL on no memory. */
cJSON *pos_json(const struct hive_game *g, size_t ply);
/* The moves of g in UHP notation, as an array. */
cJSON *pos_moves_json(const struct hive_game *g);

/* http_play.c: games a person plays through the page against an engine profile. */
struct play;
struct play *play_new(struct event_base *base, const struct config *conf, unsigned max_games,
		      unsigned think_ms);
void play_free(struct play *p);
/* Starts a game; returns its live id, or 0 with an HTTP status and *why. */
unsigned play_start(struct play *p, const char *engine, const char *color, const char *type,
		    int depth, int *status, const char **why);
/* The person's move (a MoveString) or resignation in game id: 0, or -1 with an
 * HTTP status and *why (valid until the next call). */
int play_move(struct play *p, unsigned id, const char *move, int *status, const char **why);
int play_resign(struct play *p, unsigned id, int *status, const char **why);
/* Whether id is a game of p where the person is to move now, and with which colour. */
int play_human_to_move(struct play *p, unsigned id);
/* The tag play's games carry in the registry. */
void *play_tag(struct play *p);
/* Ends every game without a result, for reason, and refuses new ones (503). */
void play_shutdown(struct play *p, const char *reason);

/* http_lobby.c: persons playing each other through the remote-play lobbies. */
#define WEB_TOKEN_LEN 32
#define WEB_MAX_ACTIVE 32    /* web seats waiting, playing or away, all peers together */
struct weblobby;
struct wseat;
/* notify(arg, token, json) sends a "seat" event to the streams of seat token. */
struct weblobby *weblobby_new(struct event_base *base,
			      void (*notify)(void *arg, const char *token, const char *json), void *arg);
/* Frees the web seats without a word to the lobbies (they may be gone). NULL-safe. */
void weblobby_free(struct weblobby *w);
/* GET /api/lobbies. */
cJSON *weblobby_list(struct weblobby *w);
/* POST /api/lobby/ACTION with body b from peer: the answer, and its status. */
cJSON *weblobby_request(struct weblobby *w, const char *action, const cJSON *b, const char *peer,
			int *status);
/* An event stream names seat token (0, or -1: no such seat); it closed. */
int  weblobby_stream_open(struct weblobby *w, const char *token);
void weblobby_stream_closed(struct weblobby *w, const char *token);
/* Whether token names a seat waiting, playing or away (one the reserve serves). */
int  weblobby_seat_live(struct weblobby *w, const char *token);
/* Tells the streams of seat token its state now. */
void weblobby_request_seat_event(struct weblobby *w, const char *token);

/* http_assets.c: the page, compiled in. */
struct http_asset {
	const char *path;          /* "/", "/app.js", ... */
	const char *type;          /* Content-Type */
	const unsigned char *data;
	size_t len;
};
const struct http_asset *assets_find(const char *path);

#endif
