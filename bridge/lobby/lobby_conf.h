/*
 * lobby_conf.h: the [listen] keys of a remote-play listener (protocols uhp-remote,
 * uhp-player, uhp-spectate): how long newgame waits, the house engine, the clocks, the
 * grace period of a disconnected player, the bounds and the results file. Their rows
 * (defaults and help) are in config.c's table, which hands their values to
 * lobby_conf_key(); used by the lobby (bridge/lobby/lobby.h).
 */
#ifndef BRIDGE_LOBBY_CONF_H
#define BRIDGE_LOBBY_CONF_H

#include <stddef.h>
#include <stdint.h>

struct lobby_conf {
	unsigned wait_ms;
	char    *house_engine;     /* owned, NULL = none */
	unsigned house_wait_ms;
	uint64_t clock_ms;         /* 0 when move_time_ms is set */
	uint64_t inc_ms;
	uint64_t move_time_ms;     /* 0 when the clock runs */
	unsigned grace_ms;
	unsigned max_waiting;
	unsigned max_games;
	unsigned max_spectators;
	unsigned max_spectators_total;
	unsigned game_type;        /* uhp-player: HIVE game type bits, 0 = Base */
	char    *watch;            /* uhp-spectate: a listener's name, owned, NULL = none */
	unsigned max_plies;
	unsigned repetition;
	int      hints;
	char    *results;          /* owned, NULL = none */
};

/* One [listen] key: 1 taken, 0 not a lobby key, -1 a bad value with err. */
int  lobby_conf_key(struct lobby_conf *lc, const char *k, const char *v, char *err, size_t errlen);
/* "600+5" or "10/move" into buf: the time control as the lobby reports it. */
void lobby_conf_time_control(const struct lobby_conf *lc, char *buf, unsigned len);
/* Frees what lc owns (and forgets it). */
void lobby_conf_clear(struct lobby_conf *lc);

#endif
