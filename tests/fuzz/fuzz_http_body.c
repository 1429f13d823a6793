/*
 * fuzz_http_body.c: libFuzzer target for the web API's request bodies and headers
 * (bridge/http/http_body.c, http_guard.c), the very functions the routes call, with
 * no socket. The first byte picks a route's reader (POST /api/games, .../move,
 * /api/lobby/join, /api/lobby/<other>); the rest is the body. Then the same bytes,
 * cut at NULs, are the Host, Origin, Content-Type and Authorization of a request the
 * guard judges. What a reader accepts must hold its promises: a depth of 0..8, a
 * colour, a join name of "web:" and at most WEB_NAME_MAX letters, digits, - _ .
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/http/http_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct http_guard *guard_loop, *guard_any;

static void check_join(const struct join_req *j)
{
	size_t n = strlen(j->name);
	if (strncmp(j->name, "web:", 4) || n <= 4 || n > 4 + WEB_NAME_MAX || !j->lobby)
		abort();
	for (const char *p = j->name + 4; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      *p == '-' || *p == '_' || *p == '.'))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int status = 0;
	char why[256] = "";

	if (!guard_loop) {
		char cause[256] = "";
		guard_loop = guard_new("127.0.0.1", 8080, "hive.lan", NULL, cause, sizeof cause);
		guard_any = guard_new("::", 8080, NULL, "0123456789abcdef0123", cause, sizeof cause);
		if (!guard_loop || !guard_any)
			abort();
	}
	if (size < 1)
		return 0;
	unsigned route = data[0] & 3;
	/* A copy of exactly the body: reading past it is the sanitizer's to see. */
	char *buf = malloc(size - 1 ? size - 1 : 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	cJSON *b = body_parse(buf, size - 1, &status, why, sizeof why);
	if (!b) {
		if ((status != 400 && status != 413) || !why[0])
			abort();
	} else {
		struct start_req s;
		struct join_req j;
		const char *str;
		int rc = route == 0 ? body_start(b, &s, &status, why, sizeof why) :
			route == 1 ? body_need_str(b, "move", BODY_WANT_MOVE, &str, &status, why, sizeof why) :
			route == 2 ? body_join(b, &j, &status, why, sizeof why) : body_need_str(b, "token", BODY_WANT_TOKEN, &str, &status, why, sizeof why);
		if (rc < 0 && (status != 400 || !why[0]))
			abort();
		if (rc == 0 && route == 0 && (s.depth < 0 || s.depth > PLAY_MAX_DEPTH || !s.engine ||
					     (s.human != HIVE_WHITE && s.human != HIVE_BLACK)))
			abort();
		if (rc == 0 && route == 2)
			check_join(&j);
		cJSON_Delete(b);
	}

	/* The headers: up to four NUL-terminated strings out of the same bytes. */
	char *text = malloc(size + 1);
	if (!text) {
		free(buf);
		return 0;
	}
	memcpy(text, data, size);
	text[size] = 0;
	const char *f[5] = { NULL, NULL, NULL, NULL, NULL };
	size_t k = 0;
	for (char *p = text + 1; k < 5 && p <= text + size; k++) {
		f[k] = p;
		p += strlen(p) + 1;
	}
	struct guard_request r = { .changes = data[0] >> 7, .host = f[0], .origin = f[1],
				   .content_type = f[2], .authorization = f[3], .local = f[4],
				   .fetch_site = (data[0] & 0x40) ? "cross-site" : NULL };
	for (int i = 0; i < 2; i++) {
		struct http_guard *g = i ? guard_any : guard_loop;
		why[0] = 0;
		int st = guard_check(g, &r, why, sizeof why);
		if (st != 0 && st != 401 && st != 403 && st != 415 && st != 421)
			abort();
		if (st && !why[0])
			abort();
		/* A change is let through only with its evidence. */
		if (!st && r.changes && (r.fetch_site || !r.content_type || (i && !r.authorization)))
			abort();
	}
	free(text);
	free(buf);
	return 0;
}
