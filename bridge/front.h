/*
 * front.h: the front-end interface. A front end speaks one protocol to one client
 * over bufferevents and drives one engine (bridge/engine.h); each protocol's row of
 * the protocol table (bridge/protocol.h) holds its struct front.
 */
#ifndef BRIDGE_FRONT_H
#define BRIDGE_FRONT_H

#include <stddef.h>

struct event_base;
struct bufferevent;
struct engine_profile;
struct config;
struct listener_conf;

struct session_limits {
	size_t   max_line;         /* bytes per input line (or frame), terminator excluded */
	size_t   max_buffer;       /* output bytes queued before input reading pauses */
	unsigned idle_timeout_ms;  /* no game in progress: close after this long without input, 0 = never */
	unsigned game_idle_timeout_ms; /* the same with a game in progress */
	unsigned think_ms;         /* search time when the protocol sets none (0 = 1 s) */
	int      depth;            /* fixed search depth instead, 0 = none */
	int      max_depth;        /* deepest search a client may ask for, 0 = no bound */
	unsigned max_think_ms;     /* longest search or perft a client may ask for, 0 = none */
	void    *shared;           /* the listener's state from front.listener_new, or NULL */
	/* The stdio modes: an engine that cannot start ends the session before it says
	 * anything, with the reason here (the owner frees it), so that the command can
	 * exit 1. NULL: the session reports it to its client in-band and lives on. */
	char   **start_failed;
};

/* Called once when a session ends by itself; the owner then frees it. */
typedef void front_closed_cb(void *arg);

struct front {
	/* A session over in and out (the same one for TCP), taking both, also on
	 * failure; NULL on failure. closed(arg) fires once when the session ends by
	 * itself (the protocol's goodbye, input EOF, an I/O error, an idle time-out);
	 * the owner then frees it. */
	void *(*session_new)(struct event_base *base, struct bufferevent *in,
			     struct bufferevent *out, unsigned id,
			     const struct engine_profile *profile,
			     const struct session_limits *lim, front_closed_cb *closed, void *arg);
	/* Frees everything (the engine first, the game, the bufferevents); safe at any
	 * time, also from the closed callback; no callback fires afterwards. */
	void  (*session_free)(void *session);
	/* Optional: the daemon is stopping (its games were ended already): tell the
	 * client what it has not been told, then end the session once its answers are
	 * out (the closed callback fires). Without it, the session is freed as it is. */
	void  (*session_shutdown)(void *session);
	/* The whole answer to a client refused before any session starts, in the
	 * protocol's own error syntax: why (one ASCII sentence) into buf. Returns its
	 * length (< len), 0 if it does not fit. */
	size_t (*refusal)(char *buf, size_t len, const char *why);
	/* Optional: state every session of one listener shares (remote play's lobby),
	 * made when the listener opens and handed to its sessions as lim->shared. NULL
	 * with the reason in err on failure. */
	void *(*listener_new)(struct event_base *base, const struct config *c,
			      const struct listener_conf *lc, char *err, size_t errlen);
	/* Frees it, after every session of the listener is freed. */
	void  (*listener_free)(void *shared);
	/* Optional: the daemon is stopping: end the listener's games in progress
	 * without a result, for reason, telling their players (before session_shutdown). */
	void  (*listener_shutdown)(void *shared, const char *reason);
};

#endif
