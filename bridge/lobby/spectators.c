/*
 * spectators.c: the watchers of a lobby's games, over the shared spectator module
 * (bridge/spectate.h): which games there are, and a GameString after every move.
 * Connections reach it through a uhp-spectate listener (adapters/uhp/uhp_spectate.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include "bridge/config.h"
#include "bridge/referee.h"
#include "bridge/lobby/lobby_int.h"
#include "bridge/spectate.h"
#include "core/game.h"

/* A game spectators may see: started and not yet decided. */
static struct rgame *watched_game(struct lobby *lb, unsigned n)
{
	struct rgame *g;
	LIST_FOREACH(g, &lb->games, link)
		if (g->no == n && g->live && !g->over)
			return g;
	return NULL;
}

static char *sp_game_string(void *arg, unsigned n)
{
	struct rgame *g = watched_game(arg, n);
	return g ? game_string(g) : NULL;
}

static unsigned sp_next_game(void *arg, unsigned after)
{
	struct lobby *lb = arg;
	unsigned best = 0;
	const struct rgame *g;
	LIST_FOREACH(g, &lb->games, link)
		if (g->live && !g->over && g->no > after && (!best || g->no < best))
			best = g->no;
	return best;
}

static void sp_describe(void *arg, unsigned n, char *buf, size_t len)
{
	struct rgame *g = watched_game(arg, n);
	if (!g) {
		snprintf(buf, len, "over");
		return;
	}
	snprintf(buf, len, "%s white=%s black=%s ply=%zu", hive_gametype_name(g->type),
		 g->seat[0].name, g->seat[1].name, referee_game(g->ref)->len);
}

static const struct spectate_ops lobby_spectate_ops = {
	.game_string = sp_game_string,
	.next_game = sp_next_game,
	.describe = sp_describe,
};

struct spectate *spectators_new(struct lobby *lb)
{
	struct spectate_limits l = {
		.max_per_game = lb->o->max_spectators,
		.max_total = lb->o->max_spectators_total,
		.max_pending = lb->conf->max_buffer,
		.answers = 1,
		.greeting = "(spectator)",
	};
	return spectate_new(lb->base, &lobby_spectate_ops, lb, &l);
}

void spectators_update(struct rgame *g)
{
	char *gs = game_string(g);
	if (gs)
		spectate_update(g->lb->spectate, g->no, gs);
	free(gs);
}

void spectators_end(struct rgame *g)
{
	char why[LOBBY_REASON_MAX + 16];
	/* A move that ended the game was sent already; a resignation, a time loss... was not. */
	char *gs = g->live && g->state != referee_game(g->ref)->board.state ? game_string(g) : NULL;
	snprintf(why, sizeof why, "%s %s", lobby_result_text(g->state), g->reason);
	spectate_end(g->lb->spectate, g->no, gs, why);
	free(gs);
}

void spectators_free(struct rgame *g)
{
	spectate_end(g->lb->spectate, g->no, NULL, NULL);
}
