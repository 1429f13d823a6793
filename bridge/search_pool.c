/*
 * search_pool.c: a fixed set of worker threads over one FIFO queue (search_pool.h).
 * One mutex guards the queue and every job's state; a condition variable wakes the
 * workers, another wakes an owner waiting for its running job to end. Workers are
 * started with the first job and joined at exit.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bridge/log.h"
#include "bridge/search_pool.h"
#include "bridge/util.h"

#define POOL_MAX_THREADS 256
/* Workers run this much nicer than the loop: on a machine whose cores the searches
 * fill, the loop (every other client's answers) still wakes at once. */
#define POOL_NICE        10

enum { JOB_IDLE, JOB_QUEUED, JOB_RUNNING };

static struct {
	pthread_mutex_t  lock;
	pthread_cond_t   work;          /* a job was queued, or quit */
	pthread_cond_t   finished;      /* a running job ended */
	TAILQ_HEAD(, pool_job) queue;   /* first the oldest */
	unsigned         queued;
	atomic_uint      busy;          /* jobs queued or running, read without the lock */
	unsigned         want;          /* configured count, 0 = online CPUs */
	unsigned         online;        /* online CPUs, read once (sysconf opens a file) */
	unsigned         nthreads;      /* started */
	pthread_t        threads[POOL_MAX_THREADS];
	struct pool_job *running[POOL_MAX_THREADS];
	int              quit;
	int              atexit_done;
} pool = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.work = PTHREAD_COND_INITIALIZER,
	.finished = PTHREAD_COND_INITIALIZER,
	.queue = TAILQ_HEAD_INITIALIZER(pool.queue),
};

void search_pool_configure(unsigned threads)
{
	pthread_mutex_lock(&pool.lock);
	if (pool.nthreads == 0)
		pool.want = threads > POOL_MAX_THREADS ? POOL_MAX_THREADS : threads;
	pthread_mutex_unlock(&pool.lock);
}

static unsigned wanted(void)
{
	if (pool.want)
		return pool.want;
	if (!pool.online) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		pool.online = n < 1 ? 1 : n > POOL_MAX_THREADS ? POOL_MAX_THREADS : (unsigned)n;
	}
	return pool.online;
}

unsigned search_pool_threads(void)
{
	pthread_mutex_lock(&pool.lock);
	unsigned n = pool.nthreads ? pool.nthreads : wanted();
	pthread_mutex_unlock(&pool.lock);
	return n;
}

unsigned search_pool_queued(void)
{
	pthread_mutex_lock(&pool.lock);
	unsigned n = pool.queued;
	pthread_mutex_unlock(&pool.lock);
	return n;
}

unsigned search_pool_busy(void)
{
	return atomic_load(&pool.busy);
}

static void *worker(void *arg)
{
	unsigned me = (unsigned)(size_t)arg;

	/* On Linux a thread's nice value is its own; failing leaves it as it was. */
	errno = 0;
	int nice_now = getpriority(PRIO_PROCESS, (id_t)gettid());
	if (errno == 0)
		setpriority(PRIO_PROCESS, (id_t)gettid(), nice_now + POOL_NICE);
	pthread_mutex_lock(&pool.lock);
	for (;;) {
		while (TAILQ_EMPTY(&pool.queue) && !pool.quit)
			pthread_cond_wait(&pool.work, &pool.lock);
		if (pool.quit)
			break;
		struct pool_job *j = TAILQ_FIRST(&pool.queue);
		TAILQ_REMOVE(&pool.queue, j, queue);
		pool.queued--;
		j->state = JOB_RUNNING;
		pool.running[me] = j;
		pthread_mutex_unlock(&pool.lock);
		j->run(j);
		pthread_mutex_lock(&pool.lock);
		pool.running[me] = NULL;
		atomic_fetch_sub(&pool.busy, 1);
		j->state = JOB_IDLE;
		pthread_cond_broadcast(&pool.finished);
	}
	pthread_mutex_unlock(&pool.lock);
	return NULL;
}

/* At exit: stop what runs, then join every worker. */
static void pool_shutdown(void)
{
	pthread_mutex_lock(&pool.lock);
	pool.quit = 1;
	for (unsigned i = 0; i < pool.nthreads; i++)
		if (pool.running[i])
			atomic_store(&pool.running[i]->stop, 1);
	pthread_cond_broadcast(&pool.work);
	unsigned n = pool.nthreads;
	pthread_mutex_unlock(&pool.lock);
	for (unsigned i = 0; i < n; i++)
		pthread_join(pool.threads[i], NULL);
	pthread_mutex_lock(&pool.lock);
	pool.nthreads = 0;
	pool.quit = 0;
	pthread_mutex_unlock(&pool.lock);
}

