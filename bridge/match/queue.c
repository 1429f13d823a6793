/*
 * queue.c: the Redis connection of `match --queue` and `worker`: hiredis's async
 * client on the bridge's libevent loop (an adapter of ours, which bounds what a
 * reply may buffer), AUTH from the
 * environment or the config file (never from argv), and reconnection with a
 * doubling back-off, reported once per outage. What a lost connection costs is
 * the callers' business: every pending reply comes back NULL and they resend.
 */
#include <errno.h>
#include <limits.h>
#include <event2/event.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/log.h"
#include "bridge/match/queue.h"
#include "bridge/util.h"
#include "core/errbuf.h"

static void queue_connect(struct queue_conn *q);

int queue_url_parse(struct queue_conn *q, const char *url, char *err, size_t errlen)
{
	const char *p = url, *slash, *at, *colon;
	size_t n;

	if (strncmp(p, "redis://", 8))
		return errbuf_set(err, errlen, "--queue %s: not a redis://HOST:PORT/NAME URL", url);
	p += 8;
	slash = strchr(p, '/');
	at = strchr(p, '@');
	if (at && (!slash || at < slash)) {
		/* argv shows in ps: a password there is a password for everyone. */
		return errbuf_set(err, errlen, "--queue: no password in the URL (it would show in ps): put it in "
				  "$%s or in the config file's [queue] password", QUEUE_PASSWORD_ENV);
	}
	if (!slash || !slash[1])
		return errbuf_set(err, errlen, "--queue %s: the match's NAME is missing (redis://HOST:PORT/NAME)",
				  url);
	n = strlen(slash + 1);
	if (n > QUEUE_NAME_MAX || strspn(slash + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					 "0123456789._-") != n)
		return errbuf_set(err, errlen, "--queue %s: NAME must be 1 to %d of A-Z a-z 0-9 . _ -", url,
				  QUEUE_NAME_MAX);
	memcpy(q->name, slash + 1, n + 1);
	/* HOST, [V6]:PORT or HOST:PORT. */
	const char *hend = slash;
	if (*p == '[') {
		const char *rb = memchr(p, ']', (size_t)(slash - p));
		if (!rb)
			return errbuf_set(err, errlen, "--queue %s: unclosed [", url);
		colon = rb[1] == ':' ? rb + 1 : NULL;
		p++;
		hend = rb;
	} else {
		colon = memchr(p, ':', (size_t)(slash - p));
		if (colon)
			hend = colon;
	}
	q->port = 6379;
	if (colon) {
		char buf[16];
		unsigned long long v;
		size_t pl = (size_t)(slash - colon - 1);
		if (pl == 0 || pl >= sizeof buf)
			goto badport;
		memcpy(buf, colon + 1, pl);
		buf[pl] = 0;
		if (parse_uint(buf, 1, 65535, &v) < 0)
			goto badport;
		q->port = (int)v;
	}
	n = (size_t)(hend - p);
	if (n == 0 || n >= sizeof q->host)
		return errbuf_set(err, errlen, "--queue %s: no host", url);
	memcpy(q->host, p, n);
	q->host[n] = 0;
	snprintf(q->k_jobs, sizeof q->k_jobs, "hivebridge:%s:jobs", q->name);
	snprintf(q->k_results, sizeof q->k_results, "hivebridge:%s:results", q->name);
	snprintf(q->k_events, sizeof q->k_events, "hivebridge:%s:events", q->name);
	snprintf(q->k_match, sizeof q->k_match, "hivebridge:%s:match", q->name);
	snprintf(q->k_stop, sizeof q->k_stop, "hivebridge:%s:stop", q->name);
	snprintf(q->k_progress, sizeof q->k_progress, "hivebridge:%s:progress", q->name);
	snprintf(q->k_dead, sizeof q->k_dead, "hivebridge:%s:dead", q->name);
	return 0;
badport:
	return errbuf_set(err, errlen, "--queue %s: bad port", url);
}

static int on_ini(void *user, const char *section, const char *k, const char *v)
{
	struct queue_conn *q = user;
	if (!strcmp(section, "queue") && !strcmp(k, "password") && !q->password) {
		q->password = strdup(v);
		return q->password != NULL;
	}
	if (!strcmp(section, "queue") && !strcmp(k, "user") && !q->user) {
		q->user = strdup(v);
		return q->user != NULL;
	}
	return 1;
}

int queue_password_load(struct queue_conn *q, const char *config_path, char *err, size_t errlen)
{
	/* Engines are children: neither their environment nor our /proc/PID/environ
	 * may show it (main() took it before any child started). */
	q->password = util_take_secret_env(QUEUE_PASSWORD_ENV);
	if (q->password)
		return 0;
	if (!config_path)
		return 0;
	/* config_load has read (and checked) the file already: this picks one key. */
	if (ini_parse(config_path, on_ini, q) != 0)
		return errbuf_set(err, errlen, "%s: cannot read its [queue] section", config_path);
	return 0;
}

