/*
 * test_findmove.c: hive_board_find_move() checks one move without generating the
 * whole position's; it must agree exactly with hive_board_moves(). On random games of
 * all eight types (fixed seed, long enough for stacks, pins and throws), every
 * (piece, cell) pair near the hive, and the pass, is asked of both. Likewise
 * hive_board_moves_to() (the search's look for a queen-surrounding move) must list
 * exactly the generated moves to its cell, in their order, for every cell near the hive.
 */
#include "tests/unit/testutil.h"
#include "tests/unit/unit.h"

#define GAMES_PER_TYPE 6
#define MAX_PLIES      120
#define MOVES_TO_GAMES 6        /* per type: uniform, movements, climbs and throws */
#define MOVES_TO_PLIES 90

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

/* Hex distance of two cells near each other (axial q, r from the ring's cell). */
static int distance(uint16_t a, uint16_t b)
{
	int dq = (b & 31) - (a & 31), dr = (b >> 5) - (a >> 5);
	dq = ((dq + 48) & 31) - 16;     /* the hive spans less than 16 either way here */
	dr = ((dr + 48) & 31) - 16;
	int ds = dq + dr;
	return ((dq < 0 ? -dq : dq) + (dr < 0 ? -dr : dr) + (ds < 0 ? -ds : ds)) / 2;
}

/* What the positions exercised, so that a weak sample fails rather than passes. */
struct moves_to_seen {
	size_t positions, asked, bad;
	size_t no_queen, throw_enemy, throw_own, throw_mosquito, on_top, climb;
	size_t spider_d[4], ladybug_d[4], hopper_far, mosquito_far, pillbug_walk, ant;
};

/* Every cell occupied or within 4 steps of an occupied cell (the origin when empty):
 * moves_to(c) must be exactly the generated moves to c, in their order. */
static void check_moves_to(const struct hive_board *b, struct moves_to_seen *st)
{
	uint8_t near[HIVE_CELLS] = { 0 };
	size_t n = hive_board_moves(b, moves);
	int side = hive_side_to_move(b);
	near[HIVE_ORIGIN] = 1;
	for (int p = 0; p < HIVE_PIECES; p++)
		if (b->pos[p] != HIVE_NOWHERE)
			near[b->pos[p]] = 1;
	for (int ring = 0; ring < 4; ring++) {
		uint8_t next[HIVE_CELLS];
		memcpy(next, near, sizeof next);
		for (int c = 0; c < HIVE_CELLS; c++)
			if (near[c])
				for (int d = 0; d < HIVE_DIRS; d++)
					next[hive_cell_step((uint16_t)c, d)] = 1;
		memcpy(near, next, sizeof near);
	}
	st->positions++;
	if (b->pos[HIVE_PIECE(side, 0)] == HIVE_NOWHERE && n > 0 && moves[0].piece != HIVE_PASS_PIECE)
		st->no_queen++;
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
		st->bad += !same;
		if (!same) {
			char gs[64];
			fprintf(stderr, "moves_to disagrees: type %u ply %u cell %u: %zu listed, %zu generated\n",
				(unsigned)b->type, (unsigned)b->ply, c, k, j);
			for (size_t i = 0; i < n; i++)
				if (moves[i].to == c) {
					hive_move_format(b, moves[i], gs, sizeof gs);
					fprintf(stderr, "  generated %s\n", gs);
				}
			for (size_t i = 0; i < k; i++) {
				hive_move_format(b, moves_to[i], gs, sizeof gs);
				fprintf(stderr, "  listed    %s\n", gs);
			}
		}
		st->asked++;
	}
	/* Tally what kinds of move the cells above were asked about. */
	for (size_t i = 0; i < n; i++) {
		struct hive_move m = moves[i];
		if (m.piece == HIVE_PASS_PIECE || m.from == HIVE_NOWHERE)
			continue;
		int bug = hive_piece_bug(m.piece), dist = distance(m.from, m.to);
		int users[4], nu = hive_board_throw_users(b, m, users, 4);
		if (HIVE_PIECE_COLOR(m.piece) != side)
			st->throw_enemy++;
		else if (nu > 0)
			st->throw_own++;
		for (int u = 0; u < nu; u++)
			st->throw_mosquito += hive_piece_bug(users[u]) == HIVE_MOSQUITO;
		if (HIVE_PIECE_COLOR(m.piece) != side)
			continue;
		st->on_top += b->level[m.piece] > 0;
		st->climb += b->height[m.to] > 0;
		if (bug == HIVE_SPIDER && dist <= 3)
			st->spider_d[dist]++;
		if (bug == HIVE_LADYBUG && dist <= 3)
			st->ladybug_d[dist]++;
		st->hopper_far += bug == HIVE_GRASSHOPPER && dist >= 3;
		st->mosquito_far += bug == HIVE_MOSQUITO && b->level[m.piece] == 0 && dist >= 2;
		st->pillbug_walk += bug == HIVE_PILLBUG && nu == 0;
		st->ant += bug == HIVE_ANT;
	}
}

/* A random move, often a movement rather than a placement (stacks, throws, pins). */
static struct hive_move pick_move(const struct hive_board *b, size_t n, struct tu_rng *rng, int style)
{
	if (style > 0 && tu_rng_below(rng, 4) != 0) {
		size_t cand[HIVE_MAX_MOVES], nc = 0;
		for (size_t i = 0; i < n; i++)
			if (moves[i].piece != HIVE_PASS_PIECE && moves[i].from != HIVE_NOWHERE &&
			    (style == 1 || b->height[moves[i].to] > 0 ||
			     HIVE_PIECE_COLOR(moves[i].piece) != hive_side_to_move(b)))
				cand[nc++] = i;
		if (nc)
			return moves[cand[tu_rng_below(rng, nc)]];
	}
	return moves[tu_rng_below(rng, n)];
}

