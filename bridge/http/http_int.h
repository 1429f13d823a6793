/*
 * http_int.h: what the files of bridge/http/ share (http.c the server, routes and
 * Server-Sent Events; http_pos.c positions as JSON; http_play.c games against an
 * engine; http_assets.c the page). Not for use outside bridge/http/.
 */
#ifndef BRIDGE_HTTP_INT_H
#define BRIDGE_HTTP_INT_H

#include <stddef.h>
#include <cJSON.h>
#include <event2/keyvalq_struct.h>
#include "core/game.h"

struct event_base;
struct config;
struct live_game;

/* http_conn.c: the HTTP/1.1 transport (bounds in its head comment). */
enum http_method { HTTP_GET, HTTP_HEAD, HTTP_POST };
struct http_limits {
	unsigned max_conns;            /* open connections, all addresses (at accept) */
	unsigned max_conns_per_addr;   /* from one address; at most half of max_conns */
	unsigned head_timeout_ms;      /* a request's first byte to its last */
	unsigned idle_timeout_ms;      /* a kept-alive connection's silence between requests */
	size_t   max_head;             /* request line and headers */
	size_t   max_body;             /* by Content-Length */
};
struct evbuffer;
struct evkeyvalq;
struct sockaddr;
/* A request's head, parsed. */
struct http_head {
	enum http_method method;
	int              http10;
	int              keep;         /* keep-alive asked for (or HTTP/1.1's default) */
	const char      *path;         /* as sent, into the head */
	const char      *query;        /* after '?', or NULL */
	size_t           body_len;     /* Content-Length */
	struct evkeyvalq headers;      /* TAILQ_INIT before; evhttp_clear_headers after */
};
/* Parses head (request line and header lines ending in LF or CR LF, up to the empty
 * line; NUL-terminated, cut up in place): 0, or the status to refuse it with (400,
 * 405, 411, 413, 431, 505) and *why. */
int http_head_parse(char *head, size_t max_body, struct http_head *h, const char **why);

/* A connection and the request it is at: valid until the closed callback. */
struct http_req;
struct http_listener;
/* A complete request: answer it (http_send_reply) or start a stream, before returning. */
typedef void http_handler_fn(struct http_req *req, void *arg);
/* The connection closed (or is being freed): forget req. */
typedef void http_closed_fn(void *arg, struct http_req *req);

/* Listens on sa; lim is copied and lowered to what the descriptor limit allows.
 * NULL with *cause (caller frees). */
struct http_listener *http_listen(struct event_base *base, const struct sockaddr *sa, int salen,
				  const struct http_limits *lim, http_handler_fn *handler,
				  http_closed_fn *closed, void *arg, char **cause);
int  http_listener_fd(const struct http_listener *l);
const struct http_limits *http_listener_limits(const struct http_listener *l);
/* Closes every connection (closed callbacks first) and the socket. NULL-safe. */
void http_listener_free(struct http_listener *l);

enum http_method  http_req_method(const struct http_req *req);
const char       *http_req_path(const struct http_req *req);     /* as sent, not decoded */
const char       *http_req_query(const struct http_req *req);    /* after '?', or NULL */
const char       *http_req_peer(const struct http_req *req);     /* numeric address */
/* The body (NUL-terminated) and its length; "" if none. */
const char       *http_req_body(const struct http_req *req, size_t *len);
/* Headers, for evhttp_find_header and evhttp_add_header. */
struct evkeyvalq *http_req_input_headers(struct http_req *req);
struct evkeyvalq *http_req_output_headers(struct http_req *req);
/* The answer with body (NULL: none; drained), Content-Length set; the connection
 * closes after it if the client or a "Connection: close" header asks. */
void http_send_reply(struct http_req *req, int code, struct evbuffer *body);
/* A stream: the head now, then chunks of b (drained) until either side closes. */
void http_send_reply_start(struct http_req *req, int code);
void http_send_reply_chunk(struct http_req *req, struct evbuffer *b);
/* Bytes queued for the client and not yet sent. */
size_t http_req_unsent(const struct http_req *req);
/* Closes the connection now (the closed callback fires before this returns). */
void http_req_close(struct http_req *req);

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
