/*
 * hash_budget.h: the process-wide budget of hash-table memory that the built-in
 * engines' searchers share (config [daemon] hash_budget_mb), and its reclaim: a table
 * that does not fit takes back the tables of holders not searching, least recently
 * used first, before it is made smaller.
 *
 * A holder embeds a struct hash_budget_entry (zeroed, with its two callbacks set).
 * Taking, holding and giving back happen on the event loop thread; the budget's
 * lock also lets other threads read the figures.
 */
#ifndef BRIDGE_HASH_BUDGET_H
#define BRIDGE_HASH_BUDGET_H

#include <stddef.h>
#include <sys/queue.h>

struct hash_budget_entry {
	TAILQ_ENTRY(hash_budget_entry) lru;        /* in the list while held */
	size_t mb;                                 /* taken; 0 when none */
	int    held;                               /* in the list (its memory mapped) */
	/* Whether the holder's table may be taken back now (no search in it). */
	int  (*idle)(struct hash_budget_entry *e);
	/* The table is taken back: free its memory. Called with the budget's lock held
	 * (the entry is already out of the list and its MB given back): it must not call
	 * hash_budget_*. */
	void (*taken)(struct hash_budget_entry *e);
};

/* The budget in MB (0: 512) and the seconds after which an unused table is given
 * back (0: never), before the first table is taken. */
void     hash_budget_configure(size_t total_mb, unsigned idle_s);
/* The budget as configured, and the MB tables hold now. */
struct hash_budget_figures {
	size_t   total_mb, used_mb;
	unsigned idle_s;
};
struct hash_budget_figures hash_budget_figures(void);

/* Takes MB for e's table (e holding none): want, first taking back the tables of
 * other holders that are idle, least recently used first, until want is free; if it
 * is still short, the largest half, quarter... of want that fits, down to min.
 * Returns the MB taken (also in e->mb), or 0 when not even min is left. */
size_t   hash_budget_take(struct hash_budget_entry *e, size_t want, size_t min);
/* e's table is mapped: it joins the list as the most recently used. */
void     hash_budget_hold(struct hash_budget_entry *e);
/* e's table is used again: the last to be taken back. */
void     hash_budget_touch(struct hash_budget_entry *e);
/* Gives e's MB back (it leaves the list); nothing when it holds none. */
void     hash_budget_give(struct hash_budget_entry *e);

#endif
