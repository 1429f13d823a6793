/*
 * bench_search.c: the search's signature and speed. Fixed-depth searches from a cleared
 * searcher over the eight start positions and the mid-game positions of the rules
 * reference (§4.2); the total node count is deterministic, so a change to the search
 * shows up as a change in it (Stockfish's bench idea). Then timed searches on the
 * Base+MLP start and a mid-game position, reporting the depth reached.
 *
 *   bench_search [depth] [timed-ms...]      defaults: depth 5 (start positions 6), 1000
 *
 * Prints "search: nodes=N ms=T nps=R" for the fixed-depth part.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/board.h"
#include "core/game.h"
#include "core/search.h"

#define TT_BYTES (64u << 20)

static const char *const midgames[] = {
	/* nokamute's beetle_gate */
	"Base+MLP;InProgress;White[5];wB1;bB1 -wB1;wQ wB1-;bQ /bB1;wB2 wQ-;bQ /wB1;wB2 wQ;bB1 bQ",
	"Base;InProgress;Black[11];wG1;bG1 \\wG1;wG2 wG1-;bS1 -bG1;wB1 /wG1;bG2 /bS1;wQ wG1\\;bQ bG1/;wA1 wQ\\;bG3 -bS1;wG3 wG2-;bS2 \\bS1;wS1 wA1-;bB1 /bG3;wA2 wG3\\;bA1 -bQ;wA1 wB1\\;bB2 bB1\\;wA1 -bB1;bB2 bG2;wB2 wG3/",
	"Base+M;InProgress;Black[11];wM;bA1 wM/;wS1 /wM;bM \\bA1;wB1 /wS1;bA2 bA1-;wQ -wS1;bQ \\bA2;wA1 /wQ;bB1 bA2\\;wA1 bQ/;bM wB1\\;wB2 \\wA1;bB2 bB1-;wB2 wA1/;bM wB1;wQ -wM;bG1 /bB1;wB2 wA1;bA3 bM\\;wS2 wB2/",
	"Base+L;InProgress;White[13];wS1;bS1 \\wS1;wS2 wS1\\;bG1 bS1/;wB1 wS2-;bQ -bG1;wQ wB1-;bA1 bG1-;wG1 \\wB1;bA2 \\bQ;wG2 wQ-;bS2 -bA2;wL wQ\\;bA1 wG2\\;wL \\wQ;bA1 bG1\\;wB1 wS2\\;bA3 bA1/;wB1 wS2;bG2 bS2\\;wG3 /wS1;bG2 bA2/;wB2 wL/;bA3 bG2/",
	"Base+P;InProgress;White[14];wB1;bS1 wB1\\;wP wB1/;bS2 /bS1;wB2 \\wP;bP bS1-;wQ -wB1;bQ bP\\;wA1 -wB2;bB1 -bS2;wS1 /wA1;bB2 bQ/;wA1 /bB1;bB2 wP\\;wS2 wA1\\;bG1 bS1\\;wG1 \\wS1;bA1 bQ/;bB2 wP/;bP wP\\;wB2 \\bB2;bA1 wG1/;wA2 wS2\\;bA1 bP-;wB2 bB2;bA1 -bB1",
	"Base+ML;InProgress;White[11];wA1;bL wA1\\;wM wA1/;bS1 bL\\;wS1 wM/;bB1 bS1\\;wQ -wA1;bQ bB1\\;wB1 -wM;bG1 /bL;wS2 /wQ;bM /bG1;wG1 -wS2;bA1 bQ\\;wA2 wS1/;bA1 \\wA2;wG2 -wS1;bA2 bA1/;wM wS1;bA3 /bQ",
	"Base+MP;InProgress;Black[22];wG1;bS1 \\wG1;wG2 wG1\\;bB1 bS1/;wQ /wG2;bQ -bB1;wP wG2\\;bA1 -bQ;wA1 /wG1;bB2 bB1/;wM /wQ;bA1 /bS1;wA2 wP\\;bA1 wG2/;wG3 /wM;bP bA1/;wA3 -wA1;bG1 \\bB2;wA2 bP\\;bM /bQ;wA3 bB2-;wA2 bB1\\;wG2 wQ\\;bA2 /bM;wB1 wG3\\;bA3 -bM;wB2 wM\\;bG2 /bA3;wM wG3;bA3 \\wM;wA3 bP-;bS2 bG2\\;wA3 bA2\\;bA3 bB2/;wM \\wG3;bA3 bG1/;wA3 bB2\\;bG3 bA3-;wA3 /bG1;bB1 wA3;wA2 bP/;bS2 \\bG2;wS1 /wA1",
	"Base+LP;InProgress;White[14];wL;bB1 /wL;wG1 wL/;bA1 bB1\\;wP -wG1;bS1 /bB1;wQ wG1\\;bQ /bS1;wA1 \\wG1;bA1 wQ-;wG1 -wA1;bA2 bB1\\;wG2 \\wA1;bA1 wL\\;wA1 wQ\\;bB2 -bS1;wA1 wG2/;bA1 wG2\\;wB1 /wG1;bP /bQ;wB2 -wG1;bA3 bP\\;wQ wL\\;bA3 /wB1;wB2 wB1;bA2 wQ-",
	"Base+MLP;InProgress;Black[18];wA1;bB1 wA1/;wG1 wA1\\;bM \\bB1;wS1 /wG1;bP bB1-;wQ wG1\\;bQ bP\\;wB1 /wA1;bL \\bP;wM -wA1;bS1 bL/;wL wQ\\;bS2 bQ\\;wS2 /wS1;bG1 bQ/;wG2 wS2\\;bM bL;wA2 wS1\\;bG1 bB1\\;wM bS1/;bG1 -wA1;wG1 /bG1;bA1 bQ/;wG3 wL-;bS2 wG3/;wG2 /bQ;bA2 bA1/;wA3 wG3\\;bA2 bQ\\;wL /wS2;bA1 /wA3;wM bQ/;bA1 wM\\;wA3 -wG1",
};

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

