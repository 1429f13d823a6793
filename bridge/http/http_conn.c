/*
 * http_conn.c: the HTTP/1.1 transport under the web page (http.c has the routes).
 *
 * Our own, on a bufferevent per connection, rather than evhttp: libevent 2.1's
 * evhttp owns its accept callback (no cap before a connection is taken, no pause
 * on EMFILE), tells nothing when a request starts (no deadline for a head, only an
 * idle time-out that every byte renews) and keeps up to its header limit per
 * connection with no bound on the connections. Here every bound holds from the
 * first byte:
 *   - at accept: at most max_conns connections, at most max_conns_per_addr of them
 *     from one address (at most half of max_conns: room is kept for the others);
 *     beyond, a 503 is sent if the socket takes it and the descriptor is closed at
 *     once. Out of descriptors, accepting pauses UTIL_ACCEPT_PAUSE_MS;
 *   - a request's head and body must be in within head_timeout_ms of its first byte
 *     (408), a kept-alive connection may be silent idle_timeout_ms between requests;
 *   - the head is at most max_head bytes (431) and HEAD_MAX_LINES lines, the body
 *     at most max_body bytes by Content-Length (413; no chunked bodies: 411), and
 *     no more than that is ever read ahead (the read watermark); only a request to
 *     big_path may carry up to max_big_body, max_big such bodies at once, half of
 *     them from one address (503);
 *   - answers not read by the client stop the reading of its next requests beyond
 *     OUT_MAX bytes.
 * A connection is one struct http_req: one request at a time, in order (pipelined
 * ones wait in the input). A route answers at once (http_send_reply) or turns the
 * connection into a stream (http_send_reply_start, then chunks) that lives until
 * either side closes it. Closing flushes the answer, half-closes and drops what the
 * client still sends until it hangs up or LINGER_MS pass.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <malloc.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <event2/listener.h>

#include "bridge/http/http_int.h"
#include "bridge/log.h"
#include "bridge/util.h"
#include "core/errbuf.h"

#define LINGER_MS        2000      /* a closing connection waits this long for the hang-up */
#define HEAD_MAX_LINES   100       /* request line and header lines */
#define OUT_MAX          (256 * 1024)  /* unread answers before pipelined requests wait */
#define FDS_KEPT         64        /* descriptors never counted for HTTP connections */
#define TRIM_AFTER       16        /* give memory back after a crowd this big went */
#define NOTES_PER_S      5         /* log lines of refusals and time-outs per second */

enum hstate { H_IDLE, H_HEAD, H_BODY, H_STREAM, H_CLOSING };

struct http_req {
	struct http_listener *l;
	struct bufferevent   *bev;
	struct event         *timer;       /* idle, head deadline, linger, or free */
	char                  peer[INET6_ADDRSTRLEN];
	enum hstate           state;
	int                   dead;        /* closed: freed from the timer */
	int                   lingering;
	int                   blocked;     /* reading paused for unread answers */
	int                   big;         /* reading a body beyond max_body (big_path's) */
	size_t                scanned;     /* head bytes searched for its end */
	/* The request in progress. */
	struct http_head      h;           /* its strings point into head */
	int                   replied;
	char                 *head;        /* malloc'd */
	char                 *body;        /* malloc'd, NUL-terminated */
	struct evkeyvalq      out_headers;
	LIST_ENTRY(http_req)  link;        /* l->conns */
};

struct http_listener {
	struct event_base    *base;
	struct evconnlistener *lev;
	struct event         *resume;
	struct http_limits    lim;
	http_handler_fn      *handler;
	http_closed_fn       *closed;
	void                 *arg;
	LIST_HEAD(, http_req) conns;       /* newest first (empty when zeroed) */
	unsigned              nconns;
	unsigned              nbig;        /* connections with big set */
	unsigned              peak;        /* most connections since memory was given back */
	time_t                note_at;     /* the log's rate limit: this second */
	unsigned              notes, quiet;
};

