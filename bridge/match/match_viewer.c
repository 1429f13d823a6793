/*
 * match_viewer.c: the viewers of `hivebridge match --viewer ADDR:PORT`, through the
 * shared spectator module (bridge/spectate.h): TCP clients that get the GameString
 * of every position of the running games (or of the one game they "attach" to). A
 * slow viewer is dropped, never waited for.
 */
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/http/http.h"
#include "bridge/match/match_int.h"
#include "bridge/referee.h"
#include "bridge/spectate.h"
#include "bridge/util.h"

/* A viewer whose unread output passes this is dropped: it cannot slow a match. */
#define VIEWER_MAX_PENDING        (1024 * 1024)
/* At the end, how long viewers get to receive the last positions. */
#define VIEWER_FLUSH_MS           2000
/* Meanwhile, how often the page's event streams are looked at. */
#define VIEWER_POLL_MS            10

static const struct slot *viewer_slot(const struct match *m, unsigned n)
{
	for (unsigned i = 0; i < m->nslots; i++)
		if (m->slots[i].game_no == n)
			return &m->slots[i];
	return NULL;
}

static char *viewer_game_string(void *arg, unsigned n)
{
	const struct slot *s = viewer_slot(arg, n);
	return s ? match_game_string(referee_game(s->ref)) : NULL;
}

static unsigned viewer_next_game(void *arg, unsigned after)
{
	const struct match *m = arg;
	unsigned best = 0;
	for (unsigned i = 0; i < m->nslots; i++) {
		unsigned g = m->slots[i].game_no;
		if (g > after && (!best || g < best))
			best = g;
	}
	return best;
}

static void viewer_describe(void *arg, unsigned n, char *buf, size_t len)
{
	const struct slot *s = viewer_slot(arg, n);
	snprintf(buf, len, "ply=%zu", s ? referee_game(s->ref)->len : 0);
}

static const struct spectate_ops viewer_ops = {
	.game_string = viewer_game_string,
	.next_game = viewer_next_game,
	.describe = viewer_describe,
};

/* Every viewer attached to game (or to all) gets its GameString, a line as UHP prints one. */
void viewer_broadcast(struct match *m, unsigned game, const struct hive_game *g)
{
	if (!m->spectate)
		return;
	char *gs = match_game_string(g);
	if (!gs)
		return;
	spectate_update(m->spectate, game, gs);
	free(gs);
}

/* The loop ends once the viewers and the page's event streams have everything. */
static void viewer_check(evutil_socket_t fd, short what, void *arg)
{
	struct match *m = arg;
	if (m->viewers_done && !http_pending(m->http))
		event_base_loopexit(m->base, NULL);
}

static void viewer_done(void *arg)
{
	struct match *m = arg;
	m->viewers_done = 1;
	viewer_check(-1, 0, m);
}

/* Ends the loop once every viewer and event stream has its last lines (or after
 * VIEWER_FLUSH_MS). */
void match_exit(struct match *m)
{
	struct timeval tv = { VIEWER_FLUSH_MS / 1000, (VIEWER_FLUSH_MS % 1000) * 1000 };
	struct timeval poll = { 0, VIEWER_POLL_MS * 1000 };

	if (m->finishing)
		return;
	m->finishing = 1;
	m->viewers_done = !m->spectate;
	if (m->viewers_done && !http_pending(m->http)) {
		event_base_loopexit(m->base, NULL);
		return;
	}
	event_base_loopexit(m->base, &tv);
	if (http_pending(m->http)) {
		m->flush_ev = event_new(m->base, -1, EV_PERSIST, viewer_check, m);
		if (m->flush_ev)
			event_add(m->flush_ev, &poll);
	}
	if (m->spectate)
		spectate_finish(m->spectate, viewer_done, m);
}

int viewer_listen(struct match *m, const char *spec)
{
	struct spectate_limits l = { .max_pending = VIEWER_MAX_PENDING, .all_by_default = 1 };
	char err[256];

	m->spectate = spectate_new(m->base, &viewer_ops, m, &l);
	if (!m->spectate) {
		fprintf(stderr, "hivebridge %s: out of memory\n", match_cmd(m));
		return -1;
	}
	if (spectate_listen(m->spectate, spec, err, sizeof err) < 0) {
		fprintf(stderr, "hivebridge %s: --viewer: %s\n", match_cmd(m), err);
		return -1;
	}
	return 0;
}

void viewer_free_all(struct match *m)
{
	util_event_free(&m->flush_ev);
	spectate_free(m->spectate);
	m->spectate = NULL;
}
