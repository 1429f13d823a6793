/*
 * front.c: the table of front ends (one row per protocol).
 */
#include <stdio.h>
#include <string.h>
#include "adapters/trylobot/trylobot_front.h"
#include "adapters/hub/hub_codec.h"
#include "adapters/hub/hub_front.h"
#include "adapters/otep/otep_front.h"
#include "adapters/uhp/uhp_session.h"
#include "bridge/front.h"

static void *uhp_new(struct event_base *base, struct bufferevent *in, struct bufferevent *out,
		     unsigned id, const struct engine_profile *profile,
		     const struct session_limits *lim, front_closed_cb *closed, void *arg)
{
	return uhp_session_new(base, in, out, id, profile, lim, closed, arg);
}

static void uhp_free(void *s)
{
	uhp_session_free(s);
}

/* "err WHY" and the "ok" that ends every UHP answer. */
static size_t uhp_refusal(char *buf, size_t len, const char *why)
{
	int n = snprintf(buf, len, "err %s\nok\n", why);
	return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

static void *hub_new(struct event_base *base, struct bufferevent *in, struct bufferevent *out,
		     unsigned id, const struct engine_profile *profile,
		     const struct session_limits *lim, front_closed_cb *closed, void *arg)
{
	return hub_front_new(base, in, out, id, profile, lim, closed, arg);
}

static void hub_free(void *s)
{
	hub_front_free(s);
}

static size_t hub_refusal(char *buf, size_t len, const char *why)
{
	int n = len > 1 ? hub_error_write(buf, len - 1, why) : -1;
	if (n <= 0)
		return 0;
	buf[n++] = '\n';
	buf[n] = 0;
	return (size_t)n;
}

static const struct front fronts[] = {
	{ .protocol = "uhp", .session_new = uhp_new, .session_free = uhp_free,
	  .refusal = uhp_refusal },
	{ .protocol = "hub", .session_new = hub_new, .session_free = hub_free,
	  .refusal = hub_refusal },
	{ .protocol = "trylobot", .session_new = tb_front_session_new,
	  .session_free = tb_front_session_free, .refusal = tb_front_refusal },
	{ .protocol = "otep", .session_new = otep_front_new, .session_free = otep_front_free,
	  .refusal = otep_front_refusal },
};

const struct front *front_find(const char *protocol)
{
	for (size_t i = 0; i < sizeof fronts / sizeof fronts[0]; i++)
		if (!strcmp(fronts[i].protocol, protocol))
			return &fronts[i];
	return NULL;
}
