/*
 * engine_builtin.c: the built-in back end. go copies the board and queues the core's
 * search on the process's search pool (search_pool.h); the worker kicks the engine's
 * event (engine_kick), whose advance collects the result on the event loop thread,
 * so a long search never blocks the loop; the interface checks the move and
 * delivers it. The stop flag is the pool job's
 * atomic; the deadline (request time + limit) is checked in the search's stop
 * callback against the bridge's clock (now_ns). A job that waited past it still searches depth 1
 * (well under a millisecond), so every go answers with a searched move.
 *
 * Under a clock (no movetime) the clock's share (engine_limits_budget) is a target,
 * not a wall: an iteration that ends past half of it starts no other (the next one
 * costs about as much as all before it, so it would rarely finish), and the hard
 * deadline, twice the target but at most a quarter of the time left, cuts one that
 * runs long. A movetime (a client's time for this move) is used whole: it asked for it.
 *
 * Threads (Lazy SMP): a go with Threads = N queues the main search and N - 1 helper
 * jobs on the same pool, each a searcher of its own (one more mapping, no table)
 * sharing the main one's table. N is capped at the pool's size. Helpers are ordinary
 * FIFO jobs: they take free slots, a helper still queued when the main search ends
 * never runs, and the main search's result is the answer. The main job stops and
 * takes back its helpers before it signals done; stop and free reach all of them.
 *
 * Memory: a session's searcher (state, frames, table) is one anonymous mapping,
 * made when a search first needs it and unmapped on reset (newgame) and free, so an
 * idle session holds no table and forgetting never touches memory. Its table comes
 * out of the process-wide budget (bridge/hash_budget.h): when it is short, the
 * tables of sessions not searching are taken back first, least recently searched
 * first; only when what is left belongs to running searches is the new table
 * smaller, and `options` shows the size really in use. With an idle timeout (engine_builtin_configure), a table no search
 * has used for that long is given back too: the pages a search touched stay resident,
 * and a thousand idle sessions of a protocol with no newgame would keep them.
 *
 * Options (HashMB, Threads, ReportIntermediateBestMoves) are engine_builtin_options.c's:
 * the option table, its setters' clamps and the options command; what both files
 * share is engine_builtin_int.h.
 */
#include <sys/mman.h>
#include <event2/event.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/engine_builtin.h"
#include "bridge/engine_builtin_int.h"
#include "bridge/version.h"
#include "bridge/hash_budget.h"
#include "bridge/log.h"
#include "bridge/search_pool.h"
#include "bridge/util.h"
#include "core/errbuf.h"
#include "core/search.h"

/* A queued search whose time is up gets the busy error, but never sooner than this:
 * a search a worker takes in time plays at least depth 1 (time 00:00:00 included). */
#define EXPIRE_MIN_MS   50
/* Clock play: the hard deadline is CLOCK_HARD_X times the target, at most a
 * CLOCK_HARD_DIV-th of the time left, and never later than CLOCK_RESERVE_MS before
 * the flag (the scheduler may be late to wake us). */
#define CLOCK_HARD_X     2
#define CLOCK_HARD_DIV   4
#define CLOCK_RESERVE_MS 50
#define BOARD_SLOT      sizeof(struct hive_board)   /* after the searcher, in mem */
#define INLINE_MAX_MOVES 100        /* a depth-1 search on the loop: ~0.35 ms at most */

/* Why a go produced no move (b->rc). */
#define RC_EXPIRED   (-2)     /* still queued when its time was up */

static const struct engine_ops builtin_ops;

/* engine_builtin_timing_cpu: whether searches read their thread's CPU clock. */
static atomic_int timing_cpu;

void engine_builtin_timing_cpu(int on)
{
	atomic_store(&timing_cpu, on);
}

/* The search thread's CPU clock (engine_builtin_timing_cpu); wall time is now_ns(). */
static int64_t thread_cpu_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* The main search's stop poll (its worker thread): it also notes when the deadline
 * was seen passed, by both clocks (engine_builtin_timing). */
static int search_should_stop(void *arg)
{
	struct builtin *b = arg;
	if (atomic_load(&b->job.stop) || atomic_load(&b->soft_stop))
		return 1;
	if (!b->has_deadline)
		return 0;
	int64_t now = now_ns();
	if (now < b->deadline_ns)
		return 0;
	if (!b->timing.stopped_ns) {
		b->timing.stopped_ns = now;
		if (atomic_load_explicit(&timing_cpu, memory_order_relaxed))
			b->cpu_seen_ns = thread_cpu_ns();
	}
	return 1;
}