/* --- the log, rate-limited (a flood must not flood it) ----------------------------- */

static void note(struct http_listener *l, const char *fmt, ...)
{
	time_t now = time(NULL);
	if (now != l->note_at) {
		if (l->quiet)
			log_note(0, "http: %u more such lines not logged", l->quiet);
		l->note_at = now;
		l->notes = l->quiet = 0;
	}
	if (l->notes >= NOTES_PER_S) {
		l->quiet++;
		return;
	}
	l->notes++;
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	log_note(0, "http: %s", buf);
}

/* --- connections ------------------------------------------------------------------ */

static void timer_add_ms(struct event *ev, unsigned ms)
{
	struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 };
	evtimer_add(ev, &tv);
}

static void req_reset(struct http_req *r)
{
	if (r->big) {
		/* Back to one head and one small body read ahead. */
		r->big = 0;
		r->l->nbig--;
		if (r->bev)
			bufferevent_setwatermark(r->bev, EV_READ, 0, r->l->lim.max_head + r->l->lim.max_body);
	}
	free(r->head);
	free(r->body);
	r->head = r->body = NULL;
	r->h.path = r->h.query = NULL;
	r->h.body_len = 0;
	r->scanned = 0;
	r->replied = 0;
	evhttp_clear_headers(&r->h.headers);
	evhttp_clear_headers(&r->out_headers);
}

static void req_free(struct http_req *r)
{
	struct http_listener *l = r->l;
	LIST_REMOVE(r, link);
	l->nconns--;
	req_reset(r);
	util_bev_free(&r->bev);
	util_event_free(&r->timer);
	free(r);
	/* After a crowd (most of it gone), the heap's free chunks go back to the system. */
	if (l->peak >= TRIM_AFTER && l->nconns <= l->peak / 4) {
		l->peak = l->nconns;
		malloc_trim(0);
	}
}

/* Closes r now: its owner hears of it at once, the memory goes from the timer (r may
 * be in use up the stack). */
static void req_kill(struct http_req *r)
{
	if (r->dead)
		return;
	r->dead = 1;
	bufferevent_disable(r->bev, EV_READ | EV_WRITE);
	if (r->l->closed)
		r->l->closed(r->l->arg, r);
	timer_add_ms(r->timer, 0);
}

/* The answer is out: half-close and drop the client's bytes until it hangs up. */
static void req_linger(struct http_req *r)
{
	int fd = bufferevent_getfd(r->bev);
	if (r->lingering || fd < 0 || shutdown(fd, SHUT_WR) < 0) {
		req_kill(r);
		return;
	}
	r->lingering = 1;
	struct evbuffer *in = bufferevent_get_input(r->bev);
	evbuffer_drain(in, evbuffer_get_length(in));
	bufferevent_setwatermark(r->bev, EV_READ, 0, 0);
	bufferevent_enable(r->bev, EV_READ);
	timer_add_ms(r->timer, LINGER_MS);
}

/* Ends the connection once what is queued is sent. */
static void req_finish(struct http_req *r)
{
	if (r->dead || r->state == H_CLOSING)
		return;
	r->state = H_CLOSING;
	evtimer_del(r->timer);
	bufferevent_disable(r->bev, EV_READ);
	if (evbuffer_get_length(bufferevent_get_output(r->bev)) == 0) {
		req_linger(r);
		return;
	}
	/* write_cb lingers once the output is empty; the linger's time bounds a client
	 * that reads nothing. */
	bufferevent_enable(r->bev, EV_WRITE);
	timer_add_ms(r->timer, LINGER_MS);
}

/* --- answers ---------------------------------------------------------------------- */

