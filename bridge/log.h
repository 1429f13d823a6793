/*
 * log.h: the protocol trace log. Every protocol line in and out, with a microsecond
 * timestamp, the session number and its direction; control bytes escaped. One log per
 * process (the daemon's, set up in main); safe to call from any thread.
 *
 *   2026-11-22T03:54:27.123456Z s12 client->bridge play wS1
 */
#ifndef BRIDGE_LOG_H
#define BRIDGE_LOG_H

#include <stddef.h>

enum log_dir {
	LOG_CLIENT_IN,    /* client->bridge */
	LOG_CLIENT_OUT,   /* bridge->client */
	LOG_ENGINE_OUT,   /* bridge->engine */
	LOG_ENGINE_IN,    /* engine->bridge */
	LOG_ENGINE_ERR,   /* engine stderr */
	LOG_NOTE,         /* the bridge's own events */
	LOG_SITE_OUT,     /* bridge->site: a request to a web site (bridge/webclient.h) */
	LOG_SITE_IN       /* site->bridge: its answer */
};

/* Opens the log at path ("-" = stderr, NULL = off); -1 on error. */
int  log_open(const char *path);
/* Reopens the same path (SIGHUP, for log rotation). */
int  log_reopen(void);
void log_close(void);
/* Whether a log is open: a caller may skip work whose only outcome is a note. */
int  log_enabled(void);
/* One protocol line (without its newline), escaped. */
void log_proto(unsigned session, enum log_dir dir, const char *line, size_t len);
/* A printf-style note. */
void log_note(unsigned session, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A note that the operator must see: also on stderr (the journal) once
 * log_warn_stderr(1) is set, a few per second at most. */
void log_warn(unsigned session, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void log_warn_stderr(int on);

#endif
