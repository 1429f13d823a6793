/*
 * engine_builtin.h: the built-in back end of the engine interface: the core's search
 * on a worker thread, results handed back to the event loop thread.
 *
 * The event base must have been created after evthread_use_pthreads().
 */
#ifndef BRIDGE_ENGINE_BUILTIN_H
#define BRIDGE_ENGINE_BUILTIN_H

#include <stddef.h>
#include <stdint.h>

struct event_base;
struct engine;
struct engine_profile;

/* A built-in engine for profile p (hash_mb and options are read from it); the caller
 * owns the result (engine_free). NULL with the reason in err on failure. */
struct engine *engine_builtin_new(struct event_base *base, const struct engine_profile *p,
				  char *err, size_t errlen);

/* Process-wide budgets, before the first engine: the MB all hash tables may take
 * together (0 = 512; bridge/hash_budget.h), the search threads (0 = online CPUs),
 * and the seconds after a search ended when an engine's table is given back if it
 * has not searched since (0: never; its next search maps a new one). */
void engine_builtin_configure(size_t hash_budget_mb, unsigned search_threads, unsigned idle_s);

struct engine_limits;
#define ENGINE_BUILTIN_BUDGET_MAX_MS (100ULL * 365 * 24 * 3600 * 1000)
/* The limits of a go under l for side (0 white, 1 black), in ms: the hard one (0:
 * none; the search stops there) and *soft (0: none; no iteration starts after it).
 * A movetime is hard and whole. Under a clock, the clock's share (engine_limits_budget)
 * less late (how late answers come, at most half of it) is the target: soft is half of
 * it, hard twice it but at most a quarter of the time left, 50 ms + late before the
 * flag when the time left allows, never 0 (nor with 0 left on a clock: that is out of
 * time, the quickest search; no clock at all is no limit). max_ms and
 * ENGINE_BUILTIN_BUDGET_MAX_MS (100 years: deadlines fit in int64 ns) cap hard; a soft
 * not under hard is none. Pure: the built-in engine's go uses exactly this. */
uint64_t engine_builtin_budget(const struct engine_limits *l, int side, uint64_t late,
			       uint64_t *soft);

/* Where the time of the last go went (for benchmarks), now_ns() (bridge/util.h). */
struct engine_builtin_timing {
	int64_t deadline_ns;     /* the hard limit; 0 when the go had none */
	int64_t soft_ns;         /* under a clock: no iteration started after it; 0: none */
	int64_t started_ns;      /* a worker took the search */
	int64_t stopped_ns;      /* the search saw the deadline passed; 0 if it ended before */
	int64_t searched_ns;     /* the search returned (the loop answers after this) */
	int64_t cpu_ns;          /* the search thread's CPU time from started to searched */
	int64_t cpu_unwind_ns;   /* the search thread's own CPU time from seeing the deadline
	                            to its return (what the scheduler adds is not in it) */
	int64_t late_ns;         /* how late answers came (late_note): late_ns / 1000000 is
	                            engine_builtin_budget's late for this go */
};
/* Whether searches also read their thread's CPU clock for cpu_ns and cpu_unwind_ns
 * (0 otherwise): a system call each, so off unless a benchmark turns it on. */
void engine_builtin_timing_cpu(int on);
/* Fills *t for e's last go; -1 if e is not built-in or a command is outstanding. */
int engine_builtin_timing(const struct engine *e, struct engine_builtin_timing *t);

#endif