static const char *status_text(int code)
{
	switch (code) {
	case 100: return "Continue";
	case 200: return "OK";
	case 201: return "Created";
	case 400: return "Bad Request";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 408: return "Request Timeout";
	case 409: return "Conflict";
	case 410: return "Gone";
	case 411: return "Length Required";
	case 413: return "Content Too Large";
	case 414: return "URI Too Long";
	case 415: return "Unsupported Media Type";
	case 422: return "Unprocessable Content";
	case 429: return "Too Many Requests";
	case 431: return "Request Header Fields Too Large";
	case 500: return "Internal Server Error";
	case 501: return "Not Implemented";
	case 503: return "Service Unavailable";
	case 505: return "HTTP Version Not Supported";
	default:  return code < 300 ? "OK" : code < 500 ? "Error" : "Server Error";
	}
}

/* The status line and headers; len < 0: a stream (chunked, or to the close). */
static void send_head(struct http_req *r, int code, long long len)
{
	struct evbuffer *o = bufferevent_get_output(r->bev);
	const char *conn = evhttp_find_header(&r->out_headers, "Connection");
	if (conn && !evutil_ascii_strcasecmp(conn, "close"))
		r->h.keep = 0;
	evbuffer_add_printf(o, "HTTP/1.1 %d %s\r\n", code, status_text(code));
	struct evkeyval *kv;
	TAILQ_FOREACH(kv, &r->out_headers, next)
		if (evutil_ascii_strcasecmp(kv->key, "Connection"))
			evbuffer_add_printf(o, "%s: %s\r\n", kv->key, kv->value);
	if (len >= 0)
		evbuffer_add_printf(o, "Content-Length: %lld\r\n", len);
	else if (!r->h.http10)
		evbuffer_add_printf(o, "Transfer-Encoding: chunked\r\n");
	evbuffer_add_printf(o, "%s\r\n", r->h.keep ? "" : "Connection: close\r\n");
}

void http_send_reply(struct http_req *r, int code, struct evbuffer *body)
{
	if (r->dead || r->replied)
		return;
	r->replied = 1;
	size_t n = body ? evbuffer_get_length(body) : 0;
	send_head(r, code, (long long)n);
	if (n && r->h.method != HTTP_HEAD)
		evbuffer_add_buffer(bufferevent_get_output(r->bev), body);
	if (!r->h.keep)
		req_finish(r);
}

/* A JSON {"error": why}, as the routes answer. */
static void send_error(struct http_req *r, int code, const char *why)
{
	struct evbuffer *b = evbuffer_new();
	if (b)
		evbuffer_add_printf(b, "{\"error\":\"%s\"}", why);   /* why: our own words */
	evhttp_clear_headers(&r->out_headers);
	evhttp_add_header(&r->out_headers, "Content-Type", "application/json");
	evhttp_add_header(&r->out_headers, "Cache-Control", "no-store");
	r->h.keep = 0;
	http_send_reply(r, code, b);
	if (b)
		evbuffer_free(b);
}

void http_send_reply_start(struct http_req *r, int code)
{
	if (r->dead || r->replied)
		return;
	r->replied = 1;
	r->state = H_STREAM;
	evtimer_del(r->timer);
	if (r->h.http10)
		r->h.keep = 0;
	send_head(r, code, -1);
	/* Nothing more is read from a stream but its end. */
	evbuffer_drain(bufferevent_get_input(r->bev), evbuffer_get_length(bufferevent_get_input(r->bev)));
	bufferevent_setwatermark(r->bev, EV_READ, 0, 4096);
}

void http_send_reply_chunk(struct http_req *r, struct evbuffer *b)
{
	size_t n = evbuffer_get_length(b);
	if (r->dead || r->state != H_STREAM || !n)
		return;
	struct evbuffer *o = bufferevent_get_output(r->bev);
	if (!r->h.http10)
		evbuffer_add_printf(o, "%zx\r\n", n);
	evbuffer_add_buffer(o, b);
	if (!r->h.http10)
		evbuffer_add(o, "\r\n", 2);
}

