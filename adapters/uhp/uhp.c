/*
 * uhp.c: UHP's row of the protocol table (bridge/protocol.h).
 */
#include <stdio.h>
#include "adapters/uhp/uhp_back.h"
#include "adapters/uhp/uhp_front.h"
#include "bridge/protocol.h"
#include "adapters/uhp/uhp_check.h"

static void *uhp_session_new(struct event_base *base, struct bufferevent *in,
			     struct bufferevent *out, unsigned id,
			     const struct engine_profile *profile,
			     const struct session_limits *lim, front_closed_cb *closed, void *arg)
{
	return uhp_front_new(base, in, out, id, profile, lim, closed, arg);
}

static void uhp_session_free(void *s)
{
	uhp_front_free(s);
}

/* "err WHY" and the "ok" that ends every UHP answer. */
static size_t uhp_refusal(char *buf, size_t len, const char *why)
{
	int n = snprintf(buf, len, "err %s\nok\n", why);
	return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

const struct protocol protocol_uhp = {
	.name = "uhp",
	.engine_prefix = "uhp:",
	.kind = "uhp",
	.title = "UHP",
	.description = "the Universal Hive Protocol: text lines, each answer ended by \"ok\"",
	.target = PROTOCOL_COMMAND,
	.default_port = 5000,
	.stdio = 1,
	.engine_help = "an external UHP engine",
	.front = { .session_new = uhp_session_new,
		   .session_free = uhp_session_free, .refusal = uhp_refusal },
	.back_new = uhp_back_new,
	.check_suite = uhp_check_suite,
};