/* Starts the workers (lock held); -1 if not even one could be started. */
static int pool_start(void)
{
	unsigned n = wanted();
	for (unsigned i = 0; i < n; i++) {
		int err = pthread_create(&pool.threads[i], NULL, worker, (void *)(size_t)i);
		if (err) {
			log_note(0, "search pool: pthread_create: %s", strerror(err));
			break;
		}
		pool.nthreads++;
	}
	if (!pool.atexit_done && pool.nthreads) {
		pool.atexit_done = 1;
		atexit(pool_shutdown);
	}
	return pool.nthreads ? 0 : -1;
}

int search_pool_submit(struct pool_job *job)
{
	int rc = -1;

	pthread_mutex_lock(&pool.lock);
	if (job->state != JOB_IDLE || pool.quit || (!pool.nthreads && pool_start() < 0))
		goto out;
	atomic_store(&job->stop, 0);
	job->state = JOB_QUEUED;
	TAILQ_INSERT_TAIL(&pool.queue, job, queue);
	pool.queued++;
	atomic_fetch_add(&pool.busy, 1);
	pthread_cond_signal(&pool.work);
	rc = 0;
out:
	pthread_mutex_unlock(&pool.lock);
	return rc;
}

/* Takes a queued job out of the queue (lock held); 1 if it was queued. A job is in
 * the queue exactly while its state is JOB_QUEUED (both change under the lock). */
static int unqueue_locked(struct pool_job *job)
{
	if (job->state != JOB_QUEUED)
		return 0;
	TAILQ_REMOVE(&pool.queue, job, queue);
	pool.queued--;
	atomic_fetch_sub(&pool.busy, 1);
	job->state = JOB_IDLE;
	return 1;
}

int search_pool_unqueue(struct pool_job *job)
{
	pthread_mutex_lock(&pool.lock);
	int rc = unqueue_locked(job);
	pthread_mutex_unlock(&pool.lock);
	return rc;
}

int search_pool_expire(struct pool_job *job)
{
	pthread_mutex_lock(&pool.lock);
	unsigned free_workers = pool.nthreads, ahead = 0;
	for (unsigned i = 0; i < pool.nthreads; i++)
		if (pool.running[i])
			free_workers--;
	for (struct pool_job *j = TAILQ_FIRST(&pool.queue); j && j != job; j = TAILQ_NEXT(j, queue))
		ahead++;
	int rc = job->state != JOB_QUEUED ? 0 : ahead >= free_workers ? 1 : -1;
	if (rc == 1)
		unqueue_locked(job);
	pthread_mutex_unlock(&pool.lock);
	return rc;
}

/* A perft's stop callback (the worker): the owner's stop, or the deadline passed. */
static int perft_should_stop(void *arg)
{
	struct perft_job *p = arg;
	if (atomic_load(&p->job.stop))
		return 1;
	if (p->deadline_us && now_us() >= p->deadline_us) {
		p->end = PERFT_DEADLINE;
		return 1;
	}
	return 0;
}

static void perft_run(struct pool_job *job)
{
	struct perft_job *p = (struct perft_job *)job;
	uint64_t prev = 1;

	p->reached = 0;
	p->end = PERFT_DONE;
	for (int d = 0; d <= p->depth && d <= PERFT_JOB_MAX_DEPTH; d++) {
		struct hive_board b = p->board;
		if (d > 1 && p->max_nodes && prev > p->max_nodes) {
			p->end = PERFT_TOO_BIG;
			break;
		}
		int64_t t0 = now_us();
		int64_t n = hive_perft(&b, d, perft_should_stop, p);
		if (n < 0) {
			if (p->end == PERFT_DONE)
				p->end = PERFT_STOPPED;
			break;
		}
		p->count[d] = (uint64_t)n;
		p->us[d] = (uint64_t)(now_us() - t0);
		p->reached = d + 1;
		prev = (uint64_t)n;
	}
	p->done(p->arg);
}

int search_pool_perft(struct perft_job *p)
{
	p->job.run = perft_run;
	return search_pool_submit(&p->job);
}

void search_pool_cancel(struct pool_job *job)
{
	pthread_mutex_lock(&pool.lock);
	unqueue_locked(job);
	if (job->state == JOB_RUNNING) {
		atomic_store(&job->stop, 1);
		while (job->state == JOB_RUNNING)
			pthread_cond_wait(&pool.finished, &pool.lock);
	}
	pthread_mutex_unlock(&pool.lock);
}
