/*
 * worker_players.h: the engines a worker's jobs name, as players of its match
 * (worker_players.c). Not for use outside bridge/match/.
 */
#ifndef BRIDGE_MATCH_WORKER_PLAYERS_H
#define BRIDGE_MATCH_WORKER_PLAYERS_H

#include <stddef.h>
#include "bridge/match/match_int.h"

/* What worker_player answers when it makes no player: */
#define WORKER_PLAYER_REFUSED (-1)   /* no worker may play it: the job is set aside */
#define WORKER_PLAYER_LACKS   (-2)   /* this machine lacks it (a profile, a command): another may not */
#define WORKER_PLAYER_BUSY    (-3)   /* no room now: the job waits for a worker */

/* The players' ENGINEs and what they own, by index of m->pl. */
struct worker_players {
	char          *spec[MATCH_MAX_PLAYERS];
	struct config *own[MATCH_MAX_PLAYERS];   /* a profile made from the ENGINE is in here */
};

/* The player (index of m->pl) of a job's ENGINE spec: the one already made, else one
 * made now, checked by the trust rule (config_engine_configured, unless
 * allow_commands) and config_engine_check, in an entry that no slot uses (never keep,
 * the job's other player). A WORKER_PLAYER_* with why otherwise. */
int  worker_player(struct match *m, struct worker_players *wp, const char *spec, int allow_commands, int keep,
		   char *why, size_t whylen);
/* Frees every player's (after the engines: they point at its profile). */
void worker_players_free(struct match *m, struct worker_players *wp);

#endif