void http_req_defer(struct http_req *r)
{
	if (r->dead || r->replied)
		return;
	/* Held like a stream (nothing read, no deadline): the answer closes it. */
	r->state = H_STREAM;
	r->h.keep = 0;
	evtimer_del(r->timer);
	evbuffer_drain(bufferevent_get_input(r->bev), evbuffer_get_length(bufferevent_get_input(r->bev)));
	bufferevent_setwatermark(r->bev, EV_READ, 0, 4096);
}

void http_req_close(struct http_req *r)
{
	req_kill(r);
}

size_t http_req_unsent(const struct http_req *r)
{
	return evbuffer_get_length(bufferevent_get_output(r->bev));
}

enum http_method http_req_method(const struct http_req *r) { return r->h.method; }
const char *http_req_path(const struct http_req *r) { return r->h.path; }
const char *http_req_query(const struct http_req *r) { return r->h.query; }
const char *http_req_peer(const struct http_req *r) { return r->peer; }
int http_req_fd(const struct http_req *r) { return bufferevent_getfd(r->bev); }
struct evkeyvalq *http_req_input_headers(struct http_req *r) { return &r->h.headers; }
struct evkeyvalq *http_req_output_headers(struct http_req *r) { return &r->out_headers; }

const char *http_req_body(const struct http_req *r, size_t *len)
{
	*len = r->h.body_len;
	return r->body ? r->body : "";
}

/* --- requests --------------------------------------------------------------------- */

static int is_tchar(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		(c && strchr("!#$%&'*+-.^_`|~", c));
}

int http_head_parse(char *head, size_t len, size_t max_body, struct http_head *r, char *err, size_t errlen)
{
	char *save = NULL;
	unsigned nlines = 0;
	long long clen = -1;

	errbuf_set(err, errlen, "%s", "a NUL byte or a lone CR in the request head");
	for (size_t i = 0; i < len; i++)
		if (!head[i] || (head[i] == '\r' && (i + 1 == len || head[i + 1] != '\n')))
			return 400;
	char *line = strtok_r(head, "\n", &save);
	errbuf_set(err, errlen, "%s", "bad request line");
	if (!line)
		return 400;
	line[strcspn(line, "\r")] = 0;
	char *sp1 = strchr(line, ' ');
	char *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
	if (!sp1 || !sp2 || strchr(sp2 + 1, ' '))
		return 400;
	*sp1 = *sp2 = 0;
	const char *method = line, *target = sp1 + 1, *version = sp2 + 1;
	for (const char *p = method; *p; p++)
		if (!is_tchar((unsigned char)*p))
			return 400;
	if (!strcmp(version, "HTTP/1.1"))
		r->http10 = 0;
	else if (!strcmp(version, "HTTP/1.0"))
		r->http10 = 1;
	else {
		errbuf_set(err, errlen, "%s", "HTTP/1.1 only");
		return strncmp(version, "HTTP/", 5) ? 400 : 505;
	}
	r->keep = !r->http10;
	if (!strcmp(method, "GET"))
		r->method = HTTP_GET;
	else if (!strcmp(method, "HEAD"))
		r->method = HTTP_HEAD;
	else if (!strcmp(method, "POST"))
		r->method = HTTP_POST;
	else {
		errbuf_set(err, errlen, "%s", "GET, HEAD or POST only");
		return 405;
	}
	errbuf_set(err, errlen, "%s", "bad request target");
	if (target[0] != '/')
		return 400;
	for (const char *p = target; *p; p++)
		if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f || *p == '#')
			return 400;
	char *q = strchr(target, '?');
	if (q)
		*q++ = 0;
	r->path = target;
	r->query = q;

	while ((line = strtok_r(NULL, "\n", &save))) {
		line[strcspn(line, "\r")] = 0;
		if (!*line)
			break;
		if (++nlines >= HEAD_MAX_LINES) {
			errbuf_set(err, errlen, "%s", "too many header lines");
			return 431;
		}
		errbuf_set(err, errlen, "%s", "bad header line");
		char *colon = strchr(line, ':');
		if (!colon || colon == line)
			return 400;
		*colon = 0;
		for (const char *p = line; *p; p++)
			if (!is_tchar((unsigned char)*p))
				return 400;
		char *v = colon + 1;
		while (*v == ' ' || *v == '\t')
			v++;
		size_t vl = strlen(v);
		while (vl && (v[vl - 1] == ' ' || v[vl - 1] == '\t'))
			v[--vl] = 0;
		for (const char *p = v; *p; p++)
			if (((unsigned char)*p < 0x20 && *p != '\t') || *p == 0x7f)
				return 400;
		if (!evutil_ascii_strcasecmp(line, "Content-Length")) {
			char *end;
			if (!*v || strspn(v, "0123456789") != vl || vl > 12)
				return 400;
			long long n = strtoll(v, &end, 10);
			if (clen >= 0 && n != clen)
				return 400;
			clen = n;
		} else if (!evutil_ascii_strcasecmp(line, "Transfer-Encoding")) {
			errbuf_set(err, errlen, "%s", "a body needs a Content-Length");
			return 411;
		} else if (!evutil_ascii_strcasecmp(line, "Connection")) {
			/* A list of tokens: close, keep-alive. */
			char low[64];
			snprintf(low, sizeof low, "%s", v);
			for (char *p = low; *p; p++)
				*p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
			if (strstr(low, "close"))
				r->keep = 0;
		}
		if (evhttp_add_header(&r->headers, line, v) < 0) {
			errbuf_set(err, errlen, "%s", "out of memory");
			return 500;
		}
	}
	if (clen > (long long)max_body) {
		errbuf_set(err, errlen, "%s", "body too large");
		return 413;
	}
	r->body_len = clen > 0 ? (size_t)clen : 0;
	return 0;
}

