/*
 * test_positions.c: perft from mid-game positions, and single positions with known
 * move counts, moves or end states (hive-rules-reference.md §4.2, §4.3 and §5). The
 * numbers come from that reference, where MzingaCpp and nokamute agree on them.
 */
#include <time.h>
#include "tests/unit/testutil.h"
#include "tests/unit/unit.h"

/* perft(4) runs where perft(3) is small enough to stay well under a second (and
 * under 2 s with sanitizers); HIVE_PERFT_DEEP=1 runs it everywhere. */
#define PERFT4_MAX_PARENTS 200000ULL

struct perft_case {
	const char *name;
	const char *gs;
	uint64_t nodes[4];    /* depths 1..4 */
};

static const struct perft_case perft_cases[] = {
	{ "nokamute beetle_gate",
	  "Base+MLP;InProgress;White[5];wB1;bB1 -wB1;wQ wB1-;bQ /bB1;wB2 wQ-;bQ /wB1;wB2 wQ;bB1 bQ",
	  { 36, 965, 44307, 1749084 } },
	{ "Base ply 21",
	  "Base;InProgress;Black[11];wG1;bG1 \\wG1;wG2 wG1-;bS1 -bG1;wB1 /wG1;bG2 /bS1;wQ wG1\\;bQ bG1/;wA1 wQ\\;bG3 -bS1;wG3 wG2-;bS2 \\bS1;wS1 wA1-;bB1 /bG3;wA2 wG3\\;bA1 -bQ;wA1 wB1\\;bB2 bB1\\;wA1 -bB1;bB2 bG2;wB2 wG3/",
	  { 47, 3002, 154985, 9870514 } },
	{ "Base+M ply 21",
	  "Base+M;InProgress;Black[11];wM;bA1 wM/;wS1 /wM;bM \\bA1;wB1 /wS1;bA2 bA1-;wQ -wS1;bQ \\bA2;wA1 /wQ;bB1 bA2\\;wA1 bQ/;bM wB1\\;wB2 \\wA1;bB2 bB1-;wB2 wA1/;bM wB1;wQ -wM;bG1 /bB1;wB2 wA1;bA3 bM\\;wS2 wB2/",
	  { 59, 1410, 82891, 2766746 } },
	{ "Base+L ply 24",
	  "Base+L;InProgress;White[13];wS1;bS1 \\wS1;wS2 wS1\\;bG1 bS1/;wB1 wS2-;bQ -bG1;wQ wB1-;bA1 bG1-;wG1 \\wB1;bA2 \\bQ;wG2 wQ-;bS2 -bA2;wL wQ\\;bA1 wG2\\;wL \\wQ;bA1 bG1\\;wB1 wS2\\;bA3 bA1/;wB1 wS2;bG2 bS2\\;wG3 /wS1;bG2 bA2/;wB2 wL/;bA3 bG2/",
	  { 26, 2684, 114952, 10908853 } },
	{ "Base+P ply 26",
	  "Base+P;InProgress;White[14];wB1;bS1 wB1\\;wP wB1/;bS2 /bS1;wB2 \\wP;bP bS1-;wQ -wB1;bQ bP\\;wA1 -wB2;bB1 -bS2;wS1 /wA1;bB2 bQ/;wA1 /bB1;bB2 wP\\;wS2 wA1\\;bG1 bS1\\;wG1 \\wS1;bA1 bQ/;bB2 wP/;bP wP\\;wB2 \\bB2;bA1 wG1/;wA2 wS2\\;bA1 bP-;wB2 bB2;bA1 -bB1",
	  { 71, 3488, 247987, 13114514 } },
	{ "Base+ML ply 20",
	  "Base+ML;InProgress;White[11];wA1;bL wA1\\;wM wA1/;bS1 bL\\;wS1 wM/;bB1 bS1\\;wQ -wA1;bQ bB1\\;wB1 -wM;bG1 /bL;wS2 /wQ;bM /bG1;wG1 -wS2;bA1 bQ\\;wA2 wS1/;bA1 \\wA2;wG2 -wS1;bA2 bA1/;wM wS1;bA3 /bQ",
	  { 55, 6490, 383009, 44565074 } },
	{ "Base+MP ply 43",
	  "Base+MP;InProgress;Black[22];wG1;bS1 \\wG1;wG2 wG1\\;bB1 bS1/;wQ /wG2;bQ -bB1;wP wG2\\;bA1 -bQ;wA1 /wG1;bB2 bB1/;wM /wQ;bA1 /bS1;wA2 wP\\;bA1 wG2/;wG3 /wM;bP bA1/;wA3 -wA1;bG1 \\bB2;wA2 bP\\;bM /bQ;wA3 bB2-;wA2 bB1\\;wG2 wQ\\;bA2 /bM;wB1 wG3\\;bA3 -bM;wB2 wM\\;bG2 /bA3;wM wG3;bA3 \\wM;wA3 bP-;bS2 bG2\\;wA3 bA2\\;bA3 bB2/;wM \\wG3;bA3 bG1/;wA3 bB2\\;bG3 bA3-;wA3 /bG1;bB1 wA3;wA2 bP/;bS2 \\bG2;wS1 /wA1",
	  { 17, 1214, 31259, 2033907 } },
	{ "Base+LP ply 26",
	  "Base+LP;InProgress;White[14];wL;bB1 /wL;wG1 wL/;bA1 bB1\\;wP -wG1;bS1 /bB1;wQ wG1\\;bQ /bS1;wA1 \\wG1;bA1 wQ-;wG1 -wA1;bA2 bB1\\;wG2 \\wA1;bA1 wL\\;wA1 wQ\\;bB2 -bS1;wA1 wG2/;bA1 wG2\\;wB1 /wG1;bP /bQ;wB2 -wG1;bA3 bP\\;wQ wL\\;bA3 /wB1;wB2 wB1;bA2 wQ-",
	  { 54, 6071, 355745, 37915446 } },
	{ "Base+MLP ply 35",
	  "Base+MLP;InProgress;Black[18];wA1;bB1 wA1/;wG1 wA1\\;bM \\bB1;wS1 /wG1;bP bB1-;wQ wG1\\;bQ bP\\;wB1 /wA1;bL \\bP;wM -wA1;bS1 bL/;wL wQ\\;bS2 bQ\\;wS2 /wS1;bG1 bQ/;wG2 wS2\\;bM bL;wA2 wS1\\;bG1 bB1\\;wM bS1/;bG1 -wA1;wG1 /bG1;bA1 bQ/;wG3 wL-;bS2 wG3/;wG2 /bQ;bA2 bA1/;wA3 wG3\\;bA2 bQ\\;wL /wS2;bA1 /wA3;wM bQ/;bA1 wM\\;wA3 -wG1",
	  { 77, 9698, 753234, 86790470 } },
};

