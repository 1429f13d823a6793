/*
 * child.c: a line-protocol engine driven synchronously, for a suite that wants the
 * exact lines (the UHP suite). The child process is bridge/engine_child's, as for
 * the back ends: spawned, read as bounded lines, timed and killed the same way,
 * traced in --log the same way. Each wait runs the checker's event loop until the
 * reply's terminator line, the deadline, the child's end or a flood; lines that
 * come after a terminator wait for the next reply.
 */
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "bridge/check/check.h"
#include "bridge/engine_child.h"

#define CHILD_MAX_REPLY     (8u << 20)  /* a longer reply is a flood too */
#define CHILD_SHOW_PARTIAL  4096        /* bytes of an unfinished line kept for a report */

struct check_child {
	struct event_base   *base;
	struct engine_child *ec;
	struct strlist       queue;       /* lines not yet taken by a reply */
	size_t               head;        /* the first of them */
	size_t               queued;      /* their bytes */
	int                  timed_out;
	int                  flood;
	char                *ended;       /* how the child ended, or NULL */
	char                *failed;      /* why engine_child gave it up, or NULL */
	char                *partial;     /* the start of an over-long line */
};

static void kc_line(void *arg, const char *line, size_t len)
{
	struct check_child *k = arg;
	char *s;

	if (k->flood)
		return;
	k->queued += len + 1;
	if (k->queued > CHILD_MAX_REPLY) {
		k->flood = 1;
		return;
	}
	s = xreallocarray(NULL, len + 1, 1);
	memcpy(s, line, len);
	s[len] = 0;
	strlist_add(&k->queue, s);
	free(s);
}

/* The child is kept for its exit status; the suite kills it after looking. */
static void kc_ended(void *arg, const char *what)
{
	struct check_child *k = arg;

	if (!k->ended)
		k->ended = xstrdup(what);
}

static void kc_timeout(void *arg)
{
	struct check_child *k = arg;

	k->timed_out = 1;
}

static void kc_failed(void *arg, const char *why)
{
	struct check_child *k = arg;

	if (!k->failed)
		k->failed = xstrdup(why);
}

static void kc_overflow(void *arg, const char *head, size_t len)
{
	struct check_child *k = arg;

	k->flood = 1;
	free(k->partial);
	len = len < CHILD_SHOW_PARTIAL ? len : CHILD_SHOW_PARTIAL;
	k->partial = xreallocarray(NULL, len + 1, 1);
	memcpy(k->partial, head, len);
	k->partial[len] = 0;
}

static const struct engine_child_ops kc_ops = {
	.line = kc_line,
	.ended = kc_ended,
	.timeout = kc_timeout,
	.failed = kc_failed,
	.overflow = kc_overflow,
};

/* Forgets everything of the last child. */
static void kc_reset(struct check_child *k)
{
	strlist_free(&k->queue);
	k->head = k->queued = 0;
	k->timed_out = k->flood = 0;
	free(k->ended);
	free(k->failed);
	free(k->partial);
	k->ended = k->failed = k->partial = NULL;
}

struct check_child *check_child_new(struct event_base *base, size_t max_line)
{
	struct check_child *k = calloc(1, sizeof *k);

	if (!k)
		return NULL;
	k->base = base;
	/* One byte of slack: a CR before the LF is not part of the line. */
	k->ec = engine_child_new(base, "check", max_line, 1, &kc_ops, k);
	if (!k->ec) {
		free(k);
		return NULL;
	}
	engine_child_set_log_id(k->ec, CHECK_LOG_ID);
	return k;
}

void check_child_free(struct check_child *k)
{
	if (!k)
		return;
	engine_child_free(k->ec);
	kc_reset(k);
	free(k);
}

int check_child_spawn(struct check_child *k, char *const argv[], const char *workdir,
		      char *why, size_t whylen)
{
	kc_reset(k);
	if (engine_child_spawn(k->ec, argv, workdir) == 0)
		return 0;
	/* "cannot start: CMD: cannot exec: ..." */
	const char *cause = k->failed ? k->failed : "?";
	if (!strncmp(cause, "cannot start: ", 14))
		cause += 14;
	snprintf(why, whylen, "cannot run %s", cause);
	return -1;
}

