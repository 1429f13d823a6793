/*
 * board.c: Hive rules as Mzinga plays them: placement, the one-hive rule, freedom to
 * move on the ground and at height, every bug including the Mosquito, Ladybug and
 * Pillbug, game end, and perft (a stop callback between its deeper subtrees, for the
 * bridge's pool). Past 900 lines on purpose: move generation, make/unmake and perft
 * share static helpers that the compiler inlines into the hot loops (perft's speed is
 * README's benchmark), which a split across files would make calls.
 */
#include <stdio.h>
#include <string.h>
#include "board.h"

/* Bug of each slot within a colour. */
static const uint8_t slot_bug[14] = {
	HIVE_QUEEN, HIVE_SPIDER, HIVE_SPIDER, HIVE_BEETLE, HIVE_BEETLE,
	HIVE_GRASSHOPPER, HIVE_GRASSHOPPER, HIVE_GRASSHOPPER,
	HIVE_ANT, HIVE_ANT, HIVE_ANT, HIVE_MOSQUITO, HIVE_LADYBUG, HIVE_PILLBUG
};

/* A set of cells, one bit each. */
struct cellset {
	uint64_t w[HIVE_CELLS / 64];
};

static inline void cellset_clear(struct cellset *s) { memset(s, 0, sizeof *s); }
static inline int cellset_has(const struct cellset *s, unsigned c) { return (s->w[c >> 6] >> (c & 63)) & 1; }
static inline void cellset_add(struct cellset *s, unsigned c) { s->w[c >> 6] |= (uint64_t)1 << (c & 63); }

static inline uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Zobrist key of a piece at a cell and level, computed rather than tabled (no globals). */
static inline uint64_t piece_key(unsigned piece, unsigned cell, unsigned level)
{
	return mix64(((uint64_t)piece << 16) | ((uint64_t)cell << 4) | level);
}
#define SIDE_KEY 0x5bd1e9955bd1e995ULL

int hive_piece_bug(int piece) { return slot_bug[HIVE_PIECE_SLOT(piece)]; }

int hive_piece_enabled(unsigned type, int piece)
{
	switch (slot_bug[HIVE_PIECE_SLOT(piece)]) {
	case HIVE_MOSQUITO: return (type & HIVE_EXP_M) != 0;
	case HIVE_LADYBUG:  return (type & HIVE_EXP_L) != 0;
	case HIVE_PILLBUG:  return (type & HIVE_EXP_P) != 0;
	default:            return 1;
	}
}

int hive_cell_dir(uint16_t a, uint16_t b)
{
	for (int d = 0; d < HIVE_DIRS; d++)
		if (hive_cell_step(a, d) == b)
			return d;
	return -1;
}

void hive_board_init(struct hive_board *b, unsigned type)
{
	memset(b, 0, sizeof *b);
	b->type = (uint8_t)(type & 7);
	b->state = HIVE_NOT_STARTED;
	b->last_moved = HIVE_NO_PIECE;
	memset(b->top, HIVE_NO_PIECE, sizeof b->top);
	for (int p = 0; p < HIVE_PIECES; p++) {
		b->pos[p] = HIVE_NOWHERE;
		b->under[p] = HIVE_NO_PIECE;
	}
}

/* adj[] units: one white-topped neighbour, one black-topped one. */
static inline unsigned adj_unit(unsigned piece)
{
	return piece == HIVE_NO_PIECE ? 0 : HIVE_PIECE_COLOR(piece) ? 16 : 1;
}
static inline unsigned adj_total(uint8_t a) { return (a & 15u) + (a >> 4); }
static inline unsigned adj_color(uint8_t a, int color) { return color ? a >> 4 : a & 15u; }

int hive_board_neighbours(const struct hive_board *b, uint16_t cell)
{
	return (int)adj_total(b->adj[cell]);
}

/* The top of cell c goes from piece old to piece new (either may be none). */
static inline void adj_retop(struct hive_board *b, uint16_t c, unsigned old, unsigned now)
{
	uint8_t delta = (uint8_t)(adj_unit(now) - adj_unit(old));
	if (!delta)
		return;
	for (int d = 0; d < HIVE_DIRS; d++)
		b->adj[hive_cell_step(c, d)] += delta;
}

int hive_board_eval_state(const struct hive_board *b)
{
	if (b->ply == 0)
		return HIVE_NOT_STARTED;
	int lost[2] = { 0, 0 };
	for (int c = 0; c < 2; c++) {
		uint16_t q = b->pos[HIVE_PIECE(c, 0)];
		lost[c] = q != HIVE_NOWHERE && hive_board_neighbours(b, q) == 6;
	}
	if (lost[0] && lost[1])
		return HIVE_DRAW;
	if (lost[0])
		return HIVE_BLACK_WINS;
	if (lost[1])
		return HIVE_WHITE_WINS;
	return HIVE_IN_PROGRESS;
}

