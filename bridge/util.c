/*
 * util.c: small helpers the bridge's modules share.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <sys/random.h>
#include "bridge/util.h"
#include "core/errbuf.h"

extern char **environ;

/* Secrets taken from the environment: process-wide, as the environment is. */
struct secret_env {
	char              *name;
	char              *value;     /* NULL: unset or empty */
	SLIST_ENTRY(secret_env) link;
};
static SLIST_HEAD(, secret_env) secret_envs = SLIST_HEAD_INITIALIZER(secret_envs);

static void out_of_memory(void)
{
	fputs("hivebridge: out of memory\n", stderr);
	abort();
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;
	if (vasprintf(&s, fmt, ap) < 0)
		out_of_memory();
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	void *q = reallocarray(p, n ? n : 1, size ? size : 1);
	if (!q)
		out_of_memory();
	return q;
}

char *xstrdup(const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	return memcpy(xreallocarray(NULL, n, 1), s, n);
}

void sbuf_add(struct sbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = xreallocarray(b->s, b->cap, 1);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

void sbuf_str(struct sbuf *b, const char *s)
{
	sbuf_add(b, s, strlen(s));
}

void sbuf_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	sbuf_str(b, s);
	free(s);
}

void sbuf_escaped(struct sbuf *b, const char *s, size_t n, size_t max)
{
	size_t shown = 0, i;
	for (i = 0; i < n && shown < max; i++) {
		unsigned char c = (unsigned char)s[i];
		char tmp[8];
		if (c == '\n')
			strcpy(tmp, "\\n");
		else if (c == '\r')
			strcpy(tmp, "\\r");
		else if (c == '\t')
			strcpy(tmp, "\\t");
		else if (c < 0x20 || c >= 0x7f)
			snprintf(tmp, sizeof tmp, "\\x%02x", c);
		else {
			tmp[0] = (char)c;
			tmp[1] = 0;
		}
		sbuf_str(b, tmp);
		shown += strlen(tmp);
	}
	if (i < n)
		sbuf_printf(b, "...(%zu more bytes)", n - i);
}

char *sbuf_take(struct sbuf *b)
{
	char *s = b->s ? b->s : xstrdup("");
	memset(b, 0, sizeof *b);
	return s;
}

void sbuf_free(struct sbuf *b)
{
	free(b->s);
	memset(b, 0, sizeof *b);
}

void strlist_add(struct strlist *l, const char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 8;
		l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	l->v[l->n++] = xstrdup(s);
}

void strlist_free(struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof *l);
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

int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t now_us(void)
{
	return now_ns() / 1000;
}

