/*
 * engine.h: the one engine interface. Every back end (the built-in core here, and
 * each protocol's adapters/<name>/<name>_back.c) implements struct engine_ops; every
 * front end (each protocol's <name>_front.c, the match referee, check) calls engine_*().
 *
 * Asynchronous: a command returns at once; its result arrives through a callback on
 * the event loop thread. At most one command is outstanding per engine; a front end
 * queues its own commands. The session (front end) owns the canonical game; a back
 * end only mirrors it and never decides legality: engine_go() results are checked by
 * the caller with the core before anyone else sees them.
 */
#ifndef BRIDGE_ENGINE_H
#define BRIDGE_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include "core/game.h"
#include "core/search.h"

struct event_base;
struct engine;
struct engine_profile;

enum engine_status {
	ENGINE_OK = 0,
	ENGINE_INVALID,     /* the engine rejected a move (UHP invalidmove) */
	ENGINE_ERROR,       /* the engine refused the command (UHP err); it is still usable */
	ENGINE_FAILED       /* the engine broke: crash, time-out, garbage, illegal move;
	                       the back end has been torn down and restarts on next use */
};

/* Search limits; zero fields are unset. Clock fields are per colour. */
struct engine_limits {
	int      depth;
	uint64_t nodes;
	uint64_t movetime_ms;
	uint64_t time_ms[2];
	uint64_t inc_ms[2];
	int      moves_to_go;
	int      infinite;         /* until engine_stop() */
	uint64_t max_ms;           /* hard cap from the request, whatever the above say
	                              (0 = none); the built-in engine honours it */
	uint64_t deadline_ms;      /* the client wants the answer this long after
	                              engine_go (0 = no deadline): a back end whose engine
	                              rounds its time or answers late asks it for less
	                              (UHP: whole seconds rounded down, less the time
	                              already spent and the lag it has measured) */
};

/* The time a move may use under l for side (0 white, 1 black), in ms: movetime, else
 * the clock's share (moves_to_go or 30 moves, plus half the increment, at most half
 * the time left); 0 when l sets neither, or is infinite. */
uint64_t engine_limits_budget(const struct engine_limits *l, int side);

/* Result of one command; pointers are valid only during the callback. */
struct engine_result {
	enum engine_status status;
	const char        *message;   /* why, for INVALID/ERROR/FAILED */
	struct hive_move   move;      /* go: the chosen move (legal in the game given to go) */
	const char       **lines;     /* options: output lines, NULL-terminated; else NULL */
};

typedef void engine_done_cb(void *arg, const struct engine_result *r);
/* Intermediate search information (may never be called). */
typedef void engine_info_cb(void *arg, const struct hive_search_info *info);

struct engine_ops {
	const char *name;                                  /* "builtin" or the protocol's */
	/* The back end keeps a timed search's time itself, counted from when its engine
	 * receives the command, plus the profile's command_timeout as the grace before
	 * it fails the engine: a front end's time limit must not stop it (the external
	 * ones: uhp, hub, otep; to UHP, which has no stop, an interrupt is a signal,
	 * and some engines die of it). */
	int         keeps_time;
	/* Starts (spawns/connects); done gets OK once the engine is ready. */
	int  (*start)(struct engine *e, engine_done_cb *done, void *arg);
	/* Searches the given game (the back end syncs its own copy first). */
	int  (*go)(struct engine *e, const struct hive_game *g, const struct engine_limits *l,
		   engine_info_cb *info, engine_done_cb *done, void *arg);
	/* Asks a running go to finish now; its done callback still fires once. */
	void (*stop)(struct engine *e);
	/* Options, answered in bridge/engine_options.h lines: argv = {} (list),
	 * {"get", name}, {"set", name, value}. */
	int  (*options)(struct engine *e, int argc, const char **argv, engine_done_cb *done, void *arg);
	/* Optional (NULL: nothing to forget): a new game starts, so drop what was learnt
	 * (hash tables, histories). Only called while no command is outstanding. */
	void (*reset)(struct engine *e);
	/* Optional (NULL: nothing logged per session): the session number its protocol
	 * lines are logged under (default 0). */
	void (*set_log_id)(struct engine *e, unsigned id);
	/* Tears down at once: no callback fires after this returns; frees e. */
	void (*free)(struct engine *e);
};

struct engine {
	const struct engine_ops *ops;
	struct event_base       *base;
	const struct engine_profile *profile;
	char                     id[128];        /* "id ..." line of info, without "id " */
	char                     caps[128];      /* capability line ("Mosquito;Ladybug;Pillbug") */
	int                      caps_known;     /* caps is the whole truth, even empty (Base only) */
	void                    *priv;           /* back end's state */
};

/* A back end's finished command whose result waits for delivery. Results are always
 * delivered from a deferred event of the back end, never from inside an engine_*
 * call or an I/O callback, so a done callback may free the engine or start the next
 * command. Embedded in the back end's state, zeroed to start. */
struct engine_reply {
	int                   ready;
	engine_done_cb       *done;
	void                 *arg;
	struct engine_result  res;
	char                 *message;   /* owned: res.message */
	char                **lines;     /* owned: res.lines */
};

/* Stores the result of the command that done(arg) waits for: msg is copied and made
 * one printable line (it may quote an engine), lines (NULL-terminated, or NULL) are
 * taken. The back end then activates its deferred event. */
void engine_reply_set(struct engine_reply *r, engine_done_cb *done, void *arg,
		      enum engine_status st, const char *msg, const struct hive_move *move,
		      char **lines);
/* From the deferred event: delivers a waiting result, as the caller's last act (done
 * may free the engine). 1 if there was one, 0 if not. */
int  engine_reply_deliver(struct engine_reply *r);
/* Frees what a reply holds; it may not be delivered afterwards. */
void engine_reply_free(struct engine_reply *r);

/* A failed command's result as a referee records it ("engine crashed: ...",
 * "illegal move: ...", "time forfeit (engine stalled: ...)"), into buf: match's and
 * the lobby's words. */
void engine_failure_reason(const struct engine_result *r, char *buf, size_t len);

/* Creates the back end the profile names; NULL with *cause set (caller frees cause). */
struct engine *engine_new(struct event_base *base, const struct engine_profile *p, char **cause);

static inline int engine_start(struct engine *e, engine_done_cb *done, void *arg)
{ return e->ops->start(e, done, arg); }
static inline int engine_go(struct engine *e, const struct hive_game *g, const struct engine_limits *l,
			    engine_info_cb *info, engine_done_cb *done, void *arg)
{ return e->ops->go(e, g, l, info, done, arg); }
static inline void engine_stop(struct engine *e) { e->ops->stop(e); }
static inline int engine_options(struct engine *e, int argc, const char **argv, engine_done_cb *done, void *arg)
{ return e->ops->options(e, argc, argv, done, arg); }
static inline void engine_reset(struct engine *e) { if (e && e->ops->reset) e->ops->reset(e); }
static inline void engine_set_log_id(struct engine *e, unsigned id)
{ if (e && e->ops->set_log_id) e->ops->set_log_id(e, id); }
static inline void engine_free(struct engine *e) { if (e) e->ops->free(e); }

#endif
