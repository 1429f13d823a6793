/*
 * http_int.h: what the files of bridge/http/ share (http.c the server and routes;
 * http_events.c the Server-Sent Events; http_pos.c positions as JSON; http_play.c
 * games against an engine; http_assets.c the page). Not for use outside bridge/http/.
 */
#ifndef BRIDGE_HTTP_INT_H
#define BRIDGE_HTTP_INT_H

#include <stddef.h>
#include <sys/queue.h>
#include <cJSON.h>
#include <event2/keyvalq_struct.h>
#include <event2/util.h>
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
	/* Requests to big_path (NULL: none) may carry up to max_big_body bytes, at most
	 * max_big of them being read at once (503 beyond): a record opened on the page. */
	const char *big_path;
	size_t   max_big_body;
	unsigned max_big;
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
/* Parses head, len bytes (request line and header lines ending in LF or CR LF, up
 * to the empty line; head[len] is NUL, cut up in place): 0, or the status to refuse
 * it with (400, 405, 411, 413, 431, 505) and why in err. A NUL or a CR not before an LF
 * in the head is 400: the parse would end there while the framing went on, and a
 * header after it (Content-Length) would be lost. */
int http_head_parse(char *head, size_t len, size_t max_body, struct http_head *h, char *err, size_t errlen);

/* A connection and the request it is at: valid until the closed callback. */
struct http_req;
struct http_listener;
/* A complete request: answer it (http_send_reply) or start a stream, before returning. */
typedef void http_handler_fn(struct http_req *req, void *arg);
/* The connection closed (or is being freed): forget req. */
typedef void http_closed_fn(void *arg, struct http_req *req);

/* Listens on sa; lim is copied and lowered to what the descriptor limit allows.
 * NULL with err. */
struct http_listener *http_listen(struct event_base *base, const struct sockaddr *sa, int salen,
				  const struct http_limits *lim, http_handler_fn *handler,
				  http_closed_fn *closed, void *arg, char *err, size_t errlen);
int  http_listener_fd(const struct http_listener *l);
const struct http_limits *http_listener_limits(const struct http_listener *l);
/* Closes every connection (closed callbacks first) and the socket. NULL-safe. */
void http_listener_free(struct http_listener *l);

enum http_method  http_req_method(const struct http_req *req);
const char       *http_req_path(const struct http_req *req);     /* as sent, not decoded */
const char       *http_req_query(const struct http_req *req);    /* after '?', or NULL */
const char       *http_req_peer(const struct http_req *req);     /* numeric address */
int               http_req_fd(const struct http_req *req);       /* its socket */
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
/* The answer comes later, from outside the handler (http_send_reply then): nothing
 * more is read from the connection, and it closes after the answer. */
void http_req_defer(struct http_req *req);

/* http_pos.c */
/* The position after ply plies of g (ply <= g->len): pieces with axial coordinates,
 * stacks, hands, whose turn, the last move and, while the game goes on, the legal
 * moves from the core. NULL on no memory. */
cJSON *pos_json(const struct hive_game *g, size_t ply);
/* The moves of g in UHP notation, as an array. */
cJSON *pos_moves_json(const struct hive_game *g);

#define HTTP_MAX_BODY   4096
#define WEB_TOKEN_LEN   32   /* owner tokens of games and seats: 128 random bits in hex */
#define WEB_NAME_MAX    24
#define PLAY_MAX_DEPTH  8

/* http_body.c: the POST routes' JSON bodies, read without sockets (and fuzzed). */
struct start_req {
	const char *engine;     /* a profile name, "builtin" by default */
	unsigned    type;       /* game type bits */
	int         human;      /* HIVE_WHITE or HIVE_BLACK */
	int         depth;      /* 0..PLAY_MAX_DEPTH, 0 = the think time */
};
struct join_req {
	const char *lobby;
	unsigned    type;
	char        name[WEB_NAME_MAX + 8];   /* "web:" and the letters kept, or web:guest */
};
/* n bytes of body into a JSON object ({} if empty); NULL with the status (400, 413). */
cJSON *body_parse(const char *buf, size_t n, int *status, char *err, size_t errlen);
const char *body_str(const cJSON *o, const char *key);
/* POST /api/games, /api/lobby/join: 0, or -1 with the status and why in err. Strings
 * point into b. */
