/*
 * log.c: the protocol trace log. One per process, so its state is file-static and
 * guarded by a mutex: the event loop and the search threads may both write.
 * Every line gets a microsecond UTC timestamp; untrusted bytes are escaped.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>

#include "bridge/log.h"

#define LOG_WARN_PER_SECOND 5
#define LOG_BUFFER (64 * 1024)

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *log_file;          /* NULL = off */
/* Whether log_file is set, read without the lock: a relayed line costs no lock when
 * the log is off (a line racing log_open may miss it, as it would by a moment). */
static atomic_int log_on;
static int warn_stderr;          /* log_warn() also writes to stderr */
static time_t warn_window;       /* the second the last warnings were counted in */
static unsigned warn_count, warn_dropped;
static char *log_path;          /* what log_reopen() opens again; NULL for stderr */
/* log_attach's: the loop whose lines wait for the end of its turn to be written, in
 * one write for all (set under the lock); flush_queued is the loop thread's alone. */
static struct event *flush_ev;
static pthread_t loop_thread;
static int flush_queued;

static const char *const dir_names[] = {
	[LOG_CLIENT_IN] = "client->bridge",
	[LOG_CLIENT_OUT] = "bridge->client",
	[LOG_ENGINE_OUT] = "bridge->engine",
	[LOG_ENGINE_IN] = "engine->bridge",
	[LOG_ENGINE_ERR] = "engine-stderr",
	[LOG_NOTE] = "note",
};

/* Opens path for appending, fully buffered: write_line flushes each line, or the
 * attached loop once its turn is over. Caller holds the lock. */
static FILE *open_path(const char *path)
{
	FILE *f = fopen(path, "a");
	if (f)
		setvbuf(f, NULL, _IOFBF, LOG_BUFFER);
	return f;
}

/* Closes the current file unless it is stderr. Caller holds the lock. */
static void close_file(void)
{
	if (log_file && log_file != stderr)
		fclose(log_file);
	log_file = NULL;
	atomic_store_explicit(&log_on, 0, memory_order_relaxed);
}

int log_open(const char *path)
{
	int rc = 0;
	pthread_mutex_lock(&log_lock);
	close_file();
	free(log_path);
	log_path = NULL;
	if (path && strcmp(path, "-") == 0) {
		log_file = stderr;
	} else if (path) {
		log_path = strdup(path);
		log_file = log_path ? open_path(log_path) : NULL;
		if (!log_file) {
			int err = errno;     /* for the caller's message */
			free(log_path);
			log_path = NULL;
			errno = err;
			rc = -1;
		}
	}
	atomic_store_explicit(&log_on, log_file != NULL, memory_order_relaxed);
	pthread_mutex_unlock(&log_lock);
	return rc;
}

int log_reopen(void)
{
	int rc = 0;
	pthread_mutex_lock(&log_lock);
	if (log_path) {
		/* Open the new file first so a failure keeps logging to the old one. */
		FILE *f = open_path(log_path);
		if (f) {
			close_file();
			log_file = f;
			atomic_store_explicit(&log_on, 1, memory_order_relaxed);
		} else {
			rc = -1;
		}
	}
	pthread_mutex_unlock(&log_lock);
	return rc;
}

void log_close(void)
{
	pthread_mutex_lock(&log_lock);
	close_file();
	free(log_path);
	log_path = NULL;
	pthread_mutex_unlock(&log_lock);
}

int log_enabled(void)
{
	return atomic_load_explicit(&log_on, memory_order_relaxed);
}

/* Writes the timestamp and session prefix, "2026-11-22T03:54:27.123456Z s12 what ",
 * formatted by hand (printf was most of a line's cost). Caller holds the lock and
 * the file's. */
static void write_prefix(unsigned session, const char *what)
{
	static time_t last_sec = -1;     /* the second stamp holds: formatted once */
	static char stamp[32];
	static size_t stamp_len;
	struct timespec ts;
	struct tm tm;
	char buf[64 + 32], digits[16];
	size_t n, k = 0, wl = strlen(what);

	clock_gettime(CLOCK_REALTIME, &ts);
	if (ts.tv_sec != last_sec) {
		gmtime_r(&ts.tv_sec, &tm);
		stamp_len = strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
		last_sec = ts.tv_sec;
	}
	memcpy(buf, stamp, stamp_len);
	n = stamp_len;
	buf[n++] = '.';
	for (long us = ts.tv_nsec / 1000, i = 5; i >= 0; i--, us /= 10)
		buf[n + (size_t)i] = (char)('0' + us % 10);
	n += 6;
	memcpy(buf + n, "Z s", 3);
	n += 3;
	do
		digits[k++] = (char)('0' + session % 10);
	while ((session /= 10) != 0);
	while (k)
		buf[n++] = digits[--k];
	buf[n++] = ' ';
	fwrite_unlocked(buf, 1, n, log_file);
	fwrite_unlocked(what, 1, wl, log_file);
	putc_unlocked(' ', log_file);
}