struct deadline {
	double end_ms;
};

static int past_deadline(void *arg)
{
	const struct deadline *d = arg;
	return now_ms() >= d->end_ms;
}

/* Searches one position to depth from a cleared searcher; returns its node count. */
static uint64_t bench_one(struct hive_search *s, const struct hive_game *g, int depth,
			  const char *label)
{
	struct hive_search_limits lim = { .depth = depth };
	struct hive_search_info info;
	struct hive_move m;
	char ms[HIVE_MOVESTR_MAX];
	hive_search_clear(s);
	double t0 = now_ms();
	if (hive_search_run(s, &g->board, &lim, &m, &info) != 0) {
		printf("%-10s game over\n", label);
		return 0;
	}
	double t = now_ms() - t0;
	hive_move_format(&g->board, m, ms, sizeof ms);
	printf("%-10s depth %d  %-10s score %6d  nodes %10llu  %8.1f ms\n", label, info.depth, ms,
	       info.score, (unsigned long long)info.nodes, t);
	return info.nodes;
}

/* Lazy SMP helper for the scaling figure: runs until *stop. */
struct helper_arg {
	struct hive_search *s;
	const struct hive_board *b;
	atomic_int *stop;
	struct hive_search_info info;
};

static int helper_stop(void *arg)
{
	return atomic_load((atomic_int *)arg);
}

static void *helper_run(void *arg)
{
	struct helper_arg *h = arg;
	struct hive_search_limits lim = { .stop = helper_stop, .stop_arg = h->stop, .helper = 1 };
	struct hive_move m;
	hive_search_run(h->s, h->b, &lim, &m, &h->info);
	return NULL;
}

