/*
 * bench_util.h: what the benchmarks share: a monotonic clock in ms, a repeatable
 * xorshift generator, random positions of every game type, and the comparison
 * qsort needs for percentiles. Header-only: each benchmark is its own program.
 */
#ifndef TESTS_BENCH_BENCH_UTIL_H
#define TESTS_BENCH_BENCH_UTIL_H

#include <stdint.h>
#include <time.h>

#include "core/board.h"
#include "core/game.h"

static inline double bench_now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static inline uint64_t bench_rng_next(uint64_t *st)
{
	*st ^= *st >> 12;
	*st ^= *st << 25;
	*st ^= *st >> 27;
	return *st * 0x2545F4914F6CDD1DULL;
}

/* Position i: 4 to 3 + spread random plies into game type i % 8, replayed from
 * another draw until the game is not over (an engine may refuse to search then). */
static inline void bench_position(struct hive_game *g, unsigned i, unsigned spread)
{
	static struct hive_move moves[HIVE_MAX_MOVES];
	uint64_t rng = 0x9e3779b97f4a7c15ULL * (i + 1);
	for (;;) {
		hive_game_init(g, i % 8);
		int plies = 4 + (int)(bench_rng_next(&rng) % spread);
		for (int p = 0; p < plies && !hive_game_over(&g->board); p++) {
			size_t n = hive_board_moves(&g->board, moves);
			hive_game_play(g, moves[bench_rng_next(&rng) % n]);
		}
		if (!hive_game_over(&g->board))
			return;
		hive_game_free(g);
	}
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

#endif
