/*
 * test_search.c: the built-in player. Mzinga's AI test positions (block a winning move,
 * find the one move that forces a win), legality over random positions of all 8 game
 * types, depth and node limits, the stop callback, finished games and forced passes,
 * determinism of the node count, and Lazy SMP (helpers sharing the main searcher's
 * table on threads of their own; run it under -fsanitize=thread to check the races).
 */
#include <CUnit/Basic.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/board.h"
#include "core/game.h"
#include "core/search.h"
#include "tests/unit/unit.h"

#define TT_BYTES (16u << 20)
#define MATE_BOUND (HIVE_SCORE_WIN - 2 * HIVE_MAX_PLY)

static const char *data_dir(void)
{
	const char *d = getenv("HIVE_DATA");
	return d && *d ? d : "../shared/data";
}

static FILE *open_data(const char *name)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", data_dir(), name);
	FILE *f = fopen(path, "r");
	if (!f)
		fprintf(stderr, "cannot open %s\n", path);
	return f;
}

/* Small deterministic generator (xorshift64*), so failures reproduce. */
static uint64_t rng_next(uint64_t *st)
{
	*st ^= *st >> 12;
	*st ^= *st << 25;
	*st ^= *st >> 27;
	return *st * 0x2545F4914F6CDD1DULL;
}

static int same_move(struct hive_move a, struct hive_move b)
{
	return a.piece == b.piece && (a.piece == HIVE_PASS_PIECE || a.to == b.to);
}

static int is_legal(const struct hive_board *b, struct hive_move m)
{
	struct hive_move legal;
	return hive_board_find_move(b, m, &legal) && legal.from == m.from;
}

static int load_game(struct hive_game *g, const char *gs)
{
	char err[256];
	hive_game_init(g, 0);
	int rc = hive_game_parse(g, gs, err, sizeof err);
	if (rc != HIVE_OK)
		fprintf(stderr, "cannot parse %s: %s\n", gs, err);
	return rc;
}

/*
 * Mzinga's AI rows: "GameString<TAB>depth<TAB>move". The search at that depth must
 * choose the move; with 'mate' set it must also prove the win within that many plies.
 * (In the "suicide in 4 ply" rows a win in 3 plies exists too, as an exhaustive
 * minimax confirms, so the score may be WIN - 3 there.)
 */
static int check_best_move_file(const char *name, int mate)
{
	FILE *f = open_data(name);
	char line[8192];
	int checked = 0;
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	struct hive_search *s = hive_search_new(TT_BYTES);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	while (fgets(line, sizeof line, f)) {
		char *p = line;
		if (!strncmp(p, "\xEF\xBB\xBF", 3))
			p += 3;
		p[strcspn(p, "\r\n")] = 0;
		if (*p == '#' || !*p)
			continue;
		char *tab1 = strchr(p, '\t');
		CU_ASSERT_PTR_NOT_NULL_FATAL(tab1);
		*tab1 = 0;
		char *tab2 = strchr(tab1 + 1, '\t');
		CU_ASSERT_PTR_NOT_NULL_FATAL(tab2);
		*tab2 = 0;
		int depth = atoi(tab1 + 1);

		struct hive_game g;
		CU_ASSERT_EQUAL_FATAL(load_game(&g, p), HIVE_OK);
		struct hive_move want, got;
		char err[256], gotstr[HIVE_MOVESTR_MAX];
		CU_ASSERT_EQUAL_FATAL(hive_move_parse(&g.board, tab2 + 1, &want, err, sizeof err), HIVE_OK);

		struct hive_search_limits lim = { .depth = depth };
		struct hive_search_info info;
		hive_search_clear(s);
		CU_ASSERT_EQUAL(hive_search_run(s, &g.board, &lim, &got, &info), 0);
		hive_move_format(&g.board, got, gotstr, sizeof gotstr);
		if (!same_move(got, want) || (mate && info.score < HIVE_SCORE_WIN - depth))
			fprintf(stderr, "%s: depth %d: got %s (score %d), want %s\n", name, depth,
				gotstr, info.score, tab2 + 1);
		CU_ASSERT(same_move(got, want));
		CU_ASSERT(is_legal(&g.board, got));
		CU_ASSERT_EQUAL(info.depth, depth);
		if (mate) {
			CU_ASSERT(info.score >= HIVE_SCORE_WIN - depth);
		} else {
			CU_ASSERT(info.score > -MATE_BOUND);
		}
		hive_game_free(&g);
		checked++;
	}
	hive_search_free(s);
	fclose(f);
	return checked;
}