/* Cell c becomes occupied (bit set) or empty: its neighbours' rings see it. */
static inline void ring_mark(struct hive_board *b, uint16_t c, int occupied)
{
	for (int d = 0; d < HIVE_DIRS; d++) {
		uint8_t bit = (uint8_t)(1u << (d + 3) % HIVE_DIRS);
		uint8_t *r = &b->ring[hive_cell_step(c, d)];
		*r = occupied ? *r | bit : *r & (uint8_t)~bit;
	}
}

static void lift(struct hive_board *b, unsigned p)
{
	uint16_t c = b->pos[p];
	b->hash ^= piece_key(p, c, b->level[p]);
	adj_retop(b, c, p, b->under[p]);
	b->top[c] = b->under[p];
	if (--b->height[c] == 0)
		ring_mark(b, c, 0);
	b->under[p] = HIVE_NO_PIECE;
	b->pos[p] = HIVE_NOWHERE;
	b->level[p] = 0;
	b->in_play &= ~(1u << p);
}

static void drop(struct hive_board *b, unsigned p, uint16_t c)
{
	adj_retop(b, c, b->top[c], p);
	b->under[p] = b->top[c];
	b->level[p] = b->height[c];
	b->top[c] = (uint8_t)p;
	if (b->height[c]++ == 0)
		ring_mark(b, c, 1);
	b->pos[p] = c;
	b->in_play |= 1u << p;
	b->hash ^= piece_key(p, c, b->level[p]);
}

void hive_board_do(struct hive_board *b, struct hive_move m, struct hive_undo *u)
{
	u->move = m;
	u->last_moved = b->last_moved;
	u->state = b->state;
	if (m.piece == HIVE_PASS_PIECE) {
		b->last_moved = HIVE_NO_PIECE;
	} else {
		if (b->pos[m.piece] != HIVE_NOWHERE)
			lift(b, m.piece);
		drop(b, m.piece, m.to);
		b->last_moved = m.piece;
	}
	b->ply++;
	b->hash ^= SIDE_KEY;
	b->state = (uint8_t)hive_board_eval_state(b);
}

void hive_board_undo(struct hive_board *b, const struct hive_undo *u)
{
	struct hive_move m = u->move;
	b->ply--;
	b->hash ^= SIDE_KEY;
	if (m.piece != HIVE_PASS_PIECE) {
		lift(b, m.piece);
		if (m.from != HIVE_NOWHERE)
			drop(b, m.piece, m.from);
	}
	b->last_moved = u->last_moved;
	b->state = u->state;
}

/*
 * Move generation.
 */

struct gen {
	const struct hive_board *b;
	struct hive_move *out;
	size_t n;
	uint16_t lifted;        /* cell the mover was lifted from (its height counts one less) */
	uint32_t pinned;        /* hive_board_pinned, once cut_done */
	int cut_done;
	int count;              /* count placements instead of listing them */
	uint16_t target;        /* list only moves to this cell (HIVE_NOWHERE: all) */
	size_t extra;           /* placements counted, not listed */
};

/* Stack height with the mover lifted off. */
static inline int ht(const struct gen *g, uint16_t c)
{
	return g->b->height[c] - (c == g->lifted);
}

static inline void emit(struct gen *g, unsigned piece, uint16_t from, uint16_t to)
{
	if (g->target != HIVE_NOWHERE && to != g->target)
		return;
	struct hive_move *m = &g->out[g->n++];
	m->piece = (uint8_t)piece;
	m->from = from;
	m->to = to;
}

/* emit, once per destination: seen holds the ones this piece already has. */
static inline void emit_new(struct gen *g, unsigned piece, uint16_t from, uint16_t to,
			    struct cellset *seen)
{
	if (cellset_has(seen, to))
		return;
	cellset_add(seen, to);
	emit(g, piece, from, to);
}

/* The ground graph's articulation points (Tarjan), by ground piece. */
struct cuts {
	const struct hive_board *b;
	uint8_t at[HIVE_CELLS];       /* ground piece of each cell; read only where occupied */
	uint8_t disc[HIVE_PIECES], low[HIVE_PIECES];
	uint8_t time;
	uint32_t pinned;
};

