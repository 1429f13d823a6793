/*
 * search.h: the built-in player. Iterative deepening alpha-beta (PVS) with a
 * transposition table, move ordering and a Hive evaluation.
 *
 * Pure library: no I/O, no clocks, no threads. Time is the caller's business: the search
 * polls limits->stop every few dozen nodes and finishes with the best move so far.
 */
#ifndef HIVE_SEARCH_H
#define HIVE_SEARCH_H

#include <stdint.h>
#include "board.h"

#define HIVE_MAX_PLY   64
#define HIVE_SCORE_WIN 30000     /* mate-like scores are WIN - plies */

struct hive_search_info {
	int      depth;
	int      score;            /* centi-pawn-like, side to move's view */
	uint64_t nodes;
	int      pvlen;
	struct hive_move pv[HIVE_MAX_PLY];
};

struct hive_search_limits {
	int      depth;            /* max depth in plies, 0 = no limit (up to HIVE_MAX_PLY) */
	uint64_t nodes;            /* 0 = no limit */
	/* Polled often; returns non-zero to stop. May be NULL. */
	int    (*stop)(void *arg);
	void    *stop_arg;
	/* Called after each completed iteration. May be NULL. */
	void   (*on_iteration)(void *arg, const struct hive_search_info *info);
	void    *iteration_arg;
	/* Lazy SMP: 0 for the main searcher, k > 0 for helper k (it skips some depths). */
	int      helper;
};

struct hive_search;   /* opaque: transposition table and history tables */

/* A searcher is one block of memory: its state, move frames and table. The caller
 * may hand the block in (hive_search_init: a fresh mmap costs only the pages the
 * search touches, and forgetting is giving the block back), or let the core take it
 * from the heap (hive_search_new). */

/* Bytes of the block for a table of about tt_bytes (a power of two, at least one bucket). */
size_t hive_search_size(size_t tt_bytes);
/* Lays a searcher out in mem (zeroed, malloc-aligned, size from hive_search_size);
 * the caller keeps owning mem, and the searcher lives in it. NULL if size is too small. */
struct hive_search *hive_search_init(void *mem, size_t size);
/* Heap-allocated searcher with a table of about tt_bytes; NULL on failure. Caller frees
 * with hive_search_free (only for hive_search_new's). */
struct hive_search *hive_search_new(size_t tt_bytes);
void hive_search_free(struct hive_search *s);
/* Lazy SMP: bytes of a helper, a searcher that shares main's table (no table of its own). */
size_t hive_search_helper_size(void);
/* Lays a helper out in mem (zeroed, or a helper's from an earlier search; size from
 * hive_search_helper_size) sharing main's table; main (and its block) must outlive it.
 * Each runs on its own thread, at the same time as main, with limits->helper > 0; the
 * table tolerates the races. NULL if too small. */
struct hive_search *hive_search_init_helper(void *mem, size_t size, struct hive_search *main);
/* Forgets everything learnt by zeroing it (a caller owning an mmap'd block rather
 * gives it back to the kernel and calls hive_search_init again). */
void hive_search_clear(struct hive_search *s);

/* Searches the position; fills *best with a legal move (a pass when that is the only
 * move) and returns 0, or returns -1 when the game is over. info gets the last
 * completed iteration (may be NULL). Depth 1 is always completed (stop is not polled
 * during it; the node limit is). One thread per struct hive_search; a helper's table is
 * its main's (hive_search_clear on a helper leaves the table alone). */
int hive_search_run(struct hive_search *s, const struct hive_board *b,
		    const struct hive_search_limits *limits, struct hive_move *best,
		    struct hive_search_info *info);

/* Static evaluation from the side to move's view (exposed for tests and tuning). */
int hive_evaluate(const struct hive_board *b);

#endif
