/*
 * search.c: the built-in player. Iterative deepening negamax with principal variation
 * search, a two-slot transposition table, killer and history move ordering, late move
 * reductions, reverse futility pruning near the horizon, and at the horizon a look for
 * a move that surrounds the enemy queen (the only "capture" Hive has).
 *
 * Deterministic: the node count of a search from a cleared searcher is a signature.
 * No clocks: limits->stop is polled every POLL_NODES nodes.
 *
 * Lazy SMP: helper searchers (hive_search_init_helper) share the main searcher's
 * table and search the same root at staggered depths on threads of the caller's; the
 * table is lockless (each entry is two relaxed 64-bit atomics, the key stored XORed
 * with the data, so a torn entry fails its key check and reads as a miss).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "search.h"

#define INF          (HIVE_SCORE_WIN + 1)
#define MATE_BOUND   (HIVE_SCORE_WIN - 2 * HIVE_MAX_PLY)  /* at or beyond: a forced result */
#define POLL_NODES   64     /* a node is ~1 us: the caller's clock is read every ~60 us */
#define RFP_DEPTH    2      /* reverse futility: plies from the horizon */
#define RFP_MARGIN   60     /* ... and margin per ply */

enum tt_bound { TT_NONE, TT_UPPER, TT_LOWER, TT_EXACT };

/* An entry, unpacked; the move is stored as piece + destination, re-found in the move list. */
struct tt_entry {
	uint64_t key;
	int16_t  score;
	uint8_t  depth;
	uint8_t  bound;
	uint8_t  gen;
	uint8_t  piece;
	uint16_t to;
};

/* 16 bytes in the table: the data packed in one word, the key XORed with it in the
 * other. Threads read and write them with relaxed atomics (plain moves on x86). */
struct tt_slot {
	_Atomic uint64_t kx;
	_Atomic uint64_t data;
};

/* Slot 0 keeps the deepest result, slot 1 the latest. */
struct tt_bucket {
	struct tt_slot e[2];
};

/* Move list and ordering scores of one ply. */
struct frame {
	struct hive_move moves[HIVE_MAX_MOVES];
	int32_t score[HIVE_MAX_MOVES];
};

struct hive_search {
	struct tt_bucket *tt;               /* the owner's table, shared by its helpers */
	size_t tt_mask;
	struct hive_search *owner;          /* the table's searcher: itself, or a helper's main */
	_Atomic unsigned gen;               /* the owner's: one per run, read by its helpers */
	int32_t history[HIVE_PIECES][HIVE_CELLS];
	uint32_t history_rows;              /* bit p: history[p] may hold a non-zero entry */
	struct hive_move killer[HIVE_MAX_PLY][2];
	struct hive_move pv[HIVE_MAX_PLY][HIVE_MAX_PLY];
	int pvlen[HIVE_MAX_PLY];
	uint64_t path[HIVE_MAX_PLY];        /* keys from the root, for cycle detection */
	struct frame *frames;               /* HIVE_MAX_PLY of them, in the same block */

	/* One run. */
	struct hive_board b;
	const struct hive_search_limits *lim;
	uint64_t nodes;
	int stopped;
	struct hive_move root_best;         /* best move of the last completed iteration */
	int have_root_best;
	int first_iteration;                /* depth 1 runs to its end whatever stop says */
};

/* Move ordering bands. */
#define ORDER_TT       (1 << 30)
#define ORDER_ROOT     (1 << 29)
#define ORDER_TACTIC   (1 << 24)     /* queen attack or escape: never reduced */
#define ORDER_KILLER1  (1 << 22)
#define ORDER_KILLER2  ((1 << 22) - 1)
#define HISTORY_MAX    16384

static inline int move_eq(struct hive_move a, struct hive_move b)
{
	return a.piece == b.piece && (a.piece == HIVE_PASS_PIECE || a.to == b.to);
}

