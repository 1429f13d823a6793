/*
 * lobby_conf.h: the [listen] keys of a remote-play listener (protocol uhp-remote):
 * how long newgame waits, the house engine, the clocks, the grace period of a
 * disconnected player, the bounds and the results file. Parsed by config.c through
 * lobby_conf_key(); used by the lobby (bridge/lobby/lobby.h).
 *
 *   wait_time = 30            seconds newgame waits for an opponent
 *   house_engine = NAME       an [engine NAME] that plays a client nobody pairs with
 *   house_wait = 0            seconds a client waits for a person before the house
 *                             engine takes it (<= wait_time; 0 = at once)
 *   clock = 600+5             each player's time and increment, seconds ("300", "0.5+0.1")
 *   move_time = 10            instead of clock: a fixed time per move, seconds
 *   grace = 30                seconds a disconnected player's seat waits for a resume
 *   max_waiting = 64          clients waiting for an opponent at once
 *   max_games = 128           games at once
 *   max_spectators = 16       spectators per game
 *   max_spectators_total = 256  spectators of all the listener's games together
 *   game_type = Base          uhp-player: the game its engines play (Base+MLP, ...)
 *   watch = NAME              uhp-spectate: the listener whose games it shows
 *   max_plies = 1000          a longer game is adjudicated a draw (0 = never)
 *   repetition = 0            a draw once a position occurs this often (0 = never;
 *                             match's is 3, REFEREE_REPETITION)
 *   hints = no                whether bestmove is answered (by the listener's engine)
 *   results = PATH            every finished game appended as one JSON line
 *                             (schemas/match-result.json)
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

/* The defaults above into lc. */
void lobby_conf_defaults(struct lobby_conf *lc);
/* One [listen] key: 1 taken, 0 not a lobby key, -1 a bad value with err. */
int  lobby_conf_key(struct lobby_conf *lc, const char *k, const char *v, char *err, size_t errlen);
/* "600+5" or "10/move" into buf: the time control as the lobby reports it. */
void lobby_conf_time_control(const struct lobby_conf *lc, char *buf, unsigned len);
/* Frees what lc owns; lc may be reused after lobby_conf_defaults. */
void lobby_conf_clear(struct lobby_conf *lc);

#endif