static void queue_retry_later(struct queue_conn *q, const char *raw)
{
	char why[256];

	if (q->closing || q->failed)
		return;
	/* hiredis quotes the server's bytes in its errors ("Protocol error, got ..."). */
	queue_escape(why, sizeof why, raw);
	if (!q->outage)
		fprintf(stderr, "hivebridge %s: redis %s:%d: %s; retrying with back-off (up to %d s)\n",
			q->who, q->host, q->port, why, QUEUE_BACKOFF_MAX / 1000);
	log_note(0, "queue: redis %s:%d: %s; retry in %u ms", q->host, q->port, why, q->backoff_ms);
	q->outage = 1;
	struct timeval tv = { q->backoff_ms / 1000, (q->backoff_ms % 1000) * 1000 };
	evtimer_add(q->retry, &tv);
	q->backoff_ms = q->backoff_ms * 2 > QUEUE_BACKOFF_MAX ? QUEUE_BACKOFF_MAX : q->backoff_ms * 2;
}

static void queue_fatal(struct queue_conn *q, const char *fmt, const char *raw)
{
	char detail[256];

	q->failed = 1;
	/* The server's own words: escaped for the terminal. */
	queue_escape(detail, sizeof detail, raw);
	fprintf(stderr, "hivebridge %s: redis %s:%d: ", q->who, q->host, q->port);
	fprintf(stderr, fmt, detail);
	fputc('\n', stderr);
	if (q->on_fatal)
		q->on_fatal(q->arg);
}

static void on_ping(redisAsyncContext *ac, void *reply, void *priv)
{
	struct queue_conn *q = priv;
	redisReply *r = reply;

	if (q->closing || q->failed || !r)
		return;                       /* lost meanwhile: the disconnect retries */
	if (queue_is_error(r, "LOADING") || queue_is_error(r, "BUSY")) {
		/* A restarted server still reading its data: an outage like any other. */
		redisAsyncDisconnect(ac);
		return;
	}
	if (r->type == REDIS_REPLY_ERROR) {
		if (queue_is_error(r, "NOAUTH"))
			queue_fatal(q, "it wants a password: put it in $" QUEUE_PASSWORD_ENV
				    " or in the config file's [queue] password (%s)", r->str);
		else
			queue_fatal(q, "%s", r->str);
		return;
	}
	if (q->outage)
		fprintf(stderr, "hivebridge %s: redis %s:%d: connected again\n", q->who, q->host, q->port);
	q->outage = 0;
	/* After a bound drop the back-off keeps growing (on_disconnect). */
	if (!q->drops)
		q->backoff_ms = QUEUE_BACKOFF_MIN;
	q->up_ms = now_ms();
	q->ready = 1;
	if (q->on_ready)
		q->on_ready(q->arg);
}

/* Only a refusal matters: the PING behind it says when we are ready, once. */
static void on_auth(redisAsyncContext *ac, void *reply, void *priv)
{
	struct queue_conn *q = priv;
	redisReply *r = reply;

	if (q->closing || q->failed || !r || r->type != REDIS_REPLY_ERROR)
		return;
	if (queue_is_error(r, "LOADING") || queue_is_error(r, "BUSY")) {
		redisAsyncDisconnect(ac);      /* the PING will not be read: retry */
		return;
	}
	if (queue_is_error(r, "WRONGPASS") || queue_is_error(r, "ERR"))
		queue_fatal(q, "the password was refused: %s", r->str);
	else
		queue_fatal(q, "%s", r->str);
}

static void on_connect(const redisAsyncContext *ac, int status)
{
	struct queue_conn *q = ac->data;

	if (status != REDIS_OK) {
		/* hiredis frees the context after this callback. */
		q->ac = NULL;
		queue_retry_later(q, ac->errstr[0] ? ac->errstr : "cannot connect");
		return;
	}
	log_note(0, "queue: connected to redis %s:%d", q->host, q->port);
	if (q->password && q->user)
		redisAsyncCommand(q->ac, on_auth, q, "AUTH %s %s", q->user, q->password);
	else if (q->password)
		redisAsyncCommand(q->ac, on_auth, q, "AUTH %s", q->password);
	redisAsyncCommand(q->ac, on_ping, q, "PING");
}

