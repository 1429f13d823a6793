/*
 * trylobot_coords.c: positions, replay and turn translation for the Trylobot protocol.
 */
#include <stdio.h>
#include <string.h>
#include "trylobot_coords.h"
#include "core/errbuf.h"

/* Trylobot (row, col) offset of each core direction: NW NE E SE SW W. */
static const int8_t dir_drow[HIVE_DIRS] = { -1, -2, -1, +1, +2, +1 };
static const int8_t dir_dcol[HIVE_DIRS] = { -1,  0, +1, +1,  0, -1 };

struct tb_pos tb_pos_step(struct tb_pos p, int dir)
{
	p.row += dir_drow[dir];
	p.col += dir_dcol[dir];
	return p;
}

int tb_pos_dir(struct tb_pos a, struct tb_pos b)
{
	for (int d = 0; d < HIVE_DIRS; d++)
		if (b.row - a.row == dir_drow[d] && b.col - a.col == dir_dcol[d])
			return d;
	return -1;
}

uint16_t tb_pos_cell(struct tb_pos p)
{
	int32_t q = (p.col - p.row) / 2, r = (p.col + p.row) / 2;
	int32_t c = (HIVE_ORIGIN + q + 32 * r) % HIVE_CELLS;
	return (uint16_t)(c < 0 ? c + HIVE_CELLS : c);
}

void tb_replay_init(struct tb_replay *r, unsigned type)
{
	memset(r, 0, sizeof *r);
	hive_game_init(&r->game, type);
}

void tb_replay_free(struct tb_replay *r)
{
	hive_game_free(&r->game);
	tb_turns_free(&r->history);
}

/* The position of a cell, through its own top piece or a neighbour's. */
static int cell_pos(const struct tb_replay *r, uint16_t cell, struct tb_pos *out)
{
	const struct hive_board *b = &r->game.board;
	if (b->top[cell] != HIVE_NO_PIECE) {
		*out = r->pos[b->top[cell]];
		return 0;
	}
	for (int d = 0; d < HIVE_DIRS; d++) {
		uint8_t t = b->top[hive_cell_step(cell, d)];
		if (t != HIVE_NO_PIECE) {
			*out = tb_pos_step(r->pos[t], (d + 3) % 6);
			return 0;
		}
	}
	if (!b->in_play && cell == HIVE_ORIGIN) {
		out->row = out->col = 0;
		return 0;
	}
	return -1;
}

/* The cell of a position on or next to the hive (exact: compares absolute
 * positions, so a far position that aliases on the ring is refused). */
static int pos_cell(const struct tb_replay *r, struct tb_pos p, uint16_t *cell)
{
	const struct hive_board *b = &r->game.board;
	if (!b->in_play) {
		if (p.row || p.col)
			return -1;
		*cell = HIVE_ORIGIN;
		return 0;
	}
	for (uint32_t m = b->in_play; m; m &= m - 1) {
		int q = __builtin_ctz(m);
		if (tb_pos_eq(r->pos[q], p) || tb_pos_dir(r->pos[q], p) >= 0) {
			*cell = tb_pos_cell(p);
			return 0;
		}
	}
	return -1;
}

/* The top piece at a position, or HIVE_NO_PIECE. */
static int top_at(const struct tb_replay *r, struct tb_pos p)
{
	const struct hive_board *b = &r->game.board;
	for (uint32_t m = b->in_play; m; m &= m - 1) {
		int q = __builtin_ctz(m);
		if (tb_pos_eq(r->pos[q], p) && b->top[b->pos[q]] == q)
			return q;
	}
	return HIVE_NO_PIECE;
}

/* Whether own piece u may throw m's piece as m says: the core decides. */
static int can_throw(const struct hive_board *b, int u, struct hive_move m)
{
	int users[HIVE_PIECES];
	int n = hive_board_throw_users(b, m, users, HIVE_PIECES);
	for (int i = 0; i < n; i++)
		if (users[i] == u)
			return 1;
	return 0;
}

