/*
 * http.c: the routes over the transport of http_conn.c: the routes' shares of the
 * connections and JSON answers (the Server-Sent Events stream of changes to the live
 * registry is http_events.c's).
 *
 * The transport bounds every connection from its first byte (caps at accept, a
 * deadline for each request, heads and bodies). Here: at most HTTP_MAX_CONNS
 * connections that have made a request (one more gets 503 and is closed), at most
 * HTTP_MAX_STREAMS event streams, and an event stream whose unread output passes
 * HTTP_STREAM_MAX_BUFFER is dropped (the page reconnects and reloads), in
 * http_events.c. One peer address holds at most half of each (memcached's
 * per-client share), so one client cannot shut the others out; and the stream of a live web seat comes from a reserve
 * beyond both caps (one per seat, WEB_MAX_ACTIVE in all), so spectators never push a
 * person off their game. A GameString is at most HTTP_MAX_GAMESTRING bytes: parsing
 * one costs the loop time in proportion. Every route answers bad input with a JSON
 * {"error": ...} and its status.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <time.h>

#include <cJSON.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "bridge/config.h"
#include "bridge/game_record.h"
#include "bridge/http/http.h"
#include "bridge/http/http_int.h"
#include "bridge/live.h"
#include "bridge/log.h"
#include "bridge/util.h"
#include "core/errbuf.h"

#define HTTP_MAX_CONNS_PER_PEER (HTTP_MAX_CONNS / 2)
#define HTTP_MAX_GAMESTRING     16384   /* about 1,800 plies: match adjudicates at 1,000 */
#define HTTP_STR_(x)            #x
#define HTTP_STR(x)             HTTP_STR_(x)
#define HTTP_TIMEOUT_S          30
#define HTTP_PING_S             15
#define HTTP_MAX_PLAY_GAMES     16
#define HTTP_PLAY_THINK_MS      1000

/* --- answers ---------------------------------------------------------------------- */

void reply_json(struct http_req *req, int code, cJSON *o)
{
	struct evbuffer *b = evbuffer_new();
	char *s = o ? cJSON_PrintUnformatted(o) : NULL;
	cJSON_Delete(o);
	if (!b || !s) {
		if (b)
			evbuffer_free(b);
		cJSON_free(s);
		http_send_reply(req, 500, NULL);
		return;
	}
	evbuffer_add(b, s, strlen(s));
	cJSON_free(s);
	struct evkeyvalq *h = http_req_output_headers(req);
	evhttp_add_header(h, "Content-Type", "application/json");
	evhttp_add_header(h, "Cache-Control", "no-store");
	http_send_reply(req, code, b);
	evbuffer_free(b);
}

void reply_error(struct http_req *req, int code, const char *why)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "error", why);
	reply_json(req, code, o);
}

/* --- games as JSON ---------------------------------------------------------------- */

static const char *result_text(int state)
{
	return state == HIVE_WHITE_WINS ? "1-0" : state == HIVE_BLACK_WINS ? "0-1" : "1/2-1/2";
}

cJSON *game_summary(const struct live_game *lg)
{
	cJSON *o = cJSON_CreateObject();
	char ms[HIVE_MOVESTR_MAX];

	cJSON_AddNumberToObject(o, "id", lg->id);
	cJSON_AddNumberToObject(o, "version", lg->version);
	cJSON_AddStringToObject(o, "kind", lg->kind);
	cJSON_AddStringToObject(o, "white", lg->white);
	cJSON_AddStringToObject(o, "black", lg->black);
	cJSON_AddStringToObject(o, "type", hive_gametype_name(lg->game.type));
	cJSON_AddNumberToObject(o, "plies", (double)lg->game.len);
	cJSON_AddStringToObject(o, "state", hive_state_name(lg->game.board.state));
	cJSON_AddBoolToObject(o, "finished", lg->finished || lg->closed);
	if (lg->finished)
		cJSON_AddStringToObject(o, "result", result_text(lg->state));
	else
		cJSON_AddNullToObject(o, "result");
	cJSON_AddStringToObject(o, "reason", lg->reason);
	if (lg->game.len) {
		struct hive_board b = lg->game.board;   /* the board before the last move */
		hive_board_undo(&b, &lg->game.hist[lg->game.len - 1]);
		hive_move_format(&b, lg->game.hist[lg->game.len - 1].move, ms, sizeof ms);
		cJSON_AddStringToObject(o, "last_move", ms);
	} else {
		cJSON_AddNullToObject(o, "last_move");
	}
	cJSON_AddNumberToObject(o, "substitutions", lg->substitutions);
	return o;
}

