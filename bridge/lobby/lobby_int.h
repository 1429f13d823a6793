/*
 * lobby_int.h: what the files of the lobby share (lobby.c the games and pairing,
 * spectators.c the watchers). Not for use outside bridge/lobby/.
 */
#ifndef BRIDGE_LOBBY_INT_H
#define BRIDGE_LOBBY_INT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/queue.h>
#include "bridge/lobby/lobby.h"
#include "core/game.h"

struct engine;
struct engine_profile;
struct event;
struct spectate;
struct referee;

#define LOBBY_TOKEN_LEN   32
#define LOBBY_REASON_MAX  256
/* A house engine's allowance over its time for its protocol's overhead. */
#define LOBBY_ENGINE_SLACK_MS 1000

struct rgame;

/* One side of a game: a client (connected or within its grace period) or an engine. */
struct seat {
	struct rgame          *g;
	int                    colour;        /* HIVE_WHITE or HIVE_BLACK */
	char                   name[64];      /* "remote#12", "house:builtin" */
	char                   id[128];       /* an engine's id line, for the results */
	char                   token[LOBBY_TOKEN_LEN + 1];  /* a client's resume token */
	void                  *client;        /* NULL while disconnected */
	const struct seat_ops *ops;
	struct event          *grace;         /* a disconnected client's seat expires */
	int                    is_engine;
	struct engine         *engine;        /* the house engine, NULL once dropped */
	int                    started;       /* its start was sent */
	int                    starting;      /* its start is outstanding */
};

struct rgame {
	struct lobby          *lb;
	unsigned               no;            /* the lobby's game number, from 1 */
	unsigned               type;          /* its game type */
	struct seat            seat[2];       /* by colour */
	struct referee        *ref;           /* the record, clocks, adjudication (bridge/
	                                         referee.h), from when it went live; else NULL */
	int                    live;          /* both sides ready, clocks running */
	int                    over;          /* decided or aborted: freed at the next kick */
	int                    state;         /* the result, HIVE_* */
	char                   reason[LOBBY_REASON_MAX];
	char                   log_prefix[96]; /* "lobby NAME: game N", the referee's */
	struct event          *kick;          /* the next step, from the loop */
	LIST_ENTRY(rgame)      link;          /* lb->games */
};

struct waiter {
	struct lobby          *lb;
	void                  *client;
	const struct seat_ops *ops;
	unsigned               type;
	char                   name[64];
	struct engine         *engine;        /* a connected engine (uhp-player), owned */
	struct event          *timer;         /* the house engine takes it, or it gives up */
	LIST_ENTRY(waiter)     link;          /* lb->waiters */
};

struct lobby {
	struct event_base     *base;
	const struct config   *conf;
	const struct listener_conf *lc;
	const struct lobby_conf *o;           /* lc->lobby */
	const struct engine_profile *house;   /* NULL = none */
	FILE                  *results;
	LIST_HEAD(, rgame)     games;         /* newest first (empty when zeroed) */
	unsigned               ngames;
	unsigned               next_no;
	LIST_HEAD(, waiter)    waiters;       /* newest first */
	unsigned               nwaiting;
	unsigned               house_games;   /* house games so far: colours alternate */
	int                    closing;       /* lobby_shutdown: no game starts any more */
	struct spectate       *spectate;      /* the spectators of its games */
	LIST_ENTRY(lobby)      reg;           /* every lobby, for lobby_find */
};

#define LOBBY_CLOSING "The server is shutting down."

/* lobby.c: "1-0", "0-1", "1/2-1/2", or "*" for a game aborted without a result. */
const char *lobby_result_text(int state);
/* lobby.c: the GameString of g (its state the result once decided); caller frees. */
char *game_string(const struct rgame *g);

/* spectators.c */
/* The lobby's spectator set (bridge/spectate.h); NULL when memory is out. */
struct spectate *spectators_new(struct lobby *lb);
/* Every spectator of g gets its GameString (after a move). */
void spectators_update(struct rgame *g);
/* g is decided: its spectators are told and detached. */
void spectators_end(struct rgame *g);
/* g is being freed: its spectators are detached silently. */
void spectators_free(struct rgame *g);

#endif
