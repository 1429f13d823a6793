/*
 * engine_child.c: an external engine's child process, read and watched on the
 * event loop, for the line-oriented back ends (see engine_child.h).
 *
 * The child's end can show up in three orders: EOF on stdout then the exit status
 * (a short grace timer waits for it, as the status says more), the exit status with
 * unread output still in the socket (read first: its last words count), or EOF with
 * the status already known.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/sockios.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "bridge/engine_child.h"
#include "bridge/log.h"
#include "bridge/proc.h"
#include "bridge/util.h"

/* After EOF on its stdout, how long to wait for the child's exit status. */
#define EC_EOF_GRACE_MS 200
/* Bytes read from the engine at a time (a bufferevent's most). */
#define EC_READ_CHUNK 16384

struct engine_child {
	struct event_base             *base;
	const char                    *name;
	size_t                         max_line;
	size_t                         line_slack;
	const struct engine_child_ops *ops;
	void                          *arg;
	unsigned                       log_id;

	struct proc                   *proc;      /* NULL: no child */
	struct bufferevent            *sock;      /* or an adopted connection (a remote engine) */
	int                            io_eof;    /* stdout ended, exit awaited */
	struct event                  *timer;     /* the wait in progress, or the grace */
	struct event                  *rd;        /* reads the engine's output (ec_fill) */
};

/* The engine's stdin+stdout: the child's socketpair or the adopted connection. */
static struct bufferevent *ec_io(const struct engine_child *c)
{
	return c->proc ? proc_stdio(c->proc) : c->sock;
}

static int ec_live(const struct engine_child *c)
{
	return c->proc || c->sock;
}

/* Stops reading the engine's output: before its bufferevent is freed or handed over. */
static void ec_stop_reading(struct engine_child *c)
{
	util_event_free(&c->rd);
}

static void ec_drop_sock(struct engine_child *c)
{
	ec_stop_reading(c);
	if (c->sock) {
		bufferevent_free(c->sock);
		c->sock = NULL;
	}
}

static const char *ec_status_text(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "ended (status 0x%x)", status);
	return buf;
}

void engine_child_fail(struct engine_child *c, const char *fmt, ...)
{
	va_list ap;
	char *why;

	va_start(ap, fmt);
	if (vasprintf(&why, fmt, ap) < 0)
		why = NULL;
	va_end(ap);
	util_scrub_text(why);     /* it may quote the engine: it goes to terminals and reports */
	log_warn(c->log_id, "engine %s failed: %s", c->name, why ? why : "?");
	ec_stop_reading(c);
	if (c->proc) {
		proc_free(c->proc);     /* SIGKILL; the registry reaps it */
		c->proc = NULL;
	}
	ec_drop_sock(c);
	c->io_eof = 0;
	evtimer_del(c->timer);
	c->ops->failed(c->arg, why ? why : "engine failed");
	free(why);
}

/* A line over the limit: shown to an overflow op, then the child fails. */
static void ec_overflow(struct engine_child *c, struct evbuffer *in)
{
	if (c->ops->overflow) {
		size_t len = evbuffer_get_length(in);
		const char *head = (const char *)evbuffer_pullup(in, (ev_ssize_t)len);
		if (head)
			c->ops->overflow(c->arg, head, len);
	}
	engine_child_fail(c, "line longer than %zu bytes", c->max_line);
}

/* Hands over whole lines from the child's stdout; fails it on an over-long one. */
static void ec_read_lines(struct engine_child *c)
{
	struct evbuffer *in = bufferevent_get_input(ec_io(c));
	size_t avail = evbuffer_get_length(in), done = 0;

	if (avail == 0)
		return;
	/* In one piece (at most max_line and a read more): the lines are looked at in
	 * place and drained together, not searched, pulled up and drained one by one. */
	const char *buf = (const char *)evbuffer_pullup(in, -1);
	if (!buf) {
		engine_child_fail(c, "out of memory");
		return;
	}
	for (;;) {
		const char *line = buf + done;
		const char *nl = memchr(line, '\n', avail - done);
		if (!nl || (size_t)(nl - line) > c->max_line + c->line_slack) {
			if (!nl && avail - done <= c->max_line)
				break;
			evbuffer_drain(in, done);      /* the over-long line first, for the report */
			ec_overflow(c, in);
			return;
		}
		size_t len = (size_t)(nl - line);
		size_t show = len && line[len - 1] == '\r' ? len - 1 : len;
		log_proto(c->log_id, LOG_ENGINE_IN, line, show);
		c->ops->line(c->arg, line, show);
		if (!ec_live(c))
			return;        /* failed: the buffer is gone with the child */
		done += len + 1;
	}
	evbuffer_drain(in, done);
}