/* The most a body may hold: big_path's limit, when it has one. */
static size_t body_limit(const struct http_listener *l)
{
	return l->lim.big_path && l->lim.max_big_body > l->lim.max_body ? l->lim.max_big_body : l->lim.max_body;
}

/* A body beyond max_body: only to big_path, and only max_big at once; its reading
 * then goes on past the usual watermark. 0, or the status to refuse it with. */
static int body_big(struct http_req *r, char *why, size_t len)
{
	struct http_listener *l = r->l;
	if (!l->lim.big_path || strcmp(r->h.path, l->lim.big_path)) {
		snprintf(why, len, "body too large");
		return 413;
	}
	unsigned mine = 0;
	for (const struct http_req *o = LIST_FIRST(&l->conns); o; o = LIST_NEXT(o, link))
		mine += o->big && !strcmp(o->peer, r->peer);
	/* One address gets half of them (at least one): others keep room. */
	if (l->nbig >= l->lim.max_big || mine >= (l->lim.max_big > 1 ? l->lim.max_big / 2 : 1)) {
		note(l, "%s: a large body while %u are being read (%u from it): refused", r->peer, l->nbig, mine);
		snprintf(why, len, l->nbig >= l->lim.max_big ? "too many large requests at once: try again" :
			 "too many large requests from your address at once: try again");
		return 503;
	}
	r->big = 1;
	l->nbig++;
	bufferevent_setwatermark(r->bev, EV_READ, 0, l->lim.max_head + r->h.body_len);
	return 0;
}

/* The end of the head in the input (the offset past its empty line), 0 if it is not
 * all in yet. Searched on from where the last look stopped. */