int body_start(const cJSON *b, struct start_req *r, int *status, char *err, size_t errlen);
int body_join(const cJSON *b, struct join_req *r, int *status, char *err, size_t errlen);
/* The string b's key must hold (POST /api/games/ID/move: "move", /api/lobby/<other>:
 * "token"): 0, or -1 with status 400 and want (what the body should be) in err. */
#define BODY_WANT_MOVE  "want {\"move\": MOVESTRING}"
#define BODY_WANT_TOKEN "want {\"token\": TOKEN, ...}"
int body_need_str(const cJSON *b, const char *key, const char *want, const char **out, int *status,
		  char *err, size_t errlen);

/* http_guard.c: which requests may reach the routes (docs/web.md, "Who may do what"). */
#define GUARD_NAME_MAX  256
#define GUARD_TOKEN_MAX 256
struct http_guard;
struct guard_request {
	int         changes;        /* a POST: it may change state */
	const char *host;           /* the headers, NULL when absent */
	const char *origin;
	const char *fetch_site;     /* Sec-Fetch-Site */
	const char *content_type;
	const char *authorization;
	const char *local;          /* the address the client reached, numeric, or NULL */
};
/* The listener's numeric address and port, http_hosts (more names for Host, spaces
 * between), the access token (NULL or "": none; refused beyond loopback). NULL with
 * err. */
struct http_guard *guard_new(const char *addr, unsigned port, const char *hosts, const char *token,
			     char *err, size_t errlen);
void guard_free(struct http_guard *g);
void guard_set_port(struct http_guard *g, unsigned port);
int  guard_has_token(const struct http_guard *g);
/* 0 if r may go on to its route, else its HTTP status (421, 403, 401, 415) and why in err. */
int  guard_check(const struct http_guard *g, const struct guard_request *r, char *err, size_t errlen);
/* a equals the secret b (non-empty), in a time that does not depend on where they differ. */
int  guard_token_eq(const char *a, const char *b);
int  guard_addr_loopback(const char *addr);

/* http_play.c: games a person plays through the page against an engine profile. */
#define PLAY_MAX_PER_PEER 4     /* games in progress per peer address */
struct play;
struct play *play_new(struct event_base *base, const struct config *conf, unsigned max_games,
		      unsigned think_ms);
void play_free(struct play *p);
/* Starts a game for peer; returns its live id and its owner token (token holds
 * WEB_TOKEN_LEN + 1), or 0 with an HTTP status and err. */
unsigned play_start(struct play *p, const struct start_req *r, const char *peer, char *token,
		    int *status, char *err, size_t errlen);
/* The owner's move (a MoveString) or resignation in game id, token the owner's:
 * 0, or -1 with an HTTP status (403 without the game's token) and err. */
int play_move(struct play *p, unsigned id, const char *token, const char *move, int *status,
	      char *err, size_t errlen);
int play_resign(struct play *p, unsigned id, const char *token, int *status, char *err, size_t errlen);
/* Whether token is the owner token of game id of p. */
int play_owns(struct play *p, unsigned id, const char *token);
/* Whether id is a game of p where the person is to move now, and with which colour. */
int play_human_to_move(struct play *p, unsigned id);
/* The tag play's games carry in the registry. */
void *play_tag(struct play *p);
/* Ends every game without a result, for reason, and refuses new ones (503). */
void play_shutdown(struct play *p, const char *reason);

/* http_lobby.c: persons playing each other through the remote-play lobbies. */
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

/* http_analyse.c: POST /api/analyse, one search of a position on demand. */
#define ANALYSE_MAX     2       /* searches at once, all peers together; one a peer */
#define ANALYSE_MAX_MS  3000    /* a search's time at most */
struct analyse;
struct analyse *analyse_new(struct event_base *base, const struct config *conf);
void analyse_free(struct analyse *a);
/* Answers req (body b) once the search ends, or at once with an error. */
void analyse_request(struct analyse *a, struct http_req *req, const cJSON *b);
/* req's connection closed: its search stops and nothing is answered. */
void analyse_closed(struct analyse *a, struct http_req *req);

/* http_assets.c: the page, compiled in. */
struct http_asset {
	const char *path;          /* "/", "/app.js", ... */
	const char *type;          /* Content-Type */
	const unsigned char *data;
	size_t len;
};
const struct http_asset *assets_find(const char *path);