static inline uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* b->hash covers pieces and side; with a pillbug the frozen piece changes the moves too. */
static inline uint64_t node_key(const struct hive_board *b)
{
	uint64_t k = b->hash;
	if (b->type & HIVE_EXP_P)
		k ^= mix64(0x100u + b->last_moved);
	return k;
}

/* The block: the searcher, its move frames, then the table, each 64-byte aligned. */
#define ALIGN64(x)   (((x) + 63) & ~(size_t)63)
#define HEAD_BYTES   (ALIGN64(sizeof(struct hive_search)) + ALIGN64(HIVE_MAX_PLY * sizeof(struct frame)))

/* Buckets of the largest power-of-two table that fits in tt_bytes (at least one). */
static size_t tt_buckets(size_t tt_bytes)
{
	size_t n = 1;
	while (n * 2 * sizeof(struct tt_bucket) <= tt_bytes)
		n *= 2;
	return n;
}

size_t hive_search_size(size_t tt_bytes)
{
	return HEAD_BYTES + tt_buckets(tt_bytes) * sizeof(struct tt_bucket);
}

struct hive_search *hive_search_init(void *mem, size_t size)
{
	struct hive_search *s = mem;
	if (!mem || size < hive_search_size(0))
		return NULL;
	s->frames = (struct frame *)((char *)mem + ALIGN64(sizeof *s));
	s->tt = (struct tt_bucket *)((char *)mem + HEAD_BYTES);
	s->tt_mask = tt_buckets(size - HEAD_BYTES) - 1;
	s->owner = s;
	s->history_rows = 0;    /* the block comes zeroed */
	return s;
}

size_t hive_search_helper_size(void)
{
	return HEAD_BYTES;
}

struct hive_search *hive_search_init_helper(void *mem, size_t size, struct hive_search *main)
{
	struct hive_search *s = mem;
	if (!mem || !main || size < HEAD_BYTES)
		return NULL;
	s->frames = (struct frame *)((char *)mem + ALIGN64(sizeof *s));
	s->owner = main->owner;
	s->tt = s->owner->tt;
	s->tt_mask = s->owner->tt_mask;
	/* Callers lay helpers out again in the block of an earlier search. */
	s->history_rows = (1u << HIVE_PIECES) - 1;
	return s;
}

struct hive_search *hive_search_new(size_t tt_bytes)
{
	size_t size = hive_search_size(tt_bytes);
	void *mem = calloc(1, size);
	return mem ? hive_search_init(mem, size) : NULL;
}

void hive_search_free(struct hive_search *s)
{
	free(s);
}

void hive_search_clear(struct hive_search *s)
{
	if (s->owner == s) {
		memset(s->tt, 0, (s->tt_mask + 1) * sizeof *s->tt);
		atomic_store_explicit(&s->gen, 0, memory_order_relaxed);
	}
	memset(s->history, 0, sizeof s->history);
	s->history_rows = 0;
	memset(s->killer, 0, sizeof s->killer);
}

/* Mate scores are stored relative to the node, not the root. */
static inline int score_to_tt(int v, int ply)
{
	return v >= MATE_BOUND ? v + ply : v <= -MATE_BOUND ? v - ply : v;
}

static inline int score_from_tt(int v, int ply)
{
	return v >= MATE_BOUND ? v - ply : v <= -MATE_BOUND ? v + ply : v;
}

static inline uint64_t tt_pack(const struct tt_entry *e)
{
	return (uint64_t)(uint16_t)e->score | (uint64_t)e->depth << 16 | (uint64_t)e->bound << 24 |
		(uint64_t)e->gen << 32 | (uint64_t)e->piece << 40 | (uint64_t)e->to << 48;
}

/* Reads a slot; its key is what the XOR gives back (garbage for a torn slot). */
static inline void tt_read(const struct tt_slot *sl, struct tt_entry *e)
{
	uint64_t d = atomic_load_explicit(&sl->data, memory_order_relaxed);
	uint64_t kx = atomic_load_explicit(&sl->kx, memory_order_relaxed);
	e->key = kx ^ d;
	e->score = (int16_t)(uint16_t)d;
	e->depth = (uint8_t)(d >> 16);
	e->bound = (uint8_t)(d >> 24);
	e->gen = (uint8_t)(d >> 32);
	e->piece = (uint8_t)(d >> 40);
	e->to = (uint16_t)(d >> 48);
}