static size_t head_end(struct http_req *r, struct evbuffer *in)
{
	struct evbuffer_ptr p;
	if (evbuffer_ptr_set(in, &p, r->scanned, EVBUFFER_PTR_SET) < 0)
		return 0;
	for (;;) {
		struct evbuffer_ptr nl = evbuffer_search(in, "\n", 1, &p);
		if (nl.pos < 0) {
			size_t n = evbuffer_get_length(in);
			r->scanned = n;     /* a LF found later looks back at these */
			return 0;
		}
		/* An empty line: LF right after the previous LF (or after LF CR). */
		char before[3] = { 0, 0, 0 };
		size_t back = nl.pos >= 2 ? 2 : (size_t)nl.pos;
		struct evbuffer_ptr b;
		if (back) {
			evbuffer_ptr_set(in, &b, (size_t)nl.pos - back, EVBUFFER_PTR_SET);
			evbuffer_copyout_from(in, &b, before, back);
		}
		if ((back >= 1 && before[back - 1] == '\n') ||
		    (back == 2 && before[0] == '\n' && before[1] == '\r'))
			return (size_t)nl.pos + 1;
		if (evbuffer_ptr_set(in, &p, (size_t)nl.pos + 1, EVBUFFER_PTR_SET) < 0)
			return 0;
	}
}

static void req_dispatch(struct http_req *r)
{
	struct http_listener *l = r->l;
	l->handler(r, l->arg);
	if (!r->dead && !r->replied && r->state != H_STREAM)
		send_error(r, 500, "no answer");
}

/* Takes the requests that are in, one at a time, while the connection is open. */
static void req_process(struct http_req *r)
{
	struct evbuffer *in = bufferevent_get_input(r->bev);
	struct evbuffer *out = bufferevent_get_output(r->bev);

	while (!r->dead && (r->state == H_IDLE || r->state == H_HEAD || r->state == H_BODY)) {
		if (r->state == H_IDLE) {
			/* Empty lines before a request are allowed (after a POST's body). */
			char c;
			while (evbuffer_copyout(in, &c, 1) == 1 && (c == '\r' || c == '\n'))
				evbuffer_drain(in, 1);
			if (!evbuffer_get_length(in))
				return;
			if (evbuffer_get_length(out) > OUT_MAX) {
				/* The client reads no answers: it sends no more for now. */
				r->blocked = 1;
				bufferevent_disable(r->bev, EV_READ);
				bufferevent_enable(r->bev, EV_WRITE);
				return;
			}
			r->state = H_HEAD;
			timer_add_ms(r->timer, r->l->lim.head_timeout_ms);
		}
		if (r->state == H_HEAD) {
			size_t end = head_end(r, in);
			if (!end) {
				if (evbuffer_get_length(in) >= r->l->lim.max_head) {
					note(r->l, "%s: request head over %zu bytes: refused", r->peer, r->l->lim.max_head);
					send_error(r, 431, "request head too large");
				}
				return;
			}
			if (end > r->l->lim.max_head) {
				send_error(r, 431, "request head too large");
				return;
			}
			r->head = malloc(end + 1);
			if (!r->head) {
				send_error(r, 500, "out of memory");
				return;
			}
			evbuffer_remove(in, r->head, end);
			r->head[end] = 0;
			char why[128];
			int code = http_head_parse(r->head, end, body_limit(r->l), &r->h, why, sizeof why);
			if (!code && r->h.body_len > r->l->lim.max_body)
				code = body_big(r, why, sizeof why);
			if (code) {
				send_error(r, code, why);
				return;
			}
			const char *expect = evhttp_find_header(&r->h.headers, "Expect");
			if (expect && r->h.body_len && !evutil_ascii_strcasecmp(expect, "100-continue"))
				evbuffer_add_printf(out, "HTTP/1.1 100 Continue\r\n\r\n");
			r->state = H_BODY;
		}
		if (evbuffer_get_length(in) < r->h.body_len)
			return;
		r->body = malloc(r->h.body_len + 1);
		if (!r->body) {
			send_error(r, 500, "out of memory");
			return;
		}
		evbuffer_remove(in, r->body, r->h.body_len);
		r->body[r->h.body_len] = 0;
		evtimer_del(r->timer);
		r->state = H_IDLE;   /* a stream or a close changes it */
		req_dispatch(r);
		if (r->dead || r->state != H_IDLE)
			return;
		req_reset(r);
		timer_add_ms(r->timer, r->l->lim.idle_timeout_ms);
	}
}