static void on_disconnect(const redisAsyncContext *ac, int status)
{
	struct queue_conn *q = ac->data;
	int was_ready = q->ready;

	q->ac = NULL;
	q->ready = 0;
	if (q->closing)
		return;
	if (was_ready && q->on_down)
		q->on_down(q->arg);
	/* A connection that stayed up a while starts the back-off again. */
	if (was_ready && now_ms() - q->up_ms >= QUEUE_BACKOFF_MAX) {
		q->drops = 0;
		q->backoff_ms = QUEUE_BACKOFF_MIN;
	}
	/* A bound broken is no outage: said each time, with a back-off that grows
	 * while the same reply keeps breaking it. */
	if (q->bound.why[0]) {
		q->outage = 0;
		if (q->drops < UINT_MAX)
			q->drops++;
	}
	queue_retry_later(q, q->bound.why[0] ? q->bound.why : status == REDIS_OK ? "the connection closed" :
			  ac->errstr[0] ? ac->errstr : "the connection was lost");
}

/* hiredis 0.14 allocates an aggregate's element table as its header says
 * (maxelements came in 1.0): whatever answers on the Redis port could claim
 * 666666662 elements, or nest thousands of large headers, and take gigabytes before
 * sending them. The tables of one reply are capped together, and its strings
 * (queue.h: struct queue_bound): a larger reply is a reader error, so the
 * connection drops and is made again with back-off. */
static void *(*queue_array_base)(const redisReadTask *, int);
static void *(*queue_string_base)(const redisReadTask *, char *, size_t);
static redisReplyObjectFunctions queue_reply_fn;

static void *queue_create_array(const redisReadTask *t, int n)
{
	struct queue_bound *b = t->privdata;

	if (!t->parent)
		b->elements = b->bytes = 0;
	if (n < 0 || (size_t)n > QUEUE_MAX_ELEMENTS - b->elements) {
		snprintf(b->why, sizeof b->why, "a reply of more than %u elements", QUEUE_MAX_ELEMENTS);
		return NULL;
	}
	b->elements += (size_t)n;
	if (b->reply_max && (size_t)n > (b->reply_max - b->bytes) / QUEUE_ELEMENT_COST) {
		snprintf(b->why, sizeof b->why, "a reply of more than %zu bytes", b->reply_max);
		return NULL;
	}
	b->bytes += (size_t)n * QUEUE_ELEMENT_COST;
	return queue_array_base(t, n);
}

static void *queue_create_string(const redisReadTask *t, char *str, size_t len)
{
	struct queue_bound *b = t->privdata;

	if (!t->parent)
		b->elements = b->bytes = 0;
	if (b->string_max && len > b->string_max) {
		snprintf(b->why, sizeof b->why, "a reply string of more than %zu bytes", b->string_max);
		return NULL;
	}
	if (b->reply_max && len > b->reply_max - b->bytes) {
		snprintf(b->why, sizeof b->why, "a reply of more than %zu bytes", b->reply_max);
		return NULL;
	}
	b->bytes += len;
	return queue_string_base(t, str, len);
}

void queue_bound_reader(redisReader *r, struct queue_bound *b)
{
	if (!queue_array_base) {
		queue_reply_fn = *r->fn;
		queue_array_base = r->fn->createArray;
		queue_string_base = r->fn->createString;
		queue_reply_fn.createArray = queue_create_array;
		queue_reply_fn.createString = queue_create_string;
	}
	r->fn = &queue_reply_fn;
	redisReaderSetPrivdata(r, b);
}

/* hiredis's libevent adapter, and after each read the bound on what the reader
 * holds of a reply not yet complete (a string is buffered whole before
 * queue_create_string sees it): a header's bytes past the longest string. */
#define QUEUE_HEADER_SLACK 64

struct queue_events {
	struct queue_conn  *q;
	redisAsyncContext  *ac;
	struct event       *rev, *wev;
};

static void queue_ev_read(evutil_socket_t fd, short what, void *arg)
{
	struct queue_events *e = arg;
	struct queue_conn *q = e->q;
	redisAsyncContext *ac = e->ac;

	redisAsyncHandleRead(ac);
	if (q->ac != ac)
		return;                      /* dropped meanwhile: e went with it */
	const redisReader *r = ac->c.reader;
	size_t max = q->bound.string_max;
	if (max && r->len - r->pos > max + QUEUE_HEADER_SLACK) {
		snprintf(q->bound.why, sizeof q->bound.why, "a reply string of more than %zu bytes", max);
		redisAsyncFree(ac);          /* on_disconnect says why, and retries */
	}
}

static void queue_ev_write(evutil_socket_t fd, short what, void *arg)
{
	struct queue_events *e = arg;
	redisAsyncHandleWrite(e->ac);
}

static void queue_ev_add_read(void *arg)
{
	event_add(((struct queue_events *)arg)->rev, NULL);
}

static void queue_ev_del_read(void *arg)
{
	event_del(((struct queue_events *)arg)->rev);
}

static void queue_ev_add_write(void *arg)
{
	event_add(((struct queue_events *)arg)->wev, NULL);
}