/* Fills *e and returns 1 when the table holds key. */
static int tt_probe(const struct hive_search *s, uint64_t key, struct tt_entry *e)
{
	const struct tt_bucket *bk = &s->tt[key & s->tt_mask];
	for (int i = 0; i < 2; i++) {
		tt_read(&bk->e[i], e);
		if (e->bound != TT_NONE && e->key == key)
			return 1;
	}
	return 0;
}

static void tt_store(struct hive_search *s, uint64_t key, int depth, int bound, int score,
		     int ply, struct hive_move m)
{
	struct tt_bucket *bk = &s->tt[key & s->tt_mask];
	struct tt_slot *sl = &bk->e[0];
	struct tt_entry e;
	uint8_t gen = (uint8_t)atomic_load_explicit(&s->owner->gen, memory_order_relaxed);
	tt_read(sl, &e);
	/* The deep slot yields to a deeper or equal result, a stale one, or its own key. */
	if (!(e.key == key || e.bound == TT_NONE || e.gen != gen || depth >= e.depth)) {
		sl = &bk->e[1];
		tt_read(sl, &e);
	}
	/* Keep the old move when a shallower fail-low has none to offer. */
	if (e.key == key && m.piece == HIVE_NO_PIECE) {
		m.piece = e.piece;
		m.to = e.to;
	}
	e.score = (int16_t)score_to_tt(score, ply);
	e.depth = (uint8_t)(depth < 0 ? 0 : depth);
	e.bound = (uint8_t)bound;
	e.gen = gen;
	e.piece = m.piece;
	e.to = m.to;
	uint64_t d = tt_pack(&e);
	atomic_store_explicit(&sl->data, d, memory_order_relaxed);
	atomic_store_explicit(&sl->kx, key ^ d, memory_order_relaxed);
}

/* Score of a finished game for the side to move, ply plies from the root. */
static int terminal_score(const struct hive_board *b, int ply)
{
	if (b->state == HIVE_DRAW)
		return 0;
	int white_won = b->state == HIVE_WHITE_WINS;
	int stm_white = hive_side_to_move(b) == HIVE_WHITE;
	return white_won == stm_white ? HIVE_SCORE_WIN - ply : -(HIVE_SCORE_WIN - ply);
}

/* Sets s->stopped when the caller's stop fires or the node budget is spent. */
static inline int poll_stop(struct hive_search *s)
{
	const struct hive_search_limits *l = s->lim;
	if (s->stopped)
		return 1;
	s->nodes++;
	if (l->nodes && s->nodes >= l->nodes)
		s->stopped = 1;
	if ((s->nodes & (POLL_NODES - 1)) == 0 && !s->first_iteration && l->stop &&
	    l->stop(l->stop_arg))
		s->stopped = 1;
	return s->stopped;
}

static inline int adjacent(uint16_t a, uint16_t b)
{
	if (a == HIVE_NOWHERE || b == HIVE_NOWHERE)
		return 0;
	/* The six neighbour offsets of board.h's ring, taken mod 1024. */
	switch ((b - a) & HIVE_CELL_MASK) {
	case 1: case 31: case 32: case 992: case 993: case 1023:
		return 1;
	default:
		return 0;
	}
}

/* Occupied neighbours of a side's queen, 0 when it is in hand. */
static int queen_neighbours(const struct hive_board *b, int color)
{
	uint16_t q = b->pos[HIVE_PIECE(color, 0)];
	return q == HIVE_NOWHERE ? 0 : hive_board_neighbours(b, q);
}

/*
 * Ordering: the TT move, then moves that close in on the enemy queen or free our own,
 * then killers, then the rest by history, nudged away from crowding our own queen.
 */