static void cuts_visit(struct cuts *t, unsigned u, int parent)
{
	uint16_t c = t->b->pos[u];
	int children = 0;
	t->disc[u] = t->low[u] = ++t->time;
	for (unsigned m = hive_cell_ring(t->b, c); m; m &= m - 1) {
		unsigned v = t->at[hive_cell_step(c, __builtin_ctz(m))];
		if (!t->disc[v]) {
			children++;
			cuts_visit(t, v, (int)u);
			if (t->low[v] < t->low[u])
				t->low[u] = t->low[v];
			if (parent >= 0 && t->low[v] >= t->disc[u])
				t->pinned |= 1u << u;
		} else if ((int)v != parent && t->disc[v] < t->low[u]) {
			t->low[u] = t->disc[v];
		}
	}
	if (parent < 0 && children > 1)
		t->pinned |= 1u << u;
}

/* Whether a ring has more than one run of neighbours (more than two occupied/empty
 * changes around it): only such a piece can hold two parts of the hive together. */
static inline int ring_splits(unsigned ring)
{
	unsigned changes = hive_ring_changes(ring);
	unsigned rest = changes & (changes - 1);          /* all but the lowest change */
	return (rest & (rest - 1)) != 0;
}

uint32_t hive_board_pinned(const struct hive_board *b)
{
	struct cuts t;
	int start = -1, candidates = 0;
	t.b = b;
	t.time = 0;
	t.pinned = 0;
	for (uint32_t m = b->in_play; m; m &= m - 1) {
		int p = __builtin_ctz(m);
		if (b->level[p] == 0) {
			t.at[b->pos[p]] = (uint8_t)p;
			t.disc[p] = 0;
			start = p;
			candidates |= ring_splits(b->ring[b->pos[p]]);
		}
	}
	if (candidates)
		cuts_visit(&t, (unsigned)start, -1);
	return t.pinned;
}

static int gen_can_lift(struct gen *g, unsigned p)
{
	const struct hive_board *b = g->b;
	if (b->level[p] > 0)
		return 1;
	/* One run of occupied neighbours: lifting cannot split the hive. */
	if (!ring_splits(hive_cell_ring(b, b->pos[p])))
		return 1;
	if (!g->cut_done) {
		g->pinned = hive_board_pinned(g->b);
		g->cut_done = 1;
	}
	return !(g->pinned >> p & 1);
}

int hive_board_can_lift(const struct hive_board *b, int piece)
{
	if (b->pos[piece] == HIVE_NOWHERE)
		return 0;
	if (b->level[piece] > 0)
		return 1;
	return !(hive_board_pinned(b) >> piece & 1);
}

/* One step at height (beetle rule): cur = pieces under the mover at c. */
static inline int can_climb(const struct gen *g, uint16_t c, int d, int cur)
{
	int dst = ht(g, hive_cell_step(c, d));
	int l = ht(g, hive_cell_step(c, (d + 5) % 6));
	int r = ht(g, hive_cell_step(c, (d + 1) % 6));
	if (!cur && !dst && !l && !r)
		return 0;
	int lo = l < r ? l : r, hi = cur > dst ? cur : dst;
	return lo <= hi;
}

/* Directions a ground piece at c can slide out to (freedom to move and contact),
 * the mover lifted, as six bits: one ring gives them all at once. */
static inline unsigned slide_dirs(const struct gen *g, uint16_t c)
{
	unsigned m = hive_cell_ring(g->b, c);
	if (g->lifted != HIVE_NOWHERE && g->b->height[g->lifted] == 1) {
		switch ((g->lifted - c) & HIVE_CELL_MASK) {
		case HIVE_CELLS - 32: m &= ~(1u << HIVE_NW); break;
		case HIVE_CELLS - 31: m &= ~(1u << HIVE_NE); break;
		case 1:               m &= ~(1u << HIVE_E); break;
		case 32:              m &= ~(1u << HIVE_SE); break;
		case 31:              m &= ~(1u << HIVE_SW); break;
		case HIVE_CELLS - 1:  m &= ~(1u << HIVE_W); break;
		default: break;
		}
	}
	return hive_ring_slides(m);
}

static void gen_slides_1(struct gen *g, unsigned p, uint16_t c, struct cellset *seen)
{
	for (unsigned m = slide_dirs(g, c); m; m &= m - 1) {
		uint16_t to = hive_cell_step(c, __builtin_ctz(m));
		emit_new(g, p, c, to, seen);
	}
}

static void gen_beetle(struct gen *g, unsigned p, uint16_t c, struct cellset *seen)
{
	int cur = ht(g, c);
	for (int d = 0; d < HIVE_DIRS; d++) {
		uint16_t to = hive_cell_step(c, d);
		if (can_climb(g, c, d, cur))
			emit_new(g, p, c, to, seen);
	}
}

static void gen_grasshopper(struct gen *g, unsigned p, uint16_t c, struct cellset *seen)
{
	for (int d = 0; d < HIVE_DIRS; d++) {
		uint16_t to = hive_cell_step(c, d);
		if (!ht(g, to))
			continue;
		do
			to = hive_cell_step(to, d);
		while (ht(g, to));
		emit_new(g, p, c, to, seen);
	}
}

