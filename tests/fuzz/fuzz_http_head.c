/*
 * fuzz_http_head.c: libFuzzer target for the web server's request heads
 * (http_head_parse, bridge/http/http_conn.c). A head either parses, with a path that
 * starts with '/' and a body within the limit, or gets a status and a reason; the
 * headers free cleanly either way.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include <event2/http.h>

#include "bridge/http/http_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *head = malloc(size + 1);
	struct http_head h;
	char why[256] = "";

	if (!head)
		return 0;
	memcpy(head, data, size);
	head[size] = 0;
	memset(&h, 0, sizeof h);
	TAILQ_INIT(&h.headers);
	int code = http_head_parse(head, size, 4096, &h, why, sizeof why);
	if (code == 0) {
		if (!h.path || h.path[0] != '/' || h.body_len > 4096)
			abort();
		(void)evhttp_find_header(&h.headers, "Content-Length");
	} else if (code < 400 || code > 599 || !why[0]) {
		abort();
	}
	evhttp_clear_headers(&h.headers);
	free(head);
	return 0;
}
