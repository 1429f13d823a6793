/*
 * board.h: the Hive rules (Base + Mosquito, Ladybug, Pillbug), as Mzinga plays them.
 *
 * Pure library: no I/O, no globals, no allocation. A struct hive_board is plain data
 * and may be copied with memcpy.
 *
 * Cells live on a 32x32 ring: cell = (q + 32 r) mod 1024 in axial coordinates. The
 * smallest non-zero vector that aliases to cell 0 has hex length 32, and a hive of 28
 * pieces plus its border spans at most 29, so nothing that matters ever aliases.
 */
#ifndef HIVE_BOARD_H
#define HIVE_BOARD_H

#include <stddef.h>
#include <stdint.h>

#define HIVE_CELLS      1024
#define HIVE_CELL_MASK  1023
#define HIVE_ORIGIN     528          /* q = 16, r = 16: where the first piece goes */
#define HIVE_NOWHERE    0xFFFF       /* position of a piece in hand */
#define HIVE_PIECES     28           /* 14 per colour */
#define HIVE_NO_PIECE   0xFF
#define HIVE_PASS_PIECE 0xFE         /* hive_move.piece of a pass */
#define HIVE_MAX_MOVES  2048         /* bound on the moves of any position */
#define HIVE_MAX_STACK  8
#define HIVE_MAX_PLIES  60000        /* longest game a struct hive_game accepts (ply is 16-bit) */

enum hive_color { HIVE_WHITE = 0, HIVE_BLACK = 1 };

enum hive_bug {
	HIVE_QUEEN, HIVE_SPIDER, HIVE_BEETLE, HIVE_GRASSHOPPER, HIVE_ANT,
	HIVE_MOSQUITO, HIVE_LADYBUG, HIVE_PILLBUG, HIVE_BUGS
};

/* Expansion bits of a game type: Base = 0, Base+MLP = 7. */
enum hive_expansion { HIVE_EXP_M = 1, HIVE_EXP_L = 2, HIVE_EXP_P = 4 };

/*
 * Piece ids: colour * 14 + slot, slots in UHP order
 *   0 Q, 1 S1, 2 S2, 3 B1, 4 B2, 5 G1, 6 G2, 7 G3, 8 A1, 9 A2, 10 A3, 11 M, 12 L, 13 P
 */
#define HIVE_PIECE(color, slot) ((color) * 14 + (slot))
#define HIVE_PIECE_COLOR(p)     ((p) >= 14)
#define HIVE_PIECE_SLOT(p)      ((p) % 14)

/* Directions, Mzinga's order: 0 NW (0,-1), 1 NE (+1,-1), 2 E (+1,0), 3 SE (0,+1),
 * 4 SW (-1,+1), 5 W (-1,0). Opposite of d is (d + 3) % 6. */
enum hive_dir { HIVE_NW, HIVE_NE, HIVE_E, HIVE_SE, HIVE_SW, HIVE_W, HIVE_DIRS };

enum hive_state {
	HIVE_NOT_STARTED, HIVE_IN_PROGRESS, HIVE_DRAW, HIVE_WHITE_WINS, HIVE_BLACK_WINS
};

/* A move: piece from 'from' (HIVE_NOWHERE for a placement) to the top of 'to'.
 * A pass has piece == HIVE_PASS_PIECE. Two moves are the same move iff piece and
 * to are equal (from is implied by the position). */
struct hive_move {
	uint8_t  piece;
	uint16_t from;
	uint16_t to;
};

/* What hive_board_do() needs to take a move back. */
struct hive_undo {
	struct hive_move move;
	uint8_t last_moved;
	uint8_t state;
};

struct hive_board {
	uint8_t  type;                 /* expansion bits */
	uint8_t  state;                /* enum hive_state */
	uint8_t  last_moved;           /* piece moved (or placed) last ply, HIVE_NO_PIECE */
	uint16_t ply;                  /* plies played, passes included */
	uint64_t hash;                 /* Zobrist-style key of pieces + side to move */
	uint32_t in_play;              /* bit p set while piece p is on the board */
	uint16_t pos[HIVE_PIECES];     /* cell, or HIVE_NOWHERE while in hand */
	uint8_t  level[HIVE_PIECES];   /* 0 on the ground */
	uint8_t  under[HIVE_PIECES];   /* the piece below, HIVE_NO_PIECE on the ground */
	uint8_t  top[HIVE_CELLS];      /* top piece of each cell, HIVE_NO_PIECE if empty */
	uint8_t  height[HIVE_CELLS];   /* stack height of each cell */
	/* Neighbours of each cell topped by each colour: white count + 16 * black count
	 * (kept by do/undo; placements and the queens' surround read it directly). */
	uint8_t  adj[HIVE_CELLS];
	/* Occupied neighbours of each cell as six bits, bit d for direction d (kept by
	 * do/undo: the move generator's slides and the evaluation read them all the time). */
	uint8_t  ring[HIVE_CELLS];
};