static void test_perft_positions(void)
{
	const char *deep = getenv("HIVE_PERFT_DEEP");
	int all4 = deep && *deep && *deep != '0';
	for (size_t i = 0; i < sizeof perft_cases / sizeof perft_cases[0]; i++) {
		const struct perft_case *c = &perft_cases[i];
		struct hive_game g;
		hive_game_init(&g, 0);
		if (tu_load(&g, c->gs) != HIVE_OK) {
			hive_game_free(&g);
			continue;
		}
		uint64_t hash = g.board.hash;
		int maxd = all4 || c->nodes[2] <= PERFT4_MAX_PARENTS ? 4 : 3;
		for (int d = 1; d <= maxd; d++) {
			clock_t t0 = clock();
			uint64_t n = (uint64_t)hive_perft(&g.board, d, NULL, NULL);
			double ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC;
			if (n != c->nodes[d - 1])
				fprintf(stderr, "perft(%d) of %s = %llu, expected %llu\n", d, c->name,
					(unsigned long long)n, (unsigned long long)c->nodes[d - 1]);
			else if (d == maxd)
				fprintf(stderr, "  perft(%d) %-22s %10llu  %.0f ms\n", d, c->name,
					(unsigned long long)n, ms);
			CU_ASSERT_EQUAL(n, c->nodes[d - 1]);
		}
		/* perft leaves the position as it found it */
		CU_ASSERT_EQUAL(g.board.hash, hash);
		CU_ASSERT_EQUAL(hive_board_check(&g.board), 0);
		hive_game_free(&g);
	}
}

/*
 * Single positions: the whole move count of the side to move, moves that must be
 * there, moves that must not, and the state.
 */
struct position_case {
	const char *name;
	const char *gs;
	int state;
	size_t count;              /* number of legal moves (0 when the game is over) */
	const char *must;          /* ';'-separated moves that must be legal, or NULL */
	const char *piece;         /* with piece_moves: how many moves this piece has */
	size_t piece_moves;
	const char *must_not;      /* ';'-separated moves that must be rejected, or NULL */
};

