/*
 * util.h: small helpers the bridge's modules share.
 */
#ifndef BRIDGE_UTIL_H
#define BRIDGE_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <event2/util.h>

/* printf into a new string; aborts when memory is out (the caller frees). */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* reallocarray and strdup that abort when memory is out (the caller frees);
 * xstrdup(NULL) is NULL. */
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);

/* A growable string; s is NUL-terminated once anything was added, NULL before. */
struct sbuf {
	char  *s;
	size_t len;
	size_t cap;
};
void sbuf_add(struct sbuf *b, const char *s, size_t n);
void sbuf_str(struct sbuf *b, const char *s);
void sbuf_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends s escaped (untrusted bytes: control and non-ASCII bytes become \n, \r,
 * \t or \xNN), cut after about max bytes with a note of how much was left out. */
void sbuf_escaped(struct sbuf *b, const char *s, size_t n, size_t max);
/* Takes the string out of b, leaving b empty ("" if nothing was added); caller frees. */
char *sbuf_take(struct sbuf *b);
void sbuf_free(struct sbuf *b);

/* A growable list of owned strings. */
struct strlist {
	char  **v;
	size_t  n;
	size_t  cap;
};
/* Appends a copy of s. */
void strlist_add(struct strlist *l, const char *s);
void strlist_free(struct strlist *l);

/* A token no one can guess: len/2 random bytes (getrandom) as len hex digits and a
 * NUL in tok[len]; len is even. Aborts without randomness: no safe token either. */
void random_token(char *tok, size_t len);

/* An unsigned decimal in [lo, hi], digits only; -1 if not. */
int parse_uint(const char *s, unsigned long long lo, unsigned long long hi,
	       unsigned long long *out);

/* Frees a NULL-terminated array of strings and the array; NULL is fine. */
void lines_free(char **lines);

struct bufferevent;
/* Writes what bev has queued straight to its descriptor, rather than after a trip
 * round the event loop (what is left, the bufferevent sends as usual). */
void bev_flush_now(struct bufferevent *bev);
/* Write-through for a bufferevent whose EV_WRITE stays disabled while its output is
 * empty (so that adding to it arms no write event, and no loop iteration wakes just to
 * find nothing left to write): bev_send writes what is queued now and, if the
 * descriptor does not take it all (or fails), enables EV_WRITE so that the
 * bufferevent sends the rest and reports the error as usual; bev_send_idle, from
 * the bufferevent's write callback, disables EV_WRITE again once the output is empty. */
void bev_send(struct bufferevent *bev);
void bev_send_idle(struct bufferevent *bev);

/* Frees *ev (an event) or *bev (a bufferevent) if set, and clears the pointer:
 * a teardown that may run at any point of a constructor's setup. */
struct event;
void util_event_free(struct event **ev);
void util_bev_free(struct bufferevent **bev);

/* Out of descriptors, an accept fails and goes on failing: util_accept_pause stops lev
 * accepting for ms rather than spin, and starts resume, an evtimer made with the
 * callback util_accept_resume and the address of the listener's pointer, which
 * accepts again. */
struct evconnlistener;
#define UTIL_ACCEPT_PAUSE_MS 200      /* after EMFILE and friends */
void util_accept_pause(struct evconnlistener *lev, struct event *resume, unsigned ms);
void util_accept_resume(evutil_socket_t fd, short what, void *lev_slot);

/* name's first address (getaddrinfo for a stream socket with flags, e.g. AI_PASSIVE)
 * as numeric text into host (UTIL_HOST_MAX bytes will do): 0, or -1 with err
 * "NAME: cannot resolve: WHY" (NULL name: "(none)"). It may block: call it before
 * the event loop runs. */
#define UTIL_HOST_MAX 46    /* INET6_ADDRSTRLEN */
int util_resolve(const char *name, int flags, char *host, size_t hostlen, char *err, size_t errlen);

/* The bridge's one monotonic clock (CLOCK_MONOTONIC, from an arbitrary origin) in
 * nanoseconds, microseconds and milliseconds: every deadline, timeout and elapsed
 * time reads it here (the core takes time from its callers). */
int64_t now_ns(void);
int64_t now_us(void);
int64_t now_ms(void);

/* Text from an engine or a peer made safe for a terminal, in place: control bytes
 * (C0, DEL, and C1 as UTF-8) become '?', so that no escape sequence of theirs
 * reaches the bridge's stderr, a client's screen or a report. Returns s. */
char *util_scrub_text(char *s);

/* The whole file at path ("-": standard input), at most max bytes, NUL-terminated,
 * *len its length: the caller frees it. NULL with why into err: the system's reason
 * when it does not open ("No such file or directory"), "cannot be read", "longer
 * than MAX bytes" or "out of memory"; the caller names the file. */
char *util_read_file(const char *path, size_t max, size_t *len, char *err, size_t errlen);

/* Multi-line text (a module's error, a stack trace) as one line into dst (size n,
 * truncated): its line breaks, with the blanks around them, become " / ", blank
 * lines vanish, other control bytes become '?'. Returns dst. */
char *util_one_line(char *dst, size_t n, const char *src);

/* A secret from the environment: a copy of $name (the caller frees; NULL if it is
 * unset or empty), which leaves the environment for good: its value is overwritten
 * where it lies (the bytes /proc/PID/environ shows to any process of the same
 * user, engines included) and the variable is unset, so no child inherits it. The
 * value is kept for later calls with the same name. Call it before any child starts
 * (main() takes each known secret first thing; add yours to its list). */
char *util_take_secret_env(const char *name);
/* The same for a NULL-terminated list of names, keeping the values for later. */
void util_take_secret_envs(const char *const *names);

#endif