/* gtoken: the request's X-Game-Token (NULL if none): its holder owns the game. */
static cJSON *game_full(struct http_server *h, const struct live_game *lg, const char *gtoken)
{
	cJSON *o = game_summary(lg);
	size_t n = hive_game_format(&lg->game, NULL, 0);
	char *gs = malloc(n + 1);

	if (gs) {
		hive_game_format(&lg->game, gs, n + 1);
		cJSON_AddStringToObject(o, "gamestring", gs);
		free(gs);
	}
	cJSON_AddItemToObject(o, "moves", pos_moves_json(&lg->game));
	if (lg->substitutions)
		cJSON_AddStringToObject(o, "substitution", lg->substitution);
	else
		cJSON_AddNullToObject(o, "substitution");
	if (lg->clocks) {
		cJSON *c = cJSON_AddObjectToObject(o, "clocks");
		int64_t ms[2] = { lg->clock_ms[0], lg->clock_ms[1] };
		if (lg->clock_running >= 0) {
			ms[lg->clock_running] -= (now_us() - (int64_t)lg->clock_at_us) / 1000;
			if (ms[lg->clock_running] < 0)
				ms[lg->clock_running] = 0;
		}
		cJSON_AddNumberToObject(c, "white_ms", (double)ms[0]);
		cJSON_AddNumberToObject(c, "black_ms", (double)ms[1]);
		if (lg->clock_running >= 0)
			cJSON_AddStringToObject(c, "running", lg->clock_running ? "b" : "w");
		else
			cJSON_AddNullToObject(c, "running");
	} else {
		cJSON_AddNullToObject(o, "clocks");
	}
	if (lg->has_analysis) {
		cJSON *a = cJSON_AddObjectToObject(o, "analysis");
		cJSON_AddNumberToObject(a, "ply", (double)lg->analysis_ply);
		cJSON_AddNumberToObject(a, "depth", lg->depth);
		cJSON_AddNumberToObject(a, "score", lg->score);
		cJSON *pv = cJSON_AddArrayToObject(a, "pv");
		char buf[LIVE_PV_MAX];
		snprintf(buf, sizeof buf, "%s", lg->pv);
		for (char *save = NULL, *t = strtok_r(buf, ";", &save); t; t = strtok_r(NULL, ";", &save))
			cJSON_AddItemToArray(pv, cJSON_CreateString(t));
	} else {
		cJSON_AddNullToObject(o, "analysis");
	}
	int mine = !lg->closed && lg->owner && lg->owner == play_tag(h->play);
	int owned = mine && play_owns(h->play, lg->id, gtoken);
	cJSON_AddBoolToObject(o, "owned", owned);
	cJSON_AddBoolToObject(o, "playable", owned && play_human_to_move(h->play, lg->id));
	if (mine) {
		int human = !strcmp(lg->white, "you") ? HIVE_WHITE : HIVE_BLACK;
		cJSON_AddStringToObject(o, "human", human == HIVE_WHITE ? "w" : "b");
	} else {
		cJSON_AddNullToObject(o, "human");
	}
	cJSON_AddItemToObject(o, "position", pos_json(&lg->game, lg->game.len));
	return o;
}

/* --- peers ------------------------------------------------------------------------ */

static unsigned conns_of(const struct http_server *h, const char *peer)
{
	unsigned n = 0;
	for (unsigned i = 0; i < h->nconns; i++)
		n += !strcmp(http_req_peer(h->conns[i]), peer);
	return n;
}

/* --- connections ------------------------------------------------------------------ */