/* Reads what the engine wrote into its bufferevent's input, as the bufferevent would,
 * but without its FIONREAD ioctl first (a system call per line of a relayed command):
 * the bufferevent itself does not read (EV_READ off), c->rd does. 1 if bytes came,
 * 0 at EOF, -1 on an error, -2 if nothing is there yet. */
static int ec_fill(struct engine_child *c)
{
	struct bufferevent *io = ec_io(c);
	struct evbuffer *in = bufferevent_get_input(io);
	struct evbuffer_iovec v;
	ssize_t n = -1;
	int err = ENOMEM;

	evbuffer_unfreeze(in, 0);      /* a socket bufferevent's input end is frozen */
	if (evbuffer_reserve_space(in, EC_READ_CHUNK, &v, 1) >= 1) {
		n = read(bufferevent_getfd(io), v.iov_base, v.iov_len);
		err = errno;
		if (n > 0) {
			v.iov_len = (size_t)n;
			evbuffer_commit_space(in, &v, 1);
		}
	}
	evbuffer_freeze(in, 0);
	if (n > 0)
		return 1;
	if (n == 0)
		return 0;
	return err == EAGAIN || err == EWOULDBLOCK || err == EINTR ? -2 : -1;
}

static void ec_event_cb(struct bufferevent *bev, short what, void *arg);

static void ec_read_cb(evutil_socket_t fd, short what, void *arg)
{
	struct engine_child *c = arg;
	int rc = ec_fill(c);

	if (rc > 0)
		ec_read_lines(c);
	else if (rc != -2)
		ec_event_cb(ec_io(c), BEV_EVENT_READING | (rc == 0 ? BEV_EVENT_EOF : BEV_EVENT_ERROR), c);
}

/* Starts reading io, the engine's stdin+stdout, with c->rd: 0, or -1 (no memory). */
static int ec_start_reading(struct engine_child *c, struct bufferevent *io)
{
	bufferevent_disable(io, EV_READ);
	c->rd = event_new(c->base, bufferevent_getfd(io), EV_READ | EV_PERSIST, ec_read_cb, c);
	if (!c->rd || event_add(c->rd, NULL) < 0) {
		ec_stop_reading(c);
		return -1;
	}
	return 0;
}

/* A backlog went out: EV_WRITE off again until the next one (bev_send). */
static void ec_write_cb(struct bufferevent *bev, void *arg)
{
	bev_send_idle(bev);
}

static void ec_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct engine_child *c = arg;
	int status;
	char buf[96];

	if (!(what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)))
		return;
	ec_read_lines(c);          /* what came before the end still counts */
	if (!ec_live(c))
		return;
	c->io_eof = 1;
	if (c->rd)
		event_del(c->rd);
	if (!c->proc) {
		c->ops->ended(c->arg, "closed the connection");
		return;
	}
	if (proc_exited(c->proc, &status)) {
		c->ops->ended(c->arg, ec_status_text(status, buf, sizeof buf));
		return;
	}
	/* Most likely it is dying: wait a moment for its exit status, which says more. */
	engine_child_arm(c, EC_EOF_GRACE_MS);
}

static void ec_exit_cb(void *arg, int status)
{
	struct engine_child *c = arg;
	struct bufferevent *io = proc_stdio(c->proc);
	char buf[96];

	/* Its last words are in the socket already: read them before judging. */
	if (!c->io_eof) {
		struct evbuffer *in = bufferevent_get_input(io);
		while (evbuffer_get_length(in) <= c->max_line + 65536 && ec_fill(c) > 0)
			;
		ec_read_lines(c);
		if (!c->proc)
			return;
	}
	c->ops->ended(c->arg, ec_status_text(status, buf, sizeof buf));
}