/* Whether a slide can enter the empty cell t at all: every slide comes from an
 * empty cell (or the mover's own, lifted), so a target none enters is out of reach. */
static int slide_enterable(const struct gen *g, uint16_t t)
{
	for (int d = 0; d < HIVE_DIRS; d++) {
		uint16_t n = hive_cell_step(t, d);
		if (!ht(g, n) && (slide_dirs(g, n) >> ((d + 3) % 6) & 1))
			return 1;
	}
	return 0;
}

static void gen_ant(struct gen *g, unsigned p, uint16_t c, struct cellset *seen)
{
	uint16_t queue[HIVE_CELLS];
	struct cellset visited;
	size_t head = 0, tail = 0;
	if (g->target != HIVE_NOWHERE && !slide_enterable(g, g->target))
		return;
	cellset_clear(&visited);
	cellset_add(&visited, c);
	queue[tail++] = c;
	while (head < tail) {
		uint16_t x = queue[head++];
		for (unsigned m = slide_dirs(g, x); m; m &= m - 1) {
			uint16_t to = hive_cell_step(x, __builtin_ctz(m));
			if (cellset_has(&visited, to))
				continue;
			cellset_add(&visited, to);
			queue[tail++] = to;
			emit_new(g, p, c, to, seen);
			if (to == g->target)
				return;
		}
	}
}

/* Spider: paths of exactly three slides that never revisit a cell. */
static void gen_spider(struct gen *g, unsigned p, uint16_t c, struct cellset *seen)
{
	for (unsigned m1 = slide_dirs(g, c); m1; m1 &= m1 - 1) {
		uint16_t a = hive_cell_step(c, __builtin_ctz(m1));
		for (unsigned m2 = slide_dirs(g, a); m2; m2 &= m2 - 1) {
			uint16_t bb = hive_cell_step(a, __builtin_ctz(m2));
			if (bb == c)
				continue;
			for (unsigned m3 = slide_dirs(g, bb); m3; m3 &= m3 - 1) {
				uint16_t to = hive_cell_step(bb, __builtin_ctz(m3));
				if (to == a || to == c)
					continue;
				emit_new(g, p, c, to, seen);
			}
		}
	}
}

/* Ladybug: two steps on top of the hive, then one down to the ground. */
static void gen_ladybug(struct gen *g, unsigned p, uint16_t c, struct cellset *seen)
{
	int cur = ht(g, c);
	for (int d1 = 0; d1 < HIVE_DIRS; d1++) {
		uint16_t a = hive_cell_step(c, d1);
		if (!ht(g, a) || !can_climb(g, c, d1, cur))
			continue;
		for (int d2 = 0; d2 < HIVE_DIRS; d2++) {
			uint16_t bb = hive_cell_step(a, d2);
			if (!ht(g, bb) || !can_climb(g, a, d2, ht(g, a)))
				continue;
			for (int d3 = 0; d3 < HIVE_DIRS; d3++) {
				uint16_t to = hive_cell_step(bb, d3);
				if (to == c || ht(g, to) || !can_climb(g, bb, d3, ht(g, bb)))
					continue;
				emit_new(g, p, c, to, seen);
			}
		}
	}
}

static void gen_bug(struct gen *g, int bug, unsigned p, uint16_t c, struct cellset *seen)
{
	switch (bug) {
	case HIVE_QUEEN:
	case HIVE_PILLBUG:      gen_slides_1(g, p, c, seen); break;
	case HIVE_SPIDER:       gen_spider(g, p, c, seen); break;
	case HIVE_BEETLE:       gen_beetle(g, p, c, seen); break;
	case HIVE_GRASSHOPPER:  gen_grasshopper(g, p, c, seen); break;
	case HIVE_ANT:          gen_ant(g, p, c, seen); break;
	case HIVE_LADYBUG:      gen_ladybug(g, p, c, seen); break;
	default: break;
	}
}

/* Whether own piece p may use the Pillbug's ability now: a Pillbug, or a ground
 * Mosquito touching one, on top of its stack and not moved last ply. The side's
 * Queen must be in play (checked by the caller). */
static int is_thrower(const struct hive_board *b, unsigned p)
{
	uint16_t c = b->pos[p];
	if (c == HIVE_NOWHERE || b->top[c] != p || p == b->last_moved)
		return 0;
	int bug = slot_bug[HIVE_PIECE_SLOT(p)];
	if (bug == HIVE_PILLBUG)
		return 1;
	if (bug != HIVE_MOSQUITO || b->level[p] != 0)
		return 0;
	for (int d = 0; d < HIVE_DIRS; d++) {
		uint8_t nt = b->top[hive_cell_step(c, d)];
		if (nt != HIVE_NO_PIECE && slot_bug[HIVE_PIECE_SLOT(nt)] == HIVE_PILLBUG)
			return 1;
	}
	return 0;
}