static const struct position_case position_cases[] = {
	{ "Mzinga #102 spider (E1)",
	  "Base;InProgress;White[5];wA1;bG1 -wA1;wB1 wA1/;bA1 -bG1;wQ \\wB1;bQ \\bA1;wS1 \\wQ;bS1 bQ/",
	  HIVE_IN_PROGRESS, 32, "wS1 wB1-;wS1 /wQ;wS1 \\bS1;wS1 bS1\\", "wS1", 4, NULL },
	{ "Mzinga #116 spider (E2)",
	  "Base;InProgress;White[6];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 /wQ;bB1 bS1\\;wB1 wG1\\;bG1 /bB1;wS2 wQ\\;bQ bB1/",
	  HIVE_IN_PROGRESS, 34, "wS2 /bG1;wS2 bG1\\;wS2 wB1\\;wS2 /wB1", "wS2", 4, NULL },
	{ "nokamute beetle_gate start",
	  "Base+MLP;InProgress;White[5];wB1;bB1 -wB1;wQ wB1-;bQ /bB1;wB2 wQ-;bQ /wB1;wB2 wQ;bB1 bQ",
	  HIVE_IN_PROGRESS, 36, NULL, "wB2", 6, NULL },
	{ "forced pass (2.9)",
	  "Base;InProgress;White[7];wA1;bS1 wA1-;wQ -wA1;bQ bS1/;wQ \\wA1;bA1 bS1\\;wQ -wA1;bA2 bQ\\;wQ \\wA1;bA1 \\wQ;wG1 /wQ;bA2 /wG1",
	  HIVE_IN_PROGRESS, 1, "pass", NULL, 0, NULL },
	{ "beetle gate at height (E4)",
	  "Base;InProgress;White[12];wB1;bS1 wB1-;wQ \\wB1;bQ bS1/;wB2 -wQ;bB1 bQ\\;wS1 /wB2;bB1 bS1;wG1 /wS1;bQ \\bB1;wG2 wG1\\;bB2 bQ/;wG3 wG2\\;bB2 \\bQ;wA1 wG3-;bB2 wQ;wA2 wA1-;bA1 bQ/;wS2 wA2-;bA1 bB1/;wA3 wS2/;bA1 wA3/",
	  HIVE_IN_PROGRESS, 4, "wB1 bB2;wB1 bB1;wB1 /bB1;wB1 wB2\\", NULL, 0, NULL },
	{ "ladybug gate (E5)",
	  "Base+L;InProgress;White[14];wL;bG1 wL/;wQ -wL;bQ bG1/;wQ -bG1;bG2 bQ-;wB1 \\wQ;bB1 bG2-;wS1 \\wB1;bB1 bG2;wS2 \\wS1;bG3 \\bQ;wG1 wS2/;bB2 bG3/;wB2 wG1/;bB2 bG3;wA1 wB2-;bA1 bB1-;wA2 wA1-;bA1 bB1\\;wG2 wA2-;bA1 bB1-;wG3 wG2\\;bA1 bB1\\;wA3 wG3\\;bA1 wA3\\",
	  HIVE_IN_PROGRESS, 7, "wL -bB2;wL /bB2;wL /wB1;wL /wS1;wL bQ\\;wL bG1\\;wL /wQ", NULL, 0, NULL },
	{ "pillbug throw through a gate of stacks (E6)",
	  "Base+P;InProgress;White[9];wP;bB1 wP-;wQ /wP;bQ bB1/;wQ wP\\;bQ \\bB1;wQ /wP;bA1 bQ/;wQ wP\\;bA1 -bQ;wQ /wP;bB2 \\bQ;wQ wP\\;bB2 bQ;bA1 -wP;bB1 wQ",
	  HIVE_IN_PROGRESS, 2, "bA1 -bB2;bA1 /wP", NULL, 0, NULL },
	{ "pillbug can't throw the last move (E7)",
	  "Base+P;InProgress;White[15];wP;bS1 wP-;wQ /wP;bQ bS1-;wB1 -wQ;bB1 bS1\\;wG1 wB1\\;bB1 wP\\;wS1 wG1\\;bQ bS1/;wB1 -wP;bB1 wQ;wG2 wS1\\;bB1 wB1;wG3 wG2\\;bA1 bQ\\;wS2 wG3-;bA1 bS1\\;wA1 wS2/;bA1 bQ\\;wA2 wA1/;bA1 bS1\\;wA3 wA2/;bA1 bQ\\;wB2 wA3/;bA1 wB2/;pass;bQ \\bS1",
	  HIVE_IN_PROGRESS, 2, "bS1 -bQ;bS1 wP\\", NULL, 0, NULL },
	{ "just moved is not throwable (E7, hivegame)",
	  "Base+MLP;InProgress;Black[4];wP;bL wP-;wQ -wP;bP bL/;wM \\wP;bQ \\bP;wM /bQ",
	  HIVE_IN_PROGRESS, 48, NULL, "wM", 0, "wM bP-" },
	{ "draw (E12)",
	  "Base;Draw;White[11];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bG1 wA1/;wQ -bQ;bA1 \\wQ;wB1 -wS1;bG3 bG1-;wB1 /bA1;bG3 -bG2",
	  HIVE_DRAW, 0, NULL, NULL, 0, NULL },
	{ "black suicide (E12)",
	  "Base;WhiteWins;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 /bG1",
	  HIVE_WHITE_WINS, 0, NULL, NULL, 0, NULL },
	{ "white wins (nokamute)",
	  "Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1",
	  HIVE_WHITE_WINS, 0, NULL, NULL, 0, NULL },
	{ "nokamute issue 5: beetles on queens, not over (E12)",
	  "Base;InProgress;black[11];wA1;bA1 wA1-;wQ /wA1;bQ bA1/;wS1 /wQ;bS1 bQ-;wS2 wQ\\;bS2 bS1\\;wS1 wS2-;bB1 /bS2;wA2 -wA1;bA2 bA1-;wB1 \\wA1;bB1 bA2;wB1 wA2;bB1 bQ;wB1 wQ;bB1 \\bB1;wB1 wB1-;bB1 bQ;wB1 wQ",
	  HIVE_IN_PROGRESS, 49, NULL, NULL, 0, NULL },
	{ "tournament opening",
	  "Base;NotStarted;White[1]",
	  HIVE_NOT_STARTED, 4, "wG1;wS1;wA1;wB1", NULL, 0, "wQ" },
	{ "Base+MLP opening",
	  "Base+MLP;NotStarted;White[1]",
	  HIVE_NOT_STARTED, 7, "wS1;wB1;wG1;wA1;wM;wL;wP", NULL, 0, "wQ;wS2" },
};

