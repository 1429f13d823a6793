/*
 * hash_budget.c: the process-wide hash-table budget and its reclaim (hash_budget.h).
 */
#include <pthread.h>

#include "bridge/hash_budget.h"

#define HASH_BUDGET_MB_DEFAULT 512

/* The budget, and the holders of tables, least recently used first. */
static struct {
	pthread_mutex_t                 lock;
	size_t                          total_mb;
	size_t                          used_mb;
	TAILQ_HEAD(, hash_budget_entry) lru;      /* guarded by lock, like every field */
	unsigned                        idle_s;
} budget = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.total_mb = HASH_BUDGET_MB_DEFAULT,
	.lru = TAILQ_HEAD_INITIALIZER(budget.lru),
};

void hash_budget_configure(size_t total_mb, unsigned idle_s)
{
	pthread_mutex_lock(&budget.lock);
	budget.total_mb = total_mb ? total_mb : HASH_BUDGET_MB_DEFAULT;
	budget.idle_s = idle_s;
	pthread_mutex_unlock(&budget.lock);
}

struct hash_budget_figures hash_budget_figures(void)
{
	pthread_mutex_lock(&budget.lock);
	struct hash_budget_figures f = { budget.total_mb, budget.used_mb, budget.idle_s };
	pthread_mutex_unlock(&budget.lock);
	return f;
}

static void unlink_locked(struct hash_budget_entry *e)
{
	if (!e->held)
		return;
	TAILQ_REMOVE(&budget.lru, e, lru);
	e->held = 0;
}

static void link_locked(struct hash_budget_entry *e)
{
	TAILQ_INSERT_TAIL(&budget.lru, e, lru);
	e->held = 1;
}

static void give_locked(struct hash_budget_entry *e)
{
	unlink_locked(e);
	budget.used_mb -= e->mb;
	e->mb = 0;
}

size_t hash_budget_take(struct hash_budget_entry *e, size_t want, size_t min)
{
	size_t mb = want, avail;

	pthread_mutex_lock(&budget.lock);
	/* Losing a table only loses learnt entries; a running search's is never taken
	 * (the loop thread alone starts searches, so an idle holder stays idle here). */
	for (struct hash_budget_entry *v = TAILQ_FIRST(&budget.lru), *next; v &&
	     budget.total_mb - budget.used_mb < want; v = next) {
		next = TAILQ_NEXT(v, lru);
		if (v == e || !v->idle(v))
			continue;
		give_locked(v);
		v->taken(v);
	}
	avail = budget.total_mb - budget.used_mb;
	while (mb > avail && mb > min)
		mb /= 2;
	if (mb > avail || !mb) {
		pthread_mutex_unlock(&budget.lock);
		return 0;
	}
	budget.used_mb += mb;
	e->mb = mb;
	pthread_mutex_unlock(&budget.lock);
	return mb;
}

void hash_budget_hold(struct hash_budget_entry *e)
{
	pthread_mutex_lock(&budget.lock);
	unlink_locked(e);
	link_locked(e);
	pthread_mutex_unlock(&budget.lock);
}

void hash_budget_touch(struct hash_budget_entry *e)
{
	pthread_mutex_lock(&budget.lock);
	if (e->held) {
		unlink_locked(e);
		link_locked(e);
	}
	pthread_mutex_unlock(&budget.lock);
}

void hash_budget_give(struct hash_budget_entry *e)
{
	if (!e->mb && !e->held)
		return;
	pthread_mutex_lock(&budget.lock);
	give_locked(e);
	pthread_mutex_unlock(&budget.lock);
}