/* Throws by the piece at tc (a pillbug, or a mosquito copying one). */
static void gen_throws(struct gen *g, uint16_t tc, size_t *first, size_t *end)
{
	const struct hive_board *b = g->b;
	for (int dn = 0; dn < HIVE_DIRS; dn++) {
		uint16_t n = hive_cell_step(tc, dn);
		if (b->height[n] != 1)
			continue;
		unsigned t = b->top[n];
		if (t == b->last_moved || !gen_can_lift(g, t))
			continue;
		/* Lift T from n onto the thrower: n -> tc, cur 0, dst 1. */
		g->lifted = n;
		if (!can_climb(g, n, (dn + 3) % 6, 0))
			continue;
		for (int de = 0; de < HIVE_DIRS; de++) {
			uint16_t e = hive_cell_step(tc, de);
			if (e == n || ht(g, e))
				continue;
			/* Drop from on top of the thrower (cur 1) to the ground. */
			if (!can_climb(g, tc, de, 1))
				continue;
			int dup = 0;
			for (size_t i = first[t]; i < end[t] && !dup; i++)
				dup = g->out[i].piece == t && g->out[i].to == e;
			if (!dup)
				for (size_t i = end[HIVE_PIECES]; i < g->n && !dup; i++)
					dup = g->out[i].piece == t && g->out[i].to == e;
			if (!dup)
				emit(g, t, n, e);
		}
	}
}

/* Pieces of each bug, per colour (slot masks), for the hand. */
static const uint32_t bug_mask[HIVE_BUGS] = {
	0x0001, 0x0006, 0x0018, 0x00E0, 0x0700, 0x0800, 0x1000, 0x2000
};
/* 60 / k: a cell next to k own stacks is reached k times, each adding 60 / k. */
static const uint8_t share60[7] = { 0, 60, 30, 20, 15, 12, 10 };

/* The empty cells next to an own stack and no enemy one, into cells (listed once
 * each); in count mode only the sum of their shares (a cell met once per own
 * neighbour). Inlined twice, so that count is a constant in each copy. */
static inline unsigned
placement_cells(const struct hive_board *b, int side, int count, uint16_t *cells, int *nc)
{
	struct cellset done;
	unsigned sum = 0;
	if (!count)
		cellset_clear(&done);
	for (uint32_t m = b->in_play & (0x3FFFu << (side * 14)); m; m &= m - 1) {
		int p = __builtin_ctz(m);
		uint16_t c = b->pos[p];
		if (b->top[c] != p)
			continue;
		for (int d = 0; d < HIVE_DIRS; d++) {
			uint16_t n = hive_cell_step(c, d);
			uint8_t a = b->adj[n];
			if (b->height[n] || adj_color(a, !side))
				continue;
			if (count) {
				sum += share60[adj_color(a, side)];
			} else if (!cellset_has(&done, n)) {
				cellset_add(&done, n);
				cells[(*nc)++] = n;
			}
		}
	}
	return sum;
}

/* Placements; in count mode (g->count) only adds to g->extra. A cell takes a
 * placement when it is empty, next to an own stack and next to no enemy stack. */
static void gen_placements(struct gen *g, int side)
{
	const struct hive_board *b = g->b;
	int turn = b->ply / 2 + 1;
	uint32_t hand = ~b->in_play >> (side * 14) & 0x3FFF;
	unsigned pieces[HIVE_BUGS];
	int np = 0;

	hand &= 0x07FF | (uint32_t)(b->type & 7) << 11;   /* expansion pieces */
	if (turn == 1)
		hand &= ~1u;                                 /* no queen on the first turn */
	else if (turn == 4 && (hand & 1))
		hand &= 1;                                   /* the queen by the fourth */
	if (!hand)
		return;
	/* Pieces go in in numeric order: the lowest slot of each bug still in hand. */
	for (int bug = 0; bug < HIVE_BUGS; bug++) {
		uint32_t h = hand & bug_mask[bug];
		if (h)
			pieces[np++] = (unsigned)(side * 14 + __builtin_ctz(h));
	}

	uint16_t cells[6 * HIVE_PIECES];
	int nc = 0;
	if (b->ply <= 1) {
		if (b->ply == 0)
			cells[nc++] = HIVE_ORIGIN;
		else
			for (int d = 0; d < HIVE_DIRS; d++)
				cells[nc++] = hive_cell_step(HIVE_ORIGIN, d);
	} else if (g->target != HIVE_NOWHERE) {
		/* Only the target can take one: the scan below would find it alone. */
		uint8_t a = b->adj[g->target];
		if (!b->height[g->target] && !adj_color(a, !side) && adj_color(a, side))
			cells[nc++] = g->target;
	} else if (g->count) {
		g->extra += (size_t)np * (placement_cells(b, side, 1, cells, &nc) / 60);
		return;
	} else {
		placement_cells(b, side, 0, cells, &nc);
	}
	if (g->count) {
		g->extra += (size_t)np * (size_t)nc;
		return;
	}
	for (int i = 0; i < np; i++)
		for (int j = 0; j < nc; j++)
			emit(g, pieces[i], HIVE_NOWHERE, cells[j]);
}