/* stderr: logged line by line, never judged. */
static void ec_err_cb(struct bufferevent *bev, void *arg)
{
	struct engine_child *c = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	char *line;
	size_t len;

	while ((line = evbuffer_readln(in, &len, EVBUFFER_EOL_CRLF)) != NULL) {
		log_proto(c->log_id, LOG_ENGINE_ERR, line, len);
		free(line);
	}
	if (evbuffer_get_length(in) > c->max_line) {
		len = evbuffer_get_length(in);
		log_proto(c->log_id, LOG_ENGINE_ERR, (const char *)evbuffer_pullup(in, -1), len);
		evbuffer_drain(in, len);
	}
}

static void ec_err_event_cb(struct bufferevent *bev, short what, void *arg)
{
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		bufferevent_disable(bev, EV_READ);
}

static void ec_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct engine_child *c = arg;

	if (c->io_eof)
		c->ops->ended(c->arg, "closed its output");    /* the grace ran out */
	else
		c->ops->timeout(c->arg);
}

int engine_child_spawn(struct engine_child *c, char *const argv[], const char *workdir)
{
	char err[256];

	c->proc = proc_spawn(c->base, argv, workdir, err, sizeof err);
	if (!c->proc) {
		engine_child_fail(c, "cannot start: %s", err);
		return -1;
	}
	c->io_eof = 0;
	log_note(c->log_id, "engine %s started: pid %ld", c->name, (long)proc_pid(c->proc));
	/* Lines go out as they are sent (bev_send): no write event armed for each. */
	bufferevent_setcb(proc_stdio(c->proc), NULL, ec_write_cb, ec_event_cb, c);
	bev_send_idle(proc_stdio(c->proc));      /* on in a new bufferevent */
	if (ec_start_reading(c, proc_stdio(c->proc)) < 0) {
		engine_child_fail(c, "cannot start: out of memory");
		return -1;
	}
	bufferevent_setcb(proc_stderr(c->proc), ec_err_cb, NULL, ec_err_event_cb, c);
	bufferevent_enable(proc_stderr(c->proc), EV_READ);
	proc_set_exit_cb(c->proc, ec_exit_cb, c);
	return 0;
}

int engine_child_adopt(struct engine_child *c, struct bufferevent *bev)
{
	if (ec_live(c)) {
		bufferevent_free(bev);
		return -1;
	}
	c->sock = bev;
	c->io_eof = 0;
	log_note(c->log_id, "engine %s connected", c->name);
	bufferevent_setcb(bev, NULL, ec_write_cb, ec_event_cb, c);
	bev_send_idle(bev);
	if (ec_start_reading(c, bev) < 0) {
		engine_child_fail(c, "out of memory");
		return -1;
	}
	return 0;
}

int engine_child_running(const struct engine_child *c)
{
	return ec_live(c);
}

int engine_child_eof(const struct engine_child *c)
{
	return c->io_eof;
}

int engine_child_send(struct engine_child *c, const char *line)
{
	size_t len = strlen(line);

	if (!ec_live(c)) {
		engine_child_fail(c, "cannot write to the engine");
		return -1;
	}
	struct evbuffer *out = bufferevent_get_output(ec_io(c));
	log_proto(c->log_id, LOG_ENGINE_OUT, line, len);
	if (evbuffer_add(out, line, len) < 0 || evbuffer_add(out, "\n", 1) < 0) {
		engine_child_fail(c, "cannot write to the engine");
		return -1;
	}
	/* The engine's clock starts now, not after a trip round the event loop. */
	bev_send(ec_io(c));
	return 0;
}

size_t engine_child_pending(const struct engine_child *c, char *buf, size_t len)
{
	if (!ec_live(c))
		return 0;
	return (size_t)evbuffer_copyout(bufferevent_get_input(ec_io(c)), buf, len);
}