static void read_cb(struct bufferevent *bev, void *arg)
{
	struct http_req *r = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	if (r->lingering || r->state == H_STREAM || r->state == H_CLOSING) {
		evbuffer_drain(in, evbuffer_get_length(in));
		return;
	}
	req_process(r);
}

static void write_cb(struct bufferevent *bev, void *arg)
{
	struct http_req *r = arg;
	if (r->dead)
		return;
	if (r->state == H_CLOSING) {
		if (evbuffer_get_length(bufferevent_get_output(bev)) == 0)
			req_linger(r);
		return;
	}
	if (r->blocked && evbuffer_get_length(bufferevent_get_output(bev)) <= OUT_MAX / 2) {
		r->blocked = 0;
		bufferevent_enable(bev, EV_READ);
		req_process(r);
	}
}

static void event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct http_req *r = arg;
	/* A client that half-closed after its request still gets the answer queued. */
	if ((what & BEV_EVENT_EOF) && !(what & BEV_EVENT_ERROR) && !r->lingering &&
	    r->state != H_STREAM && evbuffer_get_length(bufferevent_get_output(bev)) > 0) {
		req_finish(r);
		return;
	}
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		req_kill(r);
}

static void timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct http_req *r = arg;
	if (r->dead) {
		req_free(r);
		return;
	}
	switch (r->state) {
	case H_HEAD:
	case H_BODY:
		note(r->l, "%s: request not in within %u ms: closed", r->peer, r->l->lim.head_timeout_ms);
		send_error(r, 408, "request not complete in time");
		break;
	case H_CLOSING:      /* the client did not read its answer, or did not hang up */
	case H_IDLE:         /* kept alive, and silent */
	default:
		req_kill(r);
		break;
	}
}

/* --- accepting -------------------------------------------------------------------- */

static void peer_name(const struct sockaddr *sa, char *buf, size_t len)
{
	snprintf(buf, len, "?");
	if (sa->sa_family == AF_INET) {
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, buf, (socklen_t)len);
	} else if (sa->sa_family == AF_INET6) {
		const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
		if (IN6_IS_ADDR_V4MAPPED(a))
			inet_ntop(AF_INET, a->s6_addr + 12, buf, (socklen_t)len);
		else
			inet_ntop(AF_INET6, a, buf, (socklen_t)len);
	}
}

/* Answers a connection over the caps without reading it, if the socket takes the
 * few bytes now, and closes it: a refusal costs no descriptor beyond this call. */
static void refuse(struct http_listener *l, evutil_socket_t fd, const char *peer, const char *why)
{
	char msg[256];
	int n = snprintf(msg, sizeof msg,
			 "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
			 "Cache-Control: no-store\r\nConnection: close\r\nContent-Length: %zu\r\n\r\n"
			 "{\"error\":\"%s\"}", strlen(why) + 12, why);
	note(l, "%s: refused: %s", peer, why);
	if (n > 0 && send(fd, msg, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL) == n)
		shutdown(fd, SHUT_WR);
	evutil_closesocket(fd);
}

