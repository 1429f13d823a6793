/*
 * engine_builtin_int.h: what the built-in back end's two files share
 * (engine_builtin.c the searches and their memory; engine_builtin_options.c the
 * options a client lists, reads and sets). Not for use outside them.
 */
#ifndef BRIDGE_ENGINE_BUILTIN_INT_H
#define BRIDGE_ENGINE_BUILTIN_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "bridge/engine.h"
#include "bridge/engine_builtin.h"
#include "bridge/hash_budget.h"
#include "bridge/search_pool.h"
#include "core/search.h"

#define HASH_MB_MIN     1
#define HASH_MB_MAX     256          /* when the profile does not say (hash_mb_max) */
#define HASH_MB_DEFAULT 16
#define THREADS_MAX     64           /* Threads option; also capped at the pool size */

struct builtin;

/* A Lazy SMP helper: a job and searcher of its own on the main searcher's table. */
struct helper {
	struct pool_job     job;
	struct builtin     *owner;
	struct hive_search *search;       /* in the owner's helpers_mem */
	struct hive_search_limits limits;
};

struct builtin {
	struct engine       e;            /* first: the engine handed out is this struct */
	struct hive_search *search;       /* lives in mem; NULL while unmapped */
	void               *mem;          /* the searcher's mapping and board, mem_size bytes */
	size_t              mem_size;
	size_t              table_mb;     /* taken from the budget while mapped */
	struct hash_budget_entry budget;  /* its part of the budget (held while mapped) */
	size_t              hash_mb;      /* asked for */
	size_t              hash_mb_default;
	size_t              hash_mb_max;  /* the most a client may ask for */
	int                 report;       /* ReportIntermediateBestMoves */
	int                 threads;      /* Threads: asked for (capped at the pool size) */
	int                 threads_default;
	struct helper      *helpers;      /* nhelpers of them, for the running go */
	int                 nhelpers;
	void               *helpers_mem;  /* their searchers: one mapping, helpers_size bytes */
	size_t              helpers_size;
	int                 helpers_cap;  /* searchers the mapping holds */

	/* The go in the pool (the job is the interface's). */
	int                 searching;    /* queued or running: a worker may be in mem */
	struct event       *expire_ev;    /* a queued search's deadline */
	struct event       *idle_ev;      /* the table is given back when this fires */

	/* Search state shared with the worker. */
	struct pool_job     job;          /* its stop flag is the search's (and its helpers') */
	atomic_int          main_done;    /* the main search ended: helpers stop */
	int                 has_deadline;
	int64_t             deadline_ns;  /* now_ns(): the search stops here */
	int64_t             soft_ns;      /* under a clock: no iteration starts after this (0: none) */
	atomic_int          soft_stop;    /* no iteration is to start any more */
	int64_t             iter_end_ns;  /* the worker's: when the last iteration ended (or go) */
	int64_t             iter_len_ns;  /* ... and how long it took (0: none yet) */
	int64_t             late_ns;      /* the loop's: how late answers come (late_note) */
	int64_t             cpu_seen_ns;  /* the search thread's CPU clock when it saw the deadline */
	struct engine_builtin_timing timing;  /* of the last go; the worker's until done */
	struct hive_board  *board;        /* the position searched: at the end of mem, so that an
					   * idle session holds no board of its own */
	struct hive_search_limits limits;

	pthread_mutex_t     lock;         /* guards what follows */
	int                 ended;        /* the search is over (or expired): rc and best */
	int                 rc;
	struct hive_move    best;
	int                 info_ready;
	struct hive_search_info last_info;
};

/* engine_builtin.c: gives the searcher's mapping back to the kernel and its table to
 * the budget (mapped again, at hash_mb, by the next search). */
void table_drop(struct builtin *b);

struct engine_option;

/* engine_builtin_options.c: the option table. */
struct builtin_option {
	const char *name;
	void (*get)(const struct builtin *b, struct engine_option *o);
	int  (*set)(struct builtin *b, const char *value, char *msg, size_t msglen);
};
/* The option named name (any case), or NULL. */
const struct builtin_option *option_find(const char *name);
/* HashMB and Threads, clamped to what b and the pool allow. */
void hash_put(struct builtin *b, long long v);
void threads_put(struct builtin *b, long long v);
/* An options job, answered at once (the interface delivers it). */
int builtin_options_cmd(struct engine *e);

#endif
