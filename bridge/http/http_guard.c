/*
 * http_guard.c: who may ask the web API what, decided from the request alone (no
 * sockets, no evhttp: fuzzable and testable). One call per request, before any route:
 *
 *   - Host names this server (its address, localhost on loopback, the names of
 *     http_hosts), on every request: a page on a foreign name that DNS rebinding
 *     points at us reads nothing either. No Host (HTTP/1.0) is let through.
 *   - A request that changes state (every POST) comes from no browser page or from
 *     this server's own: Origin, when present, is http(s)://HOST of the request, and
 *     Sec-Fetch-Site, when present, is same-origin or none.
 *   - It carries the access token, when one is set (Authorization: Bearer TOKEN).
 *   - Its body is JSON: Content-Type application/json, so that a cross-origin page can
 *     never send it without a CORS preflight, which this server never grants.
 *
 * The owner tokens of games and seats are the routes' business (http_play.c,
 * http_lobby.c); guard_token_eq is their comparison.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bridge/http/http_int.h"
#include "core/errbuf.h"

#define GUARD_MAX_HOSTS 16

struct http_guard {
	char     names[GUARD_MAX_HOSTS][GUARD_NAME_MAX]; /* lower case, IPv6 without brackets */
	unsigned nnames;
	int      wildcard;     /* bound to 0.0.0.0 or ::: the connection's own address counts */
	unsigned port;
	char     token[GUARD_TOKEN_MAX + 1];                 /* "" = none */
};

int guard_token_eq(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned char d = la != lb;
	/* Every byte of the secret is looked at whatever matches, so the time says
	 * nothing of how much of a guess was right. */
	for (size_t i = 0; i < lb; i++)
		d |= (unsigned char)(b[i] ^ (i < la ? a[i] : 0));
	return d == 0 && lb > 0;
}

int guard_addr_loopback(const char *addr)
{
	struct in_addr a4;
	struct in6_addr a6;
	if (inet_pton(AF_INET, addr, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127;
	if (inet_pton(AF_INET6, addr, &a6) == 1) {
		if (IN6_IS_ADDR_LOOPBACK(&a6))
			return 1;
		if (IN6_IS_ADDR_V4MAPPED(&a6))
			return a6.s6_addr[12] == 127;
	}
	return 0;
}

static int addr_wildcard(const char *addr)
{
	struct in_addr a4;
	struct in6_addr a6;
	if (inet_pton(AF_INET, addr, &a4) == 1)
		return a4.s_addr == htonl(INADDR_ANY);
	return inet_pton(AF_INET6, addr, &a6) == 1 && IN6_IS_ADDR_UNSPECIFIED(&a6);
}

static int guard_add_name(struct http_guard *g, const char *name, size_t len)
{
	if (!len || len >= GUARD_NAME_MAX || g->nnames >= GUARD_MAX_HOSTS)
		return -1;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];
		if (!isalnum(c) && c != '.' && c != '-' && c != ':' && c != '_')
			return -1;
		g->names[g->nnames][i] = (char)tolower(c);
	}
	g->names[g->nnames][len] = 0;
	g->nnames++;
	return 0;
}

/* A token is printable ASCII without spaces, 16 to GUARD_TOKEN_MAX bytes. */
static int token_ok(const char *t)
{
	size_t n = strlen(t);
	if (n < 16 || n > GUARD_TOKEN_MAX)
		return 0;
	for (; *t; t++)
		if (*t <= ' ' || *t > '~')
			return 0;
	return 1;
}