static void queue_ev_del_write(void *arg)
{
	event_del(((struct queue_events *)arg)->wev);
}

static void queue_ev_cleanup(void *arg)
{
	struct queue_events *e = arg;
	event_free(e->rev);
	event_free(e->wev);
	free(e);
}

static int queue_attach(struct queue_conn *q, redisAsyncContext *ac)
{
	struct queue_events *e = calloc(1, sizeof *e);

	if (!e)
		return -1;
	e->q = q;
	e->ac = ac;
	e->rev = event_new(q->base, ac->c.fd, EV_READ, queue_ev_read, e);
	e->wev = event_new(q->base, ac->c.fd, EV_WRITE, queue_ev_write, e);
	if (!e->rev || !e->wev) {
		if (e->rev)
			event_free(e->rev);
		if (e->wev)
			event_free(e->wev);
		free(e);
		return -1;
	}
	ac->ev.addRead = queue_ev_add_read;
	ac->ev.delRead = queue_ev_del_read;
	ac->ev.addWrite = queue_ev_add_write;
	ac->ev.delWrite = queue_ev_del_write;
	ac->ev.cleanup = queue_ev_cleanup;
	ac->ev.data = e;
	event_add(e->rev, NULL);
	event_add(e->wev, NULL);
	return 0;
}

static void queue_connect(struct queue_conn *q)
{
	redisAsyncContext *ac = redisAsyncConnect(q->host, q->port);

	if (!ac) {
		queue_retry_later(q, "out of memory");
		return;
	}
	if (ac->err) {
		char why[128];
		snprintf(why, sizeof why, "%s", ac->errstr);
		redisAsyncFree(ac);
		queue_retry_later(q, why);
		return;
	}
	q->bound.why[0] = 0;
	queue_bound_reader(ac->c.reader, &q->bound);
	ac->data = q;
	q->ac = ac;
	if (queue_attach(q, ac) < 0) {
		q->ac = NULL;
		redisAsyncFree(ac);
		queue_retry_later(q, "cannot attach to the event loop");
		return;
	}
	redisAsyncSetConnectCallback(ac, on_connect);
	redisAsyncSetDisconnectCallback(ac, on_disconnect);
}

static void on_retry(evutil_socket_t fd, short what, void *arg)
{
	queue_connect(arg);
}

int queue_start(struct queue_conn *q, struct event_base *base)
{
	/* The ACL user of the password: the environment's wins over [queue] user. */
	const char *user = getenv(QUEUE_USER_ENV);
	if (user && *user) {
		free(q->user);
		if (!(q->user = strdup(user)))
			return -1;
	}
	q->base = base;
	q->backoff_ms = QUEUE_BACKOFF_MIN;
	q->retry = evtimer_new(base, on_retry, q);
	if (!q->retry)
		return -1;
	queue_connect(q);
	return 0;
}

int queue_cmd(struct queue_conn *q, redisCallbackFn *fn, void *priv, const char *fmt, ...)
{
	va_list ap;
	int rc;

	if (!q->ready || !q->ac)
		return -1;
	va_start(ap, fmt);
	rc = redisvAsyncCommand(q->ac, fn, priv, fmt, ap);
	va_end(ap);
	return rc == REDIS_OK ? 0 : -1;
}

int queue_cmd_argv(struct queue_conn *q, redisCallbackFn *fn, void *priv, int argc,
		   const char **argv, const size_t *argvlen)
{
	if (!q->ready || !q->ac)
		return -1;
	return redisAsyncCommandArgv(q->ac, fn, priv, argc, argv, argvlen) == REDIS_OK ? 0 : -1;
}

void queue_close(struct queue_conn *q)
{
	q->closing = 1;
	q->ready = 0;
	if (q->ac) {
		redisAsyncContext *ac = q->ac;
		q->ac = NULL;
		redisAsyncFree(ac);
	}
	util_event_free(&q->retry);
	free(q->password);
	q->password = NULL;
	free(q->user);
	q->user = NULL;
}

int queue_is_error(const redisReply *r, const char *prefix)
{
	return r && r->type == REDIS_REPLY_ERROR && r->str && !strncmp(r->str, prefix, strlen(prefix));
}

const char *queue_field(const redisReply *entry, const char *field)
{
	if (!entry || entry->type != REDIS_REPLY_ARRAY || entry->elements < 2)
		return NULL;
	const redisReply *f = entry->element[1];
	if (!f || f->type != REDIS_REPLY_ARRAY)
		return NULL;
	for (size_t i = 0; i + 1 < f->elements; i += 2)
		if (f->element[i]->type == REDIS_REPLY_STRING && !strcmp(f->element[i]->str, field) &&
		    f->element[i + 1]->type == REDIS_REPLY_STRING)
			return f->element[i + 1]->str;
	return NULL;
}