static void check_position(const struct position_case *c)
{
	static struct tu_moveset got, want;
	struct hive_game g;
	char err[256];

	hive_game_init(&g, 0);
	if (tu_load(&g, c->gs) != HIVE_OK) {
		fprintf(stderr, "  in %s\n", c->name);
		hive_game_free(&g);
		return;
	}
	CU_ASSERT_EQUAL(hive_board_check(&g.board), 0);
	CU_ASSERT_EQUAL(g.board.state, c->state);
	CU_ASSERT_EQUAL(tu_generated(&g.board, &got), 0);
	CU_ASSERT_EQUAL(hive_board_count_moves(&g.board), got.n);
	if (got.n != c->count)
		fprintf(stderr, "%s: %zu moves, expected %zu\n", c->name, got.n, c->count);
	CU_ASSERT_EQUAL(got.n, c->count);
	if (c->must) {
		CU_ASSERT_EQUAL(tu_expected(&g.board, c->must, &want), 0);
		CU_ASSERT_EQUAL(tu_compare(c->name, &want, &got, 0), 0);
	}
	if (c->piece) {
		int p = hive_piece_parse(c->piece, strlen(c->piece));
		size_t n = 0;
		CU_ASSERT_FATAL(p >= 0);
		for (size_t i = 0; i < got.n; i++)
			n += got.key[i] >> 24 == (uint32_t)p;
		if (n != c->piece_moves)
			fprintf(stderr, "%s: %s has %zu moves, expected %zu\n", c->name, c->piece, n, c->piece_moves);
		CU_ASSERT_EQUAL(n, c->piece_moves);
	}
	if (c->must_not) {
		CU_ASSERT_EQUAL(tu_expected(&g.board, c->must_not, &want), 0);
		for (size_t i = 0; i < want.n; i++) {
			struct hive_move m;
			CU_ASSERT_FALSE(tu_in(&got, want.key[i]));
			CU_ASSERT_EQUAL(hive_move_parse(&g.board, want.text[i], &m, err, sizeof err), HIVE_ERR_ILLEGAL);
		}
	}
	if (hive_game_over(&g.board)) {
		struct hive_move m;
		CU_ASSERT_EQUAL(hive_move_parse(&g.board, "pass", &m, err, sizeof err), HIVE_ERR_GAMEOVER);
		CU_ASSERT_STRING_EQUAL(err, "You can't pass, the game is over.");
	}
	hive_game_free(&g);
}