static void conn_closed(void *arg, struct http_req *req)
{
	struct http_server *h = arg;
	stream_drop_conn(h, req);
	analyse_closed(h->analyse, req);
	for (unsigned i = 0; i < h->nconns; i++) {
		if (h->conns[i] == req) {
			h->conns[i] = h->conns[--h->nconns];
			break;
		}
	}
}

/* Whether a refused request is a stream the seats' reserve takes. */
static int conn_reserve_ok(const struct http_server *h, const char *path, const char *query)
{
	if (!path || strcmp(path, "/api/events") || !query ||
	    h->nconns >= HTTP_MAX_CONNS + HTTP_STREAM_RESERVE)
		return 0;
	struct evkeyvalq q;
	TAILQ_INIT(&q);
	int ok = evhttp_parse_query_str(query, &q) == 0 &&
		stream_reserve_ok(h, evhttp_find_header(&q, "seat"));
	evhttp_clear_headers(&q);
	return ok;
}

/* NULL if the request's connection is (now) one of the counted ones, else why not. */
static const char *conn_admit(struct http_server *h, struct http_req *req,
			      const char *path, const char *query)
{
	for (unsigned i = 0; i < h->nconns; i++)
		if (h->conns[i] == req)
			return NULL;
	const char *full = h->nconns >= HTTP_MAX_CONNS ? "too many connections" :
		conns_of(h, http_req_peer(req)) >= HTTP_MAX_CONNS_PER_PEER ?
		"too many connections from your address" : NULL;
	if (full && !conn_reserve_ok(h, path, query))
		return full;
	h->conns[h->nconns++] = req;
	return NULL;
}

/* --- routes ----------------------------------------------------------------------- */

/* The request's body as a JSON object, or NULL after answering 400 or 413. */
static cJSON *body_json(struct http_req *req)
{
	size_t n;
	const char *buf = http_req_body(req, &n);
	int status;
	char why[128];
	cJSON *o = body_parse(buf, n, &status, why, sizeof why);
	if (!o)
		reply_error(req, status, why);
	return o;
}

static const char *game_token(struct http_req *req)
{
	return evhttp_find_header(http_req_input_headers(req), "X-Game-Token");
}

/* A decimal id of at most 9 digits; 0 if s is not one. */
static unsigned parse_id(const char *s, const char **rest)
{
	unsigned v = 0;
	int n = 0;
	while (*s >= '0' && *s <= '9' && n < 9) {
		v = v * 10 + (unsigned)(*s++ - '0');
		n++;
	}
	*rest = s;
	return n ? v : 0;
}

static void route_games(struct http_server *h, struct http_req *req)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *live = cJSON_AddArrayToObject(o, "games");
	cJSON *done = cJSON_AddArrayToObject(o, "finished");
	for (const struct live_game *lg = live_first(); lg; lg = TAILQ_NEXT(lg, link))
		cJSON_AddItemToArray(lg->closed || lg->finished ? done : live, game_summary(lg));
	reply_json(req, 200, o);
}

static void route_engines(struct http_server *h, struct http_req *req)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *a = cJSON_AddArrayToObject(o, "engines");
	for (size_t i = 0; i < h->conf->nprofiles; i++) {
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "name", h->conf->profiles[i].name);
		cJSON_AddStringToObject(e, "kind", h->conf->profiles[i].kind);
		cJSON_AddItemToArray(a, e);
	}
	reply_json(req, 200, o);
}