int check_child_running(const struct check_child *k)
{
	return engine_child_running(k->ec);
}

int check_child_send(struct check_child *k, const char *line)
{
	if (!engine_child_running(k->ec) || k->ended)
		return -1;
	return engine_child_send(k->ec, line);
}

void check_child_reply(struct check_child *k, const char *term, int64_t start, int timeout_ms,
		       struct reply *r)
{
	int64_t left = start + timeout_ms - now_ms();

	memset(r, 0, sizeof *r);
	k->timed_out = left <= 0;
	if (left > 0)
		engine_child_arm(k->ec, (uint64_t)left);
	for (;;) {
		while (k->head < k->queue.n) {
			char *line = k->queue.v[k->head];
			k->queue.v[k->head++] = NULL;
			k->queued -= strlen(line) + 1;
			if (!term || !strcmp(line, term)) {
				if (!term)
					strlist_add(&r->lines, line);   /* the line is the reply */
				free(line);
				r->end = RD_LINE;
				goto done;
			}
			r->bytes += strlen(line) + 1;
			if (r->bytes > CHILD_MAX_REPLY) {
				free(line);
				r->end = RD_TOOLONG;
				goto done;
			}
			strlist_add(&r->lines, line);
			free(line);
		}
		if (k->flood) {
			r->end = RD_TOOLONG;
			break;
		}
		if (k->ended || k->failed || !engine_child_running(k->ec)) {
			r->end = RD_EOF;
			break;
		}
		if (k->timed_out) {
			/* Not even our command got through. */
			r->end = engine_child_unsent(k->ec) ? RD_WRITE : RD_TIMEOUT;
			break;
		}
		if (event_base_loop(k->base, EVLOOP_ONCE) < 0) {
			r->end = RD_EOF;
			break;
		}
	}
done:
	if (k->head == k->queue.n) {
		for (size_t i = 0; i < k->head; i++)
			free(k->queue.v[i]);
		k->queue.n = k->head = 0;
	}
	engine_child_disarm(k->ec);
	if (r->end != RD_LINE) {
		/* Show what came without a newline too (cut: it is only for the report). */
		char part[CHILD_SHOW_PARTIAL + 1];
		size_t n = k->partial ? strlen(k->partial) : engine_child_pending(k->ec, part, CHILD_SHOW_PARTIAL);
		if (k->partial) {
			strlist_add(&r->lines, k->partial);
		} else if (n > 0) {
			part[n] = 0;
			strlist_add(&r->lines, part);
		}
	}
	r->ms = now_ms() - start;
}

void check_child_describe_end(struct check_child *k, char *buf, size_t len)
{
	if (k->ended && !strcmp(k->ended, "closed its output"))
		snprintf(buf, len, "closed its output but is still running");
	else
		snprintf(buf, len, "%s", k->ended ? k->ended : k->failed ? k->failed : "ended");
}

int check_child_close_input(struct check_child *k, unsigned ms, int *status)
{
	if (engine_child_close_input(k->ec) < 0)
		return -1;
	return engine_child_wait_exit(k->ec, ms, status);
}

int check_child_wait_exit(struct check_child *k, unsigned ms, int *status)
{
	return engine_child_wait_exit(k->ec, ms, status);
}

int check_child_wait_read(struct check_child *k, int ms)
{
	int64_t end = now_ms() + ms;
	while (engine_child_unread(k->ec)) {
		struct timeval tick = { 0, 5000 };
		if (!engine_child_running(k->ec) || now_ms() >= end)
			return -1;
		event_base_loopexit(k->base, &tick);
		event_base_dispatch(k->base);
	}
	return engine_child_running(k->ec) ? 0 : -1;
}

int check_child_signal(struct check_child *k, int sig)
{
	return engine_child_signal(k->ec, sig);
}

void check_child_kill(struct check_child *k)
{
	engine_child_close(k->ec, NULL, 0);
	kc_reset(k);
}

void reply_free(struct reply *r)
{
	strlist_free(&r->lines);
	memset(r, 0, sizeof *r);
}
