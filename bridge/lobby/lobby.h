/*
 * lobby.h: remote play's game server, one lobby per listener. Clients ask for an
 * opponent (lobby_join); two clients that ask for the same game type, or a client
 * and the listener's house engine, meet in a game the lobby keeps: the canonical
 * record, the clocks, the referee (illegal moves, time losses, resignations,
 * disconnections after a grace period), the results file. A client holds a seat
 * (struct seat) in its game and acts through it; the game tells it what the other
 * side did through its struct seat_ops. The protocol (adapters/uhp/uhp_remote.c)
 * lives elsewhere: nothing here prints a protocol line.
 */
#ifndef BRIDGE_LOBBY_H
#define BRIDGE_LOBBY_H

#include <stddef.h>
#include "core/game.h"

struct config;
struct event_base;
struct listener_conf;
struct lobby;
struct engine;
struct seat;
struct spectate;

/* How a game talks to the client in a seat (client: the pointer given to
 * lobby_join or lobby_resume). No callback frees the game or the seat; after ended
 * the seat is no longer the client's. */
struct seat_ops {
	/* Paired, and the game is live: seat is the client's. */
	void (*started)(void *client, struct seat *seat);
	/* The opponent played move (the seat's game holds the new position). */
	void (*moved)(void *client, const char *move);
	/* The game is over (why: "1-0 black resigned: ...") or never started (why: the
	 * reason, e.g. no opponent). */
	void (*ended)(void *client, const char *why);
};

enum seat_rc {
	SEAT_OK = 0,
	SEAT_INVALID,      /* an illegal or unreadable move: nothing changed (err holds why) */
	SEAT_NOT_TURN,     /* the opponent is to move */
	SEAT_OVER          /* the game is over (the time ran out, say) */
};

/* A lobby for listener lc of configuration c (both outlive it). NULL with err if
 * its results file cannot be opened. */
struct lobby *lobby_new(struct event_base *base, const struct config *c,
			const struct listener_conf *lc, char *err, size_t errlen);
/* Ends every game (unrecorded) and frees everything: no callback fires after. */
void lobby_free(struct lobby *lb);
/* The daemon stops: every game in progress ends without a result ("*", reason), told
 * to its players and spectators and written to the results file; waiting clients get
 * ended("The server is shutting down."); lobby_join refuses from now on. */
void lobby_shutdown(struct lobby *lb, const char *reason);

/* Asks for an opponent for game type type; name says who the client is (results,
 * the opponent's colour line). 0, then ops->started or ops->ended fires later (never
 * from inside this call); -1 with err if the lobby is full. */
int  lobby_join(struct lobby *lb, unsigned type, const char *name, void *client,
		const struct seat_ops *ops, char *err, size_t errlen);
/* The same for a connected engine e (remote play's engine model, uhp-player) that has
 * started (its info block read): it plays the listener's game_type, driven by the
 * game through the engine interface like a house engine. On 0 the lobby owns e (it
 * is freed with the game, or when the client leaves or gets no game; ops->moved is
 * not used); on -1 the caller keeps it. */
int  lobby_join_engine(struct lobby *lb, const char *name, struct engine *e, void *client,
		       const struct seat_ops *ops, char *err, size_t errlen);
/* The client no longer waits (it went away); nothing fires for it afterwards. */
void lobby_leave(struct lobby *lb, void *client);
/* Gives the seat of token back to a new connection: the seat, its grace period
 * cancelled; NULL with err if no game holds a free seat of token. */
struct seat *lobby_resume(struct lobby *lb, const char *token, void *client,
			  const struct seat_ops *ops, char *err, size_t errlen);
/* The lobby of listener name (any running one), or NULL. */
struct lobby *lobby_find(const char *name);
/* Every running lobby: lobby_next(NULL) is the first, NULL after the last. */
struct lobby *lobby_next(const struct lobby *lb);
/* Its listener's name and protocol ("uhp-remote", "uhp-player"). */
const char *lobby_name(const struct lobby *lb);
const char *lobby_protocol(const struct lobby *lb);
/* Its time control ("600+5", "10/move") into buf, and its grace period. */
void lobby_time_control(const struct lobby *lb, char *buf, unsigned len);
unsigned lobby_grace_ms(const struct lobby *lb);
/* How many clients wait for an opponent, and how many games it holds. */
unsigned lobby_waiting(const struct lobby *lb);
unsigned lobby_games(const struct lobby *lb);
/* Its spectator set (bridge/spectate.h), owned by the lobby. */
struct spectate *lobby_spectate(struct lobby *lb);

/* Whether bestmove may be answered on this listener. */
int  lobby_hints(const struct lobby *lb);

/* The client's move, validated against the canonical game (err gets why). */
enum seat_rc seat_play(struct seat *s, const char *move, char *err, size_t errlen);
/* Ends the game at once as a win for the opponent; reason may be empty. */
void seat_resign(struct seat *s, const char *reason);
/* The seat's player is gone for good (why: "disconnected"): it loses at once. */
void seat_lost(struct seat *s, const char *why);
/* The client went away: the seat waits for a resume for the grace period, then the
 * game is lost. */
void seat_detach(struct seat *s);
/* The seat's game (the canonical position, valid while the seat is the client's). */
const struct hive_game *seat_game(const struct seat *s);
/* Whether the seat is to move. */
int  seat_to_move(const struct seat *s);
/* The game's GameString, its state the result once decided (a resignation says
 * WhiteWins or BlackWins too); caller frees, NULL when out of memory. */
char *seat_gamestring(const struct seat *s);
/* The seat's colour (HIVE_WHITE, HIVE_BLACK), its resume token, the opponent's
 * name and the game's id in the live registry (bridge/live.h; 0 if none). */
int  seat_colour(const struct seat *s);
const char *seat_token(const struct seat *s);
const char *seat_opponent(const struct seat *s);
unsigned seat_live_id(const struct seat *s);
/* The line that tells a client its seat:
 * "remote game=N color=White token=T opponent=NAME timecontrol=600+5" into buf. */
void seat_describe(const struct seat *s, char *buf, size_t len);

#endif
