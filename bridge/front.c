/*
 * front.c: the table of front ends (one row per protocol).
 */
#include <string.h>
#include "adapters/trylobot/trylobot_front.h"
#include "adapters/hub/hub_front.h"
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

static const struct front fronts[] = {
	{ .protocol = "uhp", .session_new = uhp_new, .session_free = uhp_free },
	{ .protocol = "hub", .session_new = hub_new, .session_free = hub_free },
	{ .protocol = "trylobot", .session_new = tb_front_session_new, .session_free = tb_front_session_free },
};

const struct front *front_find(const char *protocol)
{
	for (size_t i = 0; i < sizeof fronts / sizeof fronts[0]; i++)
		if (!strcmp(fronts[i].protocol, protocol))
			return &fronts[i];
	return NULL;
}