static void test_block_winning_move(void)
{
	CU_ASSERT(check_best_move_file("mzinga/GameAI_BlockWinningMoveIsBestMoveTest.csv", 0) >= 1);
}

static void test_force_win_puzzles(void)
{
	CU_ASSERT(check_best_move_file("mzinga/PuzzleCandidate_IsOneBestMoveToForceWinPuzzleTest.csv", 1) >= 20);
}

/* Plays plies random moves from the start of type; stops early if the game ends. */
static void random_position(struct hive_board *b, unsigned type, int plies, uint64_t *rng)
{
	struct hive_move moves[HIVE_MAX_MOVES];
	hive_board_init(b, type);
	for (int i = 0; i < plies && !hive_game_over(b); i++) {
		size_t n = hive_board_moves(b, moves);
		struct hive_undo u;
		hive_board_do(b, moves[rng_next(rng) % n], &u);
	}
}

/* Every returned move is legal, and the caller's board is left alone. */
static void test_random_positions_legal(void)
{
	struct hive_search *s = hive_search_new(1u << 20);
	uint64_t rng = 0x9E3779B97F4A7C15ULL;
	int searched = 0;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	for (unsigned type = 0; type < 8; type++) {
		for (int game = 0; game < 12; game++) {
			struct hive_board b, copy;
			random_position(&b, type, (int)(rng_next(&rng) % 70), &rng);
			copy = b;
			struct hive_search_limits lim = { .depth = 1 + game % 3, .nodes = 20000 };
			struct hive_search_info info;
			struct hive_move m;
			int rc = hive_search_run(s, &b, &lim, &m, &info);
			CU_ASSERT_EQUAL(memcmp(&b, &copy, sizeof b), 0);
			if (hive_game_over(&b)) {
				CU_ASSERT_EQUAL(rc, -1);
				continue;
			}
			CU_ASSERT_EQUAL(rc, 0);
			CU_ASSERT(is_legal(&b, m));
			CU_ASSERT(info.nodes <= 20000);
			CU_ASSERT(info.pvlen >= 1 && same_move(info.pv[0], m));
			searched++;
		}
	}
	CU_ASSERT(searched >= 80);
	hive_search_free(s);
}

/* Records the iterations reported. */
struct iter_log {
	int count;
	int depths[HIVE_MAX_PLY];
	struct hive_search_info last;
};

static void log_iteration(void *arg, const struct hive_search_info *info)
{
	struct iter_log *l = arg;
	if (l->count < HIVE_MAX_PLY)
		l->depths[l->count] = info->depth;
	l->count++;
	l->last = *info;
}

static void midgame(struct hive_board *b, uint64_t seed, unsigned type)
{
	uint64_t rng = seed;
	do
		random_position(b, type, 24, &rng);
	while (hive_game_over(b));
}

static void test_depth_limit(void)
{
	struct hive_search *s = hive_search_new(TT_BYTES);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	for (int depth = 1; depth <= 4; depth++) {
		struct hive_board b;
		struct iter_log log = { 0 };
		midgame(&b, 12345 + (uint64_t)depth, 7);
		struct hive_search_limits lim = { .depth = depth, .on_iteration = log_iteration,
						  .iteration_arg = &log };
		struct hive_search_info info;
		struct hive_move m;
		CU_ASSERT_EQUAL(hive_search_run(s, &b, &lim, &m, &info), 0);
		CU_ASSERT(is_legal(&b, m));
		CU_ASSERT_EQUAL(info.depth, depth);
		CU_ASSERT_EQUAL(log.count, depth);
		for (int i = 0; i < log.count && i < depth; i++) {
			CU_ASSERT_EQUAL(log.depths[i], i + 1);
		}
		CU_ASSERT(same_move(log.last.pv[0], m));
		CU_ASSERT_EQUAL(log.last.nodes, info.nodes);
	}
	hive_search_free(s);
}

static void test_node_limit(void)
{
	struct hive_search *s = hive_search_new(TT_BYTES);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct hive_board b;
	midgame(&b, 777, 0);
	struct hive_search_limits lim = { .nodes = 5000 };
	struct hive_search_info info;
	struct hive_move m;
	CU_ASSERT_EQUAL(hive_search_run(s, &b, &lim, &m, &info), 0);
	CU_ASSERT(is_legal(&b, m));
	CU_ASSERT(info.nodes <= 5000);
	CU_ASSERT(info.depth >= 1);
	hive_search_free(s);
}