const char *tb_turn_format(const struct tb_turn *t, char *buf, size_t len)
{
	char a[24], s[24], d[24];
	switch (t->type) {
	case TB_PLACEMENT:
		snprintf(buf, len, "Placement %s at %s", tb_bug_name(t->bug), tb_pos_format(t->dst, d, sizeof d));
		break;
	case TB_MOVEMENT:
		snprintf(buf, len, "Movement %s -> %s", tb_pos_format(t->src, s, sizeof s),
			 tb_pos_format(t->dst, d, sizeof d));
		break;
	case TB_ABILITY:
		snprintf(buf, len, "Special Ability of %s: %s -> %s", tb_pos_format(t->user, a, sizeof a),
			 tb_pos_format(t->src, s, sizeof s), tb_pos_format(t->dst, d, sizeof d));
		break;
	default:
		snprintf(buf, len, "Forfeit");
	}
	return buf;
}

int tb_replay_turn_candidate(const struct tb_replay *r, const struct tb_turn *t, struct hive_move *m,
			     char *err, size_t errlen)
{
	const struct hive_board *b = &r->game.board;
	int side = hive_side_to_move(b);
	char what[96];   /* the turn as text, built only for an error */
	struct hive_move mv = { .piece = HIVE_PASS_PIECE, .from = HIVE_NOWHERE, .to = HIVE_NOWHERE };
	int user = HIVE_NO_PIECE;

	switch (t->type) {
	case TB_PLACEMENT: {
		int p = HIVE_NO_PIECE;
		for (int s = 0; s < 14 && p == HIVE_NO_PIECE; s++) {
			int q = HIVE_PIECE(side, s);
			if (hive_piece_bug(q) == t->bug && hive_piece_enabled(b->type, q) &&
			    b->pos[q] == HIVE_NOWHERE)
				p = q;
		}
		if (p == HIVE_NO_PIECE) {
			errbuf_set(err, errlen, "%s: no %s left in hand", tb_turn_format(t, what, sizeof what), tb_bug_name(t->bug));
			return -1;
		}
		mv.piece = (uint8_t)p;
		break;
	}
	case TB_MOVEMENT:
	case TB_ABILITY: {
		int p = top_at(r, t->src);
		if (p == HIVE_NO_PIECE) {
			errbuf_set(err, errlen, "%s: no piece at the source", tb_turn_format(t, what, sizeof what));
			return -1;
		}
		if (t->type == TB_MOVEMENT && HIVE_PIECE_COLOR(p) != side) {
			errbuf_set(err, errlen, "%s: the piece there is the opponent's", tb_turn_format(t, what, sizeof what));
			return -1;
		}
		if (t->type == TB_ABILITY) {
			user = top_at(r, t->user);
			if (user == HIVE_NO_PIECE || HIVE_PIECE_COLOR(user) != side) {
				errbuf_set(err, errlen, "%s: no own piece at the ability user's cell", tb_turn_format(t, what, sizeof what));
				return -1;
			}
		}
		mv.piece = (uint8_t)p;
		mv.from = b->pos[p];
		break;
	}
	case TB_FORFEIT:
		break;
	default:
		errbuf_set(err, errlen, "unknown turn type %d", t->type);
		return -1;
	}
	if (t->type != TB_FORFEIT && pos_cell(r, t->dst, &mv.to)) {
		errbuf_set(err, errlen, "%s: the destination is not next to the hive", tb_turn_format(t, what, sizeof what));
		return -1;
	}
	/* The user is the turn's word the core move drops: it is read here, where it goes. */
	if (user != HIVE_NO_PIECE && !can_throw(b, user, mv)) {
		errbuf_set(err, errlen, "%s: that piece cannot throw it", tb_turn_format(t, what, sizeof what));
		return -1;
	}
	*m = mv;
	return 0;
}