/* Hex distance on the ring (nothing that matters aliases, see board.h). */
static int cell_distance(uint16_t a, uint16_t b)
{
	int delta = (b - a) & HIVE_CELL_MASK;
	int dq = ((delta + 16) & 31) - 16;
	int dr = (((((delta - dq) & HIVE_CELL_MASK) >> 5) + 16) & 31) - 16;
	int ds = dq + dr;
	return ((dq < 0 ? -dq : dq) + (dr < 0 ? -dr : dr) + (ds < 0 ? -ds : ds)) / 2;
}

/* A bound on where piece p (a bug, or a mosquito on the ground: anything) can go,
 * so that a search for moves to one cell skips the rest before the cut test. */
static int may_reach(const struct hive_board *b, unsigned p, int bug, uint16_t to)
{
	int dist = cell_distance(b->pos[p], to);
	if (bug == HIVE_MOSQUITO && b->level[p] > 0)
		bug = HIVE_BEETLE;
	switch (bug) {
	case HIVE_QUEEN: case HIVE_BEETLE: case HIVE_PILLBUG:
		return dist == 1;
	case HIVE_SPIDER: case HIVE_LADYBUG:
		return dist >= 1 && dist <= 3;
	default:
		return dist >= 1;
	}
}

/* Natural moves of own piece p (on top, not moved last ply, queen in play): nothing
 * if lifting it would split the hive. */
static void gen_piece(struct gen *g, unsigned p)
{
	const struct hive_board *b = g->b;
	uint16_t c = b->pos[p];
	int bug = slot_bug[HIVE_PIECE_SLOT(p)];
	struct cellset seen;

	if (g->target != HIVE_NOWHERE && !may_reach(b, p, bug, g->target))
		return;
	if (!gen_can_lift(g, p))
		return;
	cellset_clear(&seen);
	g->lifted = c;
	if (bug != HIVE_MOSQUITO) {
		gen_bug(g, bug, p, c, &seen);
	} else if (b->level[p] > 0) {
		gen_beetle(g, p, c, &seen);
	} else {
		unsigned copied = 0;
		for (int d = 0; d < HIVE_DIRS; d++) {
			uint8_t nt = b->top[hive_cell_step(c, d)];
			if (nt != HIVE_NO_PIECE)
				copied |= 1u << slot_bug[HIVE_PIECE_SLOT(nt)];
		}
		for (int cb = 0; cb < HIVE_BUGS; cb++)
			if (cb != HIVE_MOSQUITO && (copied >> cb & 1))
				gen_bug(g, cb, p, c, &seen);
	}
}

static void gen_init(struct gen *g, const struct hive_board *b, struct hive_move *out, int count)
{
	g->b = b;
	g->out = out;
	g->n = 0;
	g->lifted = HIVE_NOWHERE;
	g->cut_done = 0;
	g->count = count;
	g->extra = 0;
	g->target = HIVE_NOWHERE;
}

static size_t gen_moves(const struct hive_board *b, struct hive_move *out, int count, uint16_t target)
{
	struct gen g;
	int side = hive_side_to_move(b);
	/* first[p]..end[p]: p's natural moves; end[HIVE_PIECES]: start of throws. */
	size_t first[HIVE_PIECES + 1], end[HIVE_PIECES + 1];

	if (hive_game_over(b))
		return 0;
	gen_init(&g, b, out, count);
	g.target = target;
	gen_placements(&g, side);

	if (b->pos[HIVE_PIECE(side, 0)] != HIVE_NOWHERE) {
		uint16_t throwers[2];
		int nthrowers = 0;
		for (int s = 0; s < 14; s++) {
			unsigned p = HIVE_PIECE(side, s);
			uint16_t c = b->pos[p];
			first[p] = end[p] = g.n;
			if (c == HIVE_NOWHERE || b->top[c] != p || p == b->last_moved)
				continue;
			if (is_thrower(b, p))
				throwers[nthrowers++] = c;
			gen_piece(&g, p);
			end[p] = g.n;
		}
		for (int s = 0; s < 14; s++) {
			unsigned p = HIVE_PIECE(!side, s);
			first[p] = end[p] = g.n;
		}
		end[HIVE_PIECES] = g.n;
		for (int i = 0; i < nthrowers; i++) {
			if (target != HIVE_NOWHERE && cell_distance(throwers[i], target) != 1)
				continue;     /* throws land next to the thrower */
			g.lifted = HIVE_NOWHERE;
			gen_throws(&g, throwers[i], first, end);
		}
	}
	if (g.n + g.extra == 0 && target == HIVE_NOWHERE) {
		out[0].piece = HIVE_PASS_PIECE;
		out[0].from = HIVE_NOWHERE;
		out[0].to = HIVE_NOWHERE;
		g.n = 1;
	}
	return g.n + g.extra;
}

