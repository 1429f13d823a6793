/*
 * eval.c: the static evaluation of the built-in player, from the side to move's view.
 *
 * Hive is won by surrounding a queen, so the pressure on each queen dominates; the rest
 * is about who can still move what: a pinned ant is worth little, a free one a lot.
 * One pass over the pieces plus one articulation-point search, no move generation.
 */
#include "board.h"
#include "search.h"

/* Bug of each slot within a colour (UHP order, as in board.h). */
static const uint8_t slot_bug[14] = {
	HIVE_QUEEN, HIVE_SPIDER, HIVE_SPIDER, HIVE_BEETLE, HIVE_BEETLE,
	HIVE_GRASSHOPPER, HIVE_GRASSHOPPER, HIVE_GRASSHOPPER,
	HIVE_ANT, HIVE_ANT, HIVE_ANT, HIVE_MOSQUITO, HIVE_LADYBUG, HIVE_PILLBUG
};

/* Worth of a piece that is free to move, by bug: reach and flexibility. */
static const int mobile_value[HIVE_BUGS] = {
	[HIVE_QUEEN] = 20, [HIVE_SPIDER] = 14, [HIVE_BEETLE] = 26, [HIVE_GRASSHOPPER] = 18,
	[HIVE_ANT] = 40, [HIVE_MOSQUITO] = 32, [HIVE_LADYBUG] = 26, [HIVE_PILLBUG] = 20
};
/* Worth of a piece still in hand: it can still go anywhere, but is not in play yet. */
static const int hand_value[HIVE_BUGS] = {
	[HIVE_QUEEN] = 0, [HIVE_SPIDER] = 6, [HIVE_BEETLE] = 12, [HIVE_GRASSHOPPER] = 8,
	[HIVE_ANT] = 18, [HIVE_MOSQUITO] = 14, [HIVE_LADYBUG] = 12, [HIVE_PILLBUG] = 8
};
/* Penalty by queen pressure: 2 per neighbour that stays (enemy or stuck friend), 1 per
 * friend that could step away. Steep, because the sixth neighbour ends the game. */
static const int pressure_penalty[13] = {
	0, 6, 14, 26, 42, 62, 88, 120, 160, 210, 280, 360, 450
};

#define TEMPO            8
#define QUEEN_EXIT       7    /* per free slide of a queen that can move */
#define BEETLE_ON_QUEEN  60   /* own beetle or mosquito sitting on the enemy queen */
#define COVER_BONUS      12   /* own piece on top of an enemy piece */
#define PILLBUG_GUARD    22   /* own pillbug (free to throw) next to own queen */

/* Bits set in a 6-bit ring: a table, since __builtin_popcount is a libgcc call
 * without -mpopcnt and the evaluation counts rings of every piece. */
#define POP2(n) (n), (n) + 1, (n) + 1, (n) + 2
#define POP4(n) POP2(n), POP2((n) + 1), POP2((n) + 1), POP2((n) + 2)
static const uint8_t ring_pop[64] = { POP4(0), POP4(1), POP4(1), POP4(2) };

/* Single slides out of a cell with neighbour ring m (its piece lifted). */
static inline int ring_slides(unsigned m)
{
	return ring_pop[hive_ring_slides(m)];
}

/* Whether the top piece p (on the ground, not pinned, ring m) can actually go somewhere. */
static int can_go(const struct hive_board *b, unsigned p, int bug, unsigned m)
{
	uint16_t c = b->pos[p];
	if (b->level[p] > 0)
		return 1;
	switch (bug) {
	case HIVE_QUEEN: case HIVE_SPIDER: case HIVE_ANT: case HIVE_PILLBUG:
		return ring_slides(m) > 0;
	case HIVE_MOSQUITO:
		/* A mosquito touching only mosquitoes copies nothing. */
		for (int d = 0; d < HIVE_DIRS; d++) {
			uint8_t t = b->top[hive_cell_step(c, d)];
			if (t != HIVE_NO_PIECE && slot_bug[HIVE_PIECE_SLOT(t)] != HIVE_MOSQUITO)
				return 1;
		}
		return 0;
	default:
		return 1;    /* beetles, grasshoppers and ladybugs climb or jump over gates */
	}
}

int hive_evaluate(const struct hive_board *b)
{
	int stm = hive_side_to_move(b);
	int score[2] = { 0, 0 };
	uint32_t mobile = 0;

	if (hive_game_over(b)) {
		if (b->state == HIVE_DRAW)
			return 0;
		return (b->state == HIVE_WHITE_WINS) == (stm == HIVE_WHITE) ? HIVE_SCORE_WIN
									  : -HIVE_SCORE_WIN;
	}
	uint32_t pinned = hive_board_pinned(b);
	int queen_in[2] = {
		b->pos[HIVE_PIECE(HIVE_WHITE, 0)] != HIVE_NOWHERE,
		b->pos[HIVE_PIECE(HIVE_BLACK, 0)] != HIVE_NOWHERE
	};

	for (int p = 0; p < HIVE_PIECES; p++) {
		int c = HIVE_PIECE_COLOR(p), bug = slot_bug[p - HIVE_PIECE(c, 0)];  /* no % 14 */
		uint16_t cell = b->pos[p];
		if (cell == HIVE_NOWHERE) {
			if (bug < HIVE_MOSQUITO || (b->type >> (bug - HIVE_MOSQUITO) & 1))
				score[c] += hand_value[bug];
			continue;
		}
		if (b->top[cell] != p)
			continue;     /* covered: it can do nothing */
		if (b->level[p] > 0 && HIVE_PIECE_COLOR(b->under[p]) != c) {
			score[c] += COVER_BONUS;
			if (b->under[p] == HIVE_PIECE(!c, 0))
				score[c] += BEETLE_ON_QUEEN;
		}
		if (!queen_in[c] || (pinned >> p & 1) || !can_go(b, (unsigned)p, bug, hive_cell_ring(b, cell)))
			continue;
		mobile |= 1u << p;
		score[c] += mobile_value[bug];
	}

	for (int c = 0; c < 2; c++) {
		unsigned q = HIVE_PIECE(c, 0);
		uint16_t qc = b->pos[q];
		if (qc == HIVE_NOWHERE)
			continue;
		int pressure = 0;
		for (int d = 0; d < HIVE_DIRS; d++) {
			unsigned t = b->top[hive_cell_step(qc, d)];
			if (t == HIVE_NO_PIECE)
				continue;
			int own = HIVE_PIECE_COLOR(t) == c;
			pressure += own && (mobile >> t & 1) ? 1 : 2;
			if (own && slot_bug[HIVE_PIECE_SLOT(t)] == HIVE_PILLBUG && b->level[t] == 0 &&
			    t != b->last_moved)
				score[c] += PILLBUG_GUARD;
		}
		score[c] -= pressure_penalty[pressure];
		if (mobile >> q & 1)
			score[c] += QUEEN_EXIT * ring_slides(hive_cell_ring(b, qc));
	}
	return score[stm] - score[!stm] + TEMPO;
}