static void score_moves(struct hive_search *s, struct frame *f, size_t n, int ply,
			const struct tt_entry *tte)
{
	const struct hive_board *b = &s->b;
	int side = hive_side_to_move(b);
	uint16_t own_q = b->pos[HIVE_PIECE(side, 0)];
	uint16_t opp_q = b->pos[HIVE_PIECE(!side, 0)];
	int opp_qn = queen_neighbours(b, !side);

	for (size_t i = 0; i < n; i++) {
		struct hive_move m = f->moves[i];
		int32_t v;
		if (m.piece == HIVE_PASS_PIECE) {
			f->score[i] = 0;
			continue;
		}
		if (tte && tte->piece == m.piece && tte->to == m.to) {
			f->score[i] = ORDER_TT;
			continue;
		}
		if (ply == 0 && s->have_root_best && move_eq(m, s->root_best)) {
			f->score[i] = ORDER_ROOT;
			continue;
		}
		int tactic = 0;
		int from_own = m.piece < HIVE_PIECES && HIVE_PIECE_COLOR(m.piece) == side;
		if (from_own && adjacent(m.to, opp_q) && !adjacent(m.from, opp_q))
			tactic += 1000 + 200 * opp_qn;
		if (m.to == opp_q)
			tactic += 1500;          /* climbing onto the enemy queen */
		if (from_own && adjacent(m.from, own_q) && !adjacent(m.to, own_q) &&
		    (int)m.piece != HIVE_PIECE(side, 0))
			tactic += 800;
		if (!from_own && adjacent(m.from, own_q) && !adjacent(m.to, own_q))
			tactic += 1200;          /* throwing an attacker off our queen */
		if (tactic) {
			f->score[i] = ORDER_TACTIC + tactic;
			continue;
		}
		if (move_eq(m, s->killer[ply][0])) {
			f->score[i] = ORDER_KILLER1;
			continue;
		}
		if (move_eq(m, s->killer[ply][1])) {
			f->score[i] = ORDER_KILLER2;
			continue;
		}
		v = s->history[m.piece][m.to];
		if (adjacent(m.to, own_q) && !adjacent(m.from, own_q))
			v -= 2 * HISTORY_MAX;
		if (m.from != HIVE_NOWHERE && adjacent(m.from, opp_q) && !adjacent(m.to, opp_q))
			v -= HISTORY_MAX;
		f->score[i] = v;
	}
}

/* Sorts moves i..n-1 by descending score (Shell sort: lists are short, ties keep no order
 * that matters, and the result is still deterministic). */
static void sort_rest(struct frame *f, size_t i, size_t n)
{
	static const size_t gaps[] = { 57, 23, 10, 4, 1 };
	for (size_t g = 0; g < sizeof gaps / sizeof *gaps; g++) {
		size_t gap = gaps[g];
		for (size_t j = i + gap; j < n; j++) {
			struct hive_move m = f->moves[j];
			int32_t v = f->score[j];
			size_t k = j;
			while (k >= i + gap && f->score[k - gap] < v) {
				f->moves[k] = f->moves[k - gap];
				f->score[k] = f->score[k - gap];
				k -= gap;
			}
			f->moves[k] = m;
			f->score[k] = v;
		}
	}
}

/* Moves the best-scored move of i..n-1 to i: a few picks (most cut nodes need only
 * one), then one sort of the rest. */
#define PICKS 5
static void pick_move(struct frame *f, size_t i, size_t n)
{
	if (i == PICKS) {
		sort_rest(f, i, n);
		return;
	}
	if (i > PICKS)
		return;
	size_t best = i;
	for (size_t j = i + 1; j < n; j++)
		if (f->score[j] > f->score[best])
			best = j;
	if (best != i) {
		struct hive_move m = f->moves[i];
		int32_t v = f->score[i];
		f->moves[i] = f->moves[best];
		f->score[i] = f->score[best];
		f->moves[best] = m;
		f->score[best] = v;
	}
}