/* http.c (the server, its routes and connections) and http_events.c (the event streams). */
#define HTTP_MAX_CONNS          64
#define HTTP_MAX_STREAMS        32
#define HTTP_MAX_STREAMS_PER_PEER (HTTP_MAX_STREAMS / 2)
#define HTTP_STREAM_RESERVE     WEB_MAX_ACTIVE
#define HTTP_STREAM_MAX_BUFFER  (256 * 1024)

struct stream {
	char                      seat[WEB_TOKEN_LEN + 1];  /* a web seat's page, "" if none */
	int                       reserved;                 /* from the seats' reserve */
	struct http_req          *req;
	LIST_ENTRY(stream)        link;                     /* h->streams */
};

struct http_server {
	struct event_base          *base;
	const struct config        *conf;
	struct http_listener       *lst;
	struct play                *play;
	struct weblobby            *lobby;
	struct http_guard          *guard;     /* who may ask what (http_guard.c) */
	struct archive             *archive;   /* [daemon] games, listed (http_records.c) */
	struct analyse             *analyse;   /* POST /api/analyse (http_analyse.c) */
	/* The reserve's connections count here too: a seat's stream gets one when the
	 * shared ones are taken. */
	struct http_req            *conns[HTTP_MAX_CONNS + HTTP_STREAM_RESERVE];
	unsigned                    nconns;
	LIST_HEAD(, stream)         streams;    /* newest first (empty when zeroed) */
	unsigned                    nstreams;   /* the shared ones */
	unsigned                    nreserved;  /* the seats' reserve */
	struct event               *ping;
	struct cJSON             *(*match_summary)(void *arg);
	void                       *match_arg;
};

/* http.c: a JSON answer (o freed; NULL: 500), {"error": why} with status code; a
 * live game's summary. */
void   reply_json(struct http_req *req, int code, cJSON *o);
void   reply_error(struct http_req *req, int code, const char *why);
/* A PGN download: text, len bytes, as the attachment filename. */
void   reply_pgn_text(struct http_req *req, const char *text, size_t len, const char *filename);
cJSON *game_summary(const struct live_game *lg);

/* http_records.c: records opened on the page, and the games archive. */
#define HTTP_RECORDS_PATH       "/api/records"
#define HTTP_MAX_RECORD         (1u << 20)  /* a record's body, by default (http_max_record) */
#define HTTP_MAX_RECORDS_AT_ONCE 4          /* such bodies being read at once */
struct archive;
/* Reads the PGN archive at path (bounded, damaged games skipped and logged); NULL
 * on no memory. */
struct archive *archive_open(const char *path);
void archive_free(struct archive *a);
/* The games of a record's text (len bytes) as JSON (schemas/web-records.json), or
 * NULL with why in err (the codec's sentence: the game, the ply and the line) and
 * *status 422 (500: no memory). */
cJSON *records_json(const char *text, size_t len, int *status, char *err, size_t errlen);
/* For the fuzz target: an archive that reads nothing by itself; buf (len bytes from
 * file offset base) fed to it as archive_open reads the file (the bytes used back);
 * the games it holds, their bytes and how many were skipped. */
#define ARCHIVE_KEEP       256                 /* games listed, the newest */
#define ARCHIVE_KEEP_BYTES (8u << 20)          /* their texts together */
struct archive *archive_new(const char *path);
size_t archive_feed(struct archive *a, const char *buf, size_t len, long long base);
size_t archive_games(const struct archive *a, size_t *bytes, unsigned *skipped);
/* POST /api/records; GET /api/archive[/ID[.pgn]] (rest: what follows "archive"). */
void route_records(struct http_server *h, struct http_req *req);
void route_archive(struct http_server *h, struct http_req *req, const char *rest);

/* http_events.c: GET /api/events, a stream of Server-Sent Events. */
void route_events(struct http_server *h, struct http_req *req, const char *query);
/* Whether a stream naming seat may come from the reserve: a live seat without a
 * reserved stream yet, and room left in the reserve. */
int  stream_reserve_ok(const struct http_server *h, const char *seat);
/* The connection req closed: its stream, if any, goes. */
void stream_drop_conn(struct http_server *h, struct http_req *req);
/* The callbacks of the live registry (live_watch), of the web seats (weblobby_new)
 * and of the ping timer; arg is the server. */
void stream_on_live(void *arg, const struct live_game *lg);
void stream_on_seat(void *arg, const char *token, const char *json);
void stream_on_ping(evutil_socket_t fd, short what, void *arg);

#endif