/* Nodes/s of a timed search with one Lazy SMP helper against one thread alone. */
static void scaling_one(struct hive_search *s, const struct hive_game *g, double ms,
			const char *label)
{
	size_t hsize = hive_search_helper_size();
	void *mem = calloc(1, hsize);
	atomic_int stop = 0;
	struct helper_arg h = { .b = &g->board, .stop = &stop };
	struct deadline d;
	struct hive_search_info info;
	struct hive_move m;
	pthread_t th;
	if (!mem)
		return;
	for (int threads = 1; threads <= 2; threads++) {
		struct hive_search_limits lim = { .stop = past_deadline, .stop_arg = &d };
		hive_search_clear(s);
		atomic_store(&stop, 0);
		memset(mem, 0, hsize);
		h.s = hive_search_init_helper(mem, hsize, s);
		h.info.nodes = 0;
		double t0 = now_ms();
		d.end_ms = t0 + ms;
		if (threads == 2 && pthread_create(&th, NULL, helper_run, &h) != 0)
			break;
		hive_search_run(s, &g->board, &lim, &m, &info);
		atomic_store(&stop, 1);
		if (threads == 2)
			pthread_join(th, NULL);
		double t = now_ms() - t0;
		uint64_t nodes = info.nodes + (threads == 2 ? h.info.nodes : 0);
		printf("threads %d %-10s %6.0f ms: depth %2d  nodes %10llu  %8.0f nodes/s\n", threads,
		       label, ms, info.depth, (unsigned long long)nodes, t > 0 ? nodes * 1000.0 / t : 0.0);
	}
	free(mem);
}

static void timed_one(struct hive_search *s, const struct hive_game *g, double ms,
		      const char *label)
{
	struct deadline d = { now_ms() + ms };
	struct hive_search_limits lim = { .stop = past_deadline, .stop_arg = &d };
	struct hive_search_info info;
	struct hive_move m;
	char mstr[HIVE_MOVESTR_MAX];
	hive_search_clear(s);
	double t0 = now_ms();
	if (hive_search_run(s, &g->board, &lim, &m, &info) != 0)
		return;
	double t = now_ms() - t0;
	hive_move_format(&g->board, m, mstr, sizeof mstr);
	printf("timed %-10s %6.0f ms: depth %2d  %-10s score %6d  nodes %10llu  (%.1f ms)\n", label,
	       ms, info.depth, mstr, info.score, (unsigned long long)info.nodes, t);
}

int main(int argc, char **argv)
{
	int depth = argc > 1 ? atoi(argv[1]) : 5;
	struct hive_search *s = hive_search_new(TT_BYTES);
	struct hive_game g, mid;
	char err[256];
	uint64_t total = 0;

	if (depth < 1 || !s) {
		fprintf(stderr, "usage: bench_search [depth >= 1] [timed-ms...]\n");
		hive_search_free(s);
		return 2;
	}
	double t0 = now_ms();
	for (unsigned type = 0; type < 8; type++) {
		hive_game_init(&g, type);
		total += bench_one(s, &g, depth + 1, hive_gametype_name(type));
		hive_game_free(&g);
	}
	for (size_t i = 0; i < sizeof midgames / sizeof *midgames; i++) {
		char label[32];
		hive_game_init(&g, 0);
		if (hive_game_parse(&g, midgames[i], err, sizeof err) != HIVE_OK) {
			fprintf(stderr, "bench position %zu: %s\n", i, err);
			hive_game_free(&g);
			hive_search_free(s);
			return 1;
		}
		snprintf(label, sizeof label, "mid%zu", i);
		total += bench_one(s, &g, depth, label);
		hive_game_free(&g);
	}
	double t = now_ms() - t0;
	printf("search: nodes=%llu ms=%.0f nps=%.0f\n", (unsigned long long)total, t,
	       t > 0 ? total * 1000.0 / t : 0.0);

	/* How deep a fixed time gets, on the richest start and a crowded mid-game. */
	hive_game_init(&g, 7);
	hive_game_init(&mid, 0);
	if (hive_game_parse(&mid, midgames[8], err, sizeof err) == HIVE_OK) {
		int nt = argc > 2 ? argc - 2 : 1;
		for (int i = 0; i < nt; i++) {
			double ms = argc > 2 ? atof(argv[2 + i]) : 1000;
			timed_one(s, &g, ms, "start-MLP");
			timed_one(s, &mid, ms, "mid8");
		}
		/* Lazy SMP: total nodes/s with a helper thread (2 cores wanted; see the load). */
		double load[3];
		if (getloadavg(load, 3) == 3)
			printf("load average %.2f %.2f %.2f\n", load[0], load[1], load[2]);
		scaling_one(s, &g, argc > 2 ? atof(argv[2]) : 1000, "start-MLP");
		scaling_one(s, &mid, argc > 2 ? atof(argv[2]) : 1000, "mid8");
	}
	hive_game_free(&mid);
	hive_game_free(&g);
	hive_search_free(s);
	return 0;
}
