/*
 * test_findmove.c: hive_board_find_move() checks one move without generating the
 * whole position's; it must agree exactly with hive_board_moves(). On random games of
 * all eight types (fixed seed, long enough for stacks, pins and throws), every
 * (piece, cell) pair near the hive, and the pass, is asked of both. Likewise
 * hive_board_moves_to() (the search's look for a queen-surrounding move) must list
 * exactly the generated moves to its cell, in their order, for every cell near the hive.
 */
#include "tests/unit/testutil.h"

#define GAMES_PER_TYPE 6
#define MAX_PLIES      120

static struct hive_move moves[HIVE_MAX_MOVES];

/* Whether (piece, to) is among the generated moves; *from gets its source. */
static int generated(size_t n, unsigned piece, uint16_t to, uint16_t *from)
{
	for (size_t i = 0; i < n; i++)
		if (moves[i].piece == piece && (piece == HIVE_PASS_PIECE || moves[i].to == to)) {
			*from = moves[i].from;
			return 1;
		}
	return 0;
}

static void check_position(const struct hive_board *b, size_t n, size_t *asked, size_t *bad)
{
	uint8_t near[HIVE_CELLS] = { 0 };
	near[HIVE_ORIGIN] = 1;
	for (int p = 0; p < HIVE_PIECES; p++) {
		if (b->pos[p] == HIVE_NOWHERE)
			continue;
		near[b->pos[p]] = 1;
		for (int d = 0; d < HIVE_DIRS; d++) {
			uint16_t c = hive_cell_step(b->pos[p], d);
			near[c] = 1;
			for (int e = 0; e < HIVE_DIRS; e++)
				near[hive_cell_step(c, e)] = 1;
		}
	}
	for (unsigned p = 0; p <= HIVE_PIECES; p++) {
		unsigned piece = p == HIVE_PIECES ? HIVE_PASS_PIECE : p;
		for (uint16_t c = 0; c < HIVE_CELLS; c++) {
			if (!near[c] && piece != HIVE_PASS_PIECE)
				continue;
			struct hive_move m = { .piece = (uint8_t)piece, .from = 0, .to = c }, legal;
			uint16_t from = 0;
			int want = generated(n, piece, c, &from);
			int got = hive_board_find_move(b, m, &legal);
			int same = got == want && (!got || (legal.piece == piece && legal.from == from &&
							     (piece == HIVE_PASS_PIECE || legal.to == c)));
			*bad += !same;
			if (!same)
				fprintf(stderr, "find_move disagrees: ply %u piece %u cell %u: %d vs %d\n",
					(unsigned)b->ply, piece, c, got, want);
			(*asked)++;
			if (piece == HIVE_PASS_PIECE)
				break;
		}
	}
}

static struct hive_move moves_to[HIVE_MAX_MOVES];

static void check_moves_to(const struct hive_board *b, size_t n, size_t *asked, size_t *bad)
{
	uint8_t near[HIVE_CELLS] = { 0 };
	near[HIVE_ORIGIN] = 1;
	for (int p = 0; p < HIVE_PIECES; p++) {
		if (b->pos[p] == HIVE_NOWHERE)
			continue;
		for (int d = 0; d < HIVE_DIRS; d++) {
			uint16_t c = hive_cell_step(b->pos[p], d);
			near[c] = 1;
			for (int e = 0; e < HIVE_DIRS; e++)
				near[hive_cell_step(c, e)] = 1;
		}
	}
	for (uint16_t c = 0; c < HIVE_CELLS; c++) {
		if (!near[c])
			continue;
		size_t k = hive_board_moves_to(b, c, moves_to), j = 0;
		int same = 1;
		for (size_t i = 0; i < n && same; i++) {
			if (moves[i].piece == HIVE_PASS_PIECE || moves[i].to != c)
				continue;
			same = j < k && moves_to[j].piece == moves[i].piece &&
			       moves_to[j].from == moves[i].from && moves_to[j].to == c;
			j++;
		}
		same = same && j == k;
		*bad += !same;
		if (!same)
			fprintf(stderr, "moves_to disagrees: ply %u cell %u: %zu listed, %zu generated\n",
				(unsigned)b->ply, c, k, j);
		(*asked)++;
	}
}

static void test_moves_to_matches_generator(void)
{
	struct tu_rng rng = { 20261123 };
	size_t positions = 0, asked = 0, bad = 0;
	for (unsigned type = 0; type < 8; type++) {
		for (int gi = 0; gi < GAMES_PER_TYPE; gi++) {
			struct hive_board b;
			hive_board_init(&b, type);
			for (int ply = 0; ply < MAX_PLIES && !hive_game_over(&b); ply++) {
				size_t n = hive_board_moves(&b, moves);
				check_moves_to(&b, n, &asked, &bad);
				positions++;
				struct hive_undo u;
				hive_board_do(&b, moves[tu_rng_below(&rng, n)], &u);
			}
			check_moves_to(&b, hive_board_moves(&b, moves), &asked, &bad);
		}
	}
	printf("\n  %zu positions, %zu cells asked\n", positions, asked);
	CU_ASSERT(positions > 1000);
	CU_ASSERT_EQUAL(bad, 0);
}

static void test_find_matches_generator(void)
{
	struct tu_rng rng = { 20240611 };
	size_t positions = 0, asked = 0, bad = 0;
	for (unsigned type = 0; type < 8; type++) {
		for (int gi = 0; gi < GAMES_PER_TYPE; gi++) {
			struct hive_board b;
			hive_board_init(&b, type);
			for (int ply = 0; ply < MAX_PLIES && !hive_game_over(&b); ply++) {
				size_t n = hive_board_moves(&b, moves);
				check_position(&b, n, &asked, &bad);
				positions++;
				struct hive_undo u;
				hive_board_do(&b, moves[tu_rng_below(&rng, n)], &u);
			}
			/* The finished position answers nothing. */
			check_position(&b, hive_board_moves(&b, moves), &asked, &bad);
		}
	}
	printf("\n  %zu positions, %zu (piece, cell) pairs asked\n", positions, asked);
	CU_ASSERT(positions > 1000);
	CU_ASSERT_EQUAL(bad, 0);
}

int main(void)
{
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	CU_pSuite s = CU_add_suite("findmove", NULL, NULL);
	if (!s || !CU_add_test(s, "find_move agrees with the generator", test_find_matches_generator) ||
	    !CU_add_test(s, "moves_to agrees with the generator", test_moves_to_matches_generator)) {
		CU_cleanup_registry();
		return 1;
	}
	return tu_run();
}