static int helper_should_stop(void *arg)
{
	struct helper *h = arg;
	struct builtin *b = h->owner;
	return atomic_load(&h->job.stop) || atomic_load(&b->main_done) ||
		atomic_load(&b->job.stop) || atomic_load(&b->soft_stop) ||
		(b->has_deadline && now_ns() >= b->deadline_ns);
}

/* A helper job: searches until the main search ends; its result is not used. */
static void helper_job(struct pool_job *job)
{
	struct helper *h = (struct helper *)((char *)job - offsetof(struct helper, job));
	struct hive_move m;

	if (!helper_should_stop(h))
		hive_search_run(h->search, h->owner->board, &h->limits, &m, NULL);
}

/* Takes every helper back: stopped if running, never run if queued (any thread). */
static void helpers_cancel(struct builtin *b)
{
	for (int i = 0; i < b->nhelpers; i++)
		search_pool_cancel(&b->helpers[i].job);
}

static void search_iteration(void *arg, const struct hive_search_info *info)
{
	struct builtin *b = arg;
	/* Under a clock, no iteration starts past the soft limit, nor one that would
	 * probably end past the hard one: the next costs about this one times the growth
	 * from the last to this (2 to 8). The search polls stop right after this. */
	if (b->soft_ns) {
		int64_t now = now_ns(), len = now - b->iter_end_ns;
		int64_t grow = b->iter_len_ns > 0 ? len / b->iter_len_ns : 2;
		grow = grow < 2 ? 2 : grow > 8 ? 8 : grow;
		if (now >= b->soft_ns || now + len * grow > b->deadline_ns)
			atomic_store(&b->soft_stop, 1);
		b->iter_end_ns = now;
		b->iter_len_ns = len;
	}
	pthread_mutex_lock(&b->lock);
	b->last_info = *info;
	b->info_ready = 1;
	pthread_mutex_unlock(&b->lock);
	engine_kick(&b->e);
}

/* The main job (a pool worker); its helpers are back before it signals done. */
static void search_job(struct pool_job *job)
{
	struct builtin *b = (struct builtin *)((char *)job - offsetof(struct builtin, job));
	struct hive_move best = { HIVE_NO_PIECE, HIVE_NOWHERE, HIVE_NOWHERE };
	int rc;

	/* A thread's CPU clock is a system call (about 1 us here): read for benchmarks only. */
	int cpu = atomic_load_explicit(&timing_cpu, memory_order_relaxed);
	int64_t cpu0 = cpu ? thread_cpu_ns() : 0;
	b->timing.started_ns = now_ns();
	rc = hive_search_run(b->search, b->board, &b->limits, &best, NULL);
	b->timing.searched_ns = now_ns();
	if (cpu) {
		int64_t cpu1 = thread_cpu_ns();
		b->timing.cpu_ns = cpu1 - cpu0;
		if (b->timing.stopped_ns)
			b->timing.cpu_unwind_ns = cpu1 - b->cpu_seen_ns;
	}
	atomic_store(&b->main_done, 1);
	helpers_cancel(b);
	pthread_mutex_lock(&b->lock);
	b->rc = rc;
	b->best = best;
	b->ended = 1;
	pthread_mutex_unlock(&b->lock);
	engine_kick(&b->e);
}

/* Forgets b's searcher, whose table the budget took back (its MB given back). */
static void table_forget(struct builtin *b)
{
	munmap(b->mem, b->mem_size);
	b->mem = NULL;
	b->search = NULL;
	b->board = NULL;
	b->mem_size = 0;
	b->table_mb = 0;
}

/* Gives the searcher's mapping back to the kernel and its table to the budget. */
void table_drop(struct builtin *b)
{
	if (!b->mem)
		return;
	hash_budget_give(&b->budget);
	table_forget(b);
}

/* Gives the helpers' searchers back (no helper job may be in the pool). */
static void helpers_drop(struct builtin *b)
{
	if (b->helpers_mem)
		munmap(b->helpers_mem, b->helpers_size);
	b->helpers_mem = NULL;
	b->helpers_size = 0;
	b->helpers_cap = 0;
}

static void helpers_drop(struct builtin *b);

/* hash_budget: b's table may be taken back while no search is queued or running (no
 * worker is in the mapping then). */
