/*
 * engine.h: the one engine interface. Every back end (the built-in core here, and
 * each protocol's adapters/<name>/<name>_back.c) implements struct engine_ops; every
 * front end (each protocol's <name>_front.c, the match referee, check) calls engine_*().
 *
 * Asynchronous: a command returns at once; its result arrives through a callback on
 * the event loop thread. The interface owns the command (the job): at most one is
 * outstanding per engine (a front end queues its own), engine_go copies the game, and
 * the result is delivered from the engine's one deferred event, never from inside an
 * engine_* call or an I/O callback, so a done callback may free the engine or start
 * the next command. The engine's move is checked with the core here, once, before
 * done: an illegal one is an ENGINE_FAILED result, never a move. Back ends only send
 * commands and read replies (the engine_job_* calls below are theirs).
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
 * the time left); 0 when l sets neither, or is infinite. The one formula of a move's
 * share of a clock: every back end's time comes from it. */
uint64_t engine_limits_budget(const struct engine_limits *l, int side);

/* Result of one command; pointers are valid only during the callback, and r itself
 * (the engine's own) only until the callback frees the engine: read it first. */
struct engine_result {
	enum engine_status status;
	const char        *message;   /* why, for INVALID/ERROR/FAILED */
	struct hive_move   move;      /* go, ENGINE_OK: the engine's move, checked with the core:
	                                 legal in the game given to go, as the core generates it
	                                 (source filled): play it as it is */
	const char       **lines;     /* options: output lines, NULL-terminated; else NULL */
};

typedef void engine_done_cb(void *arg, const struct engine_result *r);
/* Intermediate search information (may never be called; must not free the engine). */
typedef void engine_info_cb(void *arg, const struct hive_search_info *info);

enum engine_job_kind { ENGINE_JOB_NONE, ENGINE_JOB_START, ENGINE_JOB_GO, ENGINE_JOB_OPTIONS };

/* The outstanding command, as the interface keeps it; back ends read it. */
struct engine_job {
	enum engine_job_kind kind;
	engine_done_cb      *done;
	engine_info_cb      *info;        /* go */
	void                *arg;
	struct hive_game     game;        /* go: the interface's copy of the game to search */
	struct engine_limits limits;      /* go */
	int64_t              go_ms;       /* go: when it was asked (now_ms), for its deadline */
	int                  stop_requested;
	int                  argc;        /* options: 0 list, 2 get, 3 set */
	char                *name;        /* options: get and set */
	char                *value;       /* options: set */
	int                  has_move;    /* go: move is the engine's, checked (engine_job_move) */
	struct hive_move     move;
};

struct engine_ops {
	const char *name;                                  /* "builtin" or the protocol's */
	/* The back end keeps a timed search's time itself, counted from when its engine
	 * receives the command, plus the profile's command_timeout as the grace before
	 * it fails the engine: a front end's time limit must not stop it (the external
	 * ones: uhp, hub, otep; to UHP, which has no stop, an interrupt is a signal,
	 * and some engines die of it). */
	int         keeps_time;
	/* Optional, each: the job (e->job) was taken; begin it (or leave it to advance).
	 * -1 refuses it (the engine_* call then fails and the job is dropped). */
	int  (*start)(struct engine *e);
	int  (*go)(struct engine *e);
	int  (*options)(struct engine *e);
	/* The engine's event ran with the job unfinished (engine_kick): its next step. */
	void (*advance)(struct engine *e);
	/* Optional: the job ended (engine_job_finish): forget the back end's part of it. */
	void (*ending)(struct engine *e);
	/* Optional: engine_stop on a running go (job.stop_requested is set). */
	void (*stop)(struct engine *e);
	/* Optional (NULL: nothing to forget): a new game starts, so drop what was learnt
	 * (hash tables, histories). Only called while no command is outstanding. */
	void (*reset)(struct engine *e);
	/* Optional (NULL: nothing logged per session): the session number its protocol
	 * lines are logged under (default 0). */
	void (*set_log_id)(struct engine *e, unsigned id);
	/* Tears down at once and frees e (calling engine_release on it once no thread
	 * of its own can reach it any more); no callback fires after this returns. */
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

