/*
 * webclient.c: libcurl's multi interface driven by libevent (the "multi_socket" way
 * of curl's own hiperfifo example): curl tells us which sockets to watch
 * (CURLMOPT_SOCKETFUNCTION) and when to wake it (CURLMOPT_TIMERFUNCTION); the
 * events call curl_multi_socket_action, and finished transfers are delivered from
 * there. Name resolution runs in curl's own resolver thread (the threaded
 * resolver of Debian's libcurl), so no call here blocks the loop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <curl/curl.h>
#include <event2/event.h>

#include "bridge/log.h"
#include "bridge/util.h"
#include "bridge/version.h"
#include "bridge/webclient.h"
#include "core/errbuf.h"

#define DEFAULT_TIMEOUT_MS 10000
#define DEFAULT_MAX_ANSWER (1u << 20)
#define LOG_BODY_MAX       2000   /* bytes of a body or answer in one trace line */

struct webclient_call {
	struct webclient      *w;
	LIST_ENTRY(webclient_call) link;      /* w->calls */
	CURL                  *easy;
	struct curl_slist     *headers;
	char                  *body;          /* ours: curl reads it during the transfer */
	struct sbuf            answer;
	size_t                 max_answer;
	int                    too_big;
	int                    secret;
	unsigned               log_id;
	int64_t                start_ms;
	char                   errbuf[CURL_ERROR_SIZE];
	webclient_done_cb     *done;
	void                  *arg;
};

struct webclient {
	struct event_base     *base;
	CURLM                 *multi;
	struct event          *timer;
	LIST_HEAD(, webclient_call) calls;    /* sent, not yet delivered nor cancelled */
	size_t                 ncalls;
	LIST_HEAD(, sock)      socks;
};

/* The event of one socket curl watches, owned through curl_multi_assign. */
struct sock {
	struct event *ev;
	curl_socket_t fd;
	LIST_ENTRY(sock) link;         /* w->socks: freed with the client */
};

static void deliver_finished(struct webclient *w);

static void call_free(struct webclient_call *c)
{
	struct webclient *w = c->w;
	LIST_REMOVE(c, link);
	w->ncalls--;
	curl_multi_remove_handle(w->multi, c->easy);
	curl_easy_cleanup(c->easy);
	curl_slist_free_all(c->headers);
	free(c->body);
	sbuf_free(&c->answer);
	free(c);
}

static void on_socket_event(evutil_socket_t fd, short what, void *arg)
{
	struct webclient *w = arg;
	int running, flags = (what & EV_READ ? CURL_CSELECT_IN : 0) | (what & EV_WRITE ? CURL_CSELECT_OUT : 0);
	curl_multi_socket_action(w->multi, fd, flags, &running);
	deliver_finished(w);
}

static void on_timer(evutil_socket_t fd, short what, void *arg)
{
	struct webclient *w = arg;
	int running;
	curl_multi_socket_action(w->multi, CURL_SOCKET_TIMEOUT, 0, &running);
	deliver_finished(w);
}

static void sock_free(struct sock *sk)
{
	LIST_REMOVE(sk, link);
	if (sk->ev)
		event_free(sk->ev);
	free(sk);
}

static int socket_cb(CURL *easy, curl_socket_t s, int what, void *userp, void *socketp)
{
	struct webclient *w = userp;
	struct sock *sk = socketp;
	if (what == CURL_POLL_REMOVE) {
		if (sk) {
			sock_free(sk);
			curl_multi_assign(w->multi, s, NULL);
		}
		return 0;
	}
	short ev = (short)(EV_PERSIST | (what & CURL_POLL_IN ? EV_READ : 0) | (what & CURL_POLL_OUT ? EV_WRITE : 0));
	if (!sk) {
		sk = xreallocarray(NULL, 1, sizeof *sk);
		sk->fd = s;
		sk->ev = NULL;
		LIST_INSERT_HEAD(&w->socks, sk, link);
		curl_multi_assign(w->multi, s, sk);
	} else if (sk->ev) {
		event_free(sk->ev);
	}
	sk->ev = event_new(w->base, s, ev, on_socket_event, w);
	if (!sk->ev || event_add(sk->ev, NULL) < 0)
		return -1;
	return 0;
}