static int table_idle(struct hash_budget_entry *e)
{
	struct builtin *b = (struct builtin *)((char *)e - offsetof(struct builtin, budget));
	return !b->searching;
}

/* hash_budget: b's table was taken back for another's (the budget's lock held). */
static void table_taken(struct hash_budget_entry *e)
{
	struct builtin *b = (struct builtin *)((char *)e - offsetof(struct builtin, budget));

	log_note(0, "builtin: took back an idle %zu MB hash table and %d helper searchers "
		 "(hash_budget_mb)", b->table_mb, b->helpers_cap);
	table_forget(b);
	helpers_drop(b);      /* no go outstanding: no helper job is in the pool */
}

/* Threads this go may use: the option, capped at the pool. */
static int threads_usable(const struct builtin *b)
{
	unsigned pool = search_pool_threads();
	return b->threads > (int)pool ? (int)pool : b->threads;
}

/* Readies n - 1 helpers on the main searcher (mapped, laid out afresh: the table may
 * have moved). On no memory the search runs with fewer (logged). */
static void helpers_get(struct builtin *b, int n)
{
	size_t one = hive_search_helper_size();

	b->nhelpers = 0;
	if (n <= 1)
		return;
	if (!b->helpers && !(b->helpers = calloc(THREADS_MAX - 1, sizeof *b->helpers)))
		goto nomem;
	if (b->helpers_cap < n - 1) {
		helpers_drop(b);
		b->helpers_size = one * (size_t)(n - 1);
		b->helpers_mem = mmap(NULL, b->helpers_size, PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (b->helpers_mem == MAP_FAILED) {
			b->helpers_mem = NULL;
			b->helpers_size = 0;
			goto nomem;
		}
		b->helpers_cap = n - 1;
	}
	for (int i = 0; i < n - 1; i++) {
		struct helper *h = &b->helpers[i];
		h->owner = b;
		h->search = hive_search_init_helper((char *)b->helpers_mem + (size_t)i * one, one,
						    b->search);
		h->limits = b->limits;
		h->limits.stop = helper_should_stop;
		h->limits.stop_arg = h;
		h->limits.on_iteration = NULL;
		h->limits.iteration_arg = NULL;
		h->limits.helper = i + 1;
		h->job.run = helper_job;
	}
	b->nhelpers = n - 1;
	return;
nomem:
	log_note(0, "builtin: no memory for %d helper threads; searching with one", n - 1);
}

/* Maps the searcher if it is not: hash_mb, taking idle tables back if the budget is
 * short, else the largest half of it the budget still holds. -1 with msg when not
 * even 1 MB is left, or on no memory. */
static int table_get(struct builtin *b, char *msg, size_t msglen)
{
	size_t mb;

	if (b->mem) {
		/* The most recently searched: the last to be taken back. */
		hash_budget_touch(&b->budget);
		return 0;
	}
	if (!(mb = hash_budget_take(&b->budget, b->hash_mb, HASH_MB_MIN))) {
		snprintf(msg, msglen, "No memory left for a hash table: the server's %zu MB "
			 "(hash_budget_mb) are in use; try again later.", hash_budget_figures().total_mb);
		return -1;
	}
	if (mb < b->hash_mb)
		log_note(0, "builtin: hash table of %zu MB instead of %zu (hash_budget_mb)", mb, b->hash_mb);
	size_t search_size = hive_search_size(mb << 20);
	b->mem_size = search_size + BOARD_SLOT;
	/* Untouched pages cost nothing: only what the search reaches becomes resident. */
	b->mem = mmap(NULL, b->mem_size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (b->mem == MAP_FAILED) {
		b->mem = NULL;
		b->mem_size = 0;
		hash_budget_give(&b->budget);
		snprintf(msg, msglen, "Unable to allocate %zu MB for the hash table.", mb);
		return -1;
	}
	b->table_mb = mb;
	b->search = hive_search_init(b->mem, search_size);
	b->board = (struct hive_board *)((char *)b->mem + search_size);
	hash_budget_hold(&b->budget);
	return 0;
}

void engine_builtin_configure(size_t hash_budget_mb, unsigned search_threads, unsigned idle_s)
{
	hash_budget_configure(hash_budget_mb, idle_s);
	search_pool_configure(search_threads);
}

/* Hands the latest iteration to the interface, if any is waiting. */
static void deliver_info(struct builtin *b)
{
	struct hive_search_info info;
	int ready;

	pthread_mutex_lock(&b->lock);
	ready = b->info_ready;
	info = b->last_info;
	b->info_ready = 0;
	pthread_mutex_unlock(&b->lock);
	if (ready && b->report)
		engine_job_info(&b->e, &info, 1);
}

/* A search's deadline passed: if it is still queued because every worker is busy
 * with others, it is answered now with the busy error rather than late. A worker
 * merely not yet scheduled is no busy pool; a running search stops by itself. */
static void expire_event(evutil_socket_t fd, short what, void *arg)
{
	struct builtin *b = arg;

	if (!b->searching)
		return;
	int expired = search_pool_expire(&b->job);
	if (expired < 0) {
		/* A free worker takes it any moment: look again shortly. */
		struct timeval tv = { 0, 10 * 1000 };
		evtimer_add(b->expire_ev, &tv);
		return;
	}
	if (!expired)
		return;
	pthread_mutex_lock(&b->lock);
	b->rc = RC_EXPIRED;
	b->ended = 1;
	pthread_mutex_unlock(&b->lock);
	engine_kick(&b->e);
}

/* Notes how late this answer is after the search ended or should have (loop thread):
 * the estimate follows a peak at once and lets it go by a quarter a move. */
static void late_note(struct builtin *b)
{
	if (!b->has_deadline || !b->timing.searched_ns)
		return;
	int64_t end = b->timing.searched_ns < b->deadline_ns ? b->timing.searched_ns : b->deadline_ns;
	int64_t late = now_ns() - end;
	b->late_ns -= b->late_ns / 4;
	if (late > b->late_ns)
		b->late_ns = late;
}

/* The table went unused for the idle timeout: give it back (loop thread; no search
 * is queued or running, so no worker is in the mapping). */
static void idle_event(evutil_socket_t fd, short what, void *arg)
{
	struct builtin *b = arg;
	if (b->searching || (!b->mem && !b->helpers_mem))
		return;
	log_note(0, "builtin: gave back a %zu MB hash table and %d helper searchers unused for "
		 "%u s (hash_idle_timeout)", b->table_mb, b->helpers_cap, hash_budget_figures().idle_s);
	table_drop(b);
	helpers_drop(b);
}

/* Counts the idle timeout from the end of a search (commands other than go do not
 * use the table, so they do not keep it). */
static void idle_arm(struct builtin *b)
{
	unsigned idle_s = hash_budget_figures().idle_s;

	if ((b->mem || b->helpers_mem) && idle_s) {
		struct timeval tv = { (time_t)idle_s, 0 };
		evtimer_add(b->idle_ev, &tv);
	}
}

/* The interface's event: the latest info, and the go's result once the search is
 * over (the loop thread; the worker has left or is leaving the job). */
static void builtin_advance(struct engine *e)
{
	struct builtin *b = (struct builtin *)e;
	char err[256];
	int ended;

	if (!b->searching)
		return;
	pthread_mutex_lock(&b->lock);
	ended = b->ended;
	pthread_mutex_unlock(&b->lock);
	if (!ended) {
		deliver_info(b);
		return;
	}
	evtimer_del(b->expire_ev);
	/* The worker signalled just before leaving the job: wait for it to leave. */
	search_pool_cancel(&b->job);
	helpers_cancel(b);
	b->searching = 0;
	late_note(b);
	deliver_info(b);
	if (b->rc == RC_EXPIRED)
		engine_job_finish(e, ENGINE_ERROR, "Every search thread stayed busy past this "
				  "request's time limit; try again.", NULL);
	else if (b->rc < 0)
		engine_job_finish(e, ENGINE_ERROR, "The game is over.", NULL);
	else if (engine_job_move(e, &b->best, NULL, err, sizeof err) < 0)
		/* Cannot happen with a sound core; never hand out an illegal move. */
		engine_job_finish(e, ENGINE_FAILED, "the search returned an illegal move", NULL);
	else
		engine_job_finish(e, ENGINE_OK, NULL, NULL);
	idle_arm(b);
}

static int builtin_start(struct engine *e)
{
	engine_job_finish(e, ENGINE_OK, NULL, NULL);
	return 0;
}

uint64_t engine_builtin_budget(const struct engine_limits *l, int side, uint64_t late,
			       uint64_t *soft)
{
	uint64_t target = engine_limits_budget(l, side), hard;
	/* A clock set (either side's time, an increment) with none left for side: its
	 * flag fell (fronts pass 1 ms then); the quickest search, never an unlimited one. */
	if (!target && !l->infinite && !l->movetime_ms &&
	    (l->time_ms[!side] || l->inc_ms[0] || l->inc_ms[1]))
		target = 1;
	hard = target;
	*soft = 0;
	if (target && !l->movetime_ms) {
		/* On a loaded machine the clock also runs while the scheduler keeps us
		 * waiting: what it added to the last answers comes off (at most half). */
		target -= late < target / 2 ? late : target / 2;
		uint64_t left = l->time_ms[side];
		hard = target * CLOCK_HARD_X;
		if (hard > left / CLOCK_HARD_DIV)
			hard = left / CLOCK_HARD_DIV > target ? left / CLOCK_HARD_DIV : target;
		/* The answer comes about late after the hard limit: keep the reserve before
		 * the flag. With too little left for that, cut early (more lateness never
		 * makes the limit later). */
		uint64_t cap = left > late && left - late > 2 * CLOCK_RESERVE_MS ?
			left - CLOCK_RESERVE_MS - late :
			left / CLOCK_HARD_DIV < CLOCK_RESERVE_MS ? left / CLOCK_HARD_DIV : CLOCK_RESERVE_MS;
		if (hard > cap)
			hard = cap;
		if (!hard)
			hard = 1;
		*soft = (target < hard ? target : hard) / 2;
	}
	if (l->max_ms && (!hard || hard > l->max_ms))
		hard = l->max_ms;
	/* A protocol may ask for centuries: the deadline in ns must not overflow. */
	if (hard > ENGINE_BUILTIN_BUDGET_MAX_MS)
		hard = ENGINE_BUILTIN_BUDGET_MAX_MS;
	if (*soft >= hard)
		*soft = 0;
	return hard;
}

static int builtin_go(struct engine *e)
{
	struct builtin *b = (struct builtin *)e;
	const struct hive_game *g = &e->job.game;
	const struct engine_limits *l = &e->job.limits;
	uint64_t budget, soft;
	char msg[256];

	evtimer_del(b->idle_ev);
	/* Written by the worker from the submit on; read by the loop once done. */
	memset(&b->timing, 0, sizeof b->timing);
	if (table_get(b, msg, sizeof msg) < 0) {
		engine_job_finish(e, ENGINE_ERROR, msg, NULL);
		return 0;
	}
	*b->board = g->board;
	memset(&b->limits, 0, sizeof b->limits);
	b->limits.depth = l->depth > 0 ? (l->depth < HIVE_MAX_PLY ? l->depth : HIVE_MAX_PLY) : 0;
	b->limits.nodes = l->nodes;
	b->limits.stop = search_should_stop;
	b->limits.stop_arg = b;
	b->limits.on_iteration = search_iteration;
	b->limits.iteration_arg = b;
	budget = engine_builtin_budget(l, hive_side_to_move(&g->board),
				       (uint64_t)(b->late_ns / 1000000), &soft);
	int64_t now = now_ns();
	b->has_deadline = budget > 0;
	b->deadline_ns = now + (int64_t)budget * 1000000LL;
	b->soft_ns = soft ? now + (int64_t)soft * 1000000LL : 0;
	atomic_store(&b->soft_stop, 0);
	b->iter_end_ns = now;
	b->iter_len_ns = 0;
	b->timing.deadline_ns = b->has_deadline ? b->deadline_ns : 0;
	b->timing.soft_ns = b->soft_ns;
	b->timing.late_ns = b->late_ns;
	b->info_ready = 0;
	b->ended = 0;
	b->searching = 1;
	b->job.run = search_job;
	atomic_store(&b->main_done, 0);
	helpers_get(b, threads_usable(b));
	if (b->has_deadline) {
		uint64_t ms = budget < EXPIRE_MIN_MS ? EXPIRE_MIN_MS : budget;
		struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 };
		evtimer_add(b->expire_ev, &tv);
	}
	/* Depth 1 on one thread (a listener's depth = 1 for quick bots) costs less than
	 * handing it to a worker and waking the loop back: it runs here, and its
	 * result is delivered from the engine's event as a worker's would be. Only with few root
	 * moves, so that it holds the loop briefly (up to 3.4 us a move was measured). */
	if (b->limits.depth == 1 && b->nhelpers == 0 &&
	    hive_board_count_moves(b->board) <= INLINE_MAX_MOVES) {
		atomic_store(&b->job.stop, 0);
		search_job(&b->job);
		return 0;
	}
	if (search_pool_submit(&b->job) < 0) {
		evtimer_del(b->expire_ev);
		b->nhelpers = 0;
		b->searching = 0;
		idle_arm(b);
		log_note(0, "builtin: no search thread");
		return -1;
	}
	/* After the main job, so that a busy pool serves the main search first. */
	for (int i = 0; i < b->nhelpers; i++)
		search_pool_submit(&b->helpers[i].job);
	return 0;
}

static void builtin_stop(struct engine *e)
{
	struct builtin *b = (struct builtin *)e;
	if (b->searching)
		atomic_store(&b->job.stop, 1);
}

static void builtin_free(struct engine *e)
{
	struct builtin *b = (struct builtin *)e;
	if (!b)
		return;
	/* Stops a running search (within the search's poll interval) or unqueues it; a
	 * main search taken back while queued leaves its helpers to take back too. */
	search_pool_cancel(&b->job);
	helpers_cancel(b);
	/* No worker reaches the engine now: its event may go (event_free also takes a
	 * pending activation off the queue: no callback after). */
	engine_release(&b->e);
	util_event_free(&b->expire_ev);
	util_event_free(&b->idle_ev);
	table_drop(b);
	helpers_drop(b);
	free(b->helpers);
	pthread_mutex_destroy(&b->lock);
	free(b);
}

static void builtin_reset(struct engine *e)
{
	struct builtin *b = (struct builtin *)e;
	/* Forgetting is giving the memory back, never touching it. */
	if (!b->searching) {
		evtimer_del(b->idle_ev);
		table_drop(b);
		helpers_drop(b);
	}
}

int engine_builtin_timing(const struct engine *e, struct engine_builtin_timing *t)
{
	const struct builtin *b = (const struct builtin *)e;
	if (!e || e->ops != &builtin_ops || engine_busy(e))
		return -1;
	*t = b->timing;
	return 0;
}

static const struct engine_ops builtin_ops = {
	.name = "builtin",
	.start = builtin_start,
	.go = builtin_go,
	.options = builtin_options_cmd,
	.advance = builtin_advance,
	.stop = builtin_stop,
	.reset = builtin_reset,
	.free = builtin_free,
};

struct engine *engine_builtin_new(struct event_base *base, const struct engine_profile *p,
				  char *err, size_t errlen)
{
	struct builtin *b = calloc(1, sizeof *b);
	char msg[256];

	if (!b) {
		errbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&b->lock, NULL);
	atomic_init(&b->job.stop, 0);
	atomic_init(&b->main_done, 0);
	atomic_init(&b->soft_stop, 0);
	b->budget.idle = table_idle;
	b->budget.taken = table_taken;
	snprintf(b->e.id, sizeof b->e.id, "hivebridge v%s", version_string);
	snprintf(b->e.caps, sizeof b->e.caps, "Mosquito;Ladybug;Pillbug");
	b->hash_mb_default = p && p->hash_mb ? p->hash_mb : HASH_MB_DEFAULT;
	b->hash_mb_max = p && p->hash_mb_max ? p->hash_mb_max : HASH_MB_MAX;
	/* The profile's numbers as they are (the config parsed them). */
	b->threads = 1;
	if (p && p->threads)
		threads_put(b, p->threads);
	b->threads_default = b->threads;
	/* The operator's own hash_mb is never clamped by the client limit. */
	if (b->hash_mb_max < b->hash_mb_default)
		b->hash_mb_max = b->hash_mb_default;
	int ok = engine_init(&b->e, base, p, &builtin_ops, b, err, errlen) == 0;
	b->expire_ev = evtimer_new(base, expire_event, b);
	b->idle_ev = evtimer_new(base, idle_event, b);
	if (!ok || !b->expire_ev || !b->idle_ev) {
		builtin_free(&b->e);
		errbuf_set(err, errlen, "cannot create events");
		return NULL;
	}
	hash_put(b, (long long)b->hash_mb_default);
	for (size_t i = 0; p && i < p->noptions; i++) {
		const struct builtin_option *opt = option_find(p->options[i][0]);
		if (!opt) {
			errbuf_set(err, errlen, "profile %s: unknown option %s", p->name ? p->name : "?",
				   p->options[i][0]);
			builtin_free(&b->e);
			return NULL;
		}
		if (opt->set(b, p->options[i][1], msg, sizeof msg) < 0) {
			errbuf_set(err, errlen, "profile %s: %s", p->name ? p->name : "?", msg);
			builtin_free(&b->e);
			return NULL;
		}
	}
	return &b->e;
}
