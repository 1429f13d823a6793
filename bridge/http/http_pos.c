/*
 * http_pos.c: a position as the page draws it. The board's cells live on a 32x32
 * ring (core/board.h); the page wants plain axial coordinates, so they are unwrapped
 * by walking the hive from the first piece placed (every piece on the board is
 * reached: the hive is connected), and an empty cell takes its coordinates from an
 * occupied neighbour. Legality is the core's: the legal moves come from
 * hive_board_moves and are named with hive_move_format.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/http/http_int.h"
#include "core/board.h"
#include "core/game.h"

static const int dq[HIVE_DIRS] = { 0, 1, 1, 0, -1, -1 };
static const int dr[HIVE_DIRS] = { -1, -1, 0, 1, 1, 0 };

struct coords {
	uint8_t have[HIVE_CELLS];
	int     q[HIVE_CELLS];
	int     r[HIVE_CELLS];
};

/* The ring cell's own coordinates, relative to the origin, in [-16, 15]. */
static void cell_raw(uint16_t cell, int *q, int *r)
{
	*q = (int)(cell & 31) - 16;
	*r = (int)(cell >> 5) - 16;
}

static void coords_build(struct coords *c, const struct hive_board *b, int anchor_piece)
{
	uint16_t queue[HIVE_CELLS];
	size_t head = 0, tail = 0;

	memset(c->have, 0, sizeof c->have);
	if (anchor_piece < 0 || b->pos[anchor_piece] == HIVE_NOWHERE) {
		anchor_piece = -1;
		for (int p = 0; p < HIVE_PIECES && anchor_piece < 0; p++)
			if (b->pos[p] != HIVE_NOWHERE)
				anchor_piece = p;
	}
	if (anchor_piece < 0)
		return;
	uint16_t a = b->pos[anchor_piece];
	cell_raw(a, &c->q[a], &c->r[a]);
	c->have[a] = 1;
	queue[tail++] = a;
	while (head < tail) {
		uint16_t cell = queue[head++];
		for (int d = 0; d < HIVE_DIRS; d++) {
			uint16_t n = hive_cell_step(cell, d);
			if (c->have[n] || b->top[n] == HIVE_NO_PIECE)
				continue;
			c->have[n] = 1;
			c->q[n] = c->q[cell] + dq[d];
			c->r[n] = c->r[cell] + dr[d];
			queue[tail++] = n;
		}
	}
}

/* Coordinates of any cell: its own, an occupied neighbour's, or the raw ones. */
static void coords_of(const struct coords *c, uint16_t cell, int *q, int *r)
{
	if (c->have[cell]) {
		*q = c->q[cell];
		*r = c->r[cell];
		return;
	}
	for (int d = 0; d < HIVE_DIRS; d++) {
		uint16_t n = hive_cell_step(cell, d);
		if (c->have[n]) {
			*q = c->q[n] - dq[d];
			*r = c->r[n] - dr[d];
			return;
		}
	}
	cell_raw(cell, q, r);
}

static cJSON *cell_json(const struct coords *c, uint16_t cell)
{
	int q, r;
	cJSON *o = cJSON_CreateObject();
	coords_of(c, cell, &q, &r);
	cJSON_AddNumberToObject(o, "q", q);
	cJSON_AddNumberToObject(o, "r", r);
	return o;
}

static const char bug_letters[HIVE_BUGS + 1] = "QSBGAMLP";

cJSON *pos_moves_json(const struct hive_game *g)
{
	cJSON *a = cJSON_CreateArray();
	struct hive_board b;
	char ms[HIVE_MOVESTR_MAX];

	hive_board_init(&b, g->type);
	for (size_t i = 0; a && i < g->len; i++) {
		struct hive_undo u;
		hive_move_format(&b, g->hist[i].move, ms, sizeof ms);
		cJSON_AddItemToArray(a, cJSON_CreateString(ms));
		hive_board_do(&b, g->hist[i].move, &u);
	}
	return a;
}