static void route_position(struct http_server *h, struct http_req *req, const char *query)
{
	struct evkeyvalq q;
	char err[256];
	struct hive_game g;

	TAILQ_INIT(&q);
	if (!query || evhttp_parse_query_str(query, &q) < 0) {
		reply_error(req, 400, "want ?game=GAMESTRING[&ply=N]");
		return;
	}
	const char *gs = evhttp_find_header(&q, "game");
	const char *plys = evhttp_find_header(&q, "ply");
	/* Parsing costs the loop time in proportion: bounded, above any real game. */
	if (gs && strlen(gs) > HTTP_MAX_GAMESTRING) {
		evhttp_clear_headers(&q);
		reply_error(req, 413, "GameString too long: at most " HTTP_STR(HTTP_MAX_GAMESTRING) " bytes");
		return;
	}
	hive_game_init(&g, 0);
	if (!gs || hive_game_parse(&g, gs, err, sizeof err) != HIVE_OK) {
		evhttp_clear_headers(&q);
		hive_game_free(&g);
		reply_error(req, 400, gs ? err : "want ?game=GAMESTRING[&ply=N]");
		return;
	}
	size_t ply = g.len;
	if (plys) {
		const char *rest;
		unsigned v = parse_id(plys, &rest);
		if ((v == 0 && strcmp(plys, "0")) || *rest || v > g.len) {
			evhttp_clear_headers(&q);
			hive_game_free(&g);
			reply_error(req, 400, "ply must be 0..the number of moves");
			return;
		}
		ply = v;
	}
	evhttp_clear_headers(&q);
	cJSON *o = pos_json(&g, ply);
	if (o)
		cJSON_AddItemToObject(o, "moves", pos_moves_json(&g));
	hive_game_free(&g);
	reply_json(req, 200, o);
}

static void route_start(struct http_server *h, struct http_req *req)
{
	cJSON *b = body_json(req);
	struct start_req r;
	char token[WEB_TOKEN_LEN + 1];
	int status;
	const char *why;
	char err[256];
	unsigned id = 0;
	if (!b)
		return;
	char bad[128];
	if (body_start(b, &r, &status, bad, sizeof bad) < 0)
		why = bad;
	else if (!(id = play_start(h->play, &r, http_req_peer(req), token, &status, err, sizeof err)))
		why = err;
	cJSON_Delete(b);
	if (!id) {
		reply_error(req, status, why);
		return;
	}
	const struct live_game *lg = live_find(id);
	cJSON *o = lg ? game_full(h, lg, token) : NULL;
	/* The only answer that carries the owner token. */
	if (o)
		cJSON_AddStringToObject(o, "token", token);
	explicit_bzero(token, sizeof token);
	reply_json(req, 201, o);
}

void reply_pgn_text(struct http_req *req, const char *text, size_t len, const char *filename)
{
	struct evbuffer *b = evbuffer_new();
	char disp[128];
	if (!b || evbuffer_add(b, text, len) < 0) {
		if (b)
			evbuffer_free(b);
		reply_error(req, 500, "out of memory");
		return;
	}
	struct evkeyvalq *hd = http_req_output_headers(req);
	snprintf(disp, sizeof disp, "attachment; filename=\"%s\"", filename);
	evhttp_add_header(hd, "Content-Type", "application/x-chess-pgn; charset=utf-8");
	evhttp_add_header(hd, "Content-Disposition", disp);
	evhttp_add_header(hd, "Cache-Control", "no-store");
	http_send_reply(req, 200, b);
	evbuffer_free(b);
}

/* A game as Mzinga's PGN, live or finished, as a download: the same reads as its JSON. */
static void reply_pgn(struct http_req *req, const struct live_game *lg)
{
	struct hive_record rec;
	char event[32], name[64], err[128];
	int state = lg->finished ? lg->state : lg->game.board.state;
	struct game_record_tags t = {
		.white = lg->white, .black = lg->black, .event = event, .site = "hivebridge",
		.termination = lg->finished || lg->aborted ? lg->reason : NULL, .result = state,
	};
	size_t len;

	snprintf(event, sizeof event, "hivebridge %s", lg->kind);
	if (game_record_build(&rec, &lg->game, &t, NULL, err, sizeof err) < 0) {
		reply_error(req, 500, err);
		return;
	}
	char *text = game_record_pgn(&rec, &len);
	hive_record_free(&rec);
	if (!text) {
		reply_error(req, 500, "out of memory");
		return;
	}
	snprintf(name, sizeof name, "hivebridge-game-%u.pgn", lg->id);
	reply_pgn_text(req, text, len, name);
	free(text);
}

