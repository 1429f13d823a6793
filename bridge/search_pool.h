/*
 * search_pool.h: the process's search threads. A fixed number of workers take jobs
 * (a search, a perft) from one FIFO queue, so no number of clients adds threads, and
 * each session has at most one job queued or running, which makes the queue fair
 * across sessions. A job finishes by itself (its run function signals its owner,
 * typically with event_active on the owner's loop); the owner may take it back at
 * any time with search_pool_cancel.
 */
#ifndef BRIDGE_SEARCH_POOL_H
#define BRIDGE_SEARCH_POOL_H

#include <stdatomic.h>
#include <stdint.h>
#include <sys/queue.h>

#include "core/board.h"

struct pool_job;
/* Runs on a worker; polls job->stop and returns soon after it is set. */
typedef void pool_run_fn(struct pool_job *job);

/* Embedded in its owner; zero it, set run, then submit. */
struct pool_job {
	pool_run_fn     *run;
	atomic_int       stop;       /* set by search_pool_cancel (or the owner) */
	int              state;      /* the pool's: idle, queued, running */
	TAILQ_ENTRY(pool_job) queue; /* the pool's, while queued */
};

/* Worker count for the process (before the first job; 0 = online CPUs). */
void search_pool_configure(unsigned threads);
/* The worker count in use or to be used. */
unsigned search_pool_threads(void);
/* Queues job (clears its stop flag first); the workers start with the first job.
 * 0, or -1 when no worker can be started or the job is already in the pool. */
int  search_pool_submit(struct pool_job *job);
/* Takes job back: a queued job never runs; a running one is told to stop and waited
 * for (the run functions poll every few thousand nodes: well under a millisecond).
 * Afterwards run is not running and will not run. Safe on a job never submitted. */
void search_pool_cancel(struct pool_job *job);
/* Takes job out of the queue if no worker has taken it yet: 1 if it was queued (it
 * will not run), 0 if it is running or idle (nothing done). */
int  search_pool_unqueue(struct pool_job *job);
/* A queued job whose time is up: takes it out if every worker is busy with others
 * (1: it will not run); -1 if a free worker is about to take it (a thread not yet
 * scheduled is not a busy pool); 0 if it is not queued. */
int  search_pool_expire(struct pool_job *job);
/* A perft on the pool (the fronts' perft command): perft(d) of board for d = 0..depth,
 * each count and its time, the core's hive_perft stopped by the job's stop flag or the
 * deadline. The owner fills the request, search_pool_perft submits it, and done(arg)
 * runs on the worker when it ends (typically event_active on the owner's loop); the
 * owner then reads the result and prints it in its protocol's syntax. */
#define PERFT_JOB_MAX_DEPTH 12
enum perft_end { PERFT_DONE, PERFT_DEADLINE, PERFT_TOO_BIG, PERFT_STOPPED };
struct perft_job {
	struct pool_job    job;          /* first; search_pool_perft sets run */
	/* The request. */
	struct hive_board  board;
	int                depth;        /* 0..PERFT_JOB_MAX_DEPTH */
	uint64_t           max_nodes;    /* depth d > 1 is refused once perft(d-1) passed it (0: none) */
	int64_t            deadline_us;  /* now_us() at which it stops (0: none) */
	void             (*done)(void *arg);
	void              *arg;
	/* The result, written by the worker before done. */
	int                reached;      /* depths 0..reached-1 are counted */
	enum perft_end     end;          /* why it ended */
	uint64_t           count[PERFT_JOB_MAX_DEPTH + 1];
	uint64_t           us[PERFT_JOB_MAX_DEPTH + 1];
};
/* Submits p (search_pool_submit's return); search_pool_cancel(&p->job) takes it back. */
int  search_pool_perft(struct perft_job *p);

/* Jobs waiting for a worker (for tests and figures). */
unsigned search_pool_queued(void);
/* Jobs queued or running; lock-free, so a hint that may be a moment late. */
unsigned search_pool_busy(void);

#endif