static void accept_cb(struct evconnlistener *lev, evutil_socket_t fd, struct sockaddr *sa,
		      int salen, void *arg)
{
	struct http_listener *l = arg;
	char peer[INET6_ADDRSTRLEN];
	unsigned mine = 0;

	peer_name(sa, peer, sizeof peer);
	if (l->nconns >= l->lim.max_conns) {
		refuse(l, fd, peer, "too many connections");
		return;
	}
	for (const struct http_req *r = LIST_FIRST(&l->conns); r; r = LIST_NEXT(r, link))
		mine += !strcmp(r->peer, peer);
	if (mine >= l->lim.max_conns_per_addr) {
		refuse(l, fd, peer, "too many connections from your address");
		return;
	}
	struct http_req *r = calloc(1, sizeof *r);
	if (!r) {
		evutil_closesocket(fd);
		return;
	}
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	r->l = l;
	snprintf(r->peer, sizeof r->peer, "%s", peer);
	TAILQ_INIT(&r->h.headers);
	TAILQ_INIT(&r->out_headers);
	r->bev = bufferevent_socket_new(l->base, fd, BEV_OPT_CLOSE_ON_FREE);
	r->timer = evtimer_new(l->base, timer_cb, r);
	LIST_INSERT_HEAD(&l->conns, r, link);
	if (++l->nconns > l->peak)
		l->peak = l->nconns;
	if (!r->bev || !r->timer) {
		if (!r->bev)
			evutil_closesocket(fd);
		req_free(r);
		return;
	}
	bufferevent_setcb(r->bev, read_cb, write_cb, event_cb, r);
	/* Never more in than one head and one body. */
	bufferevent_setwatermark(r->bev, EV_READ, 0, l->lim.max_head + l->lim.max_body);
	bufferevent_enable(r->bev, EV_READ | EV_WRITE);
	timer_add_ms(r->timer, l->lim.idle_timeout_ms);
	(void)salen;
	(void)lev;
}

static void accept_error(struct evconnlistener *lev, void *arg)
{
	struct http_listener *l = arg;
	int err = EVUTIL_SOCKET_ERROR();
	note(l, "accept: %s: paused %d ms", evutil_socket_error_to_string(err), UTIL_ACCEPT_PAUSE_MS);
	util_accept_pause(lev, l->resume, UTIL_ACCEPT_PAUSE_MS);
}

/* The caps as they apply: the descriptors the process may open bound them too. */
static void limits_fix(struct http_limits *lim)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		rlim_t room = rl.rlim_cur > 2 * FDS_KEPT ? (rl.rlim_cur - FDS_KEPT) / 2 : 8;
		if (lim->max_conns > room)
			lim->max_conns = (unsigned)room;
	}
	if (lim->max_conns < 2)
		lim->max_conns = 2;
	if (lim->max_conns_per_addr > lim->max_conns / 2)
		lim->max_conns_per_addr = lim->max_conns / 2;
}

struct http_listener *http_listen(struct event_base *base, const struct sockaddr *sa, int salen,
				  const struct http_limits *lim, http_handler_fn *handler,
				  http_closed_fn *closed, void *arg, char *err, size_t errlen)
{
	struct http_listener *l = calloc(1, sizeof *l);
	if (!l) {
		errbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	l->base = base;
	l->lim = *lim;
	limits_fix(&l->lim);
	l->handler = handler;
	l->closed = closed;
	l->arg = arg;
	l->resume = evtimer_new(base, util_accept_resume, &l->lev);
	l->lev = evconnlistener_new_bind(base, accept_cb, l,
					 LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_EXEC,
					 511, sa, salen);
	if (!l->resume || !l->lev) {
		errbuf_set(err, errlen, "%s", l->resume ? strerror(errno) : "out of memory");
		http_listener_free(l);
		return NULL;
	}
	evconnlistener_set_error_cb(l->lev, accept_error);
	return l;
}

int http_listener_fd(const struct http_listener *l)
{
	return evconnlistener_get_fd(l->lev);
}

const struct http_limits *http_listener_limits(const struct http_listener *l)
{
	return &l->lim;
}

void http_listener_free(struct http_listener *l)
{
	if (!l)
		return;
	if (l->lev)
		evconnlistener_free(l->lev);
	struct http_req *r;
	while ((r = LIST_FIRST(&l->conns))) {
		if (!r->dead) {
			r->dead = 1;
			if (l->closed)
				l->closed(l->arg, r);
		}
		req_free(r);
	}
	util_event_free(&l->resume);
	free(l);
}