static void history_add(struct hive_search *s, struct hive_move m, int bonus)
{
	if (m.piece >= HIVE_PIECES)
		return;
	int32_t *h = &s->history[m.piece][m.to];
	s->history_rows |= 1u << m.piece;
	int ab = bonus < 0 ? -bonus : bonus;
	*h += bonus - *h * ab / HISTORY_MAX;
}

/* Halves the history between runs; only rows that were written, since a depth-1
 * search (a Trylobot request) writes none and 28k divisions cost more than it. */
static void history_age(struct hive_search *s)
{
	for (uint32_t rows = s->history_rows; rows; rows &= rows - 1) {
		int p = __builtin_ctz(rows);
		int32_t any = 0;
		for (int c = 0; c < HIVE_CELLS; c++)
			any |= s->history[p][c] /= 2;
		if (!any)
			s->history_rows &= ~(1u << p);
	}
}

/* Whether the position repeats one earlier on the search path (same side to move). */
static int repeated(const struct hive_search *s, int ply, uint64_t key)
{
	for (int i = ply - 2; i >= 0; i -= 2)
		if (s->path[i] == key)
			return 1;
	return 0;
}

/*
 * At the horizon: whether the side to move can end the game at once by filling the
 * last hole around the enemy queen. Returns the score of the best such ending (a win,
 * or a draw when its own queen goes too), or -INF when there is none.
 */
static int horizon_win(struct hive_search *s, int ply)
{
	struct hive_board *b = &s->b;
	int side = hive_side_to_move(b);
	if (queen_neighbours(b, !side) != 5)
		return -INF;
	/* Only a move into the one empty neighbour can end it (a move onto another
	 * neighbour can at most surround our own queen: a loss, below any evaluation). */
	uint16_t q = b->pos[HIVE_PIECE(!side, 0)], hole = HIVE_NOWHERE;
	for (int d = 0; d < HIVE_DIRS && hole == HIVE_NOWHERE; d++)
		if (!b->height[hive_cell_step(q, d)])
			hole = hive_cell_step(q, d);
	struct frame *f = &s->frames[ply];
	size_t n = hive_board_moves_to(b, hole, f->moves);
	int best = -INF;
	for (size_t i = 0; i < n && best <= 0; i++) {
		struct hive_move m = f->moves[i];
		struct hive_undo u;
		hive_board_do(b, m, &u);
		if (hive_game_over(b)) {
			int v = -terminal_score(b, ply + 1);
			if (v > best)
				best = v;
		}
		hive_board_undo(b, &u);
	}
	return best;
}

