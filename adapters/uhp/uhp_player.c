/*
 * uhp_player.c: remote play's engine model (protocol uhp-player, docs/remote-play.md):
 * the player that connects IS a UHP engine. It prints its info block; from then on
 * the server drives it with ordinary UHP commands (newgame, play, bestmove with the
 * listener's clock), as the proposal's three-session example has it. The UHP logic
 * is uhp_back.c's, over the accepted socket (uhp_back_adopt); the pairing, the
 * canonical game, the clocks, the referee and the results are the lobby's
 * (bridge/lobby/), as for house engines. One game per connection: when it ends, the
 * engine gets "exit" and the connection is closed.
 */
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/uhp/uhp_back.h"
#include "adapters/uhp/uhp_out.h"
#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/lobby/lobby.h"
#include "bridge/log.h"
#include "bridge/protocol.h"
#include "bridge/util.h"
#include "core/errbuf.h"

struct player_listener {
	struct lobby         *lb;
	struct engine_profile prof;    /* timeouts for the connected engines */
};

struct player_session {
	struct player_listener *pl;
	unsigned          id;
	char              name[32];    /* "player#12" */
	struct engine    *e;           /* ours until the lobby takes it */
	int               waiting;     /* in the lobby's queue */
	struct seat      *seat;        /* in a game */
	front_closed_cb  *closed;
	void             *arg;
	struct event     *close_ev;    /* the end, from the loop */
	struct event     *gone_ev;     /* its connection closed while it was idle */
};

static void player_close_cb(evutil_socket_t fd, short what, void *arg)
{
	struct player_session *s = arg;
	s->closed(s->arg);
}

static void player_end(struct player_session *s)
{
	event_active(s->close_ev, EV_TIMEOUT, 1);
}

static void player_started(void *client, struct seat *seat)
{
	struct player_session *s = client;
	s->waiting = 0;
	s->seat = seat;
}

static void player_ended(void *client, const char *why)
{
	struct player_session *s = client;
	log_note(s->id, "player: %s", why);
	s->waiting = 0;
	s->seat = NULL;
	player_end(s);
}

static const struct seat_ops player_ops = {
	.started = player_started,
	.ended = player_ended,
};

/* The engine went while nobody asked it anything (waiting for an opponent, or the
 * opponent thinking): out of the queue, or its game lost, now rather than when it
 * is next asked for a move. From the loop: the lobby may free the engine. */
static void player_gone_cb(evutil_socket_t fd, short what, void *arg)
{
	struct player_session *s = arg;

	log_note(s->id, "player %s disconnected while %s", s->name,
		 s->seat ? "in a game" : s->waiting ? "waiting" : "idle");
	if (s->seat) {
		seat_lost(s->seat, "disconnected");
		return;
	}
	if (s->waiting)
		lobby_leave(s->pl->lb, s);
	s->waiting = 0;
	player_end(s);
}

static void player_gone(void *arg, const char *what)
{
	struct player_session *s = arg;
	event_active(s->gone_ev, EV_TIMEOUT, 1);
}

/* The info block is in: the engine asks the lobby for a game. */
static void player_ready(void *arg, const struct engine_result *r)
{
	struct player_session *s = arg;
	char why[256];

	if (r->status != ENGINE_OK) {
		log_note(s->id, "player did not start: %s", r->message ? r->message : "?");
		player_end(s);
		return;
	}
	log_note(s->id, "player %s is %s", s->name, s->e->id);
	if (lobby_join_engine(s->pl->lb, s->name, s->e, s, &player_ops, why, sizeof why) < 0) {
		log_note(s->id, "player refused: %s", why);
		player_end(s);
		return;
	}
	s->e = NULL;
	s->waiting = 1;
}

static void player_session_free(void *arg)
{
	struct player_session *s = arg;
	if (!s)
		return;
	/* Out of the lobby first: nothing calls back into the session afterwards. */
	if (s->waiting)
		lobby_leave(s->pl->lb, s);
	else if (s->seat)
		seat_detach(s->seat);
	engine_free(s->e);
	util_event_free(&s->close_ev);
	util_event_free(&s->gone_ev);
	free(s);
}

static void *player_session_new(struct event_base *base, struct bufferevent *in,
				struct bufferevent *out, unsigned id,
				const struct engine_profile *profile,
				const struct session_limits *lim, front_closed_cb *closed, void *arg)
{
	struct player_session *s = calloc(1, sizeof *s);
	char cause[256] = "";

	if (out != in)
		bufferevent_free(out);     /* TCP only: in and out are one */
	if (!s || !lim->shared || !(s->close_ev = event_new(base, -1, 0, player_close_cb, s)) ||
	    !(s->gone_ev = event_new(base, -1, 0, player_gone_cb, s))) {
		if (s && s->close_ev)
			event_free(s->close_ev);
		free(s);
		bufferevent_free(in);
		return NULL;
	}
	s->pl = lim->shared;
	s->id = id;
	s->closed = closed;
	s->arg = arg;
	snprintf(s->name, sizeof s->name, "player#%u", id);
	s->e = uhp_back_adopt(base, &s->pl->prof, in, id, cause, sizeof cause);
	if (!s->e) {
		log_note(id, "player: %s", cause[0] ? cause : "?");
		player_session_free(s);
		return NULL;
	}
	uhp_back_on_close(s->e, player_gone, s);
	log_note(id, "remote-play engine connected");
	if (engine_start(s->e, player_ready, s) < 0) {
		player_session_free(s);
		return NULL;
	}
	return s;
}

static void *player_listener_new(struct event_base *base, const struct config *c,
				 const struct listener_conf *lc, char *err, size_t errlen)
{
	const struct engine_profile *p = config_profile(c, lc->engine);
	struct player_listener *pl = calloc(1, sizeof *pl);

	if (!pl || !p) {
		free(pl);
		errbuf_set(err, errlen, "%s", p ? "out of memory" : "no engine profile");
		return NULL;
	}
	/* The listener's profile for its timeouts, but no command and no options. */
	pl->prof.name = lc->name;
	pl->prof.kind = (char *)"uhp";
	pl->prof.start_timeout_ms = p->start_timeout_ms;
	pl->prof.command_timeout_ms = p->command_timeout_ms;
	pl->prof.stop_timeout_ms = p->stop_timeout_ms;
	if (!(pl->lb = lobby_new(base, c, lc, err, errlen))) {
		free(pl);
		return NULL;
	}
	return pl;
}

/* The engines get "exit", as after every game: UHP has no word for an abort. */
static void player_listener_shutdown(void *arg, const char *reason)
{
	struct player_listener *pl = arg;
	lobby_shutdown(pl->lb, reason);
}

static void player_listener_free(void *arg)
{
	struct player_listener *pl = arg;
	if (!pl)
		return;
	lobby_free(pl->lb);
	free(pl);
}

/* Its refusal is UHP's own error lines: an engine cannot act on them, but its log shows why. */
const struct protocol protocol_uhp_player = {
	.name = "uhp-player",
	.title = "UHP remote play: engines",
	.description = "remote play, the engine model: UHP engines connect in and are driven "
		       "by the server (newgame, play, bestmove with its clock)",
	.target = PROTOCOL_ADDRESS,
	.front = { .session_new = player_session_new, .session_free = player_session_free,
		   .refusal = uhp_out_refusal, .listener_new = player_listener_new,
		   .listener_free = player_listener_free,
		   .listener_shutdown = player_listener_shutdown },
};
