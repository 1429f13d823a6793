/*
 * uhp_spectate.c: the spectators' listener of remote play (protocol uhp-spectate,
 * docs/remote-play.md): a connection that lists the games of the listener named by
 * `watch` (a uhp-remote or uhp-player listener) and attaches to one, receiving its
 * GameString after every move. The commands and the bounds are the shared
 * spectator module's (bridge/spectate.h); this file is the session and the row.
 */
#include <event2/bufferevent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/uhp/uhp_out.h"
#include "bridge/config.h"
#include "bridge/lobby/lobby.h"
#include "bridge/log.h"
#include "bridge/protocol.h"
#include "bridge/session_io.h"
#include "bridge/spectate.h"
#include "bridge/util.h"
#include "core/errbuf.h"

struct watch_listener {
	char name[64];              /* the watched listener */
};

struct watch_session {
	struct spectator *c;
	front_closed_cb  *closed;
	void             *arg;
};

static void watch_closed(void *arg)
{
	struct watch_session *s = arg;
	s->closed(s->arg);
}

static void watch_session_free(void *arg)
{
	struct watch_session *s = arg;
	if (!s)
		return;
	spectator_free(s->c);
	free(s);
}

/* The daemon stops: the spectator gets what it was sent ("over N * aborted: ..."). */
static void watch_session_shutdown(void *arg)
{
	struct watch_session *s = arg;
	spectator_finish(s->c);
}

/* Refused after all (full, or the games are gone): the answer, then the close. */
static void watch_refuse(struct bufferevent *bev, const char *why)
{
	char buf[256];
	size_t n = uhp_out_refusal(buf, sizeof buf, why);
	bufferevent_write(bev, buf, n);
	bev_flush_now(bev);
	bufferevent_free(bev);
}

static void *watch_session_new(struct event_base *base, struct bufferevent *in,
			       struct bufferevent *out, unsigned id,
			       const struct engine_profile *profile,
			       const struct session_limits *lim, front_closed_cb *closed, void *arg)
{
	const struct watch_listener *wl = lim->shared;
	struct lobby *lb = wl ? lobby_find(wl->name) : NULL;
	struct watch_session *s;
	char why[128];

	if (out != in)
		bufferevent_free(out);   /* TCP only: in and out are one */
	if (!lb) {
		watch_refuse(in, "The games of this listener are gone.");
		return NULL;
	}
	if (!(s = calloc(1, sizeof *s))) {
		bufferevent_free(in);
		return NULL;
	}
	s->closed = closed;
	s->arg = arg;
	s->c = spectator_new(lobby_spectate(lb), in, id, watch_closed, s, why, sizeof why);
	if (!s->c) {
		log_note(id, "spectator refused: %s", why);
		watch_refuse(in, why);
		free(s);
		return NULL;
	}
	return s;
}

static void *watch_listener_new(struct event_base *base, const struct config *c,
				const struct listener_conf *lc, char *err, size_t errlen)
{
	const char *w = lc->lobby.watch;
	struct watch_listener *wl;
	size_t i;

	if (!w) {
		errbuf_set(err, errlen, "[listen %s]: protocol uhp-spectate needs watch = LISTENER", lc->name);
		return NULL;
	}
	for (i = 0; i < c->nlisteners && strcmp(c->listeners[i].name, w); i++)
		;
	if (i == c->nlisteners || strlen(w) >= sizeof wl->name) {
		errbuf_set(err, errlen, "[listen %s]: watch: no [listen %s]", lc->name, w);
		return NULL;
	}
	if (!(wl = calloc(1, sizeof *wl))) {
		errbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	snprintf(wl->name, sizeof wl->name, "%s", w);
	return wl;
}

static void watch_listener_free(void *wl)
{
	free(wl);
}

const struct protocol protocol_uhp_spectate = {
	.name = "uhp-spectate",
	.title = "UHP remote play: spectators",
	.description = "remote play's spectators: list the games of a listener, attach to one "
		       "and receive its GameString after every move",
	.target = PROTOCOL_ADDRESS,
	.front = { .session_new = watch_session_new, .session_free = watch_session_free,
		   .session_shutdown = watch_session_shutdown,
		   .refusal = uhp_out_refusal, .listener_new = watch_listener_new,
		   .listener_free = watch_listener_free },
};