/* A stop that fires on its n-th poll. */
struct stopper {
	int polls;
	int fire_at;
};

static int stop_after(void *arg)
{
	struct stopper *st = arg;
	return ++st->polls >= st->fire_at;
}

static void test_stop_callback(void)
{
	struct hive_search *s = hive_search_new(TT_BYTES);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct hive_board b;
	midgame(&b, 4242, 7);
	for (int fire_at = 1; fire_at <= 64; fire_at *= 4) {
		struct stopper st = { 0, fire_at };
		struct iter_log log = { 0 };
		struct hive_search_limits lim = { .stop = stop_after, .stop_arg = &st,
						  .on_iteration = log_iteration, .iteration_arg = &log };
		struct hive_search_info info;
		struct hive_move m;
		hive_search_clear(s);
		CU_ASSERT_EQUAL(hive_search_run(s, &b, &lim, &m, &info), 0);
		CU_ASSERT(is_legal(&b, m));
		/* Stops at the poll that said so: never polled again, no work past it. */
		CU_ASSERT_EQUAL(st.polls, fire_at);
		CU_ASSERT(info.nodes <= (uint64_t)fire_at * 1024);
		CU_ASSERT_EQUAL(info.depth, log.count);
		CU_ASSERT(info.depth >= 1);
		if (log.count) {
			CU_ASSERT(same_move(log.last.pv[0], m));
		}
	}
	hive_search_free(s);
}

static int stop_now(void *arg)
{
	(void)arg;
	return 1;
}

static void test_stop_at_entry(void)
{
	struct hive_search *s = hive_search_new(TT_BYTES);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	for (unsigned type = 0; type < 8; type++) {
		struct hive_board b;
		midgame(&b, 99 + type, type);
		struct hive_search_limits lim = { .stop = stop_now };
		struct hive_search_info info;
		struct hive_move m;
		CU_ASSERT_EQUAL(hive_search_run(s, &b, &lim, &m, &info), 0);
		CU_ASSERT(is_legal(&b, m));
		/* A search stopped before it began still completes depth 1, and no more. */
		CU_ASSERT_EQUAL(info.depth, 1);
		CU_ASSERT(info.nodes > 0);
		CU_ASSERT(info.pvlen >= 1 && same_move(info.pv[0], m));
	}
	hive_search_free(s);
}

/* Lazy SMP: a helper thread runs on the main searcher's table until main is done. */
struct smp_helper {
	struct hive_search *s;
	const struct hive_board *b;
	atomic_int *stop;
	int helper, rc;
	struct hive_move m;
	struct hive_search_info info;
};

static int smp_stop(void *arg)
{
	return atomic_load((atomic_int *)arg);
}

static void *smp_run(void *arg)
{
	struct smp_helper *h = arg;
	struct hive_search_limits lim = { .stop = smp_stop, .stop_arg = h->stop, .helper = h->helper };
	h->rc = hive_search_run(h->s, h->b, &lim, &h->m, &h->info);
	return NULL;
}

static void test_lazy_smp(void)
{
	enum { HELPERS = 3 };
	struct hive_search *main_s = hive_search_new(TT_BYTES);
	size_t hsize = hive_search_helper_size();
	void *mem[HELPERS];
	struct smp_helper h[HELPERS];
	pthread_t th[HELPERS];
	CU_ASSERT_PTR_NOT_NULL_FATAL(main_s);
	CU_ASSERT(hsize < hive_search_size(TT_BYTES));
	CU_ASSERT_PTR_NULL(hive_search_init_helper(NULL, hsize, main_s));
	for (int i = 0; i < HELPERS; i++) {
		mem[i] = calloc(1, hsize);
		CU_ASSERT_PTR_NOT_NULL_FATAL(mem[i]);
		CU_ASSERT_PTR_NULL(hive_search_init_helper(mem[i], hsize - 1, main_s));
	}
	for (unsigned type = 0; type < 8; type++) {
		struct hive_board b;
		midgame(&b, 31 + type, type);
		atomic_int stop = 0;
		for (int i = 0; i < HELPERS; i++) {
			h[i] = (struct smp_helper){ .b = &b, .stop = &stop, .helper = i + 1 };
			h[i].s = hive_search_init_helper(mem[i], hsize, main_s);
			CU_ASSERT_PTR_NOT_NULL_FATAL(h[i].s);
			CU_ASSERT_EQUAL_FATAL(pthread_create(&th[i], NULL, smp_run, &h[i]), 0);
		}
		struct hive_search_limits lim = { .depth = 5 };
		struct hive_search_info info;
		struct hive_move m;
		int rc = hive_search_run(main_s, &b, &lim, &m, &info);
		/* Main is done: its helpers stop at their next poll. */
		atomic_store(&stop, 1);
		for (int i = 0; i < HELPERS; i++)
			pthread_join(th[i], NULL);
		if (hive_game_over(&b)) {
			CU_ASSERT_EQUAL(rc, -1);
			continue;
		}
		CU_ASSERT_EQUAL(rc, 0);
		CU_ASSERT(is_legal(&b, m));
		CU_ASSERT(info.depth == 5 || info.score >= MATE_BOUND || info.score <= -MATE_BOUND ||
			  info.pvlen == 1);
		for (int i = 0; i < HELPERS; i++) {
			CU_ASSERT_EQUAL(h[i].rc, 0);
			CU_ASSERT(is_legal(&b, h[i].m));
			CU_ASSERT(h[i].info.depth >= 1);
		}
	}
	/* Clearing a helper forgets its own tables, never main's. */
	hive_search_clear(h[0].s);
	for (int i = 0; i < HELPERS; i++)
		free(mem[i]);
	hive_search_free(main_s);
}

