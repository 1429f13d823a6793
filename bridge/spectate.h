/*
 * spectate.h: the watchers of running games, shared by `hivebridge match --viewer`
 * and the daemon's uhp-spectate listeners (remote play). A spectate set knows its
 * games through struct spectate_ops and links its spectators; a spectator is one
 * connection that lists the games, attaches to one (or to every game) and receives
 * its GameString after every move. Output is bounded: a spectator that stops
 * reading is dropped, never waited for; lines it sends are bounded too.
 *
 * Its commands (one per line): "list", "attach N" (0 = every game), "detach",
 * "help", "exit". With .answers set (the daemon) it is greeted like a UHP engine and
 * every answer ends in "ok" (errors as "err ..."); without (match) commands other
 * than attach are ignored silently and only GameStrings are sent.
 */
#ifndef BRIDGE_SPECTATE_H
#define BRIDGE_SPECTATE_H

#include <stddef.h>

struct bufferevent;
struct event_base;
struct spectate;
struct spectator;

struct spectate_ops {
	/* The GameString of running game n, NULL if there is none (caller frees). */
	char    *(*game_string)(void *arg, unsigned n);
	/* The running game numbered after `after` (0: the first), in increasing
	 * order; 0 when there is none. */
	unsigned (*next_game)(void *arg, unsigned after);
	/* What list says of game n after "game N " (players, ply) into buf. */
	void     (*describe)(void *arg, unsigned n, char *buf, size_t len);
};

struct spectate_limits {
	unsigned max_per_game;     /* spectators attached to one game, 0 = no bound */
	unsigned max_total;        /* spectators of the set, 0 = no bound */
	size_t   max_pending;      /* unread output bytes before a spectator is dropped */
	int      all_by_default;   /* a new spectator follows every game (match) */
	int      answers;          /* greet and answer commands (the daemon) */
	const char *greeting;      /* with answers: the id line's text after "hivebridge vVERSION " */
};

/* A set over ops/arg (both outlive it); the caller owns it (spectate_free). NULL
 * when memory is out. */
struct spectate *spectate_new(struct event_base *base, const struct spectate_ops *ops, void *arg,
			      const struct spectate_limits *l);
/* Frees the set: spectators it owns (spectate_listen's) are closed, the others are
 * unlinked (their commands then say the games are gone). */
void spectate_free(struct spectate *sp);

/* Accepts spectators on "ADDR:PORT" ("[V6]:PORT"; port 0: a free one, reported on
 * stderr as "viewer listening on ADDR:PORT"); the set owns them. -1 with the reason
 * in err. */
int  spectate_listen(struct spectate *sp, const char *spec, char *err, size_t errlen);
/* Closes the listener; owned spectators get until their output is flushed, then
 * done(arg) runs once (at once when there is none). */
void spectate_finish(struct spectate *sp, void (*done)(void *arg), void *arg);

/* A spectator on bev (taken on success) for a daemon session: closed(arg) runs once,
 * from the loop, when the connection ends or is dropped (the caller then frees it
 * with spectator_free). NULL with the reason in err (one sentence for the client) when
 * the set is full or memory is out; bev is still the caller's then. */
struct spectator *spectator_new(struct spectate *sp, struct bufferevent *bev, unsigned log_id,
				void (*closed)(void *arg), void *arg, char *err, size_t errlen);
/* The daemon stops: c reads no more, and its closed callback runs once what it was
 * sent is out (or the connection fails). */
void spectator_finish(struct spectator *c);
/* Unlinks and frees c and its connection; no callback fires afterwards. */
void spectator_free(struct spectator *c);

/* Game n has a new position: its GameString to everyone watching it. */
void spectate_update(struct spectate *sp, unsigned n, const char *gamestring);
/* Game n is over: with answers, its watchers get gamestring (if not NULL) and
 * "over N RESULT REASON" (outcome, if not NULL); all of them are detached. */
void spectate_end(struct spectate *sp, unsigned n, const char *gamestring, const char *outcome);
/* How many spectators are attached to game n (every-game spectators excluded). */
unsigned spectate_count(const struct spectate *sp, unsigned n);

#endif