static void test_single_positions(void)
{
	for (size_t i = 0; i < sizeof position_cases / sizeof position_cases[0]; i++)
		check_position(&position_cases[i]);
}

/* The game that ends on move 21 of the Draw string: every prefix is in progress. */
static void test_game_end_prefixes(void)
{
	const char *gs = position_cases[9].gs;
	struct hive_game g;
	hive_game_init(&g, 0);
	CU_ASSERT_EQUAL_FATAL(tu_load(&g, gs), HIVE_OK);
	size_t len = g.len;
	CU_ASSERT_EQUAL(g.board.state, HIVE_DRAW);
	CU_ASSERT_EQUAL(hive_game_undo(&g, 1), HIVE_OK);
	CU_ASSERT_EQUAL(g.board.state, HIVE_IN_PROGRESS);
	CU_ASSERT(hive_board_count_moves(&g.board) > 0);
	CU_ASSERT_EQUAL(hive_game_undo(&g, len - 1), HIVE_OK);
	CU_ASSERT_EQUAL(g.board.state, HIVE_NOT_STARTED);
	CU_ASSERT_EQUAL(g.board.ply, 0);
	CU_ASSERT_EQUAL(hive_board_check(&g.board), 0);
	hive_game_free(&g);
}

/* White's two Ants trade places while Black's Ant goes back and forth: the position
 * after ply 16 is the one after ply 8 with wA1 and wA2 swapped. */
static const char ant_swap[] =
	"%s;InProgress;White[9];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bQ-;wA2 /wQ;bA1 bQ\\;"
	"wA1 \\wQ;bA1 bQ-;wA2 -wQ;bA1 bQ\\;wA1 \\wS1;bA1 bQ-;wA1 /wQ;bA1 bQ\\";

/* Keys after ply 16, 12 and 8 of ant_swap, their hashes, and the board after ply 16. */
static void ant_swap_keys(const char *type, uint64_t key[3], uint64_t hash[3], struct hive_board *last)
{
	char gs[sizeof ant_swap + 16];
	struct hive_game g;
	snprintf(gs, sizeof gs, ant_swap, type);
	hive_game_init(&g, 0);
	CU_ASSERT_EQUAL_FATAL(tu_load(&g, gs), HIVE_OK);
	CU_ASSERT_EQUAL_FATAL(g.len, 16);
	*last = g.board;
	for (int i = 0; i < 3; i++) {
		key[i] = hive_board_position_key(&g.board);
		hash[i] = g.board.hash;
		CU_ASSERT_EQUAL(hive_game_undo(&g, 4), HIVE_OK);
	}
	hive_game_free(&g);
}

/* Game 50 of docs/strength/movetime-mlp.jsonl, to the position nokamute called drawn
 * (and then refused Black's next move in): its third occurrence, if the stun of the
 * piece moved last is left out, as nokamute's rule leaves it. */