int tb_replay_turn_move(const struct tb_replay *r, const struct tb_turn *t, struct hive_move *m,
			char *err, size_t errlen)
{
	const struct hive_board *b = &r->game.board;
	char what[96];   /* the turn as text, built only for an error */
	struct hive_move mv;

	if (hive_game_over(b)) {
		errbuf_set(err, errlen, "%s: the game is over", tb_turn_format(t, what, sizeof what));
		return -1;
	}
	if (tb_replay_turn_candidate(r, t, &mv, err, errlen))
		return -1;
	if (!hive_board_find_move(b, mv, m)) {
		errbuf_set(err, errlen, "%s: illegal for %s at turn %u", tb_turn_format(t, what, sizeof what),
			   hive_side_to_move(b) ? "Black" : "White", (unsigned)b->ply);
		return -1;
	}
	return 0;
}

int tb_replay_move_turn(const struct tb_replay *r, struct hive_move m, struct tb_turn *t,
			char *err, size_t errlen)
{
	const struct hive_board *b = &r->game.board;
	memset(t, 0, sizeof *t);
	if (m.piece == HIVE_PASS_PIECE) {
		t->type = TB_FORFEIT;
		return 0;
	}
	if (m.piece >= HIVE_PIECES || cell_pos(r, m.to, &t->dst)) {
		errbuf_set(err, errlen, "move of piece %u to cell %u: not next to the hive", m.piece, m.to);
		return -1;
	}
	if (b->pos[m.piece] == HIVE_NOWHERE) {
		t->type = TB_PLACEMENT;
		t->bug = (uint8_t)hive_piece_bug(m.piece);
		return 0;
	}
	t->src = r->pos[m.piece];
	if (HIVE_PIECE_COLOR(m.piece) == hive_side_to_move(b)) {
		t->type = TB_MOVEMENT;
		return 0;
	}
	int u;
	m.from = b->pos[m.piece];
	if (!hive_board_throw_users(b, m, &u, 1)) {
		errbuf_set(err, errlen, "move of %s: an opponent piece no own pillbug can throw",
			   hive_piece_name(m.piece));
		return -1;
	}
	t->type = TB_ABILITY;
	t->user = r->pos[u];
	return 0;
}

int tb_replay_play(struct tb_replay *r, struct hive_move m, char *err, size_t errlen)
{
	struct hive_move legal;
	struct tb_turn t;
	if (!hive_board_find_move(&r->game.board, m, &legal)) {
		errbuf_set(err, errlen, "illegal move (piece %u to cell %u)", m.piece, m.to);
		return -1;
	}
	if (tb_replay_move_turn(r, legal, &t, err, errlen))
		return -1;
	if (tb_turns_add(&r->history, &t) || hive_game_play(&r->game, legal)) {
		errbuf_set(err, errlen, "out of memory");
		return -1;
	}
	if (legal.piece != HIVE_PASS_PIECE)
		r->pos[legal.piece] = t.dst;
	return 0;
}

int tb_replay_play_turn(struct tb_replay *r, const struct tb_turn *t, char *err, size_t errlen)
{
	struct hive_move m;
	if (tb_replay_turn_move(r, t, &m, err, errlen))
		return -1;
	int rc = hive_game_play(&r->game, m);
	if (rc != HIVE_OK) {
		/* A game at HIVE_MAX_PLIES, or one already decided: not a lack of memory. */
		errbuf_set(err, errlen, rc == HIVE_ERR_NOMEM ? "out of memory"
			: rc == HIVE_ERR_GAMEOVER ? "the game is already over"
			: "the game is at its ply limit (%d)", HIVE_MAX_PLIES);
		return -1;
	}
	if (tb_turns_add(&r->history, t)) {
		hive_game_undo(&r->game, 1);
		errbuf_set(err, errlen, "out of memory");
		return -1;
	}
	if (t->type != TB_FORFEIT)
		r->pos[m.piece] = t->dst;
	return 0;
}

/* Pieces of each colour and bug in hand. */
static void count_hands(const struct hive_board *b, uint8_t hand[2][HIVE_BUGS])
{
	memset(hand, 0, 2 * HIVE_BUGS);
	for (int p = 0; p < HIVE_PIECES; p++)
		if (b->pos[p] == HIVE_NOWHERE && hive_piece_enabled(b->type, p))
			hand[HIVE_PIECE_COLOR(p)][hive_piece_bug(p)]++;
}