static int timer_cb(CURLM *multi, long timeout_ms, void *userp)
{
	struct webclient *w = userp;
	if (timeout_ms < 0) {
		evtimer_del(w->timer);
		return 0;
	}
	struct timeval tv = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
	return evtimer_add(w->timer, &tv);
}

static size_t write_cb(char *ptr, size_t size, size_t n, void *userp)
{
	struct webclient_call *c = userp;
	size_t len = size * n;
	if (c->answer.len + len > c->max_answer) {
		c->too_big = 1;
		return 0;          /* curl then ends the transfer with CURLE_WRITE_ERROR */
	}
	sbuf_add(&c->answer, ptr, len);
	return len;
}

/* One trace line: a prefix and a body (or its length only, when secret). */
static void log_body(unsigned id, enum log_dir dir, const char *prefix, const char *body, size_t len,
		     int secret)
{
	if (!log_enabled())
		return;
	struct sbuf b = { 0 };
	sbuf_str(&b, prefix);
	if (secret)
		sbuf_printf(&b, " (%zu bytes, not logged)", len);
	else if (len) {
		sbuf_str(&b, " ");
		sbuf_escaped(&b, body, len, LOG_BODY_MAX);
	}
	log_proto(id, dir, b.s ? b.s : "", b.len);
	sbuf_free(&b);
}

static void deliver_finished(struct webclient *w)
{
	CURLMsg *m;
	int left;
	while ((m = curl_multi_info_read(w->multi, &left))) {
		if (m->msg != CURLMSG_DONE)
			continue;
		struct webclient_call *c = NULL;
		curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&c);
		if (!c)
			continue;
		struct webclient_answer a = { 0 };
		char why[CURL_ERROR_SIZE + 64];
		curl_easy_getinfo(c->easy, CURLINFO_RESPONSE_CODE, &a.status);
		a.elapsed_ms = now_ms() - c->start_ms;
		if (c->too_big) {
			snprintf(why, sizeof why, "the answer is longer than %zu bytes", c->max_answer);
			a.error = why;
		} else if (m->data.result != CURLE_OK) {
			snprintf(why, sizeof why, "%s", c->errbuf[0] ? c->errbuf : curl_easy_strerror(m->data.result));
			util_scrub_text(why);
			a.error = why;
		}
		a.body = c->answer.s ? c->answer.s : "";
		a.len = c->answer.len;
		char prefix[sizeof why + 64];
		if (a.error)
			snprintf(prefix, sizeof prefix, "failed after %lld ms: %s", (long long)a.elapsed_ms, a.error);
		else
			snprintf(prefix, sizeof prefix, "%ld in %lld ms", a.status, (long long)a.elapsed_ms);
		log_body(c->log_id, LOG_SITE_IN, prefix, a.body, a.len,
			 a.error ? 1 : (c->secret & WEBCLIENT_SECRET_ANSWER) && a.status == 200);
		webclient_done_cb *done = c->done;
		void *arg = c->arg;
		/* Freed first: the callback may send the next request at once. */
		struct sbuf keep = c->answer;
		c->answer = (struct sbuf){ 0 };
		call_free(c);
		a.body = keep.s ? keep.s : "";
		done(arg, &a);
		sbuf_free(&keep);
	}
}

struct webclient *webclient_new(struct event_base *base, char *err, size_t errlen)
{
	static int global_done;
	if (!global_done) {
		if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0) {
			errbuf_set(err, errlen, "libcurl cannot start");
			return NULL;
		}
		global_done = 1;
		/* Without an asynchronous resolver a name lookup would block the loop. */
		if (!(curl_version_info(CURLVERSION_NOW)->features & CURL_VERSION_ASYNCHDNS))
			log_warn(0, "libcurl resolves names synchronously: a slow DNS stalls the daemon "
				 "(use an address in the URL, or a libcurl built with AsynchDNS)");
	}
	struct webclient *w = calloc(1, sizeof *w);
	if (!w || !(w->multi = curl_multi_init()) || !(w->timer = evtimer_new(base, on_timer, w))) {
		if (w && w->multi)
			curl_multi_cleanup(w->multi);
		free(w);
		errbuf_set(err, errlen, "out of memory for the web client");
		return NULL;
	}
	w->base = base;
	LIST_INIT(&w->calls);
	LIST_INIT(&w->socks);
	curl_multi_setopt(w->multi, CURLMOPT_SOCKETFUNCTION, socket_cb);
	curl_multi_setopt(w->multi, CURLMOPT_SOCKETDATA, w);
	curl_multi_setopt(w->multi, CURLMOPT_TIMERFUNCTION, timer_cb);
	curl_multi_setopt(w->multi, CURLMOPT_TIMERDATA, w);
	return w;
}

