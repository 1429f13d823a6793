/*
 * util.h: small helpers the bridge's modules share.
 */
#ifndef BRIDGE_UTIL_H
#define BRIDGE_UTIL_H

#include <stdint.h>
#include <time.h>

/* printf into a new string; aborts when memory is out (the caller frees). */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* An unsigned decimal in [lo, hi], digits only; -1 if not. */
int parse_uint(const char *s, unsigned long long lo, unsigned long long hi,
	       unsigned long long *out);

/* Frees a NULL-terminated array of strings and the array; NULL is fine. */
void lines_free(char **lines);

struct bufferevent;
/* Writes what bev has queued straight to its descriptor, rather than after a trip
 * round the event loop (what is left, the bufferevent sends as usual). */
void bev_flush_now(struct bufferevent *bev);

/* Microseconds of CLOCK_MONOTONIC since t0. */
int64_t elapsed_us(const struct timespec *t0);

#endif
