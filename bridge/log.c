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

#include "bridge/log.h"

#define LOG_WARN_PER_SECOND 5

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *log_file;          /* NULL = off */
/* Whether log_file is set, read without the lock: a relayed line costs no lock when
 * the log is off (a line racing log_open may miss it, as it would by a moment). */
static atomic_int log_on;
static int warn_stderr;          /* log_warn() also writes to stderr */
static time_t warn_window;       /* the second the last warnings were counted in */
static unsigned warn_count, warn_dropped;
static char *log_path;          /* what log_reopen() opens again; NULL for stderr */

static const char *const dir_names[] = {
	[LOG_CLIENT_IN] = "client->bridge",
	[LOG_CLIENT_OUT] = "bridge->client",
	[LOG_ENGINE_OUT] = "bridge->engine",
	[LOG_ENGINE_IN] = "engine->bridge",
	[LOG_ENGINE_ERR] = "engine-stderr",
	[LOG_NOTE] = "note",
	[LOG_SITE_OUT] = "bridge->site",
	[LOG_SITE_IN] = "site->bridge",
};

/* Opens path for appending, line-buffered. Caller holds the lock. */
static FILE *open_path(const char *path)
{
	FILE *f = fopen(path, "a");
	if (f)
		setvbuf(f, NULL, _IOLBF, 0);
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

/* Writes the timestamp and session prefix. Caller holds the lock and the file's. */
static void write_prefix(unsigned session, const char *what)
{
	static time_t last_sec = -1;     /* the second stamp holds: formatted once */
	static char stamp[32];
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (ts.tv_sec != last_sec) {
		gmtime_r(&ts.tv_sec, &tm);
		strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
		last_sec = ts.tv_sec;
	}
	fprintf(log_file, "%s.%06ldZ s%u %s ", stamp, ts.tv_nsec / 1000, session, what);
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

/* One line of the log: prefix, then the escaped text. Caller holds the lock. */
static void write_line(unsigned session, const char *what, const char *s, size_t len)
{
	flockfile(log_file);
	write_prefix(session, what);
	write_escaped(s, len);
	funlockfile(log_file);
}

void log_proto(unsigned session, enum log_dir dir, const char *line, size_t len)
{
	if (!log_enabled())
		return;
	pthread_mutex_lock(&log_lock);
	if (log_file) {
		unsigned d = (unsigned)dir < sizeof dir_names / sizeof dir_names[0] ? (unsigned)dir : LOG_NOTE;
		write_line(session, dir_names[d], line, len);
	}
	pthread_mutex_unlock(&log_lock);
}

/* fmt with ap into buf, cut to fit (NUL included); the length written. */
static size_t format_cut(char *buf, size_t size, const char *fmt, va_list ap)
{
	int n = vsnprintf(buf, size, fmt, ap);

	if (n < 0) {
		buf[0] = 0;
		return 0;
	}
	return (size_t)n < size ? (size_t)n : size - 1;
}

void log_note(unsigned session, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (!log_enabled())
		return;
	pthread_mutex_lock(&log_lock);
	if (log_file) {
		va_start(ap, fmt);
		size_t n = format_cut(buf, sizeof buf, fmt, ap);
		va_end(ap);
		write_line(session, dir_names[LOG_NOTE], buf, n);
	}
	pthread_mutex_unlock(&log_lock);
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

	va_start(ap, fmt);
	size_t n = format_cut(buf, sizeof buf, fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&log_lock);
	if (log_file)
		write_line(session, dir_names[LOG_NOTE], buf, n);
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
			for (size_t i = 0; i < n; i++)
				fputc(buf[i] >= 0x20 && buf[i] < 0x7f ? buf[i] : '?', stderr);
			fprintf(stderr, " (session %u)\n", session);
		} else {
			warn_dropped++;
		}
	}
	pthread_mutex_unlock(&log_lock);
}