size_t engine_child_unsent(const struct engine_child *c)
{
	return ec_live(c) ? evbuffer_get_length(bufferevent_get_output(ec_io(c))) : 0;
}

size_t engine_child_unread(const struct engine_child *c)
{
	size_t n = engine_child_unsent(c);
	int queued = 0;
	evutil_socket_t fd = ec_live(c) ? bufferevent_getfd(ec_io(c)) : -1;
	if (fd >= 0 && ioctl(fd, SIOCOUTQ, &queued) == 0 && queued > 0)
		n += (size_t)queued;
	return n;
}

int engine_child_close_input(struct engine_child *c)
{
	if (!ec_live(c))
		return -1;
	struct bufferevent *io = ec_io(c);
	bev_flush_now(io);
	log_note(c->log_id, "engine %s: end of input", c->name);
	/* stdin and stdout are one socket: end only our direction. */
	return shutdown(bufferevent_getfd(io), SHUT_WR);
}

static void ec_wait_cb(evutil_socket_t fd, short what, void *arg)
{
	*(int *)arg = 1;
}

int engine_child_wait_exit(struct engine_child *c, unsigned ms, int *status)
{
	struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 };
	int expired = 0;

	if (!c->proc)
		return -1;
	struct event *t = evtimer_new(c->base, ec_wait_cb, &expired);
	if (!t)
		return -1;
	evtimer_add(t, &tv);
	while (c->proc && !proc_exited(c->proc, status) && !expired)
		if (event_base_loop(c->base, EVLOOP_ONCE) < 0)
			break;
	event_free(t);
	if (!c->proc)
		return -1;
	return proc_exited(c->proc, status);
}

int engine_child_signal(struct engine_child *c, int sig)
{
	return c->proc ? proc_signal(c->proc, sig) : -1;
}

void engine_child_arm(struct engine_child *c, uint64_t ms)
{
	struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 };

	evtimer_del(c->timer);
	if (ms)
		evtimer_add(c->timer, &tv);
}

void engine_child_disarm(struct engine_child *c)
{
	evtimer_del(c->timer);
}

void engine_child_close(struct engine_child *c, const char *farewell, unsigned grace_ms)
{
	if (c->sock) {
		/* A connection: the farewell if it fits in the socket now, then closed. */
		if (farewell && !c->io_eof) {
			log_proto(c->log_id, LOG_ENGINE_OUT, farewell, strlen(farewell));
			bufferevent_write(c->sock, farewell, strlen(farewell));
			bufferevent_write(c->sock, "\n", 1);
			bev_flush_now(c->sock);
		}
		ec_drop_sock(c);
		c->io_eof = 0;
		evtimer_del(c->timer);
		return;
	}
	if (!c->proc)
		return;
	ec_stop_reading(c);
	/* Polite first; the registry escalates and reaps after we are gone. */
	char *line = farewell ? xasprintf("%s\n", farewell) : NULL;
	proc_close(c->proc, line, grace_ms);
	if (farewell)
		log_proto(c->log_id, LOG_ENGINE_OUT, farewell, strlen(farewell));
	free(line);
	c->proc = NULL;
	c->io_eof = 0;
	evtimer_del(c->timer);
}

void engine_child_set_log_id(struct engine_child *c, unsigned id)
{
	c->log_id = id;
}

struct engine_child *engine_child_new(struct event_base *base, const char *name,
				      size_t max_line, size_t line_slack,
				      const struct engine_child_ops *ops, void *arg)
{
	struct engine_child *c = calloc(1, sizeof *c);

	if (!c)
		return NULL;
	c->base = base;
	c->name = name;
	c->max_line = max_line;
	c->line_slack = line_slack;
	c->ops = ops;
	c->arg = arg;
	c->timer = evtimer_new(base, ec_timer_cb, c);
	if (!c->timer) {
		free(c);
		return NULL;
	}
	return c;
}

void engine_child_free(struct engine_child *c)
{
	if (!c)
		return;
	ec_stop_reading(c);
	proc_free(c->proc);        /* safe on NULL: SIGKILL, the registry reaps it */
	ec_drop_sock(c);
	event_free(c->timer);
	free(c);
}