static void test_finished_game(void)
{
	static const char *over[] = {
		"Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1",
		"Base;WhiteWins;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 /bG1",
		"Base;Draw;White[11];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bG1 wA1/;wQ -bQ;bA1 \\wQ;wB1 -wS1;bG3 bG1-;wB1 /bA1;bG3 -bG2",
	};
	struct hive_search *s = hive_search_new(TT_BYTES);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	for (size_t i = 0; i < sizeof over / sizeof *over; i++) {
		struct hive_game g;
		CU_ASSERT_EQUAL_FATAL(load_game(&g, over[i]), HIVE_OK);
		CU_ASSERT(hive_game_over(&g.board));
		struct hive_search_limits lim = { .depth = 3 };
		struct hive_move m;
		CU_ASSERT_EQUAL(hive_search_run(s, &g.board, &lim, &m, NULL), -1);
		hive_game_free(&g);
	}
	hive_search_free(s);
}

static void test_forced_pass(void)
{
	static const char *gs = "Base;InProgress;White[7];wA1;bS1 wA1-;wQ -wA1;bQ bS1/;wQ \\wA1;"
		"bA1 bS1\\;wQ -wA1;bA2 bQ\\;wQ \\wA1;bA1 \\wQ;wG1 /wQ;bA2 /wG1";
	struct hive_search *s = hive_search_new(TT_BYTES);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct hive_game g;
	CU_ASSERT_EQUAL_FATAL(load_game(&g, gs), HIVE_OK);
	struct iter_log log = { 0 };
	struct hive_search_limits lim = { .depth = 5, .on_iteration = log_iteration,
					  .iteration_arg = &log };
	struct hive_search_info info;
	struct hive_move m;
	CU_ASSERT_EQUAL(hive_search_run(s, &g.board, &lim, &m, &info), 0);
	CU_ASSERT_EQUAL(m.piece, HIVE_PASS_PIECE);
	/* One legal move: answered without searching. */
	CU_ASSERT_EQUAL(info.nodes, 0);
	CU_ASSERT_EQUAL(log.count, 0);
	hive_game_free(&g);
	hive_search_free(s);
}

/* The same search from a cleared searcher visits the same nodes and picks the same move. */
static void test_deterministic(void)
{
	struct hive_search *s1 = hive_search_new(TT_BYTES), *s2 = hive_search_new(TT_BYTES);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s2);
	struct hive_board b;
	midgame(&b, 31337, 7);
	struct hive_search_limits lim = { .depth = 3 };
	struct hive_search_info i1, i2;
	struct hive_move m1, m2;
	CU_ASSERT_EQUAL(hive_search_run(s1, &b, &lim, &m1, &i1), 0);
	CU_ASSERT_EQUAL(hive_search_run(s2, &b, &lim, &m2, &i2), 0);
	CU_ASSERT(same_move(m1, m2));
	CU_ASSERT_EQUAL(i1.nodes, i2.nodes);
	CU_ASSERT_EQUAL(i1.score, i2.score);
	/* After a clear, s1 is as good as new. */
	hive_search_clear(s1);
	CU_ASSERT_EQUAL(hive_search_run(s1, &b, &lim, &m1, &i1), 0);
	CU_ASSERT_EQUAL(i1.nodes, i2.nodes);
	hive_search_free(s1);
	hive_search_free(s2);
}