/* Cell arithmetic. */
static inline uint16_t hive_cell_step(uint16_t cell, int dir)
{
	static const int16_t delta[HIVE_DIRS] = { -32, -31, 1, 32, 31, -1 };
	return (uint16_t)((cell + delta[dir]) & HIVE_CELL_MASK);
}
/* Occupied neighbours of a cell as six bits, bit d for direction d. */
static inline unsigned hive_cell_ring(const struct hive_board *b, uint16_t c)
{
	return b->ring[c];
}
/* On a ring m: one bit at each occupied/empty change going round it (an even count;
 * two at most means one run of neighbours), and the directions a piece with that
 * ring, lifted, can slide out to (an empty cell with exactly one of the two cells
 * beside the way occupied). */
static inline unsigned hive_ring_changes(unsigned m)
{
	return (m ^ ((m << 1) | (m >> 5))) & 63;
}
static inline unsigned hive_ring_slides(unsigned m)
{
	return ~m & (((m << 1) | (m >> 5)) ^ ((m >> 1) | (m << 5))) & 63;
}
/* Direction from a to b if they are neighbours, else -1. */
int hive_cell_dir(uint16_t a, uint16_t b);

static inline int hive_side_to_move(const struct hive_board *b) { return b->ply & 1; }
static inline int hive_game_over(const struct hive_board *b)
{
	return b->state >= HIVE_DRAW;
}
/* Whether the game type includes the piece (expansion pieces may be disabled). */
int hive_piece_enabled(unsigned type, int piece);
/* Bug of a piece id. */
int hive_piece_bug(int piece);

/* A new game of the given type (expansion bits). */
void hive_board_init(struct hive_board *b, unsigned type);

/* Generates every legal move, de-duplicated; a forced pass is one move.
 * Returns the count (0 only when the game is over). out holds HIVE_MAX_MOVES. */
size_t hive_board_moves(const struct hive_board *b, struct hive_move *out);

/* The legal moves whose destination is cell to (what hive_board_moves lists with
 * that destination, in the same order; never a pass). */
size_t hive_board_moves_to(const struct hive_board *b, uint16_t to, struct hive_move *out);

/* Counts the legal moves without listing them (perft's last ply). */
size_t hive_board_count_moves(const struct hive_board *b);

/* Plays a move that hive_board_moves() produced; u receives what undo needs. */
void hive_board_do(struct hive_board *b, struct hive_move m, struct hive_undo *u);
void hive_board_undo(struct hive_board *b, const struct hive_undo *u);

/* Whether m (matched on piece and destination) is legal; if so *legal gets the
 * generated move with its source filled in. */
int hive_board_find_move(const struct hive_board *b, struct hive_move m, struct hive_move *legal);

/* The game state from the queens' neighbourhoods (what hive_board_do stores). */
int hive_board_eval_state(const struct hive_board *b);

/* Number of occupied cells around the cell (stacks count once). */
int hive_board_neighbours(const struct hive_board *b, uint16_t cell);

/* Whether lifting the piece off the board leaves the hive in one part. */
int hive_board_can_lift(const struct hive_board *b, int piece);
/* Ground pieces that cannot leave without splitting the hive (the ground graph's
 * articulation points), bit p for piece p. */
uint32_t hive_board_pinned(const struct hive_board *b);

/* Pieces of the side to move that can make m as a Pillbug throw (a Pillbug, or a
 * ground Mosquito touching one); up to max piece ids go to users. Returns how many. */
int hive_board_throw_users(const struct hive_board *b, struct hive_move m, int *users, int max);

/* Key of the position as a rule of repetition sees it: which bug of which colour
 * stands on each cell and level, and the side to move. Unlike hash it names bugs,
 * not piece ids: two Ants that swap places leave it as it was. It leaves out the
 * Pillbug's stun, as nokamute's own rule does, so that a referee counting with it
 * calls a draw no later than nokamute does (which then refuses to play on). */
uint64_t hive_board_position_key(const struct hive_board *b);

/* Subtrees of at most this many plies are counted without asking stop (each well
 * under a millisecond). */
#define HIVE_PERFT_BULK_DEPTH 3
/* Asked between the deeper subtrees of a perft; nonzero stops it. */
typedef int hive_perft_stop_fn(void *arg);
/* Perft: the leaf count at depth (1 at depth 0), bulk-counted at the last ply; or -1
 * when stop (NULL: none) asked it to stop. b is as it was either way. */
int64_t hive_perft(struct hive_board *b, int depth, hive_perft_stop_fn *stop, void *arg);
/* "perft(6) = 12219480 in 38 ms. 314918 KN/s" (Mzinga's line) into buf, for a count
 * that took us microseconds; snprintf's return. */
int hive_perft_format(char *buf, size_t n, int depth, uint64_t count, uint64_t us);

/* Checks the board's internal invariants; returns 0 when they hold (for tests and ASSERTs). */
int hive_board_check(const struct hive_board *b);

#endif