/* The stack whose top piece is top, bottom to top. */
static void fill_stack(const struct tb_replay *r, int top, struct tb_stack *s)
{
	const struct hive_board *b = &r->game.board;
	int h = b->level[top] + 1;
	s->pos = r->pos[top];
	s->height = (uint8_t)h;
	for (int p = top; p != HIVE_NO_PIECE && h > 0; p = b->under[p]) {
		h--;
		s->piece[h].color = (uint8_t)HIVE_PIECE_COLOR(p);
		s->piece[h].bug = (uint8_t)hive_piece_bug(p);
	}
}

/* Whether the replayed position is the one the request describes. */
static int check_state(const struct tb_replay *r, const struct tb_state *st, char *err, size_t errlen)
{
	const struct hive_board *b = &r->game.board;
	uint8_t hand[2][HIVE_BUGS];
	size_t cells = 0;
	char ps[24];

	if (st->turn_number != (long)b->ply || st->history.n != b->ply) {
		errbuf_set(err, errlen, "turn_number %ld but %zu turns in turn_history", st->turn_number,
			   st->history.n);
		return -1;
	}
	if (st->player != hive_side_to_move(b)) {
		errbuf_set(err, errlen, "player_turn is not the side to move after turn_history");
		return -1;
	}
	count_hands(b, hand);
	if (memcmp(hand, st->hand, sizeof hand)) {
		errbuf_set(err, errlen, "hands disagree with turn_history");
		return -1;
	}
	for (uint32_t m = b->in_play; m; m &= m - 1)
		cells += b->top[b->pos[__builtin_ctz(m)]] == __builtin_ctz(m);
	if (cells != st->nstacks) {
		errbuf_set(err, errlen, "board has %zu cells, turn_history gives %zu", st->nstacks, cells);
		return -1;
	}
	for (size_t i = 0; i < st->nstacks; i++) {
		const struct tb_stack *want = &st->stack[i];
		struct tb_stack got;
		int top = top_at(r, want->pos);
		if (top == HIVE_NO_PIECE) {
			errbuf_set(err, errlen, "board cell %s is empty after turn_history",
				   tb_pos_format(want->pos, ps, sizeof ps));
			return -1;
		}
		fill_stack(r, top, &got);
		if (got.height != want->height ||
		    memcmp(got.piece, want->piece, got.height * sizeof got.piece[0])) {
			errbuf_set(err, errlen, "board cell %s disagrees with turn_history",
				   tb_pos_format(want->pos, ps, sizeof ps));
			return -1;
		}
	}
	return 0;
}

/* Plays st's turns from r's ply on and checks the result; frees r on failure. */
static int replay_rest(struct tb_replay *r, const struct tb_state *st, char *err, size_t errlen)
{
	char why[TB_ERR_MAX];
	for (size_t i = r->history.n; i < st->history.n; i++) {
		if (tb_replay_play_turn(r, &st->history.v[i], why, sizeof why)) {
			errbuf_set(err, errlen, "turn_history[%zu]: %s", i, why);
			tb_replay_free(r);
			return -1;
		}
	}
	if (check_state(r, st, err, errlen)) {
		tb_replay_free(r);
		return -1;
	}
	return 0;
}

int tb_replay_load(struct tb_replay *r, const struct tb_state *st, char *err, size_t errlen)
{
	tb_replay_init(r, st->type);
	return replay_rest(r, st, err, errlen);
}

/* Whether r's turns are the first of st's, turn for turn, in a game of its type:
 * then replaying the rest from r gives what replaying all from the start gives. */
static int replay_extends(const struct tb_replay *r, const struct tb_state *st)
{
	if (r->game.type != st->type || r->history.n > st->history.n)
		return 0;
	for (size_t i = 0; i < r->history.n; i++)
		if (!tb_turn_eq(&r->history.v[i], &st->history.v[i]))
			return 0;
	return 1;
}

int tb_replay_sync(struct tb_replay *r, int have, const struct tb_state *st, char *err, size_t errlen)
{
	if (!have || !replay_extends(r, st)) {
		if (have)
			tb_replay_free(r);
		return tb_replay_load(r, st, err, errlen);
	}
	return replay_rest(r, st, err, errlen);
}

