/*
 * test_engine_child.c: the child-process plumbing of the external engine back ends,
 * driven with real children (sh, cat) on a real event loop: lines, the line limit,
 * the timer, the three orders in which a child's end can show, and teardown.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <event2/event.h>

#include "bridge/engine_child.h"
#include "bridge/proc.h"
#include "tests/unit/unit.h"

/* What the callbacks saw. */
struct seen {
	struct engine_child *c;
	char                 lines[8][128];
	int                  nlines;
	char                 ended[128];
	char                 why[128];
	int                  timeouts;
	int                  failed;
	int                  stop_on_line;    /* break the loop after the first line */
};

static struct event_base *base;

static void seen_line(void *arg, const char *line, size_t len)
{
	struct seen *s = arg;

	if (s->nlines < 8)
		snprintf(s->lines[s->nlines], sizeof s->lines[0], "%.*s", (int)len, line);
	s->nlines++;
	if (s->stop_on_line)
		event_base_loopbreak(base);
}

/* As a back end does: the end of the child is a failure. */
static void seen_ended(void *arg, const char *what)
{
	struct seen *s = arg;

	snprintf(s->ended, sizeof s->ended, "%s", what);
	engine_child_fail(s->c, "%s", what);
}

static void seen_timeout(void *arg)
{
	struct seen *s = arg;

	s->timeouts++;
	engine_child_fail(s->c, "timed out");
}

static void seen_failed(void *arg, const char *why)
{
	struct seen *s = arg;

	snprintf(s->why, sizeof s->why, "%s", why);
	s->failed++;
	event_base_loopbreak(base);
}

static const struct engine_child_ops seen_ops = {
	.line = seen_line,
	.ended = seen_ended,
	.timeout = seen_timeout,
	.failed = seen_failed,
};

/* Runs the loop until a callback breaks it, or 5 s as a safety net. */
static void run_loop(void)
{
	unit_loop(base, NULL, 5000);
}

/* A child running the shell script; s records what happens. */
static struct engine_child *child_sh(struct seen *s, size_t max_line, size_t slack,
				     const char *script)
{
	char *argv[] = { "sh", "-c", (char *)script, NULL };

	memset(s, 0, sizeof *s);
	s->c = engine_child_new(base, "test", max_line, slack, &seen_ops, s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s->c);
	CU_ASSERT_EQUAL(engine_child_spawn(s->c, argv, NULL), 0);
	CU_ASSERT(engine_child_running(s->c));
	return s->c;
}

/* Everything given up has been reaped. */
static void check_no_children(void)
{
	proc_drain(base, 3000);
	CU_ASSERT_EQUAL(proc_count(), 0);
}

static void test_lines_then_exit(void)
{
	struct seen s;
	struct engine_child *c = child_sh(&s, 100, 0,
					  "printf 'hello\\r\\n\\nworld\\n'; echo noise >&2; exit 3");

	run_loop();
	CU_ASSERT_EQUAL(s.nlines, 3);
	CU_ASSERT_STRING_EQUAL(s.lines[0], "hello");      /* CR dropped */
	CU_ASSERT_STRING_EQUAL(s.lines[1], "");
	CU_ASSERT_STRING_EQUAL(s.lines[2], "world");
	CU_ASSERT_STRING_EQUAL(s.ended, "exited with status 3");
	CU_ASSERT_STRING_EQUAL(s.why, "exited with status 3");
	CU_ASSERT_EQUAL(s.failed, 1);
	CU_ASSERT(!engine_child_running(c));
	engine_child_free(c);
	check_no_children();
}

static void test_signal_text(void)
{
	struct seen s;
	struct engine_child *c = child_sh(&s, 100, 0, "kill -9 $$");

	run_loop();
	CU_ASSERT_PTR_NOT_NULL(strstr(s.ended, "killed by signal 9"));
	engine_child_free(c);
	check_no_children();
}

