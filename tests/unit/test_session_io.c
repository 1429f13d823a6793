/*
 * test_session_io.c: the shared session plumbing over a real socketpair: line
 * reading (CR LF, over-long lines, a last line without its newline), the input held
 * while the protocol is busy, back-pressure, idle time-out, raw mode and closing (the
 * linger while the client has not read what it was sent, and the daemon's stop).
 */
#include <CUnit/Basic.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bridge/log.h"
#include "bridge/session_io.h"
#include "tests/unit/unit.h"

/* A toy protocol: echoes every line, answers "toolong" to an over-long one. */
struct toy {
	struct session_io io;
	int    busy;
	int    nlines;
	int    ntoolong;
	int    neof;
	int    closed;
	size_t max_seen;     /* output queued when a line was taken: never over max_buffer */
	size_t raw_bytes;
};

static int toy_ready(void *arg)
{
	const struct toy *t = arg;
	return !t->busy;
}

static void toy_line(void *arg, char *line, size_t len)
{
	struct toy *t = arg;
	char buf[256];
	size_t queued = evbuffer_get_length(bufferevent_get_output(t->io.out));

	if (queued > t->max_seen)
		t->max_seen = queued;
	CU_ASSERT_EQUAL(strlen(line), len);
	int n = snprintf(buf, sizeof buf, "echo %s", line);
	session_io_write_line(&t->io, buf, (size_t)n);
	t->nlines++;
}

static void toy_too_long(void *arg)
{
	struct toy *t = arg;
	session_io_write_line(&t->io, "toolong", 7);
	t->ntoolong++;
}

static void toy_eof(void *arg)
{
	struct toy *t = arg;
	t->neof++;
}

/* Raw mode: counts and drops what arrives, one byte at a time. */
static int toy_input(void *arg, struct evbuffer *in)
{
	struct toy *t = arg;
	if (evbuffer_get_length(in) == 0)
		return 0;
	evbuffer_drain(in, 1);
	t->raw_bytes++;
	return 1;
}

static const struct session_io_ops toy_line_ops = {
	.ready = toy_ready,
	.line = toy_line,
	.too_long = toy_too_long,
	.eof = toy_eof,
	.max_line_default = 10,
};

static const struct session_io_ops toy_raw_ops = {
	.ready = toy_ready,
	.input = toy_input,
	.eof = toy_eof,
	.read_high = 64,
};

static struct event_base *base;
static int peer = -1;

static void toy_closed(void *arg)
{
	struct toy *t = arg;
	t->closed++;
	session_io_free(&t->io);     /* freeing inside the callback must be safe */
	event_base_loopbreak(base);
}

/* A toy session on one end of a socketpair; the test speaks on peer. */
static void toy_open(struct toy *t, const struct session_io_ops *ops, const struct session_limits *lim)
{
	int sv[2];

	memset(t, 0, sizeof *t);
	base = event_base_new();
	CU_ASSERT_PTR_NOT_NULL_FATAL(base);
	CU_ASSERT_EQUAL_FATAL(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	evutil_make_socket_nonblocking(sv[0]);
	peer = sv[1];
	struct bufferevent *bev = bufferevent_socket_new(base, sv[0], BEV_OPT_CLOSE_ON_FREE);
	CU_ASSERT_PTR_NOT_NULL_FATAL(bev);
	CU_ASSERT_EQUAL_FATAL(session_io_init(&t->io, base, bev, bev, 1, lim, ops, t, toy_closed, t), 0);
}

/* How long a session may take to close, on a loaded machine: a run ends at the close. */
#define CLOSE_MS 10000

/* Runs the loop until the session closes or ms pass. */
static void run_for(unsigned ms)
{
	unit_loop(base, NULL, ms);
}

static void send_all(const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(peer, data, len);
		CU_ASSERT_FATAL(n > 0);
		data += n;
		len -= (size_t)n;
	}
}

/* Reads what the session sent until it closed its end (only once it did: the read
 * blocks). */
static char *recv_all(const struct toy *t)
{
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap + 1);
	ssize_t n;
	if (!buf || !t->closed) {
		free(buf);
		return strdup("(not closed)");
	}
	/* libevent closes a freed bufferevent's socket from the loop: let it. */
	event_base_loop(base, EVLOOP_NONBLOCK);
	while ((n = read(peer, buf + len, cap - len)) > 0)
		len += (size_t)n;
	if (buf)
		buf[len] = 0;
	return buf;
}

static void toy_close(struct toy *t)
{
	if (!t->closed)
		session_io_free(&t->io);
	close(peer);
	event_base_free(base);
}

static void test_lines(void)
{
	struct session_limits lim = { 0 };    /* max_line 10 from the ops */
	struct toy t;
	char big[100];

	toy_open(&t, &toy_line_ops, &lim);
	CU_ASSERT_EQUAL(t.io.lim.max_line, 10);
	CU_ASSERT_EQUAL(t.io.lim.max_buffer, (size_t)1 << 20);
	memset(big, 'x', sizeof big);
	send_all("a\r\nbb\n", 6);
	send_all(big, sizeof big);              /* no newline in sight: discarded as it comes */
	send_all("\n0123456789\r\n0123456789A\nc", 26);
	shutdown(peer, SHUT_WR);
	run_for(CLOSE_MS);
	CU_ASSERT_EQUAL(t.closed, 1);
	CU_ASSERT_EQUAL(t.neof, 1);
	CU_ASSERT_EQUAL(t.nlines, 4);
	CU_ASSERT_EQUAL(t.ntoolong, 2);
	char *got = recv_all(&t);
	CU_ASSERT_STRING_EQUAL(got, "echo a\necho bb\ntoolong\necho 0123456789\ntoolong\necho c\n");
	free(got);
	toy_close(&t);
}