/* An immediate win is taken, and a lost position is seen as lost. */
static void test_win_in_one(void)
{
	/* White to move; bQ has five neighbours and wA1 can slide into the sixth. */
	static const char *gs = "Base;InProgress;White[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;"
		"bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/";
	struct hive_search *s = hive_search_new(TT_BYTES);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct hive_game g;
	CU_ASSERT_EQUAL_FATAL(load_game(&g, gs), HIVE_OK);
	struct hive_search_limits lim = { .depth = 3 };
	struct hive_search_info info;
	struct hive_move m;
	CU_ASSERT_EQUAL(hive_search_run(s, &g.board, &lim, &m, &info), 0);
	CU_ASSERT(is_legal(&g.board, m));
	CU_ASSERT_EQUAL(info.score, HIVE_SCORE_WIN - 1);
	struct hive_undo u;
	hive_board_do(&g.board, m, &u);
	CU_ASSERT_EQUAL(g.board.state, HIVE_WHITE_WINS);
	hive_game_free(&g);
	hive_search_free(s);
}

/* Shuffling pieces back and forth must not make a deep search loop: positions that
 * repeat on the search path score as draws, and every iteration completes. */
static void test_deep_shuffle(void)
{
	static const char *gs = "Base;InProgress;White[7];wS1;bB1 wS1-;wQ \\wS1;bQ bB1\\;wQ -wS1;"
		"bQ bB1-;wQ \\wS1;bQ bB1\\;wQ -wS1;bQ bB1-;wQ \\wS1;bQ bB1\\";
	struct hive_search *s = hive_search_new(TT_BYTES);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	struct hive_game g;
	CU_ASSERT_EQUAL_FATAL(load_game(&g, gs), HIVE_OK);
	struct iter_log log = { 0 };
	struct hive_search_limits lim = { .depth = 10, .on_iteration = log_iteration,
					  .iteration_arg = &log };
	struct hive_search_info info;
	struct hive_move m;
	CU_ASSERT_EQUAL(hive_search_run(s, &g.board, &lim, &m, &info), 0);
	CU_ASSERT(is_legal(&g.board, m));
	CU_ASSERT_EQUAL(info.depth, 10);
	CU_ASSERT_EQUAL(log.count, 10);
	CU_ASSERT(info.pvlen >= 1 && info.pvlen <= HIVE_MAX_PLY);
	hive_game_free(&g);
	hive_search_free(s);
}

static void test_evaluate(void)
{
	struct hive_board b;
	hive_board_init(&b, 7);
	/* The start is symmetric but for the tempo of the side to move. */
	int v = hive_evaluate(&b);
	CU_ASSERT(v > 0 && v < 50);
	/* Finished games are scored as such, from the side to move's view. */
	struct hive_game g;
	CU_ASSERT_EQUAL_FATAL(load_game(&g, "Base;WhiteWins;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;"
		"wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 /bG1"), HIVE_OK);
	CU_ASSERT_EQUAL(hive_evaluate(&g.board), HIVE_SCORE_WIN);
	hive_game_free(&g);
	/* Over random mid-games the static score stays clear of the mate band. */
	uint64_t rng = 5;
	for (int i = 0; i < 200; i++) {
		random_position(&b, (unsigned)(i % 8), 10 + i % 50, &rng);
		if (hive_game_over(&b))
			continue;
		v = hive_evaluate(&b);
		CU_ASSERT(v > -MATE_BOUND && v < MATE_BOUND);
	}
}

static const struct unit_test tests[] = {
	{ "evaluate", test_evaluate },
	{ "finished game returns -1", test_finished_game },
	{ "forced pass", test_forced_pass },
	{ "win in one", test_win_in_one },
	{ "random positions: legal moves", test_random_positions_legal },
	{ "depth limit", test_depth_limit },
	{ "node limit", test_node_limit },
	{ "stop callback", test_stop_callback },
	{ "stop at entry", test_stop_at_entry },
	{ "deterministic", test_deterministic },
	{ "lazy smp: helpers share the table", test_lazy_smp },
	{ "deep search of a shuffle", test_deep_shuffle },
	{ "Mzinga: block the winning move", test_block_winning_move },
	{ "Mzinga: force-win puzzles", test_force_win_puzzles },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "search",
	.tests = tests,
};