static void test_moves_to_matches_generator(void)
{
	struct tu_rng rng = { 20261123 };
	struct moves_to_seen st = { 0 };
	for (unsigned type = 0; type < 8; type++) {
		for (int gi = 0; gi < MOVES_TO_GAMES; gi++) {
			struct hive_board b;
			hive_board_init(&b, type);
			for (int ply = 0; ply < MOVES_TO_PLIES && !hive_game_over(&b); ply++) {
				check_moves_to(&b, &st);
				size_t n = hive_board_moves(&b, moves);
				struct hive_undo u;
				hive_board_do(&b, pick_move(&b, n, &rng, gi % 3), &u);
			}
			check_moves_to(&b, &st);
		}
	}
	printf("\n  %zu positions, %zu cells asked; queen in hand %zu, throws %zu enemy %zu own"
	       " %zu by a mosquito, on top %zu, climbs %zu, spider at 1/2/3 %zu/%zu/%zu,"
	       " ladybug at 1/2/3 %zu/%zu/%zu, grasshopper 3+ %zu, mosquito 2+ %zu,"
	       " pillbug walks %zu, ant %zu\n",
	       st.positions, st.asked, st.no_queen, st.throw_enemy, st.throw_own, st.throw_mosquito,
	       st.on_top, st.climb, st.spider_d[1], st.spider_d[2], st.spider_d[3],
	       st.ladybug_d[1], st.ladybug_d[2], st.ladybug_d[3], st.hopper_far, st.mosquito_far,
	       st.pillbug_walk, st.ant);
	CU_ASSERT(st.positions > 2000);
	CU_ASSERT(st.no_queen > 0 && st.throw_enemy > 0 && st.throw_own > 0 && st.throw_mosquito > 0);
	CU_ASSERT(st.on_top > 0 && st.climb > 0 && st.hopper_far > 0 && st.mosquito_far > 0);
	CU_ASSERT(st.spider_d[1] > 0 && st.spider_d[2] > 0 && st.spider_d[3] > 0);
	CU_ASSERT(st.ladybug_d[1] > 0 && st.ladybug_d[2] > 0 && st.ladybug_d[3] > 0);
	CU_ASSERT(st.pillbug_walk > 0 && st.ant > 0);
	CU_ASSERT_EQUAL(st.bad, 0);
}

/* The reference positions of ../shared/data, and every earlier position of their games. */
static void test_moves_to_data(void)
{
	static const char *const files[] = {
		"mzinga/Board_ValidMovesFromRealGamesTest.csv",
		"mzinga/Board_ValidMovesForBeetleTest.csv", "mzinga/Board_ValidMovesForGrasshopperTest.csv",
		"mzinga/Board_ValidMovesForLadybugTest.csv", "mzinga/Board_ValidMovesForMosquitoTest.csv",
		"mzinga/Board_ValidMovesForPillbugTest.csv", "mzinga/Board_ValidMovesForQueenBeeTest.csv",
		"mzinga/Board_ValidMovesForSoldierAntTest.csv", "mzinga/Board_ValidMovesForSpiderTest.csv",
		"mzinga/Board_InvalidMovesByRuleTest.csv",
		"mzinga/PuzzleCandidate_IsOneBestMoveToForceWinPuzzleTest.csv",
		"mzinga/GameAI_BlockWinningMoveIsBestMoveTest.csv",
		"nokamute/uhp_tests.txt",
	};
	static char text[1 << 20];
	struct moves_to_seen st = { 0 };
	size_t games = 0;
	for (size_t fi = 0; fi < sizeof files / sizeof files[0]; fi++) {
		FILE *f = tu_open_data(files[fi]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		size_t len = fread(text, 1, sizeof text - 1, f);
		CU_ASSERT(feof(f));
		fclose(f);
		text[len] = '\0';
		/* Mzinga's files end lines with CR alone: split on either. */
		for (char *line = strtok(text, "\r\n"); line; line = strtok(NULL, "\r\n")) {
			char *tab = strchr(line, '\t');
			if (tab)
				*tab = '\0';
			if (strncmp(line, "Base", 4) != 0 || !strchr(line, ';'))
				continue;
			struct hive_game g;
			int lied;
			hive_game_init(&g, 0);
			if (tu_load_relaxed(&g, line, &lied) == HIVE_OK) {
				games++;
				for (;;) {
					check_moves_to(&g.board, &st);
					if (g.len == 0 || hive_game_undo(&g, 1) != HIVE_OK)
						break;
				}
			}
			hive_game_free(&g);
		}
	}
	printf("\n  %zu games, %zu positions, %zu cells asked\n", games, st.positions, st.asked);
	CU_ASSERT(games >= 250);
	CU_ASSERT_EQUAL(st.bad, 0);
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

static const struct unit_test tests[] = {
	{ "find_move agrees with the generator", test_find_matches_generator },
	{ "moves_to agrees with the generator", test_moves_to_matches_generator },
	{ "moves_to agrees on the reference positions", test_moves_to_data },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "findmove",
	.tests = tests,
};