/* GET /api/games/ID?format=pgn */
static int wants_pgn(struct http_req *req)
{
	const char *query = http_req_query(req);
	struct evkeyvalq q;
	int pgn = 0;

	TAILQ_INIT(&q);
	if (query && evhttp_parse_query_str(query, &q) == 0) {
		const char *f = evhttp_find_header(&q, "format");
		pgn = f && !strcmp(f, "pgn");
	}
	evhttp_clear_headers(&q);
	return pgn;
}

static void route_game(struct http_server *h, struct http_req *req, unsigned id,
		       const char *action)
{
	enum http_method cmd = http_req_method(req);
	int status;
	const char *why;
	char err[256];

	if (!*action || !strcmp(action, ".pgn")) {
		if (cmd != HTTP_GET) {
			reply_error(req, 405, "GET only");
			return;
		}
		const struct live_game *lg = live_find(id);
		if (!lg)
			reply_error(req, 404, "no such game");
		else if (*action || wants_pgn(req))
			reply_pgn(req, lg);
		else
			reply_json(req, 200, game_full(h, lg, game_token(req)));
		return;
	}
	if (cmd != HTTP_POST) {
		reply_error(req, 405, "POST only");
		return;
	}
	if (!strcmp(action, "/move")) {
		cJSON *b = body_json(req);
		if (!b)
			return;
		const char *mv;
		char bad[128];
		int rc = body_need_str(b, "move", BODY_WANT_MOVE, &mv, &status, bad, sizeof bad);
		if (rc < 0)
			why = bad;
		else if ((rc = play_move(h->play, id, game_token(req), mv, &status, err, sizeof err)) < 0)
			why = err;
		cJSON_Delete(b);
		if (rc < 0) {
			reply_error(req, status, why);
			return;
		}
	} else if (!strcmp(action, "/resign")) {
		if (play_resign(h->play, id, game_token(req), &status, err, sizeof err) < 0) {
			reply_error(req, status, err);
			return;
		}
	} else {
		reply_error(req, 404, "no such action");
		return;
	}
	const struct live_game *lg = live_find(id);
	reply_json(req, 200, lg ? game_full(h, lg, game_token(req)) : NULL);
}

static void route_lobby(struct http_server *h, struct http_req *req, const char *action)
{
	int status = 500;

	if (http_req_method(req) != HTTP_POST) {
		reply_error(req, 405, "POST only");
		return;
	}
	cJSON *b = body_json(req);
	if (!b)
		return;
	cJSON *o = weblobby_request(h->lobby, action, b, http_req_peer(req), &status);
	cJSON_Delete(b);
	reply_json(req, status, o);
}

static void serve_asset(struct http_req *req, const char *path)
{
	const struct http_asset *a = assets_find(path);
	if (!a) {
		reply_error(req, 404, "not found");
		return;
	}
	struct evbuffer *b = evbuffer_new();
	if (!b) {
		http_send_reply(req, 500, NULL);
		return;
	}
	evbuffer_add_reference(b, a->data, a->len, NULL, NULL);
	struct evkeyvalq *hd = http_req_output_headers(req);
	evhttp_add_header(hd, "Content-Type", a->type);
	evhttp_add_header(hd, "Cache-Control", "no-cache");
	http_send_reply(req, 200, b);
	evbuffer_free(b);
}

/* The address the client reached (numeric), for a listener on 0.0.0.0 or ::. */
static const char *conn_local(struct http_req *req, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;
	if (getsockname(http_req_fd(req), (struct sockaddr *)&ss, &sl) < 0)
		return NULL;
	if (ss.ss_family == AF_INET6)
		return inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr, buf, (socklen_t)len);
	return inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, buf, (socklen_t)len);
}