int64_t now_ms(void)
{
	return now_ns() / 1000000;
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

void bev_send(struct bufferevent *bev)
{
	bev_flush_now(bev);
	if (evbuffer_get_length(bufferevent_get_output(bev)) > 0 &&
	    !(bufferevent_get_enabled(bev) & EV_WRITE))
		bufferevent_enable(bev, EV_WRITE);
}

void bev_send_idle(struct bufferevent *bev)
{
	if (evbuffer_get_length(bufferevent_get_output(bev)) == 0)
		bufferevent_disable(bev, EV_WRITE);
}

void random_token(char *tok, size_t len)
{
	unsigned char r[64];
	size_t need = len / 2, got = 0;
	if (need > sizeof r)
		abort();
	while (got < need) {
		ssize_t n = getrandom(r + got, need - got, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			abort();
		}
		got += (size_t)n;
	}
	for (size_t i = 0; i < need; i++)
		snprintf(tok + 2 * i, 3, "%02x", r[i]);
	tok[2 * need] = 0;
}

char *util_take_secret_env(const char *name)
{
	struct secret_env *se;
	size_t n = strlen(name);

	SLIST_FOREACH(se, &secret_envs, link)
		if (!strcmp(se->name, name))
			return se->value ? xstrdup(se->value) : NULL;
	se = xreallocarray(NULL, 1, sizeof *se);
	se->name = xstrdup(name);
	se->value = NULL;
	/* Every copy of it (a duplicate is possible), value bytes zeroed in place;
	 * "NAME=" stays so that unsetenv still finds the entries to drop. */
	for (char **e = environ; e && *e; e++) {
		if (strncmp(*e, name, n) != 0 || (*e)[n] != '=')
			continue;
		char *v = *e + n + 1;
		if (!se->value && *v)
			se->value = xstrdup(v);
		explicit_bzero(v, strlen(v));
	}
	unsetenv(name);
	SLIST_INSERT_HEAD(&secret_envs, se, link);
	return se->value ? xstrdup(se->value) : NULL;
}

void util_take_secret_envs(const char *const *names)
{
	for (; *names; names++)
		free(util_take_secret_env(*names));
}

char *util_read_file(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
	int is_stdin = !strcmp(path, "-");
	FILE *f = is_stdin ? stdin : fopen(path, "rb");

	*len = 0;
	if (!f) {
		errbuf_set(err, errlen, "%s", strerror(errno));
		return NULL;
	}
	/* One byte past the cap tells a file too large from one just at it. */
	char *buf = max < SIZE_MAX ? malloc(max + 1) : NULL;
	size_t n = buf ? fread(buf, 1, max + 1, f) : 0;
	int failed = !buf || ferror(f);
	if (!is_stdin)
		fclose(f);
	if (failed || n > max) {
		if (failed)
			errbuf_set(err, errlen, "%s", buf ? "cannot be read" : "out of memory");
		else
			errbuf_set(err, errlen, "longer than %zu bytes", max);
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	*len = n;
	return buf;
}

char *util_one_line(char *dst, size_t n, const char *src)
{
	size_t o = 0;
	int brk = 0;

	if (!n)
		return dst;
	for (const unsigned char *p = (const unsigned char *)(src ? src : ""); *p && o + 1 < n; p++) {
		if (*p == '\n' || *p == '\r') {
			while (o && (dst[o - 1] == ' ' || dst[o - 1] == '\t'))
				o--;
			brk = o > 0;
			continue;
		}
		if (brk && (*p == ' ' || *p == '\t'))
			continue;
		if (brk) {
			brk = 0;
			if (o + 4 >= n)
				break;
			memcpy(dst + o, " / ", 3);
			o += 3;
		}
		dst[o++] = (char)(*p < 0x20 || *p == 0x7f ? '?' : *p);
	}
	dst[o] = 0;
	return util_scrub_text(dst);
}

char *util_scrub_text(char *s)
{
	for (unsigned char *p = (unsigned char *)s; p && *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			*p = '?';
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			p[0] = p[1] = '?';
	}
	return s;
}

void util_event_free(struct event **ev)
{
	if (*ev)
		event_free(*ev);
	*ev = NULL;
}

void util_bev_free(struct bufferevent **bev)
{
	if (*bev)
		bufferevent_free(*bev);
	*bev = NULL;
}

int util_resolve(const char *name, int flags, char *host, size_t hostlen, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = flags };
	struct addrinfo *res = NULL;
	int rc = name ? getaddrinfo(name, NULL, &hints, &res) : EAI_NONAME;

	if (rc != 0 || !res) {
		errbuf_set(err, errlen, "%s: cannot resolve: %s", name ? name : "(none)",
			   rc ? gai_strerror(rc) : "no address");
		if (res)
			freeaddrinfo(res);
		return -1;
	}
	const void *a = res->ai_family == AF_INET6 ?
		(const void *)&((struct sockaddr_in6 *)res->ai_addr)->sin6_addr :
		(const void *)&((struct sockaddr_in *)res->ai_addr)->sin_addr;
	rc = inet_ntop(res->ai_family, a, host, (socklen_t)hostlen) ? 0 : -1;
	if (rc < 0)
		errbuf_set(err, errlen, "%s: cannot resolve: %s", name, strerror(errno));
	freeaddrinfo(res);
	return rc;
}

void util_accept_pause(struct evconnlistener *lev, struct event *resume, unsigned ms)
{
	struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 };

	evconnlistener_disable(lev);
	evtimer_add(resume, &tv);
}

void util_accept_resume(evutil_socket_t fd, short what, void *lev_slot)
{
	struct evconnlistener **lev = lev_slot;
	evconnlistener_enable(*lev);
}