size_t hive_board_moves(const struct hive_board *b, struct hive_move *out)
{
	return gen_moves(b, out, 0, HIVE_NOWHERE);
}

size_t hive_board_moves_to(const struct hive_board *b, uint16_t to, struct hive_move *out)
{
	return gen_moves(b, out, 0, to);
}

size_t hive_board_count_moves(const struct hive_board *b)
{
	struct hive_move moves[HIVE_MAX_MOVES];
	return gen_moves(b, moves, 1, HIVE_NOWHERE);
}

/* Whether own piece p (of the side to move, in hand) may go to cell to: only the
 * moves of that piece are generated, not the whole position's. */
static int placement_ok(const struct hive_board *b, unsigned p, uint16_t to)
{
	struct hive_move out[HIVE_MAX_MOVES];
	struct gen g;
	gen_init(&g, b, out, 0);
	gen_placements(&g, hive_side_to_move(b));
	for (size_t i = 0; i < g.n; i++)
		if (out[i].piece == p && out[i].to == to)
			return 1;
	return 0;
}

/* Whether an own Pillbug (or Mosquito as one) can throw piece p to cell to. */
static int thrown_ok(const struct hive_board *b, unsigned p, uint16_t to)
{
	struct hive_move out[6 * 6];
	size_t none[HIVE_PIECES + 1] = { 0 };
	int side = hive_side_to_move(b);
	struct gen g;

	gen_init(&g, b, out, 0);
	for (int s = 0; s < 14; s++) {
		unsigned q = HIVE_PIECE(side, s);
		if (!is_thrower(b, q) || hive_cell_dir(b->pos[q], b->pos[p]) < 0)
			continue;
		g.n = 0;
		g.lifted = HIVE_NOWHERE;
		gen_throws(&g, b->pos[q], none, none);
		for (size_t i = 0; i < g.n; i++)
			if (out[i].piece == p && out[i].to == to)
				return 1;
	}
	return 0;
}

int hive_board_find_move(const struct hive_board *b, struct hive_move m, struct hive_move *legal)
{
	int side = hive_side_to_move(b), ok = 0;

	if (hive_game_over(b))
		return 0;
	if (m.piece == HIVE_PASS_PIECE) {
		/* A pass is legal only when nothing else is. */
		struct hive_move moves[HIVE_MAX_MOVES];
		ok = hive_board_moves(b, moves) == 1 && moves[0].piece == HIVE_PASS_PIECE;
		m.from = m.to = HIVE_NOWHERE;
	} else if (m.piece < HIVE_PIECES && m.to < HIVE_CELLS && hive_piece_enabled(b->type, m.piece)) {
		uint16_t c = b->pos[m.piece];
		int queen_in = b->pos[HIVE_PIECE(side, 0)] != HIVE_NOWHERE;
		if (c == HIVE_NOWHERE) {
			ok = HIVE_PIECE_COLOR(m.piece) == side && placement_ok(b, m.piece, m.to);
		} else if (queen_in && b->top[c] == m.piece && m.piece != b->last_moved) {
			if (HIVE_PIECE_COLOR(m.piece) == side) {
				struct hive_move out[HIVE_MAX_MOVES];
				struct gen g;
				gen_init(&g, b, out, 0);
				gen_piece(&g, m.piece);
				for (size_t i = 0; i < g.n && !ok; i++)
					ok = out[i].to == m.to;
			}
			if (!ok && b->height[c] == 1)
				ok = thrown_ok(b, m.piece, m.to);
		}
		m.from = c;
	}
	if (ok && legal)
		*legal = m;
	return ok;
}