cJSON *pos_json(const struct hive_game *g, size_t ply)
{
	struct hive_board b;
	struct coords *c = malloc(sizeof *c);
	struct hive_move *moves = malloc(HIVE_MAX_MOVES * sizeof *moves);
	cJSON *o = cJSON_CreateObject();
	char buf[64], ms[HIVE_MOVESTR_MAX];

	if (!c || !moves || !o) {
		free(c);
		free(moves);
		cJSON_Delete(o);
		return NULL;
	}
	if (ply > g->len)
		ply = g->len;
	hive_board_init(&b, g->type);
	for (size_t i = 0; i < ply; i++) {
		struct hive_undo u;
		hive_board_do(&b, g->hist[i].move, &u);
	}
	coords_build(c, &b, g->len ? g->hist[0].move.piece : -1);

	cJSON_AddNumberToObject(o, "ply", (double)ply);
	cJSON_AddStringToObject(o, "state", hive_state_name(b.state));
	hive_turn_format(&b, buf, sizeof buf);
	cJSON_AddStringToObject(o, "turn", buf);
	cJSON_AddStringToObject(o, "to_move", hive_side_to_move(&b) ? "b" : "w");

	/* Pieces bottom up, so a stack draws in order and its lower pieces are listed. */
	cJSON *pieces = cJSON_AddArrayToObject(o, "pieces");
	cJSON *hand = cJSON_AddObjectToObject(o, "hand");
	cJSON *hw = cJSON_AddArrayToObject(hand, "w");
	cJSON *hb = cJSON_AddArrayToObject(hand, "b");
	for (int level = 0; level < HIVE_MAX_STACK; level++) {
		for (int p = 0; p < HIVE_PIECES; p++) {
			if (b.pos[p] == HIVE_NOWHERE || b.level[p] != level)
				continue;
			cJSON *pc = cell_json(c, b.pos[p]);
			cJSON_AddStringToObject(pc, "piece", hive_piece_name(p));
			cJSON_AddStringToObject(pc, "color", HIVE_PIECE_COLOR(p) ? "b" : "w");
			char bug[2] = { bug_letters[hive_piece_bug(p)], 0 };
			cJSON_AddStringToObject(pc, "bug", bug);
			cJSON_AddNumberToObject(pc, "level", b.level[p]);
			cJSON_AddNumberToObject(pc, "height", b.height[b.pos[p]]);
			cJSON_AddBoolToObject(pc, "top", b.top[b.pos[p]] == p);
			cJSON_AddItemToArray(pieces, pc);
		}
	}
	for (int p = 0; p < HIVE_PIECES; p++)
		if (b.pos[p] == HIVE_NOWHERE && hive_piece_enabled(b.type, p))
			cJSON_AddItemToArray(HIVE_PIECE_COLOR(p) ? hb : hw,
					     cJSON_CreateString(hive_piece_name(p)));

	if (ply > 0) {
		struct hive_move m = g->hist[ply - 1].move;
		struct hive_board before;
		hive_board_init(&before, g->type);
		for (size_t i = 0; i + 1 < ply; i++) {
			struct hive_undo u;
			hive_board_do(&before, g->hist[i].move, &u);
		}
		hive_move_format(&before, m, ms, sizeof ms);
		cJSON *lm = cJSON_AddObjectToObject(o, "last_move");
		cJSON_AddStringToObject(lm, "move", ms);
		if (m.piece != HIVE_PASS_PIECE) {
			cJSON_AddStringToObject(lm, "piece", hive_piece_name(m.piece));
			if (m.from != HIVE_NOWHERE)
				cJSON_AddItemToObject(lm, "from", cell_json(c, m.from));
			cJSON_AddItemToObject(lm, "to", cell_json(c, m.to));
		}
	} else {
		cJSON_AddNullToObject(o, "last_move");
	}

	cJSON *legal = cJSON_AddArrayToObject(o, "legal");
	size_t n = hive_game_over(&b) ? 0 : hive_board_moves(&b, moves);
	for (size_t i = 0; i < n; i++) {
		cJSON *mv = cJSON_CreateObject();
		hive_move_format(&b, moves[i], ms, sizeof ms);
		cJSON_AddStringToObject(mv, "move", ms);
		if (moves[i].piece != HIVE_PASS_PIECE) {
			cJSON_AddStringToObject(mv, "piece", hive_piece_name(moves[i].piece));
			cJSON_AddItemToObject(mv, "to", cell_json(c, moves[i].to));
		}
		cJSON_AddItemToArray(legal, mv);
	}
	free(c);
	free(moves);
	return o;
}