int tb_replay_from_game(struct tb_replay *r, const struct hive_game *g, char *err, size_t errlen)
{
	char why[TB_ERR_MAX];
	tb_replay_init(r, g->type);
	for (size_t i = 0; i < g->len; i++) {
		if (tb_replay_play(r, g->hist[i].move, why, sizeof why)) {
			errbuf_set(err, errlen, "ply %zu: %s", i, why);
			tb_replay_free(r);
			return -1;
		}
	}
	return 0;
}

int tb_replay_answer(const struct tb_replay *r, const struct tb_turns *possible, struct hive_move m,
		     struct tb_turn *t, char *err, size_t errlen)
{
	char what[96];
	/* m is legal (its caller's word): the turn it is, no second look by the core. */
	if (tb_replay_move_turn(r, m, t, err, errlen))
		return -1;
	if (t->type == TB_ABILITY) {
		errbuf_set(err, errlen, "%s: the Trylobot core rejects every Special Ability",
			   tb_turn_format(t, what, sizeof what));
		return 0;
	}
	if (possible && !tb_turns_has(possible, t)) {
		errbuf_set(err, errlen, "%s: not listed in possible_turns", tb_turn_format(t, what, sizeof what));
		return 0;
	}
	return 1;
}

size_t tb_replay_sendable(const struct tb_replay *r, const struct tb_turns *possible, struct tb_turn *t,
			  size_t max)
{
	size_t count = 0;
	for (size_t i = 0; i < possible->n && count < max; i++) {
		const struct tb_turn *p = &possible->v[i];
		struct hive_move m;
		struct tb_turn cand;
		/* The move the turn names, and back: a sendable move is counted at the turn
		 * it is sent as (listed turns are distinct), and only there. */
		if (p->type == TB_ABILITY || tb_replay_turn_move(r, p, &m, NULL, 0) ||
		    tb_replay_answer(r, possible, m, &cand, NULL, 0) != 1 || !tb_turn_eq(&cand, p))
			continue;
		if (!count)
			*t = cand;
		count++;
	}
	return count;
}

int tb_replay_possible(const struct tb_replay *r, struct tb_turns *out, char *err, size_t errlen)
{
	const struct hive_board *b = &r->game.board;
	struct hive_move moves[HIVE_MAX_MOVES];
	size_t n = hive_board_moves(b, moves);
	for (size_t i = 0; i < n; i++) {
		struct tb_turn t;
		int users[HIVE_PIECES], nu;
		if (tb_replay_move_turn(r, moves[i], &t, err, errlen))
			return -1;
		if (t.type != TB_ABILITY) {
			if (tb_turns_add_unique(out, &t))
				goto nomem;
			continue;
		}
		/* Trylobot lists a throw under every user able to do it. */
		nu = hive_board_throw_users(b, moves[i], users, HIVE_PIECES);
		for (int k = 0; k < nu; k++) {
			t.user = r->pos[users[k]];
			if (tb_turns_add_unique(out, &t))
				goto nomem;
		}
	}
	return 0;
nomem:
	errbuf_set(err, errlen, "out of memory");
	return -1;
}

int tb_replay_state(const struct tb_replay *r, struct tb_state *st, char *err, size_t errlen)
{
	const struct hive_board *b = &r->game.board;
	tb_state_init(st);
	st->type = b->type;
	st->player = hive_side_to_move(b);
	st->turn_number = b->ply;
	for (int p = 0; p < HIVE_PIECES; p++)
		if (b->pos[p] != HIVE_NOWHERE && b->top[b->pos[p]] == p)
			fill_stack(r, p, &st->stack[st->nstacks++]);
	count_hands(b, st->hand);
	for (size_t i = 0; i < r->history.n; i++)
		if (tb_turns_add(&st->history, &r->history.v[i])) {
			errbuf_set(err, errlen, "out of memory");
			goto fail;
		}
	if (!hive_game_over(b) && tb_replay_possible(r, &st->possible, err, errlen))
		goto fail;
	return 0;
fail:
	tb_state_free(st);
	return -1;
}