static void test_send_echo_and_close(void)
{
	struct seen s;
	struct engine_child *c = child_sh(&s, 100, 0, "exec cat");

	s.stop_on_line = 1;
	CU_ASSERT_EQUAL(engine_child_send(c, "ping 42"), 0);
	run_loop();
	CU_ASSERT_EQUAL(s.nlines, 1);
	CU_ASSERT_STRING_EQUAL(s.lines[0], "ping 42");
	CU_ASSERT(engine_child_running(c));
	/* Polite end: no callback afterwards, and the registry reaps it. */
	engine_child_close(c, "bye", 100);
	CU_ASSERT(!engine_child_running(c));
	check_no_children();
	CU_ASSERT_EQUAL(s.failed, 0);
	CU_ASSERT_STRING_EQUAL(s.ended, "");
	engine_child_free(c);
}

static void test_line_limit(void)
{
	struct seen s;
	/* 11 bytes before the LF: 10 and a CR. */
	const char *script = "printf 'abcdefghij\\r\\n'; printf 'abcdefghijk\\r\\n'; sleep 5";
	struct engine_child *c = child_sh(&s, 10, 1, script);

	run_loop();
	/* The slack lets the CR through once, not an 11th byte on top of it. */
	CU_ASSERT_EQUAL(s.nlines, 1);
	CU_ASSERT_STRING_EQUAL(s.lines[0], "abcdefghij");
	CU_ASSERT_STRING_EQUAL(s.why, "line longer than 10 bytes");
	CU_ASSERT(!engine_child_running(c));
	engine_child_free(c);

	c = child_sh(&s, 10, 0, script);
	run_loop();
	CU_ASSERT_EQUAL(s.nlines, 0);
	CU_ASSERT_STRING_EQUAL(s.why, "line longer than 10 bytes");
	engine_child_free(c);

	/* No newline at all. */
	c = child_sh(&s, 10, 0, "printf 'abcdefghijklmnop'; sleep 5");
	run_loop();
	CU_ASSERT_EQUAL(s.nlines, 0);
	CU_ASSERT_STRING_EQUAL(s.why, "line longer than 10 bytes");
	engine_child_free(c);
	check_no_children();
}

static void test_timer(void)
{
	struct seen s;
	struct engine_child *c = child_sh(&s, 100, 0, "sleep 5");

	engine_child_arm(c, 50);
	run_loop();
	CU_ASSERT_EQUAL(s.timeouts, 1);
	CU_ASSERT_STRING_EQUAL(s.why, "timed out");
	engine_child_free(c);

	/* Disarmed, and arm(0): no time-out; the child's own exit ends the wait. */
	c = child_sh(&s, 100, 0, "sleep 0.3; exit 0");
	engine_child_arm(c, 50);
	engine_child_disarm(c);
	engine_child_arm(c, 0);
	run_loop();
	CU_ASSERT_EQUAL(s.timeouts, 0);
	CU_ASSERT_STRING_EQUAL(s.ended, "exited with status 0");
	engine_child_free(c);
	check_no_children();
}

static void test_eof_then_exit(void)
{
	struct seen s;
	/* Closes its stdin+stdout early, then exits within the grace (at once: a sleep
	 * between took more than the grace at load 15). */
	struct engine_child *c = child_sh(&s, 100, 0, "echo last; exec >&- <&-; exit 4");

	run_loop();
	CU_ASSERT_EQUAL(s.nlines, 1);
	CU_ASSERT_STRING_EQUAL(s.ended, "exited with status 4");
	engine_child_free(c);

	/* Closes them and lives on: the grace runs out. */
	c = child_sh(&s, 100, 0, "exec >&- <&-; sleep 5");
	run_loop();
	CU_ASSERT_STRING_EQUAL(s.ended, "closed its output");
	CU_ASSERT(engine_child_eof(c) == 0);     /* reset by the failure */
	engine_child_free(c);
	check_no_children();
}

