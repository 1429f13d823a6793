/*
 * http_events.c: the Server-Sent Events stream of changes to the live registry
 * (GET /api/events): a "game" or "match" event on every change, a "seat" event to
 * the page of a web seat, a ping comment on the timer http.c sets.
 *
 * At most HTTP_MAX_STREAMS streams, half of them from one peer address; the stream
 * of a live web seat comes from a reserve beyond both caps (one per seat,
 * WEB_MAX_ACTIVE in all), so spectators never push a person off their game. A stream
 * whose unread output passes HTTP_STREAM_MAX_BUFFER is dropped (the page reconnects
 * and reloads). The connections themselves are counted in http.c.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include <cJSON.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "bridge/http/http.h"
#include "bridge/http/http_int.h"
#include "bridge/live.h"
#include "bridge/log.h"

/* The shared streams of peer (a seat's reserved one is not its share). */
static unsigned streams_of(const struct http_server *h, const char *peer)
{
	unsigned n = 0;
	for (const struct stream *s = LIST_FIRST(&h->streams); s; s = LIST_NEXT(s, link))
		n += !s->reserved && !strcmp(http_req_peer(s->req), peer);
	return n;
}

/* Whether a stream naming seat may come from the reserve: a live seat without a
 * reserved stream yet, and room left in the reserve. */
int stream_reserve_ok(const struct http_server *h, const char *seat)
{
	if (!seat || h->nreserved >= HTTP_STREAM_RESERVE || !weblobby_seat_live(h->lobby, seat))
		return 0;
	for (const struct stream *s = LIST_FIRST(&h->streams); s; s = LIST_NEXT(s, link))
		if (s->reserved && !strcmp(s->seat, seat))
			return 0;
	return 1;
}

void stream_drop_conn(struct http_server *h, struct http_req *req)
{
	struct stream *s, *next;
	for (s = LIST_FIRST(&h->streams); s; s = next) {
		next = LIST_NEXT(s, link);
		if (s->req != req)
			continue;
		LIST_REMOVE(s, link);
		if (s->reserved)
			h->nreserved--;
		else
			h->nstreams--;
		if (s->seat[0] && h->lobby)
			weblobby_stream_closed(h->lobby, s->seat);
		free(s);
	}
}

/* Sends one event to every stream; a stream whose reader lags too far is closed. */
static void stream_send(struct http_server *h, const char *event, const char *data)
{
	struct stream *next;
	for (struct stream *s = LIST_FIRST(&h->streams); s; s = next) {
		next = LIST_NEXT(s, link);
		if (http_req_unsent(s->req) > HTTP_STREAM_MAX_BUFFER) {
			log_note(0, "http: an event stream lags: closed");
			/* conn_closed unlinks s (only s: one stream per connection). */
			http_req_close(s->req);
			continue;
		}
		struct evbuffer *b = evbuffer_new();
		if (!b)
			continue;
		evbuffer_add_printf(b, "event: %s\ndata: %s\n\n", event, data);
		http_send_reply_chunk(s->req, b);
		evbuffer_free(b);
	}
}

void stream_on_live(void *arg, const struct live_game *lg)
{
	struct http_server *h = arg;
	if (LIST_EMPTY(&h->streams))
		return;
	cJSON *o = lg ? game_summary(lg) : cJSON_CreateObject();
	if (lg && lg->closed && !live_find(lg->id))
		cJSON_AddBoolToObject(o, "gone", 1);
	char *s = o ? cJSON_PrintUnformatted(o) : NULL;
	cJSON_Delete(o);
	if (s)
		stream_send(h, lg ? "game" : "match", s);
	cJSON_free(s);
}

/* A "seat" event to the streams of one web seat. */
void stream_on_seat(void *arg, const char *token, const char *json)
{
	struct http_server *h = arg;
	for (struct stream *s = LIST_FIRST(&h->streams); s; s = LIST_NEXT(s, link)) {
		if (strcmp(s->seat, token))
			continue;
		struct evbuffer *b = evbuffer_new();
		if (!b)
			continue;
		evbuffer_add_printf(b, "event: seat\ndata: %s\n\n", json);
		http_send_reply_chunk(s->req, b);
		evbuffer_free(b);
	}
}

void stream_on_ping(evutil_socket_t fd, short what, void *arg)
{
	struct http_server *h = arg;
	struct stream *next;
	/* A comment line: keeps proxies quiet and finds peers that went away. */
	for (struct stream *s = LIST_FIRST(&h->streams); s; s = next) {
		next = LIST_NEXT(s, link);
		struct evbuffer *b = evbuffer_new();
		if (!b)
			continue;
		evbuffer_add_printf(b, ": ping\n\n");
		http_send_reply_chunk(s->req, b);
		evbuffer_free(b);
	}
}

void route_events(struct http_server *h, struct http_req *req, const char *query)
{
	struct evkeyvalq q;
	const char *seat = NULL;
	TAILQ_INIT(&q);
	if (query && evhttp_parse_query_str(query, &q) == 0)
		seat = evhttp_find_header(&q, "seat");

	const char *full = h->nstreams >= HTTP_MAX_STREAMS ? "too many event streams" :
		streams_of(h, http_req_peer(req)) >= HTTP_MAX_STREAMS_PER_PEER ?
		"too many event streams from your address" : NULL;
	int reserved = full && stream_reserve_ok(h, seat);
	if (full && !reserved) {
		evhttp_clear_headers(&q);
		reply_error(req, 503, full);
		return;
	}
	struct stream *s = calloc(1, sizeof *s);
	struct evbuffer *b = evbuffer_new();
	if (!s || !b) {
		free(s);
		if (b)
			evbuffer_free(b);
		evhttp_clear_headers(&q);
		reply_error(req, 500, "out of memory");
		return;
	}
	/* A web seat's page: present while the stream is open. */
	int seat_ok = seat && weblobby_stream_open(h->lobby, seat) == 0;
	if (seat_ok)
		snprintf(s->seat, sizeof s->seat, "%s", seat);
	evhttp_clear_headers(&q);
	s->req = req;
	s->reserved = reserved;
	LIST_INSERT_HEAD(&h->streams, s, link);
	if (reserved)
		h->nreserved++;
	else
		h->nstreams++;
	struct evkeyvalq *hd = http_req_output_headers(req);
	evhttp_add_header(hd, "Content-Type", "text/event-stream");
	evhttp_add_header(hd, "Cache-Control", "no-store");
	/* The stream lives as long as the page: no time-out on it. */
	http_send_reply_start(req, 200);
	evbuffer_add_printf(b, "retry: 1000\nevent: hello\ndata: {}\n\n");
	if (seat && !seat_ok)
		evbuffer_add_printf(b, "event: seat\ndata: {\"state\":\"unknown\"}\n\n");
	http_send_reply_chunk(req, b);
	evbuffer_free(b);
	if (seat_ok)
		weblobby_request_seat_event(h->lobby, s->seat);
}
int http_pending(const struct http_server *h)
{
	for (const struct stream *s = h ? LIST_FIRST(&h->streams) : NULL; s; s = LIST_NEXT(s, link))
		if (s->req && http_req_unsent(s->req) > 0)
			return 1;
	return 0;
}