/* 0 if the guard lets req through to its route; else answered (docs/web.md). */
static int guard_request(struct http_server *h, struct http_req *req)
{
	const struct evkeyvalq *in = http_req_input_headers(req);
	char local[INET6_ADDRSTRLEN];
	char why[128];
	struct guard_request r = {
		.changes = http_req_method(req) != HTTP_GET && http_req_method(req) != HTTP_HEAD,
		.host = evhttp_find_header(in, "Host"),
		.origin = evhttp_find_header(in, "Origin"),
		.fetch_site = evhttp_find_header(in, "Sec-Fetch-Site"),
		.content_type = evhttp_find_header(in, "Content-Type"),
		.authorization = evhttp_find_header(in, "Authorization"),
	};
	r.local = conn_local(req, local, sizeof local);
	int status = guard_check(h->guard, &r, why, sizeof why);
	if (!status)
		return 0;
	log_note(0, "http: %s refused (%d): %s", http_req_peer(req), status, why);
	if (status == 401)
		evhttp_add_header(http_req_output_headers(req), "WWW-Authenticate", "Bearer");
	reply_error(req, status, why);
	return -1;
}

static void route(struct http_req *req, void *arg)
{
	struct http_server *h = arg;
	const char *path = http_req_path(req);
	const char *query = http_req_query(req);
	enum http_method cmd = http_req_method(req);

	const char *full = conn_admit(h, req, path, query);
	if (full) {
		evhttp_add_header(http_req_output_headers(req), "Connection", "close");
		reply_error(req, 503, full);
		return;
	}
	if (!path || !*path) {
		reply_error(req, 400, "bad request path");
		return;
	}
	if (guard_request(h, req) < 0)
		return;
	if (strncmp(path, "/api/", 5)) {
		if (cmd != HTTP_GET && cmd != HTTP_HEAD) {
			reply_error(req, 405, "GET only");
			return;
		}
		serve_asset(req, path);
		return;
	}
	const char *p = path + 5;
	if (!strcmp(p, "games")) {
		if (cmd == HTTP_GET)
			route_games(h, req);
		else if (cmd == HTTP_POST)
			route_start(h, req);
		else
			reply_error(req, 405, "GET or POST only");
		return;
	}
	if (!strcmp(p, "records")) {
		route_records(h, req);
		return;
	}
	if (!strcmp(p, "analyse")) {
		cJSON *b = cmd == HTTP_POST ? body_json(req) : NULL;
		if (cmd != HTTP_POST)
			reply_error(req, 405, "POST only");
		else if (b)
			analyse_request(h->analyse, req, b);
		cJSON_Delete(b);
		return;
	}
	if (!strncmp(p, "archive", 7) && (!p[7] || p[7] == '/')) {
		route_archive(h, req, p + 7);
		return;
	}
	if (!strncmp(p, "lobby/", 6)) {
		route_lobby(h, req, p + 6);
		return;
	}
	if (!strncmp(p, "games/", 6)) {
		const char *rest;
		unsigned id = parse_id(p + 6, &rest);
		if (!id) {
			reply_error(req, 404, "no such game");
			return;
		}
		route_game(h, req, id, rest);
		return;
	}
	if (cmd != HTTP_GET) {
		reply_error(req, 405, "GET only");
		return;
	}
	if (!strcmp(p, "position"))
		route_position(h, req, query);
	else if (!strcmp(p, "engines"))
		route_engines(h, req);
	else if (!strcmp(p, "events"))
		route_events(h, req, query);
	else if (!strcmp(p, "lobbies"))
		reply_json(req, 200, weblobby_list(h->lobby));
	else if (!strcmp(p, "match")) {
		if (!h->match_summary)
			reply_error(req, 404, "no match is being played here");
		else
			reply_json(req, 200, h->match_summary(h->match_arg));
	} else
		reply_error(req, 404, "no such endpoint");
}

/* --- set-up ----------------------------------------------------------------------- */

/* The access token: HIVEBRIDGE_HTTP_TOKEN, else the first line of http_token_file;
 * *token NULL if neither is set. The variable is out of the environment (and of
 * /proc/PID/environ) so that no engine reads it (util_take_secret_env). */