	/* The interface's own (engine.c). */
	struct engine_job        job;
	int                      finished;       /* the job's result waits for the event */
	struct engine_result     res;
	char                    *message;        /* owned: res.message */
	char                   **lines;          /* owned: res.lines */
	struct hive_search_info *infos;          /* go: infos waiting for the event, in order */
	size_t                   ninfos, infos_cap;
	struct event            *ev;             /* delivers, else advances the job */
};

/* Infos of one go kept for the event at most (more are dropped). */
#define ENGINE_INFO_MAX 64

/* Creates the back end the profile names; NULL with the reason in err. */
struct engine *engine_new(struct event_base *base, const struct engine_profile *p,
			  char *err, size_t errlen);

/* The commands. Each returns 0 (done(arg) then fires once, from the engine's event)
 * or -1 (nothing started): another command is outstanding or its result undelivered,
 * a malformed request, or the back end refused. */
/* Starts (spawns/connects); done gets OK once the engine is ready. */
int  engine_start(struct engine *e, engine_done_cb *done, void *arg);
/* Searches g (copied) under l; info (may be NULL) gets the search's progress. */
int  engine_go(struct engine *e, const struct hive_game *g, const struct engine_limits *l,
	       engine_info_cb *info, engine_done_cb *done, void *arg);
/* Options, answered in bridge/engine_options.h lines: argv = {} (list),
 * {"get", name}, {"set", name, value}. */
int  engine_options(struct engine *e, int argc, const char **argv, engine_done_cb *done, void *arg);
/* Asks a running go to finish now; its done callback still fires once. */
void engine_stop(struct engine *e);
/* 1 while a command is outstanding or its result undelivered. */
int  engine_busy(const struct engine *e);
static inline void engine_reset(struct engine *e)
{ if (e && e->ops->reset && !engine_busy(e)) e->ops->reset(e); }
static inline void engine_set_log_id(struct engine *e, unsigned id)
{ if (e && e->ops->set_log_id) e->ops->set_log_id(e, id); }
/* Tears down at once: no callback fires after this returns; frees e. */
void engine_free(struct engine *e);

/* A failed command's result as a referee records it ("engine crashed: ...",
 * "illegal move: ...", "time forfeit (engine stalled: ...)"), into buf: match's and
 * the lobby's words. */
void engine_failure_reason(const struct engine_result *r, char *buf, size_t len);

/* For back ends. */
/* Readies the interface's part of e (zeroed by the caller) for ops, base, profile
 * and priv: -1 with the reason in err when memory is out (then engine_release). */
int  engine_init(struct engine *e, struct event_base *base, const struct engine_profile *p,
		 const struct engine_ops *ops, void *priv, char *err, size_t errlen);
/* Frees what engine_init made and the job; safe twice and on a half-made e. */
void engine_release(struct engine *e);
/* The job the back end is working on: NONE once it has finished (its result waits). */
static inline enum engine_job_kind engine_job_kind(const struct engine *e)
{ return e->finished ? ENGINE_JOB_NONE : e->job.kind; }
/* Runs the engine's event soon: the back end's advance, or the delivery. Safe from a
 * worker thread (the base was made after evthread_use_pthreads()). */
void engine_kick(struct engine *e);
/* The engine's move for the go job, as a core move m (text NULL) or as the MoveString
 * it wrote (m NULL), checked with the core against the job's game: 0 when legal (the
 * checked move is kept for engine_job_finish), else -1 with why in err ("illegal move
 * \"wQ\": ...", "unreadable move \"x\": ...", "illegal move: ..."); the back end then
 * fails its engine, with that reason or its own words. */
int  engine_job_move(struct engine *e, const struct hive_move *m, const char *text,
		     char *err, size_t errlen);
/* Ends the job with a result: msg is copied and made one printable line (it may
 * quote an engine), lines (NULL-terminated, or NULL) are taken. A go's ENGINE_OK
 * carries its checked move, and is ENGINE_FAILED without one. The event delivers it
 * (an OK go's infos first; others drop theirs). Nothing when no job is outstanding
 * (lines are freed). */
void engine_job_finish(struct engine *e, enum engine_status st, const char *msg, char **lines);
/* Finishes an options job whose option the engine does not have. */
void engine_job_unknown_option(struct engine *e);
/* Queues a go's search information for the event (latest: it replaces those queued,
 * else it is added, up to ENGINE_INFO_MAX); nothing when no go or no info callback. */
void engine_job_info(struct engine *e, const struct hive_search_info *info, int latest);

#endif