static int search_node(struct hive_search *s, int depth, int alpha, int beta, int ply)
{
	struct hive_board *b = &s->b;
	s->pvlen[ply] = 0;
	if (hive_game_over(b))
		return terminal_score(b, ply);
	if (poll_stop(s))
		return 0;
	uint64_t key = node_key(b);
	s->path[ply] = key;
	if (ply > 0 && repeated(s, ply, key))
		return 0;
	if (depth <= 0 || ply >= HIVE_MAX_PLY - 1) {
		int v = horizon_win(s, ply), e = hive_evaluate(b);
		return v > e ? v : e;
	}

	/* Nothing found here can beat a win already on the board nearer the root. */
	if (ply > 0) {
		if (alpha < -HIVE_SCORE_WIN + ply)
			alpha = -HIVE_SCORE_WIN + ply;
		if (beta > HIVE_SCORE_WIN - ply - 1)
			beta = HIVE_SCORE_WIN - ply - 1;
		if (alpha >= beta)
			return alpha;
	}

	int pv_node = beta - alpha > 1;
	struct tt_entry te;
	const struct tt_entry *tte = tt_probe(s, key, &te) ? &te : NULL;
	if (tte && ply > 0 && !pv_node && tte->depth >= depth) {
		int v = score_from_tt(tte->score, ply);
		if (tte->bound == TT_EXACT || (tte->bound == TT_LOWER && v >= beta) ||
		    (tte->bound == TT_UPPER && v <= alpha))
			return v;
	}

	int in_danger = queen_neighbours(b, hive_side_to_move(b)) >= 4;
	/* Near the horizon a static score well above beta stands: some move will hold it. */
	if (!pv_node && depth <= RFP_DEPTH && !in_danger && beta > -MATE_BOUND && beta < MATE_BOUND) {
		int e = hive_evaluate(b) - RFP_MARGIN * depth;
		if (e >= beta)
			return e;
	}

	struct frame *f = &s->frames[ply];
	size_t n = hive_board_moves(b, f->moves);
	score_moves(s, f, n, ply, tte);

	int alpha0 = alpha, best = -INF;
	struct hive_move best_move = { HIVE_NO_PIECE, HIVE_NOWHERE, HIVE_NOWHERE };
	for (size_t i = 0; i < n; i++) {
		pick_move(f, i, n);
		struct hive_move m = f->moves[i];
		int quiet = f->score[i] < ORDER_TACTIC;
		struct hive_undo u;
		int v;

		hive_board_do(b, m, &u);
		if (i == 0) {
			v = -search_node(s, depth - 1, -beta, -alpha, ply + 1);
		} else {
			int r = 0;
			if (depth >= 3 && i >= 3 && quiet && !in_danger && f->score[i] < ORDER_KILLER2) {
				r = 1 + (depth >= 4 && i >= 8) + (depth >= 6 && i >= 20);
				if (r > depth - 2)
					r = depth - 2;
			}
			v = -search_node(s, depth - 1 - r, -alpha - 1, -alpha, ply + 1);
			if (v > alpha && r)
				v = -search_node(s, depth - 1, -alpha - 1, -alpha, ply + 1);
			if (v > alpha && v < beta)
				v = -search_node(s, depth - 1, -beta, -alpha, ply + 1);
		}
		hive_board_undo(b, &u);
		if (s->stopped)
			return 0;

		if (v > best) {
			best = v;
			best_move = m;
			if (v > alpha) {
				alpha = v;
				s->pv[ply][0] = m;
				memcpy(&s->pv[ply][1], s->pv[ply + 1],
				       (size_t)s->pvlen[ply + 1] * sizeof(struct hive_move));
				s->pvlen[ply] = s->pvlen[ply + 1] + 1;
				if (alpha >= beta) {
					if (quiet) {
						if (!move_eq(m, s->killer[ply][0])) {
							s->killer[ply][1] = s->killer[ply][0];
							s->killer[ply][0] = m;
						}
						history_add(s, m, depth * depth);
						for (size_t j = 0; j < i; j++)
							if (f->score[j] < ORDER_TACTIC)
								history_add(s, f->moves[j], -depth * depth);
					}
					break;
				}
			}
		}
	}
	int bound = best >= beta ? TT_LOWER : best > alpha0 ? TT_EXACT : TT_UPPER;
	tt_store(s, key, depth, bound, best, ply, bound == TT_UPPER ?
		 (struct hive_move){ HIVE_NO_PIECE, HIVE_NOWHERE, HIVE_NOWHERE } : best_move);
	return best;
}

/* Aspiration: from depth ASP_DEPTH the root is searched in a window around the last
 * score, widened on the failing side until the score falls inside. */
#define ASP_DEPTH    4
#define ASP_WINDOW   40

static int root_search(struct hive_search *s, int depth, int prev)
{
	if (depth < ASP_DEPTH || prev >= MATE_BOUND || prev <= -MATE_BOUND)
		return search_node(s, depth, -INF, INF, 0);
	int delta = ASP_WINDOW;
	int alpha = prev - delta, beta = prev + delta;
	for (;;) {
		int v = search_node(s, depth, alpha, beta, 0);
		if (s->stopped)
			return v;
		if (v <= alpha && alpha > -INF) {
			/* A fail low leaves no pv to play: the window reopens. */
			alpha = delta >= 400 ? -INF : v - delta;
		} else if (v >= beta && beta < INF) {
			beta = delta >= 400 ? INF : v + delta;
		} else {
			return v;
		}
		delta *= 3;
	}
}