/* Control bytes and anything outside ASCII become \xNN, and a backslash \\: the log
 * stays one line per event and safe to cat, and a peer's literal "\x0a" cannot pass
 * for an escaped byte, whatever an engine or client sends. Caller holds the lock and
 * the file's (flockfile): the bytes go out unlocked, the plain runs in one piece. */
static void write_escaped(const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t run = 0;      /* start of the bytes not yet written that need no escape */
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f && c != '\\')
			continue;
		fwrite_unlocked(s + run, 1, i - run, log_file);
		putc_unlocked('\\', log_file);
		run = i;             /* a backslash: doubled by the run that starts with it */
		if (c == '\\')
			continue;
		run = i + 1;
		putc_unlocked('x', log_file);
		putc_unlocked(hex[c >> 4], log_file);
		putc_unlocked(hex[c & 15], log_file);
	}
	fwrite_unlocked(s + run, 1, len - run, log_file);
	putc_unlocked('\n', log_file);
}

/* One line of the log: prefix, then the escaped text, written now unless the
 * attached loop writes it at the end of its turn: then 1, and the caller calls
 * flush_later() once it has let go of the lock. Caller holds the lock. */
static int write_line(unsigned session, const char *what, const char *s, size_t len)
{
	flockfile(log_file);
	write_prefix(session, what);
	write_escaped(s, len);
	funlockfile(log_file);
	if (flush_ev && pthread_equal(pthread_self(), loop_thread))
		return 1;
	fflush(log_file);
	return 0;
}

static void flush_later(int later)
{
	if (later && !flush_queued) {
		flush_queued = 1;
		event_active(flush_ev, EV_TIMEOUT, 0);
	}
}

static void log_flush_cb(evutil_socket_t fd, short what, void *arg)
{
	pthread_mutex_lock(&log_lock);
	flush_queued = 0;
	if (log_file)
		fflush(log_file);
	pthread_mutex_unlock(&log_lock);
}

int log_attach(struct event_base *base)
{
	/* The flush runs after the callbacks already due in this turn of the loop. */
	struct event *ev = event_new(base, -1, 0, log_flush_cb, NULL);
	if (!ev)
		return -1;
	pthread_mutex_lock(&log_lock);
	flush_ev = ev;
	loop_thread = pthread_self();
	flush_queued = 0;
	pthread_mutex_unlock(&log_lock);
	return 0;
}

void log_detach(void)
{
	pthread_mutex_lock(&log_lock);
	if (flush_ev)
		event_free(flush_ev);
	flush_ev = NULL;
	flush_queued = 0;
	if (log_file)
		fflush(log_file);
	pthread_mutex_unlock(&log_lock);
}

void log_proto(unsigned session, enum log_dir dir, const char *line, size_t len)
{
	int later = 0;

	if (!log_enabled())
		return;
	pthread_mutex_lock(&log_lock);
	if (log_file) {
		unsigned d = (unsigned)dir < sizeof dir_names / sizeof dir_names[0] ? (unsigned)dir : LOG_NOTE;
		later = write_line(session, dir_names[d], line, len);
	}
	pthread_mutex_unlock(&log_lock);
	flush_later(later);
}

void log_note(unsigned session, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n, later = 0;

	if (!log_enabled())
		return;
	pthread_mutex_lock(&log_lock);
	if (log_file) {
		va_start(ap, fmt);
		n = vsnprintf(buf, sizeof buf, fmt, ap);
		va_end(ap);
		if (n < 0)
			n = 0;
		if ((size_t)n >= sizeof buf)
			n = sizeof buf - 1;
		later = write_line(session, dir_names[LOG_NOTE], buf, (size_t)n);
	}
	pthread_mutex_unlock(&log_lock);
	flush_later(later);
}

void log_warn_stderr(int on)
{
	pthread_mutex_lock(&log_lock);
	warn_stderr = on;
	pthread_mutex_unlock(&log_lock);
}

void log_warn(unsigned session, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n, later = 0;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof buf)
		n = sizeof buf - 1;
	pthread_mutex_lock(&log_lock);
	if (log_file)
		later = write_line(session, dir_names[LOG_NOTE], buf, (size_t)n);
	/* An engine failing for every client must not flood the journal. */
	if (warn_stderr && log_file != stderr) {
		time_t now = time(NULL);
		if (now != warn_window) {
			if (warn_dropped)
				fprintf(stderr, "hivebridge: %u more warnings not shown\n", warn_dropped);
			warn_window = now;
			warn_count = warn_dropped = 0;
		}
		if (warn_count++ < LOG_WARN_PER_SECOND) {
			fputs("hivebridge: ", stderr);
			for (int i = 0; i < n; i++)
				fputc(buf[i] >= 0x20 && buf[i] < 0x7f ? buf[i] : '?', stderr);
			fprintf(stderr, " (session %u)\n", session);
		} else {
			warn_dropped++;
		}
	}
	pthread_mutex_unlock(&log_lock);
	flush_later(later);
}
