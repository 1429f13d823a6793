/*
 * util.c: small helpers the bridge's modules share.
 */
#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "bridge/util.h"

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0) {
		perror("vasprintf");
		abort();
	}
	va_end(ap);
	return s;
}

int parse_uint(const char *s, unsigned long long lo, unsigned long long hi,
	       unsigned long long *out)
{
	char *end;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

void lines_free(char **lines)
{
	if (!lines)
		return;
	for (char **l = lines; *l; l++)
		free(*l);
	free(lines);
}

int64_t elapsed_us(const struct timespec *t0)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)(now.tv_sec - t0->tv_sec) * 1000000 + (now.tv_nsec - t0->tv_nsec) / 1000;
}

void bev_flush_now(struct bufferevent *bev)
{
	evutil_socket_t fd = bufferevent_getfd(bev);
	struct evbuffer *o = bufferevent_get_output(bev);
	if (fd < 0 || evbuffer_get_length(o) == 0)
		return;
	/* A socket bufferevent keeps its output's front frozen except while it writes. */
	evbuffer_unfreeze(o, 1);
	evbuffer_write(o, fd);
	evbuffer_freeze(o, 1);
}
