/*
 * hub.c: Hub's row of the protocol table (bridge/protocol.h).
 */
#include "adapters/hub/hub_back.h"
#include "adapters/hub/hub_codec.h"
#include "adapters/hub/hub_front.h"
#include "bridge/protocol.h"
#include "adapters/hub/hub_check.h"

static void *hub_session_new(struct event_base *base, struct bufferevent *in,
			     struct bufferevent *out, unsigned id,
			     const struct engine_profile *profile,
			     const struct session_limits *lim, front_closed_cb *closed, void *arg)
{
	return hub_front_new(base, in, out, id, profile, lim, closed, arg);
}

static void hub_session_free(void *s)
{
	hub_front_free(s);
}

/* One "error message=..." line. */
static size_t hub_refusal(char *buf, size_t len, const char *why)
{
	int n = len > 1 ? hub_error_write(buf, len - 1, why) : -1;
	if (n <= 0)
		return 0;
	buf[n++] = '\n';
	buf[n] = 0;
	return (size_t)n;
}

const struct protocol protocol_hub = {
	.name = "hub",
	.engine_prefix = "hub:",
	.kind = "hub",
	.title = "Hub",
	.description = "Hub-style key=value lines (docs/hub-hive.md)",
	.target = PROTOCOL_COMMAND,
	.default_port = 5002,
	.stdio = 1,
	.engine_help = "an external Hub engine",
	.front = { .session_new = hub_session_new,
		   .session_free = hub_session_free, .refusal = hub_refusal },
	.back_new = hub_back_new,
	.check_suite = hub_check_suite,
};