static void test_busy_holds_input(void)
{
	struct session_limits lim = { .max_line = 64 };
	struct toy t;

	toy_open(&t, &toy_line_ops, &lim);
	t.busy = 1;
	send_all("one\ntwo\n", 8);
	run_for(100);
	CU_ASSERT_EQUAL(t.nlines, 0);          /* queued, not read */
	t.busy = 0;
	session_io_schedule(&t.io);
	for (int i = 0; i < 100 && t.nlines < 2; i++)
		run_for(100);
	CU_ASSERT_EQUAL(t.nlines, 2);
	CU_ASSERT_EQUAL(t.closed, 0);
	toy_close(&t);
}

static void test_back_pressure(void)
{
	struct session_limits lim = { .max_line = 64, .max_buffer = 16 };
	struct toy t;
	char in[200];
	size_t n = 0;

	toy_open(&t, &toy_line_ops, &lim);
	for (int i = 0; i < 40; i++)
		n += (size_t)snprintf(in + n, sizeof in - n, "%d\n", i % 10);
	send_all(in, n);
	shutdown(peer, SHUT_WR);
	run_for(CLOSE_MS);
	CU_ASSERT_EQUAL(t.closed, 1);
	CU_ASSERT_EQUAL(t.nlines, 40);
	/* No line was taken while more than max_buffer bytes waited for the client. */
	CU_ASSERT(t.max_seen <= lim.max_buffer);
	char *got = recv_all(&t);
	CU_ASSERT_EQUAL(strlen(got), 40 * 7);
	free(got);
	toy_close(&t);
}

static void test_idle_timeout(void)
{
	struct session_limits lim = { .max_line = 64, .idle_timeout_ms = 50 };
	struct toy t;

	toy_open(&t, &toy_line_ops, &lim);
	run_for(CLOSE_MS);
	CU_ASSERT_EQUAL(t.closed, 1);
	CU_ASSERT_EQUAL(t.neof, 0);
	toy_close(&t);

	/* Waiting for the engine is not idleness. */
	toy_open(&t, &toy_line_ops, &lim);
	t.busy = 1;
	run_for(200);
	CU_ASSERT_EQUAL(t.closed, 0);
	toy_close(&t);
}

static void test_raw_and_finish(void)
{
	struct session_limits lim = { 0 };
	struct toy t;

	toy_open(&t, &toy_raw_ops, &lim);
	send_all("0123456789", 10);
	for (int i = 0; i < 100 && t.raw_bytes < 10; i++)
		run_for(100);
	CU_ASSERT_EQUAL(t.raw_bytes, 10);
	session_io_write_line(&t.io, "bye", 3);
	session_io_finish(&t.io, 1);           /* flush, then close */
	session_io_finish(&t.io, 1);           /* a second one changes nothing */
	CU_ASSERT_EQUAL(t.closed, 0);          /* never from inside finish */
	run_for(SESSION_IO_LINGER_MS + CLOSE_MS);  /* written, then the linger: the client never hangs up */
	CU_ASSERT_EQUAL(t.closed, 1);
	CU_ASSERT_EQUAL(t.neof, 0);
	char *got = recv_all(&t);
	CU_ASSERT_STRING_EQUAL(got, "bye\n");
	free(got);
	toy_close(&t);
}

/* Sent, but not read by the client yet: a close would drop it (a reset, on TCP), so
 * the session lingers; a hang-up ends the linger. */
static void test_finish_lingers_unread(void)
{
	struct session_limits lim = { 0 };
	struct toy t;

	toy_open(&t, &toy_line_ops, &lim);
	session_io_write_line(&t.io, "bye", 3);
	session_io_flush(&t.io);
	session_io_finish(&t.io, 1);
	run_for(100);
	CU_ASSERT_EQUAL(t.closed, 0);
	close(peer);
	run_for(CLOSE_MS);
	CU_ASSERT_EQUAL(t.closed, 1);
	peer = -1;
	toy_close(&t);
}

/* The daemon's stop: the session stays while the client has not read what it was
 * sent, past SESSION_IO_LINGER_MS (the server's grace bounds it), and goes once it
 * has. */
static void test_shutdown_until_read(void)
{
	struct session_limits lim = { 0 };
	struct toy t;
	char buf[16];

	toy_open(&t, &toy_line_ops, &lim);
	session_io_write_line(&t.io, "bye", 3);
	session_io_flush(&t.io);
	session_io_shutdown(&t.io);
	run_for(SESSION_IO_LINGER_MS + 300);
	CU_ASSERT_EQUAL(t.closed, 0);
	CU_ASSERT_EQUAL(read(peer, buf, sizeof buf), 4);
	run_for(CLOSE_MS);
	CU_ASSERT_EQUAL(t.closed, 1);
	char *got = recv_all(&t);
	CU_ASSERT_STRING_EQUAL(got, "");          /* then the end of the stream */
	free(got);
	toy_close(&t);
}

static int session_setup(void)
{
	if (getenv("TEST_LOG"))
		log_open("-");      /* the session's notes, for debugging */
	return 0;
}

static const struct unit_test tests[] = {
	{ "lines", test_lines },
	{ "busy holds input", test_busy_holds_input },
	{ "back-pressure", test_back_pressure },
	{ "idle time-out", test_idle_timeout },
	{ "raw mode and finish", test_raw_and_finish },
	{ "finish lingers while unread", test_finish_lingers_unread },
	{ "shutdown until read", test_shutdown_until_read },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "session_io",
	.setup = session_setup,
	.tests = tests,
};