static int http_token_read(const struct config *conf, char **token, char *err, size_t errlen)
{
	/* Taken (and scrubbed from /proc/PID/environ) by main() before any engine starts. */
	*token = util_take_secret_env("HIVEBRIDGE_HTTP_TOKEN");
	if (*token)
		return 0;
	if (!conf->http_token_file)
		return 0;
	FILE *f = fopen(conf->http_token_file, "r");
	char line[GUARD_TOKEN_MAX + 2];
	if (!f)
		return errbuf_set(err, errlen, "http_token_file %s: %s", conf->http_token_file,
				  strerror(errno));
	if (!fgets(line, sizeof line, f))
		line[0] = 0;
	fclose(f);
	line[strcspn(line, "\r\n")] = 0;
	*token = strdup(line);
	explicit_bzero(line, sizeof line);
	if (!*token)
		return errbuf_set(err, errlen, "out of memory");
	if (!**token) {
		free(*token);
		*token = NULL;
		return errbuf_set(err, errlen, "http_token_file %s: no token on its first line",
				  conf->http_token_file);
	}
	return 0;
}

/* "ADDR:PORT", "[V6]:PORT" or ":PORT" into a numeric host and a port. */
static int parse_spec(const char *spec, char *host, size_t hlen, unsigned *port)
{
	const char *colon = strrchr(spec, ':');
	char *end;
	if (!colon)
		return -1;
	long v = strtol(colon + 1, &end, 10);
	if (*end || end == colon + 1 || v < 0 || v > 65535)
		return -1;
	const char *a = spec;
	size_t alen = (size_t)(colon - spec);
	if (alen >= 2 && a[0] == '[' && a[alen - 1] == ']') {
		a++;
		alen -= 2;
	}
	if (alen == 0) {
		snprintf(host, hlen, "127.0.0.1");
	} else {
		if (alen >= hlen)
			return -1;
		memcpy(host, a, alen);
		host[alen] = 0;
	}
	unsigned char tmp[16];
	if (inet_pton(AF_INET, host, tmp) != 1 && inet_pton(AF_INET6, host, tmp) != 1)
		return -1;
	*port = (unsigned)v;
	return 0;
}