struct http_guard *guard_new(const char *addr, unsigned port, const char *hosts, const char *token,
			     char *err, size_t errlen)
{
	struct http_guard *g = calloc(1, sizeof *g);
	if (!g) {
		errbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	g->port = port;
	g->wildcard = addr_wildcard(addr);
	if (!g->wildcard && guard_add_name(g, addr, strlen(addr)) < 0)
		goto bad_addr;
	if (guard_addr_loopback(addr))
		guard_add_name(g, "localhost", 9);
	for (const char *p = hosts ? hosts : ""; *p;) {
		size_t n = strcspn(p, " \t,");
		if (n && guard_add_name(g, p, n) < 0) {
			errbuf_set(err, errlen, "http_hosts: bad name \"%.*s\" (host names or addresses, "
				   "at most %d, separated by spaces)", (int)(n > 64 ? 64 : n), p,
				   GUARD_MAX_HOSTS - 2);
			guard_free(g);
			return NULL;
		}
		p += n;
		p += strspn(p, " \t,");
	}
	if (token && *token) {
		if (!token_ok(token)) {
			errbuf_set(err, errlen, "the http access token must be 16 to 256 printable "
				   "characters without spaces");
			guard_free(g);
			return NULL;
		}
		snprintf(g->token, sizeof g->token, "%s", token);
	} else if (!guard_addr_loopback(addr)) {
		errbuf_set(err, errlen, "http on %s is reachable beyond loopback: set an access token "
			   "(http_token_file in [daemon], or HIVEBRIDGE_HTTP_TOKEN)", addr);
		guard_free(g);
		return NULL;
	}
	return g;
bad_addr:
	errbuf_set(err, errlen, "http: bad address %s", addr);
	guard_free(g);
	return NULL;
}

void guard_free(struct http_guard *g)
{
	if (g)
		explicit_bzero(g->token, sizeof g->token);
	free(g);
}

void guard_set_port(struct http_guard *g, unsigned port)
{
	g->port = port;
}

int guard_has_token(const struct http_guard *g)
{
	return g->token[0] != 0;
}

/* Splits a Host value ("name", "name:port", "[v6]", "[v6]:port") into its name (lower
 * case, no brackets) and port (80 if none); -1 if it is none of those. */
static int host_split(const char *host, char *name, size_t nlen, unsigned *port)
{
	const char *end, *colon;
	if (*host == '[') {
		end = strchr(host, ']');
		if (!end)
			return -1;
		host++;
		colon = end[1] == ':' ? end + 1 : end[1] ? NULL : end + 1;
		if (!colon)
			return -1;
	} else {
		colon = strchr(host, ':');
		if (colon && strchr(colon + 1, ':'))
			return -1;      /* a bare IPv6 address: not a Host */
		end = colon ? colon : host + strlen(host);
	}
	size_t n = (size_t)(end - host);
	if (!n || n >= nlen)
		return -1;
	for (size_t i = 0; i < n; i++)
		name[i] = (char)tolower((unsigned char)host[i]);
	name[n] = 0;
	*port = 80;
	if (colon && *colon == ':') {
		char *e;
		if (!colon[1] || !isdigit((unsigned char)colon[1]))
			return -1;
		unsigned long v = strtoul(colon + 1, &e, 10);
		if (*e || v > 65535)
			return -1;
		*port = (unsigned)v;
	}
	return 0;
}

static int host_ok(const struct http_guard *g, const char *host, const char *local)
{
	char name[GUARD_NAME_MAX];
	unsigned port;
	if (host_split(host, name, sizeof name, &port) < 0 || port != g->port)
		return 0;
	for (unsigned i = 0; i < g->nnames; i++)
		if (!strcmp(g->names[i], name))
			return 1;
	/* Bound to every address: the one the client reached is this server's too. */
	return g->wildcard && local && !strcasecmp(local, name);
}

/* Whether Origin is http://HOST or https://HOST of this very request. */
static int origin_same(const char *origin, const char *host)
{
	const char *rest = !strncasecmp(origin, "http://", 7) ? origin + 7 :
		!strncasecmp(origin, "https://", 8) ? origin + 8 : NULL;
	return rest && host && !strcasecmp(rest, host);
}

/* application/json, with parameters (charset) or not. */
static int type_json(const char *ct)
{
	if (!ct)
		return 0;
	while (*ct == ' ')
		ct++;
	if (strncasecmp(ct, "application/json", 16))
		return 0;
	ct += 16;
	while (*ct == ' ' || *ct == '\t')
		ct++;
	return !*ct || *ct == ';';
}

static int bearer_ok(const struct http_guard *g, const char *auth)
{
	if (!auth || strncasecmp(auth, "Bearer ", 7))
		return 0;
	auth += 7;
	while (*auth == ' ')
		auth++;
	return guard_token_eq(auth, g->token);
}

int guard_check(const struct http_guard *g, const struct guard_request *r, char *err, size_t errlen)
{
	if (r->host && !host_ok(g, r->host, r->local)) {
		errbuf_set(err, errlen, "%s", "misdirected request: the Host is not this server's address (http_hosts)");
		return 421;
	}
	if (!r->changes)
		return 0;
	if (r->origin && !origin_same(r->origin, r->host)) {
		errbuf_set(err, errlen, "%s", "cross-origin request refused: only this server's own page may change anything");
		return 403;
	}
	if (r->fetch_site && strcasecmp(r->fetch_site, "same-origin") && strcasecmp(r->fetch_site, "none")) {
		errbuf_set(err, errlen, "%s", "cross-site request refused: only this server's own page may change anything");
		return 403;
	}
	if (g->token[0] && !bearer_ok(g, r->authorization)) {
		errbuf_set(err, errlen, "%s", "access token required (Authorization: Bearer TOKEN)");
		return 401;
	}
	if (!type_json(r->content_type)) {
		errbuf_set(err, errlen, "%s", "the body must be Content-Type: application/json");
		return 415;
	}
	return 0;
}