int hive_board_throw_users(const struct hive_board *b, struct hive_move m, int *users, int max)
{
	int side = hive_side_to_move(b), n = 0;
	struct hive_move out[6 * 6];
	size_t none[HIVE_PIECES + 1];
	struct gen g;

	if (hive_game_over(b) || m.piece >= HIVE_PIECES || b->pos[HIVE_PIECE(side, 0)] == HIVE_NOWHERE)
		return 0;
	for (int p = 0; p < HIVE_PIECES + 1; p++)
		none[p] = 0;
	for (int s = 0; s < 14 && n < max; s++) {
		unsigned p = HIVE_PIECE(side, s);
		if (!is_thrower(b, p))
			continue;
		gen_init(&g, b, out, 0);
		gen_throws(&g, b->pos[p], none, none);
		for (size_t i = 0; i < g.n; i++)
			if (out[i].piece == m.piece && out[i].to == m.to) {
				users[n++] = (int)p;
				break;
			}
	}
	return n;
}

static uint64_t perft_rec(struct hive_board *b, int depth)
{
	struct hive_move moves[HIVE_MAX_MOVES];
	if (depth == 1)
		return hive_board_count_moves(b);
	size_t n = hive_board_moves(b, moves);
	uint64_t total = 0;
	for (size_t i = 0; i < n; i++) {
		struct hive_undo u;
		hive_board_do(b, moves[i], &u);
		total += perft_rec(b, depth - 1);
		hive_board_undo(b, &u);
	}
	return total;
}

uint64_t hive_board_position_key(const struct hive_board *b)
{
	uint64_t key = hive_side_to_move(b) ? SIDE_KEY : 0;
	for (int p = 0; p < HIVE_PIECES; p++) {
		if (b->pos[p] == HIVE_NOWHERE)
			continue;
		/* 16 * colour + bug stands where piece_key puts the piece id. */
		unsigned bug = (unsigned)(16 * HIVE_PIECE_COLOR(p) + slot_bug[HIVE_PIECE_SLOT(p)]);
		key ^= piece_key(bug, b->pos[p], b->level[p]);
	}
	return key;
}

/* perft_rec, asking stop between the subtrees deeper than the bulk depth. */
static int64_t perft_stoppable(struct hive_board *b, int depth, hive_perft_stop_fn *stop, void *arg)
{
	struct hive_move moves[HIVE_MAX_MOVES];
	int64_t total = 0;

	if (depth <= HIVE_PERFT_BULK_DEPTH)
		return (int64_t)perft_rec(b, depth);
	size_t n = hive_board_moves(b, moves);
	for (size_t i = 0; i < n; i++) {
		struct hive_undo u;
		if (stop(arg))
			return -1;
		hive_board_do(b, moves[i], &u);
		int64_t sub = perft_stoppable(b, depth - 1, stop, arg);
		hive_board_undo(b, &u);
		if (sub < 0)
			return -1;
		total += sub;
	}
	return total;
}

int64_t hive_perft(struct hive_board *b, int depth, hive_perft_stop_fn *stop, void *arg)
{
	if (depth <= 0)
		return 1;
	return stop ? perft_stoppable(b, depth, stop, arg) : (int64_t)perft_rec(b, depth);
}

int hive_perft_format(char *buf, size_t n, int depth, uint64_t count, uint64_t us)
{
	return snprintf(buf, n, "perft(%d) = %llu in %llu ms. %llu KN/s", depth,
			(unsigned long long)count, (unsigned long long)(us / 1000),
			(unsigned long long)(us ? count * 1000 / us : 0));
}

int hive_board_check(const struct hive_board *b)
{
	uint8_t h[HIVE_CELLS];
	uint64_t hash = (b->ply & 1) ? SIDE_KEY : 0;
	memset(h, 0, sizeof h);
	for (int p = 0; p < HIVE_PIECES; p++) {
		uint16_t c = b->pos[p];
		if (c == HIVE_NOWHERE)
			continue;
		if (c >= HIVE_CELLS || !hive_piece_enabled(b->type, p))
			return -1;
		h[c]++;
		hash ^= piece_key((unsigned)p, c, b->level[p]);
		/* Walk down from the top: p must be in the stack at its level. */
		unsigned q = b->top[c];
		int lv = b->height[c] - 1;
		while (q != HIVE_NO_PIECE && q != (unsigned)p) {
			q = b->under[q];
			lv--;
		}
		if (q != (unsigned)p || lv != b->level[p])
			return -2;
	}
	for (int c = 0; c < HIVE_CELLS; c++) {
		if (h[c] != b->height[c] || (h[c] == 0) != (b->top[c] == HIVE_NO_PIECE))
			return -3;
		unsigned a = 0, ring = 0;
		for (int d = 0; d < HIVE_DIRS; d++) {
			uint16_t n = hive_cell_step((uint16_t)c, d);
			a += adj_unit(b->top[n]);
			ring |= (unsigned)(b->height[n] > 0) << d;
		}
		if (a != b->adj[c] || ring != b->ring[c])
			return -6;
	}
	if (hash != b->hash)
		return -4;
	if (b->state != hive_board_eval_state(b))
		return -5;
	return 0;
}