static void info_fill(const struct hive_search *s, struct hive_search_info *info, int depth,
		      int score)
{
	info->depth = depth;
	info->score = score;
	info->nodes = s->nodes;
	info->pvlen = s->pvlen[0];
	memcpy(info->pv, s->pv[0], (size_t)s->pvlen[0] * sizeof(struct hive_move));
}

/* Lazy SMP: helper k searches only some depths (Stockfish 9's skip pattern), so the
 * threads spread over two or three depths at once and fill the table for each other. */
static int helper_skips(int helper, int depth)
{
	static const int size[]  = { 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4 };
	static const int phase[] = { 0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7 };
	if (helper <= 0 || depth <= 1)
		return 0;
	int i = (helper - 1) % (int)(sizeof size / sizeof *size);
	return ((depth + phase[i]) / size[i]) % 2;
}

int hive_search_run(struct hive_search *s, const struct hive_board *b,
		    const struct hive_search_limits *limits, struct hive_move *best,
		    struct hive_search_info *info)
{
	static const struct hive_search_limits no_limits;
	struct hive_search_info done;
	struct frame *f = &s->frames[0];

	if (hive_game_over(b))
		return -1;
	s->b = *b;
	s->lim = limits ? limits : &no_limits;
	s->nodes = 0;
	s->stopped = 0;
	s->have_root_best = 0;
	if (s->owner == s)
		atomic_fetch_add_explicit(&s->gen, 1, memory_order_relaxed);
	memset(s->killer, 0, sizeof s->killer);
	history_age(s);

	size_t n = hive_board_moves(&s->b, f->moves);
	if (n == 0)
		return -1;
	memset(&done, 0, sizeof done);
	/* Before any iteration completes, the best-ordered move stands in. */
	struct tt_entry te;
	score_moves(s, f, n, 0, tt_probe(s, node_key(&s->b), &te) ? &te : NULL);
	pick_move(f, 0, n);
	*best = f->moves[0];
	done.pvlen = 1;
	done.pv[0] = *best;
	if (n == 1) {
		done.score = hive_evaluate(&s->b);
		if (info)
			*info = done;
		return 0;
	}

	int prev = 0;
	int max_depth = s->lim->depth > 0 && s->lim->depth < HIVE_MAX_PLY - 1 ?
		s->lim->depth : HIVE_MAX_PLY - 1;
	for (int depth = 1; depth <= max_depth; depth++) {
		if (helper_skips(s->lim->helper, depth) && depth < max_depth)
			continue;
		/* Depth 1 costs well under a millisecond: even a search stopped before it
		 * began answers with a searched move. */
		s->first_iteration = depth == 1;
		int v = root_search(s, depth, prev);
		s->first_iteration = 0;
		if (s->stopped) {
			/* A root move that finished and raised alpha in the cut-short
			 * iteration is better than the last complete one's choice. */
			if (s->pvlen[0] > 0 && !move_eq(s->pv[0][0], *best)) {
				*best = s->pv[0][0];
				done.pvlen = s->pvlen[0];
				memcpy(done.pv, s->pv[0], (size_t)s->pvlen[0] * sizeof(struct hive_move));
			}
			break;
		}
		if (s->pvlen[0] == 0)
			break;
		prev = v;
		*best = s->pv[0][0];
		s->root_best = *best;
		s->have_root_best = 1;
		info_fill(s, &done, depth, v);
		if (s->lim->on_iteration)
			s->lim->on_iteration(s->lim->iteration_arg, &done);
		/* A forced result is proven: deeper iterations cannot change it. */
		if (!s->lim->depth && (v >= MATE_BOUND || v <= -MATE_BOUND) &&
		    HIVE_SCORE_WIN - (v < 0 ? -v : v) <= depth)
			break;
		if (s->lim->stop && s->lim->stop(s->lim->stop_arg))
			break;
	}
	done.nodes = s->nodes;
	if (info)
		*info = done;
	return 0;
}