struct webclient_call *webclient_send(struct webclient *w, const struct webclient_request *rq,
				      webclient_done_cb *done, void *arg, char *err, size_t errlen)
{
	struct webclient_call *c = calloc(1, sizeof *c);
	if (!c || !(c->easy = curl_easy_init())) {
		free(c);
		errbuf_set(err, errlen, "out of memory for a request");
		return NULL;
	}
	c->w = w;
	c->done = done;
	c->arg = arg;
	c->secret = rq->secret;
	c->log_id = rq->log_id;
	c->max_answer = rq->max_answer ? rq->max_answer : DEFAULT_MAX_ANSWER;
	c->start_ms = now_ms();
	CURL *e = c->easy;
	unsigned timeout = rq->timeout_ms ? rq->timeout_ms : DEFAULT_TIMEOUT_MS;
	int post = !strcmp(rq->method, "POST");
	char ua[64];
	snprintf(ua, sizeof ua, "hivebridge/%s", version_string);
	curl_easy_setopt(e, CURLOPT_URL, rq->url);
	curl_easy_setopt(e, CURLOPT_PRIVATE, c);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, c->errbuf);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)timeout);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long)timeout);
	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)c->max_answer);
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
#else
	curl_easy_setopt(e, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	curl_easy_setopt(e, CURLOPT_USERAGENT, ua);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, write_cb);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, c);
	c->headers = curl_slist_append(NULL, "Accept: application/json");
	if (post) {
		c->body = xstrdup(rq->body ? rq->body : "");
		c->headers = curl_slist_append(c->headers, "Content-Type: application/json");
		c->headers = curl_slist_append(c->headers, "Expect:");
		curl_easy_setopt(e, CURLOPT_POST, 1L);
		curl_easy_setopt(e, CURLOPT_POSTFIELDS, c->body);
		curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE, (long)strlen(c->body));
	}
	if (rq->bearer) {
		char *h = xasprintf("Authorization: Bearer %s", rq->bearer);
		c->headers = curl_slist_append(c->headers, h);
		free(h);
	}
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, c->headers);
	LIST_INSERT_HEAD(&w->calls, c, link);
	w->ncalls++;
	if (!c->headers || curl_multi_add_handle(w->multi, e) != CURLM_OK) {
		call_free(c);
		errbuf_set(err, errlen, "libcurl refused the request");
		return NULL;
	}
	char prefix[600];
	snprintf(prefix, sizeof prefix, "%s %.500s%s", rq->method, rq->url,
		 rq->bearer ? " (Authorization: Bearer, redacted)" : "");
	log_body(rq->log_id, LOG_SITE_OUT, prefix, c->body, c->body ? strlen(c->body) : 0,
		 rq->secret & WEBCLIENT_SECRET_BODY);
	return c;
}

void webclient_cancel(struct webclient_call *c)
{
	if (c)
		call_free(c);
}

size_t webclient_running(const struct webclient *w)
{
	return w ? w->ncalls : 0;
}

void webclient_free(struct webclient *w)
{
	if (!w)
		return;
	while (!LIST_EMPTY(&w->calls))
		call_free(LIST_FIRST(&w->calls));
	curl_multi_cleanup(w->multi);   /* after the handles: it closes its cached connections */
	while (!LIST_EMPTY(&w->socks))
		sock_free(LIST_FIRST(&w->socks));
	event_free(w->timer);
	free(w);
}