static const char nokamute_draw[] =
	"Base+MLP;InProgress;Black[65];wM;bP -wM;wP wM-;bL \\bP;wB1 wM\\;bA1 /bL;wQ \\wP;bQ -bL;"
	"wB1 -wQ;bP /wM;wQ wP/;bA2 \\bL;wS1 wB1/;bA2 wQ-;wS1 \\bQ;bA1 \\wQ;bP /bA1;bA3 bA2/;wM bP;"
	"bA3 \\wS1;wA1 wB1\\;bA1 /wA1;wA2 \\wM;bA2 \\wA2;wP wQ\\;bM \\bA3;wL wM\\;bM wQ/;wL bL\\;"
	"bG1 \\bA2;wA1 /bA2;bG1 wM\\;wA2 /bQ;bA3 -wA1;wA3 wA2\\;bA1 wA3\\;wL bQ\\;bL /wB1;wP bM\\;"
	"bM wP/;wL /bA1;bS1 bM/;wG1 -wA2;bS1 \\wQ;wG1 bQ\\;bG2 bA1-;wB2 -wS1;bG2 /wA3;wL bA1\\;"
	"bA3 \\wB2;wS2 wS1/;bB1 /bG2;wS2 \\bA2;bB2 bS1/;wA2 \\bB2;bB1 bG2\\;wG2 wS1/;bB1 wL;wG2 wB2\\;"
	"bS2 bG2\\;wG3 /wB2;bA1 /wS2;wG3 /wA1;bL -wA3;wM bG1;bG3 /bL;wM wB1\\;bG3 wA3\\;wA2 bB2/;"
	"bA2 wA2/;wM bG1;bG2 wS2\\;bM wP-;bA1 wB1\\;wM bA1;bA2 wA2-;bM wP\\;bA3 -wB2;bM wP/;"
	"bA3 \\wB2;wS2 -wA2;bA2 wA2/;wS2 bA2/;bM wP-;wS1 \\bA3;bM wP\\;wS1 \\bQ;bL /wA3;wM bG1;"
	"bM wP-;wM bA1;bM wP\\;wG2 \\bA3;bM wP-;wM bG1;bA1 wS2-;bM wP\\;bA1 \\wG2;wM bP;bA1 wG2/;"
	"wS2 -wA2;bA2 wA2-;wS2 bA2/;bA1 \\wG2;bM wP/;bA1 -wG2;bM wP-;bA1 \\bM;wM wB1\\;bA1 wG2/;"
	"wM wB1;bM wP/;wM bP;bA1 -wG2;wM bS1;bL bB1-;wM bG2\\;bA1 -bG2;bG2 -bB2;wM wB1\\;bM wP-;"
	"wM /bG2;wG2 wB2\\;wM wB1\\;wG2 \\bA3;wM /bG2;wG2 wB2\\;wM wB1\\;wG2 \\bA3";

/* The repetition key names bugs, not ids, and leaves the stun out, as nokamute does. */
static void test_position_key(void)
{
	uint64_t key[3], hash[3];
	struct hive_board b;

	ant_swap_keys("Base", key, hash, &b);
	CU_ASSERT_EQUAL(key[0], key[2]);
	CU_ASSERT_NOT_EQUAL(hash[0], hash[2]);
	CU_ASSERT_NOT_EQUAL(key[0], key[1]);
	CU_ASSERT_NOT_EQUAL(key[1], key[2]);
	uint64_t base = key[0];
	b.ply++;                                  /* the other side to move */
	CU_ASSERT_NOT_EQUAL(hive_board_position_key(&b), base);

	/* The same bugs on the same cells: the game type does not enter. */
	ant_swap_keys("Base+MLP", key, hash, &b);
	CU_ASSERT_EQUAL(key[0], key[2]);
	CU_ASSERT_NOT_EQUAL(key[0], key[1]);
	CU_ASSERT_EQUAL(key[0], base);

	/* bA1 has just come next to wP, which may not throw it this turn: fewer moves,
	 * the same key. */
	struct hive_game g;
	hive_game_init(&g, 0);
	CU_ASSERT_EQUAL_FATAL(tu_load(&g, "Base+MLP;InProgress;White[5];wP;bS1 wP-;wQ -wP;bQ bS1-;"
					  "wA1 -wQ;bA1 bQ-;wS1 /wQ;bA1 wP\\"), HIVE_OK);
	b = g.board;
	b.last_moved = HIVE_NO_PIECE;
	CU_ASSERT(hive_board_count_moves(&b) > hive_board_count_moves(&g.board));
	CU_ASSERT_EQUAL(hive_board_position_key(&b), hive_board_position_key(&g.board));
	hive_game_free(&g);

	hive_game_init(&g, 0);
	CU_ASSERT_EQUAL_FATAL(tu_load(&g, nokamute_draw), HIVE_OK);
	uint64_t last = hive_board_position_key(&g.board);
	int seen = 1;
	while (g.len > 0) {
		CU_ASSERT_EQUAL_FATAL(hive_game_undo(&g, 1), HIVE_OK);
		seen += hive_board_position_key(&g.board) == last;
	}
	CU_ASSERT_EQUAL(seen, 3);
	hive_game_free(&g);
}

static const struct unit_test tests[] = {
	{ "perft from mid-game positions", test_perft_positions },
	{ "single positions: counts, moves, end states", test_single_positions },
	{ "undo out of a finished game", test_game_end_prefixes },
	{ "repetition key: bugs, not piece ids", test_position_key },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "positions",
	.tests = tests,
};
