/*
 * test_http_guard.c: the web API's request guard (bridge/http/http_guard.c) and its
 * body readers (http_body.c), without sockets: Host and DNS rebinding, Origin and
 * Sec-Fetch-Site, Content-Type, the access token, loopback, the owner-token compare.
 */
#include <CUnit/Basic.h>
#include <sys/queue.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/http/http_int.h"
#include "tests/unit/unit.h"

#define TOKEN "0123456789abcdef0123"

static struct http_guard *mk(const char *addr, const char *hosts, const char *token)
{
	char cause[256] = "";
	struct http_guard *g = guard_new(addr, 8080, hosts, token, cause, sizeof cause);
	if (!g)
		fprintf(stderr, "guard_new: %s\n", cause[0] ? cause : "?");
	return g;
}

static int check(const struct http_guard *g, int changes, const char *host, const char *origin,
		 const char *ctype)
{
	char why[256] = "";
	struct guard_request r = { .changes = changes, .host = host, .origin = origin,
				   .content_type = ctype };
	int st = guard_check(g, &r, why, sizeof why);
	CU_ASSERT(st == 0 || why[0]);
	return st;
}

static void test_host(void)
{
	struct http_guard *g = mk("127.0.0.1", "hive.lan", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_EQUAL(check(g, 0, "127.0.0.1:8080", NULL, NULL), 0);
	CU_ASSERT_EQUAL(check(g, 0, "localhost:8080", NULL, NULL), 0);
	CU_ASSERT_EQUAL(check(g, 0, "LOCALHOST:8080", NULL, NULL), 0);
	CU_ASSERT_EQUAL(check(g, 0, "hive.lan:8080", NULL, NULL), 0);
	CU_ASSERT_EQUAL(check(g, 0, NULL, NULL, NULL), 0);          /* HTTP/1.0 */
	/* DNS rebinding: a name of the attacker's, reads refused too. */
	CU_ASSERT_EQUAL(check(g, 0, "evil.example:8080", NULL, NULL), 421);
	CU_ASSERT_EQUAL(check(g, 0, "127.0.0.1:8081", NULL, NULL), 421);
	CU_ASSERT_EQUAL(check(g, 0, "127.0.0.1", NULL, NULL), 421);   /* port 80 */
	CU_ASSERT_EQUAL(check(g, 0, "x", NULL, NULL), 421);
	CU_ASSERT_EQUAL(check(g, 0, "", NULL, NULL), 421);
	CU_ASSERT_EQUAL(check(g, 0, "127.0.0.1:", NULL, NULL), 421);
	CU_ASSERT_EQUAL(check(g, 0, "127.0.0.1:8080x", NULL, NULL), 421);
	CU_ASSERT_EQUAL(check(g, 0, "[::1]:8080", NULL, NULL), 421);
	CU_ASSERT_EQUAL(check(g, 0, "[::1", NULL, NULL), 421);
	CU_ASSERT_EQUAL(check(g, 0, "::1:8080", NULL, NULL), 421);
	guard_free(g);

	g = mk("::1", NULL, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_EQUAL(check(g, 0, "[::1]:8080", NULL, NULL), 0);
	CU_ASSERT_EQUAL(check(g, 0, "localhost:8080", NULL, NULL), 0);
	CU_ASSERT_EQUAL(check(g, 0, "[::2]:8080", NULL, NULL), 421);
	guard_free(g);
}

static void test_changes(void)
{
	struct http_guard *g = mk("127.0.0.1", NULL, NULL);
	const char *h = "127.0.0.1:8080", *j = "application/json";
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_EQUAL(check(g, 1, h, NULL, j), 0);
	CU_ASSERT_EQUAL(check(g, 1, h, "http://127.0.0.1:8080", j), 0);
	CU_ASSERT_EQUAL(check(g, 1, h, "http://127.0.0.1:8080", "Application/JSON; charset=utf-8"), 0);
	CU_ASSERT_EQUAL(check(g, 1, h, "http://evil.example", j), 403);
	CU_ASSERT_EQUAL(check(g, 1, h, "null", j), 403);
	CU_ASSERT_EQUAL(check(g, 1, h, "http://127.0.0.1:8080.evil", j), 403);
	CU_ASSERT_EQUAL(check(g, 1, h, "http://localhost:8080", j), 403);   /* not this request's Host */
	CU_ASSERT_EQUAL(check(g, 1, NULL, "http://127.0.0.1:8080", j), 403);
	/* A form's simple request: refused whatever its origin. */
	CU_ASSERT_EQUAL(check(g, 1, h, NULL, "text/plain"), 415);
	CU_ASSERT_EQUAL(check(g, 1, h, NULL, "application/x-www-form-urlencoded"), 415);
	CU_ASSERT_EQUAL(check(g, 1, h, NULL, "application/jsonx"), 415);
	CU_ASSERT_EQUAL(check(g, 1, h, NULL, NULL), 415);
	/* Reads need neither. */
	CU_ASSERT_EQUAL(check(g, 0, h, "http://evil.example", NULL), 0);
	char why[256] = "";
	struct guard_request r = { .changes = 1, .host = h, .content_type = j, .fetch_site = "cross-site" };
	CU_ASSERT_EQUAL(guard_check(g, &r, why, sizeof why), 403);
	r.fetch_site = "same-origin";
	CU_ASSERT_EQUAL(guard_check(g, &r, why, sizeof why), 0);
	guard_free(g);
}

static void test_token(void)
{
	char cause[256] = "";
	/* Beyond loopback without a token: refused before anything listens. */
	CU_ASSERT_PTR_NULL(guard_new("0.0.0.0", 8080, NULL, NULL, cause, sizeof cause));
	CU_ASSERT_PTR_NOT_NULL(cause[0] && strstr(cause, "access token"));
	CU_ASSERT_PTR_NULL(guard_new("192.168.1.5", 8080, NULL, "", cause, sizeof cause));
	CU_ASSERT_PTR_NULL(guard_new("127.0.0.1", 8080, NULL, "short", cause, sizeof cause));
	CU_ASSERT_PTR_NULL(guard_new("127.0.0.1", 8080, "bad/name", NULL, cause, sizeof cause));

	struct http_guard *g = mk("0.0.0.0", NULL, TOKEN);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT(guard_has_token(g));
	char why[256] = "";
	struct guard_request r = { .changes = 1, .host = "10.1.2.3:8080", .local = "10.1.2.3",
				   .content_type = "application/json" };
	CU_ASSERT_EQUAL(guard_check(g, &r, why, sizeof why), 401);
	r.authorization = "Bearer " TOKEN "x";
	CU_ASSERT_EQUAL(guard_check(g, &r, why, sizeof why), 401);
	r.authorization = "Bearer 0123456789abcdef012";
	CU_ASSERT_EQUAL(guard_check(g, &r, why, sizeof why), 401);
	r.authorization = "Basic " TOKEN;
	CU_ASSERT_EQUAL(guard_check(g, &r, why, sizeof why), 401);
	r.authorization = "Bearer " TOKEN;
	CU_ASSERT_EQUAL(guard_check(g, &r, why, sizeof why), 0);
	/* Reads stay open; the wildcard takes the address the client reached. */
	r.changes = 0;
	r.authorization = NULL;
	CU_ASSERT_EQUAL(guard_check(g, &r, why, sizeof why), 0);
	r.host = "10.9.9.9:8080";
	CU_ASSERT_EQUAL(guard_check(g, &r, why, sizeof why), 421);
	guard_free(g);
}

static void test_misc(void)
{
	CU_ASSERT(guard_addr_loopback("127.0.0.1"));
	CU_ASSERT(guard_addr_loopback("127.3.2.1"));
	CU_ASSERT(guard_addr_loopback("::1"));
	CU_ASSERT(guard_addr_loopback("::ffff:127.0.0.1"));
	CU_ASSERT(!guard_addr_loopback("0.0.0.0"));
	CU_ASSERT(!guard_addr_loopback("::"));
	CU_ASSERT(!guard_addr_loopback("10.0.0.1"));
	CU_ASSERT(guard_token_eq("abc", "abc"));
	CU_ASSERT(!guard_token_eq("abd", "abc"));
	CU_ASSERT(!guard_token_eq("ab", "abc"));
	CU_ASSERT(!guard_token_eq("abcd", "abc"));
	CU_ASSERT(!guard_token_eq("", ""));
}

static void test_bodies(void)
{
	int st;
	char why[256] = "";
	struct start_req s;
	struct join_req j;
	const char *t = "{\"engine\":\"x\",\"color\":\"black\",\"type\":\"Base+M\",\"depth\":3}";
	cJSON *b = body_parse(t, strlen(t), &st, why, sizeof why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL(body_start(b, &s, &st, why, sizeof why), 0);
	CU_ASSERT_STRING_EQUAL(s.engine, "x");
	CU_ASSERT_EQUAL(s.human, HIVE_BLACK);
	CU_ASSERT_EQUAL(s.depth, 3);
	cJSON_Delete(b);
	b = body_parse("{\"depth\":9}", 11, &st, why, sizeof why);
	CU_ASSERT_EQUAL(body_start(b, &s, &st, why, sizeof why), -1);
	CU_ASSERT_EQUAL(st, 400);
	cJSON_Delete(b);
	CU_ASSERT_PTR_NULL(body_parse("[1]", 3, &st, why, sizeof why));
	CU_ASSERT_EQUAL(st, 400);
	t = "{\"lobby\":\"r\",\"name\":\"a b<c>\\u0001d\"}";
	b = body_parse(t, strlen(t), &st, why, sizeof why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL(body_join(b, &j, &st, why, sizeof why), 0);
	CU_ASSERT_STRING_EQUAL(j.name, "web:abcd");
	cJSON_Delete(b);
}

/* The head parser ends where the framing ends: a NUL or a lone CR in the head is
 * refused, else a Content-Length after it would be lost and the body run as a
 * second request (request smuggling). */
static int head_status(const char *text, size_t len)
{
	char *head = malloc(len + 1);
	struct http_head h;
	char why[256] = "";
	CU_ASSERT_FATAL(head != NULL);
	memcpy(head, text, len);
	head[len] = 0;
	memset(&h, 0, sizeof h);
	TAILQ_INIT(&h.headers);
	int code = http_head_parse(head, len, 4096, &h, why, sizeof why);
	evhttp_clear_headers(&h.headers);
	free(head);
	return code;
}

static void test_head(void)
{
	static const char ok[] = "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n";
	static const char nul[] = "POST /api/games HTTP/1.1\r\nX-A: a\0\r\nContent-Length: 2\r\n\r\n";
	static const char cr[] = "POST /api/games HTTP/1.1\r\n\r\r\nContent-Length: 2\r\n\r\n";
	static const char lf[] = "GET / HTTP/1.0\nHost: x\n\n";
	CU_ASSERT_EQUAL(head_status(ok, sizeof ok - 1), 0);
	CU_ASSERT_EQUAL(head_status(lf, sizeof lf - 1), 0);
	CU_ASSERT_EQUAL(head_status(nul, sizeof nul - 1), 400);
	CU_ASSERT_EQUAL(head_status(cr, sizeof cr - 1), 400);
}

static const struct unit_test tests[] = {
	{ "Host and DNS rebinding", test_host },
	{ "Origin, Sec-Fetch-Site, Content-Type", test_changes },
	{ "the access token", test_token },
	{ "loopback and token compare", test_misc },
	{ "request bodies", test_bodies },
	{ "request heads: NUL and lone CR", test_head },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "http_guard",
	.tests = tests,
};