/* As a synchronous caller does: the end is noted, the child kept for its status. */
static void quiet_ended(void *arg, const char *what)
{
	struct seen *s = arg;

	snprintf(s->ended, sizeof s->ended, "%s", what);
}

/* Ending the child's input: a child that quits at end of input is seen to exit,
 * one that ignores it is still running at the deadline. */
static void test_close_input_wait(void)
{
	static const struct engine_child_ops ops = {
		.line = seen_line, .ended = quiet_ended, .timeout = seen_timeout,
		.failed = seen_failed,
	};
	char *argv[] = { "sh", "-c", "cat >/dev/null; exit 5", NULL };
	struct seen s;
	int status = 0;

	memset(&s, 0, sizeof s);
	struct engine_child *c = s.c = engine_child_new(base, "test", 100, 0, &ops, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL_FATAL(engine_child_spawn(c, argv, NULL), 0);

	CU_ASSERT_EQUAL(engine_child_send(c, "anything"), 0);
	CU_ASSERT_EQUAL(engine_child_close_input(c), 0);
	CU_ASSERT_EQUAL(engine_child_wait_exit(c, 3000, &status), 1);
	CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 5);
	CU_ASSERT_EQUAL(s.failed, 0);
	engine_child_free(c);

	c = child_sh(&s, 100, 0, "trap '' TERM; sleep 5");
	CU_ASSERT_EQUAL(engine_child_close_input(c), 0);
	CU_ASSERT_EQUAL(engine_child_wait_exit(c, 100, &status), 0);
	CU_ASSERT(engine_child_running(c));
	engine_child_free(c);
	check_no_children();

	/* No child: nothing to close or wait for. */
	memset(&s, 0, sizeof s);
	s.c = c = engine_child_new(base, "test", 100, 0, &seen_ops, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(engine_child_close_input(c), -1);
	CU_ASSERT_EQUAL(engine_child_wait_exit(c, 10, &status), -1);
	engine_child_free(c);
}

static char overflow_head[64];
static size_t overflow_len;

static void seen_overflow(void *arg, const char *head, size_t len)
{
	snprintf(overflow_head, sizeof overflow_head, "%.*s", (int)(len < 63 ? len : 63), head);
	overflow_len = len;
}

/* What is not a line yet can be looked at; an over-long line is shown to the
 * overflow op before the child fails. */
static void test_pending_and_overflow(void)
{
	static const struct engine_child_ops ops = {
		.line = seen_line, .ended = seen_ended, .timeout = seen_timeout,
		.failed = seen_failed, .overflow = seen_overflow,
	};
	char *argv[] = { "sh", "-c", "printf 'one\\npart'; sleep 5", NULL };
	struct seen s;
	char buf[16];

	memset(&s, 0, sizeof s);
	s.c = engine_child_new(base, "test", 100, 0, &ops, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s.c);
	CU_ASSERT_EQUAL(engine_child_spawn(s.c, argv, NULL), 0);
	s.stop_on_line = 1;
	run_loop();
	CU_ASSERT_STRING_EQUAL(s.lines[0], "one");
	/* "part" may come in a later read: wait for it under a deadline. */
	size_t n = 0;
	for (int i = 0; i < 200 && (n = engine_child_pending(s.c, buf, sizeof buf)) < 4; i++)
		unit_loop(base, NULL, 10);
	CU_ASSERT_EQUAL(n, 4);
	CU_ASSERT_EQUAL(memcmp(buf, "part", 4), 0);
	CU_ASSERT_EQUAL(engine_child_unsent(s.c), 0);
	engine_child_free(s.c);

	argv[2] = "printf 'abcdefghijklmnop'; sleep 5";
	memset(&s, 0, sizeof s);
	s.c = engine_child_new(base, "test", 10, 0, &ops, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s.c);
	CU_ASSERT_EQUAL(engine_child_spawn(s.c, argv, NULL), 0);
	run_loop();
	CU_ASSERT_STRING_EQUAL(s.why, "line longer than 10 bytes");
	CU_ASSERT_EQUAL(overflow_len, 16);
	CU_ASSERT_STRING_EQUAL(overflow_head, "abcdefghijklmnop");
	CU_ASSERT_EQUAL(engine_child_pending(s.c, buf, sizeof buf), 0);
	engine_child_free(s.c);
	check_no_children();
}

/* What was sent counts as unread until the child reads it, in our buffer or in
 * the socket (the check times its SIGINT from the engine's reading the command). */
static void test_unread(void)
{
	char *deaf[] = { "sh", "-c", "echo start; exec sleep 30", NULL };
	char *reader[] = { "sh", "-c", "echo start; read a; echo \"got $a\"; exec sleep 30", NULL };
	struct seen s;

	memset(&s, 0, sizeof s);
	s.c = engine_child_new(base, "test", 100, 0, &seen_ops, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s.c);
	CU_ASSERT_EQUAL(engine_child_spawn(s.c, deaf, NULL), 0);
	s.stop_on_line = 1;
	run_loop();                                   /* "start": it runs */
	CU_ASSERT_EQUAL(engine_child_send(s.c, "hello"), 0);
	CU_ASSERT_EQUAL(engine_child_unsent(s.c), 0); /* written at once... */
	CU_ASSERT(engine_child_unread(s.c) >= 6);    /* ...and never read */
	engine_child_free(s.c);

	memset(&s, 0, sizeof s);
	s.c = engine_child_new(base, "test", 100, 0, &seen_ops, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s.c);
	CU_ASSERT_EQUAL(engine_child_spawn(s.c, reader, NULL), 0);
	s.stop_on_line = 1;
	run_loop();
	CU_ASSERT_EQUAL(engine_child_send(s.c, "hello"), 0);
	run_loop();                                   /* "got hello": it read it */
	CU_ASSERT_STRING_EQUAL(s.lines[1], "got hello");
	CU_ASSERT_EQUAL(engine_child_unread(s.c), 0);
	engine_child_free(s.c);
	check_no_children();
}

static void test_spawn_failure(void)
{
	struct seen s;
	char *argv[] = { "/nonexistent/engine", NULL };

	memset(&s, 0, sizeof s);
	s.c = engine_child_new(base, "test", 100, 0, &seen_ops, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s.c);
	CU_ASSERT_EQUAL(engine_child_spawn(s.c, argv, NULL), -1);
	CU_ASSERT_EQUAL(s.failed, 1);
	CU_ASSERT_EQUAL(strncmp(s.why, "cannot start: ", 14), 0);
	CU_ASSERT(!engine_child_running(s.c));
	CU_ASSERT_EQUAL(engine_child_signal(s.c, 15), -1);
	engine_child_close(s.c, "bye", 100);     /* nothing to close */
	engine_child_free(s.c);
	engine_child_free(NULL);
	check_no_children();
}

static int child_setup(void)
{
	base = event_base_new();
	return base ? 0 : -1;
}

static int child_teardown(void)
{
	event_base_free(base);
	return 0;
}

static const struct unit_test tests[] = {
	{ "lines, then the exit status", test_lines_then_exit },
	{ "killed by a signal", test_signal_text },
	{ "send, echo, polite close", test_send_echo_and_close },
	{ "line limit and CR slack", test_line_limit },
	{ "command timer", test_timer },
	{ "EOF, then exit or grace", test_eof_then_exit },
	{ "spawn failure", test_spawn_failure },
	{ "close input, wait for the exit", test_close_input_wait },
	{ "pending bytes and overflow", test_pending_and_overflow },
	{ "unread bytes", test_unread },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "engine_child",
	.setup = child_setup,
	.teardown = child_teardown,
	.tests = tests,
};
