/*
 * spectators.c: the watchers of remote games (placeholder until spectators land).
 */
#include "bridge/lobby/lobby_int.h"

void spectators_update(struct rgame *g)
{
	(void)g;
}

void spectators_end(struct rgame *g)
{
	(void)g;
}

void spectators_free(struct rgame *g)
{
	(void)g;
}