struct http_server *http_start(struct event_base *base, const struct config *conf,
			       const char *spec, char *err, size_t errlen)
{
	char host[INET6_ADDRSTRLEN + 1];
	unsigned port;
	struct http_server *h;

	if (parse_spec(spec, host, sizeof host, &port) < 0) {
		errbuf_set(err, errlen, "--http %s: want ADDR:PORT with a numeric address", spec);
		return NULL;
	}
	h = calloc(1, sizeof *h);
	if (!h) {
		errbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	h->base = base;
	h->conf = conf;
	char *token = NULL;
	if (http_token_read(conf, &token, err, errlen) < 0) {
		http_free(h);
		return NULL;
	}
	h->guard = guard_new(host, port, conf->http_hosts, token, err, errlen);
	if (token)
		explicit_bzero(token, strlen(token));
	free(token);
	if (!h->guard) {
		http_free(h);
		return NULL;
	}
	/* The archive's games are listed from start-up on (a damaged file is skipped, not fatal). */
	if (conf->games_path && !(h->archive = archive_open(conf->games_path))) {
		errbuf_set(err, errlen, "out of memory");
		http_free(h);
		return NULL;
	}
	h->play = play_new(base, conf, HTTP_MAX_PLAY_GAMES, HTTP_PLAY_THINK_MS);
	h->lobby = weblobby_new(base, stream_on_seat, h);
	h->analyse = analyse_new(base, conf);
	h->ping = event_new(base, -1, EV_PERSIST, stream_on_ping, h);
	if (!h->play || !h->lobby || !h->analyse || !h->ping) {
		errbuf_set(err, errlen, "out of memory");
		http_free(h);
		return NULL;
	}
	struct sockaddr_storage ss;
	socklen_t sl;
	memset(&ss, 0, sizeof ss);
	if (inet_pton(AF_INET, host, &((struct sockaddr_in *)&ss)->sin_addr) == 1) {
		((struct sockaddr_in *)&ss)->sin_family = AF_INET;
		((struct sockaddr_in *)&ss)->sin_port = htons((uint16_t)port);
		sl = sizeof(struct sockaddr_in);
	} else {
		inet_pton(AF_INET6, host, &((struct sockaddr_in6 *)&ss)->sin6_addr);
		((struct sockaddr_in6 *)&ss)->sin6_family = AF_INET6;
		((struct sockaddr_in6 *)&ss)->sin6_port = htons((uint16_t)port);
		sl = sizeof(struct sockaddr_in6);
	}
	struct http_limits lim = {
		.max_conns = conf->http_max_connections ? conf->http_max_connections : 256,
		.max_conns_per_addr = conf->http_max_connections_per_address ?
			conf->http_max_connections_per_address : 64,
		.head_timeout_ms = conf->http_head_timeout_ms ? conf->http_head_timeout_ms : 10000,
		.idle_timeout_ms = HTTP_TIMEOUT_S * 1000,
		.max_head = conf->http_max_head ? conf->http_max_head : 32768,
		.max_body = HTTP_MAX_BODY,
		.big_path = HTTP_RECORDS_PATH,
		.max_big_body = conf->http_max_record ? conf->http_max_record : HTTP_MAX_RECORD,
		.max_big = HTTP_MAX_RECORDS_AT_ONCE,
	};
	char why[128];
	h->lst = http_listen(base, (struct sockaddr *)&ss, (int)sl, &lim, route, conn_closed, h,
			     why, sizeof why);
	if (!h->lst) {
		errbuf_set(err, errlen, "cannot listen on %s:%u: %s", host, port, why);
		http_free(h);
		return NULL;
	}
	char where[INET6_ADDRSTRLEN + 16], a[INET6_ADDRSTRLEN] = "?";
	sl = sizeof ss;
	getsockname(http_listener_fd(h->lst), (struct sockaddr *)&ss, &sl);
	if (ss.ss_family == AF_INET6) {
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr, a, sizeof a);
		snprintf(where, sizeof where, "[%s]:%u", a, ntohs(((struct sockaddr_in6 *)&ss)->sin6_port));
	} else {
		inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, a, sizeof a);
		snprintf(where, sizeof where, "%s:%u", a, ntohs(((struct sockaddr_in *)&ss)->sin_port));
	}
	struct timeval tv = { HTTP_PING_S, 0 };
	event_add(h->ping, &tv);
	live_enable(1);
	live_watch(stream_on_live, h);
	live_archive(h->conf->games_path);
	/* Port 0: the guard learns the port taken, which a Host must name. */
	guard_set_port(h->guard, ss.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&ss)->sin6_port) :
		       ntohs(((struct sockaddr_in *)&ss)->sin_port));
	const struct http_limits *l = http_listener_limits(h->lst);
	fprintf(stderr, "listening on %s (http)\n", where);
	log_note(0, "listening on %s (http; at most %u connections, %u from one address, "
		 "a request in %u ms, its head in %zu bytes)%s", where, l->max_conns,
		 l->max_conns_per_addr, l->head_timeout_ms, l->max_head,
		 guard_has_token(h->guard) ? ", changes need the access token" : "");
	return h;
}

void http_set_match(struct http_server *h, struct cJSON *(*summary)(void *arg), void *arg)
{
	if (!h)
		return;
	h->match_summary = summary;
	h->match_arg = arg;
}

void http_shutdown(struct http_server *h, const char *reason)
{
	if (h)
		play_shutdown(h->play, reason);
}

void http_free(struct http_server *h)
{
	if (!h)
		return;
	live_watch(NULL, NULL);
	play_free(h->play);
	/* Frees every connection; their close callbacks unlink the streams. */
	http_listener_free(h->lst);
	analyse_free(h->analyse);
	h->analyse = NULL;
	/* After the connections: their streams let go of the web seats first. */
	weblobby_free(h->lobby);
	h->lobby = NULL;
	struct stream *s;
	while ((s = LIST_FIRST(&h->streams))) {
		LIST_REMOVE(s, link);
		free(s);
	}
	util_event_free(&h->ping);
	live_archive(NULL);
	live_enable(0);
	archive_free(h->archive);
	guard_free(h->guard);
	free(h);
}
