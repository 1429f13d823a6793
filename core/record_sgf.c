/*
 * record_sgf.c: BoardSpace's SGF game records (GM[27]) read into canonical games (see
 * record.h). BoardSpace's actions name cells by its own letter-number grid; the
 * relative notation it appends is not trusted: a cell is mapped onto ours by its
 * offset from the first piece's cell (BoardSpace's E is letter + 1, its NW is
 * number + 1), and the move is then looked up among the core's legal moves. A move
 * is played at its Done; a piece picked up and put back, or dropped and picked up
 * again, before Done is a move taken back. Games are written back in the same cells
 * as BoardSpace's robots write them (hive_record_write_sgf, at the end).
 *
 * Pure library: no I/O, no globals.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "record_int.h"

#define SGF_VALUE_MAX 4096

struct sgf {
	struct hive_record r;
	int      have_gm;
	int      have_origin;      /* BoardSpace's cell of the first piece */
	int      col0, row0;
	int      pend;             /* a move under way: piece picked or moved, not yet Done */
	int      pend_piece;
	uint16_t pend_from;
	uint16_t pend_to;
	int      pend_has_to;
	int      pend_pass;
	size_t   pend_line;
	char     pend_text[80];    /* the action that made it, for an error */
	int      white;            /* the player (0, 1) who made ply 1 */
	int      resigned;         /* the player who resigned, -1 */
	int      drawn;
	char     names[2][HIVE_RECORD_MAX_TEXT];
};

/* BoardSpace's "SU[hive-plm]" (any case, "Hive-PLM 2 0 101"): its expansions. */
static int sgf_type(const char *v, unsigned *type)
{
	size_t n = 0;
	while (v[n] && !record_is_blank(v[n]))
		n++;
	if (n < 4 || !record_word_is(v, 4, "hive"))
		return -1;
	*type = 0;
	if (n == 4)
		return 0;
	if (v[4] != '-')
		return -1;
	for (size_t i = 5; i < n; i++) {
		char c = record_lower(v[i]);
		unsigned bit = c == 'm' ? HIVE_EXP_M : c == 'l' ? HIVE_EXP_L : c == 'p' ? HIVE_EXP_P : 0;
		if (!bit)
			return -1;  /* Hive-Ultimate and other variants the core does not play */
		*type |= bit;
	}
	return 0;
}

/* A piece as BoardSpace names it: "wS1", "bP1", "wQ", or (its older files) "g1", "Q",
 * "a1" with the colour apart ('W', 'b'; -1: none given); -1 if it names none. */
static int sgf_piece(const char *name, int color)
{
	char buf[8];
	size_t n = strlen(name);
	const char *p = name;

	if (n >= 2 && (p[0] == 'w' || p[0] == 'b') && p[1] >= 'A' && p[1] <= 'Z') {
		color = p[0] == 'b';
		p++;
		n--;
	}
	if (color < 0 || n < 1 || n > 2 || (n == 2 && !record_is_digit(p[1])))
		return -1;
	char bug = (char)(record_lower(p[0]) - 'a' + 'A');
	/* The bugs of one piece per colour carry a 1 at BoardSpace, none in UHP. */
	if (n == 2 && p[1] == '1' && strchr("QMLP", bug))
		n = 1;
	snprintf(buf, sizeof buf, "%c%c%.*s", color ? 'b' : 'w', bug, (int)(n - 1), p + 1);
	return hive_piece_parse(buf, strlen(buf));
}

static int sgf_color(const char *s)
{
	if (s[0] && !s[1] && (s[0] == 'w' || s[0] == 'W'))
		return HIVE_WHITE;
	if (s[0] && !s[1] && (s[0] == 'b' || s[0] == 'B'))
		return HIVE_BLACK;
	return -1;
}

/* BoardSpace's cell (letter, number) on our ring: offset from the first piece's cell,
 * letter + 1 is our E (q + 1), number + 1 our NW (r - 1). The first call places the origin. */
static int sgf_cell(struct sgf *g, const char *col, const char *row, uint16_t *cell)
{
	char *end;
	if (strlen(col) != 1 || (col[0] | 32) < 'a' || (col[0] | 32) > 'z' || !record_is_digit(row[0]))
		return -1;
	int c = (col[0] | 32) - 'a';
	long r = strtol(row, &end, 10);
	if (*end || r < 1 || r > 99)
		return -1;
	if (!g->have_origin) {
		g->have_origin = 1;
		g->col0 = c;
		g->row0 = (int)r;
	}
	int v = HIVE_ORIGIN + (c - g->col0) - 32 * ((int)r - g->row0);
	*cell = (uint16_t)(((v % HIVE_CELLS) + HIVE_CELLS) % HIVE_CELLS);
	return 0;
}

/* Whether the side to move can only pass, which BoardSpace records as a Done alone. */
static int forced_pass(const struct hive_board *b)
{
	struct hive_move pass = { HIVE_PASS_PIECE, HIVE_NOWHERE, HIVE_NOWHERE };
	return !hive_game_over(b) && hive_board_find_move(b, pass, NULL);
}

/* The move under way, played: BoardSpace's Done. */
static int sgf_commit(struct record_rd *rd, struct sgf *g, int player)
{
	struct hive_move m;
	size_t ply = g->r.game.len + 1;

	if (g->pend_pass)
		m = (struct hive_move){ HIVE_PASS_PIECE, HIVE_NOWHERE, HIVE_NOWHERE };
	else if (g->pend && g->pend_has_to)
		m = (struct hive_move){ (uint8_t)g->pend_piece, g->pend_from, g->pend_to };
	else if (forced_pass(&g->r.game.board))
		m = (struct hive_move){ HIVE_PASS_PIECE, HIVE_NOWHERE, HIVE_NOWHERE };  /* a bare Done */
	else
		return 0;
	int rc = hive_record_play(&g->r, m, NULL);
	if (rc != HIVE_OK)
		return record_fail(rd, &g->r, ply, g->pend_line, "BoardSpace's \"%s\" is not a legal move%s.", g->pend_text,
			       rc == HIVE_ERR_GAMEOVER ? " (the game is over)" : rc == HIVE_ERR_NOMEM ? " (out of memory)" : "");
	if (ply == 1)
		g->white = player;
	g->pend = g->pend_pass = g->pend_has_to = 0;
	return 0;
}

/* One P0[...]/P1[...] action: "12 Pickb N 14 wA1" and the like. */
static int sgf_action(struct record_rd *rd, struct sgf *g, int player, char *val, size_t line)
{
	char text[sizeof g->pend_text], *tok[8], *p = val;
	int nt = 0;
	size_t ply = g->r.game.len + 1;
	const struct hive_board *b = &g->r.game.board;

	snprintf(text, sizeof text, "%s", val);
	while (nt < 8) {
		while (*p && record_is_blank(*p))
			p++;
		if (!*p)
			break;
		tok[nt++] = p;
		while (*p && !record_is_blank(*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
	if (!g->have_gm)
		return record_fail(rd, &g->r, 0, line, "not a Hive record: no GM[27] before the moves.");
	if (nt < 2)
		return record_fail(rd, &g->r, ply, line, "BoardSpace's \"%s\" has no action.", text);
	const char *verb = tok[1];
	char **a = tok + 2;
	int na = nt - 2, piece;
	uint16_t cell;

#define UNREADABLE() record_fail(rd, &g->r, ply, line, "BoardSpace's \"%s\" is unreadable.", text)
	if (record_word_is(verb, strlen(verb), "start") || record_word_is(verb, strlen(verb), "offerdraw") ||
	    record_word_is(verb, strlen(verb), "declinedraw") || record_word_is(verb, strlen(verb), "refusedraw"))
		return 0;
	if (record_word_is(verb, strlen(verb), "done"))
		return sgf_commit(rd, g, player);
	if (record_word_is(verb, strlen(verb), "resign")) {
		g->resigned = player;
		return 0;
	}
	if (record_word_is(verb, strlen(verb), "acceptdraw")) {
		g->drawn = 1;
		return 0;
	}
	if (record_word_is(verb, strlen(verb), "drop")) {
		g->pend = 0;  /* back into the rack */
		return 0;
	}
	snprintf(g->pend_text, sizeof g->pend_text, "%s", text);
	g->pend_line = line;
	if (record_word_is(verb, strlen(verb), "pass")) {
		g->pend = 0;
		g->pend_pass = 1;
		return 0;
	}
	if (record_word_is(verb, strlen(verb), "pick")) {
		if (na < 3 || (piece = sgf_piece(a[2], sgf_color(a[0]))) < 0)
			return UNREADABLE();
		g->pend = 1;
		g->pend_piece = piece;
		g->pend_from = b->pos[piece];
		g->pend_has_to = 0;
		return 0;
	}
	if (record_word_is(verb, strlen(verb), "pickb")) {
		if (na < 2 || sgf_cell(g, a[0], a[1], &cell) != 0)
			return UNREADABLE();
		if (g->pend && g->pend_has_to && g->pend_to == cell) {
			g->pend_has_to = 0;  /* picked up again before Done: the drop is taken back */
			return 0;
		}
		if (b->top[cell] == HIVE_NO_PIECE)
			return record_fail(rd, &g->r, ply, line, "BoardSpace's \"%s\" picks up no piece.", text);
		g->pend = 1;
		g->pend_piece = b->top[cell];
		g->pend_from = cell;
		g->pend_has_to = 0;
		return 0;
	}
	if (record_word_is(verb, strlen(verb), "dropb") || record_word_is(verb, strlen(verb), "pdropb")) {
		if (na < 3 || sgf_cell(g, a[1], a[2], &cell) != 0)
			return UNREADABLE();
		if (!g->pend) {
			if ((piece = sgf_piece(a[0], hive_side_to_move(b))) < 0)
				return UNREADABLE();
			g->pend = 1;
			g->pend_piece = piece;
			g->pend_from = b->pos[piece];
		}
		if (g->pend_from == cell) {
			g->pend = 0;  /* put back where it was */
			return 0;
		}
		g->pend_to = cell;
		g->pend_has_to = 1;
		return 0;
	}
	if (record_word_is(verb, strlen(verb), "move") || record_word_is(verb, strlen(verb), "pmove") ||
	    record_word_is(verb, strlen(verb), "movedone") || record_word_is(verb, strlen(verb), "pmovedone")) {
		if (na < 4 || (piece = sgf_piece(a[1], sgf_color(a[0]))) < 0 ||
		    sgf_cell(g, a[2], a[3], &cell) != 0)
			return UNREADABLE();
		g->pend = 1;
		g->pend_pass = 0;
		g->pend_piece = piece;
		g->pend_from = b->pos[piece];
		g->pend_to = cell;
		g->pend_has_to = 1;
		size_t vl = strlen(verb);
		return vl > 4 && record_word_is(verb + vl - 4, 4, "done") ? sgf_commit(rd, g, player) : 0;
	}
#undef UNREADABLE
	return record_fail(rd, &g->r, ply, line, "BoardSpace's action \"%s\" is not one this reader knows.", text);
}

static int sgf_prop(struct record_rd *rd, struct sgf *g, const char *name, char *val, size_t line)
{
	int bad = 0;
	if (!strcmp(name, "GM")) {
		if (strcmp(val, "27") != 0)
			return record_fail(rd, &g->r, 0, line, "not a Hive record: GM[%.20s].", val);
		g->have_gm = 1;
	} else if (!strcmp(name, "SU")) {
		unsigned type;
		if (g->r.game.len > 0 || g->pend)
			return record_fail(rd, &g->r, 0, line, "SU[...] comes after the moves.");
		if (sgf_type(val, &type) != 0)
			return record_fail(rd, &g->r, 0, line, "the game type SU[%.40s] is not one the core plays.", val);
		hive_game_free(&g->r.game);
		hive_game_init(&g->r.game, type);
	} else if (!strcmp(name, "DT")) {
		char date[11];
		bad = hive_record_set_tag(&g->r, "SgfDate", val) != 0 ||
		      (hive_record_date(val, date) == 0 && hive_record_set_tag(&g->r, "Date", date) != 0);
	} else if (!strcmp(name, "GN")) {
		bad = *val && hive_record_set_tag(&g->r, "SgfGameName", val) != 0;
	} else if (!strcmp(name, "RE")) {
		bad = hive_record_set_tag(&g->r, "SgfResult", val) != 0;
	} else if (!strcmp(name, "TC")) {
		bad = hive_record_set_tag(&g->r, "TimeControl", val) != 0;
	} else if ((!strcmp(name, "P0") || !strcmp(name, "P1"))) {
		int player = name[1] - '0';
		if (record_is_digit(val[0]))
			return sgf_action(rd, g, player, val, line);
		if (!strncmp(val, "id ", 3)) {
			const char *s = val + 3;
			size_t n;
			while (*s == ' ' || *s == '"')
				s++;
			n = strlen(s);
			while (n > 0 && (s[n - 1] == '"' || s[n - 1] == ' '))
				n--;
			snprintf(g->names[player], sizeof g->names[player], "%.*s", (int)n, s);
		}
	}
	if (bad)
		return record_fail(rd, &g->r, 0, line, "a property is too long, or too many.");
	return 0;
}

/* The end of a game's SGF: a move left without Done (the game ended on it) is played,
 * the players named, the result taken from the moves, a resignation, a draw, or RE. */
static int sgf_finish(struct record_rd *rd, struct sgf *g, size_t line)
{
	int said = -1, w = g->white, bl = !g->white;
	if (sgf_commit(rd, g, g->r.game.len & 1) != 0)
		return -1;
	if ((g->names[w][0] && hive_record_set_tag(&g->r, "White", g->names[w]) != 0) ||
	    (g->names[bl][0] && hive_record_set_tag(&g->r, "Black", g->names[bl]) != 0) ||
	    hive_record_set_tag(&g->r, "Site", "boardspace.net") != 0)
		return record_fail(rd, &g->r, 0, line, "too many tags.");
	const char *re = hive_record_tag(&g->r, "SgfResult");
	if (g->resigned >= 0)
		said = g->resigned == w ? HIVE_BLACK_WINS : HIVE_WHITE_WINS;
	else if (g->drawn)
		said = HIVE_DRAW;
	else if (re && g->r.game.board.state < HIVE_DRAW) {
		int hw = g->names[w][0] && strstr(re, g->names[w]), hb = g->names[bl][0] && strstr(re, g->names[bl]);
		if (hw != hb)
			said = hw ? HIVE_WHITE_WINS : HIVE_BLACK_WINS;
		else if (strstr(re, "draw") || strstr(re, "Draw"))
			said = HIVE_DRAW;
	}
	return record_settle(rd, &g->r, said, line);
}

/* One SGF value after its '[', unescaped into buf, up to its ']'. */
static int sgf_value(struct record_rd *rd, struct sgf *g, char *buf, size_t size)
{
	size_t n = 0, line = rd->line;
	for (;;) {
		if (rd->pos >= rd->len)
			return record_fail(rd, &g->r, 0, line, "a value \"[\" is not closed (the record is cut short).");
		char c = rd->s[rd->pos++];
		if (c == ']')
			break;
		if (c == '\\' && rd->pos < rd->len)
			c = rd->s[rd->pos++];
		if (c == '\n')
			rd->line++;
		if (n + 1 >= size)
			return record_fail(rd, &g->r, 0, line, "a value is longer than %zu bytes.", size - 1);
		buf[n++] = c;
	}
	buf[n] = '\0';
	return 0;
}

static int sgf_game(struct record_rd *rd, struct sgf *g, char *val)
{
	for (;;) {
		record_skip_blank(rd);
		if (rd->pos >= rd->len)
			return record_fail(rd, &g->r, 0, rd->line, "the record ends before its \")\" (it is cut short).");
		char c = rd->s[rd->pos];
		if (c == ';') {
			rd->pos++;
		} else if (c == ')') {
			rd->pos++;
			return sgf_finish(rd, g, rd->line);
		} else if (c == '(') {
			return record_fail(rd, &g->r, 0, rd->line, "SGF variations are not supported.");
		} else if ((c | 32) >= 'a' && (c | 32) <= 'z') {
			char name[16];
			size_t n = 0;
			while (rd->pos < rd->len && (((rd->s[rd->pos] | 32) >= 'a' && (rd->s[rd->pos] | 32) <= 'z') ||
						     record_is_digit(rd->s[rd->pos]))) {
				if (n + 1 >= sizeof name)
					return record_fail(rd, &g->r, 0, rd->line, "a property name is too long.");
				name[n++] = rd->s[rd->pos++];
			}
			name[n] = '\0';
			record_skip_blank(rd);
			if (rd->pos >= rd->len || rd->s[rd->pos] != '[')
				return record_fail(rd, &g->r, 0, rd->line, "the property %s has no value.", name);
			while (rd->pos < rd->len && rd->s[rd->pos] == '[') {
				size_t line = rd->line;
				rd->pos++;
				if (sgf_value(rd, g, val, SGF_VALUE_MAX) != 0 || sgf_prop(rd, g, name, val, line) != 0)
					return -1;
				record_skip_blank(rd);
			}
		} else {
			return record_fail(rd, &g->r, 0, rd->line, "\"%c\" where SGF has a node or a property.", c);
		}
	}
}

int record_sgf_read(struct record_rd *rd)
{
	struct sgf *g = malloc(sizeof *g);
	char *val = malloc(SGF_VALUE_MAX);
	int rc = 0;

	if (!g || !val) {
		free(g);
		free(val);
		return errbuf_set(rd->err, rd->errlen, "out of memory.");
	}
	for (;;) {
		record_skip_blank(rd);
		if (rd->pos >= rd->len)
			break;
		memset(g, 0, sizeof *g);
		hive_record_init(&g->r, 0);
		g->r.line = rd->line;
		g->resigned = -1;
		if (rd->n >= HIVE_RECORD_MAX_GAMES)
			rc = record_fail(rd, &g->r, 0, rd->line, "more than %d games in one file.", HIVE_RECORD_MAX_GAMES);
		else if (rd->s[rd->pos] != '(')
			rc = record_fail(rd, &g->r, 0, rd->line, "text outside a game, where SGF has \"(\".");
		if (rc == 0) {
			rd->pos++;
			rc = sgf_game(rd, g, val);
		}
		if (rc == 0)
			rc = record_push(rd, &g->r);
		if (rc != 0) {
			hive_record_free(&g->r);
			break;
		}
	}
	free(g);
	free(val);
	return rc;
}


/*
 * Writing SGF: what BoardSpace's robots write, one "Move" (or "PMove": a piece of
 * the other colour, thrown by a Pillbug) and its "Done" per ply, "Pass" and "Done"
 * for a pass; a result the board does not show is the loser's "Resign", or an
 * "OfferDraw" accepted. Cells are BoardSpace's letter and number, the first piece's
 * at N 13 as BoardSpace puts it, unless the game would leave its 26 by 26 board.
 */

#define SGF_SIDE   26              /* BoardSpace's board: columns A to Z, rows 1 to 26 */
#define SGF_COL0   13              /* where it puts the first piece: N 13 */
#define SGF_ROW0   13

/* An SGF value: ']' and '\' escaped, control bytes as spaces; in a player's
 * id "NAME", '"' as '\'' (BoardSpace's ids hold none; a reader trims them). */
static void sgf_out_text(struct record_out *o, const char *s, int id)
{
	for (; *s; s++) {
		char c = (unsigned char)*s < 0x20 || *s == 0x7F ? ' ' : id && *s == '"' ? '\'' : *s;
		if (c == ']' || c == '\\')
			record_out_mem(o, "\\", 1);
		record_out_mem(o, &c, 1);
	}
}

/* Cell's offset from the first piece's (origin), as sgf_cell reads it back: the
 * column (our q) and BoardSpace's row (our -r), each in [-16, 15]. */
static void sgf_offset(uint16_t origin, uint16_t cell, int *dc, int *dr)
{
	int d = ((int)cell - (int)origin + HIVE_CELLS) % HIVE_CELLS;
	*dc = (d % 32 + 48) % 32 - 16;
	*dr = (((-(d - *dc) / 32) % 32) + 48) % 32 - 16;
}

/* The piece as BoardSpace names it in an action: "wS1", "wQ", "bP1". */
static void sgf_piece_name(int piece, char *buf, size_t len)
{
	const char *n = hive_piece_name(piece);
	snprintf(buf, len, "%s%s", n, strlen(n) == 2 && n[1] != 'Q' ? "1" : "");
}

/* Where the game's moves put the first piece so that all stay on BoardSpace's board:
 * 0, or -1 when they span more than it has. */
static int sgf_origin(const struct hive_record *r, int *col0, int *row0)
{
	struct hive_board b;
	int lo[2] = { 0, 0 }, hi[2] = { 0, 0 };
	uint16_t origin = HIVE_NOWHERE;

	hive_board_init(&b, r->game.type);
	for (size_t i = 0; i < r->game.len; i++) {
		struct hive_move m = r->game.hist[i].move;
		struct hive_undo u;
		if (m.piece != HIVE_PASS_PIECE) {
			int d[2];
			if (origin == HIVE_NOWHERE)
				origin = m.to;
			sgf_offset(origin, m.to, &d[0], &d[1]);
			for (int k = 0; k < 2; k++) {
				lo[k] = d[k] < lo[k] ? d[k] : lo[k];
				hi[k] = d[k] > hi[k] ? d[k] : hi[k];
			}
		}
		hive_board_do(&b, m, &u);
	}
	if (hi[0] - lo[0] >= SGF_SIDE || hi[1] - lo[1] >= SGF_SIDE)
		return -1;
	*col0 = SGF_COL0 + lo[0] < 0 ? -lo[0] : SGF_COL0 + hi[0] >= SGF_SIDE ? SGF_SIDE - 1 - hi[0] : SGF_COL0;
	*row0 = SGF_ROW0 + lo[1] < 1 ? 1 - lo[1] : SGF_ROW0 + hi[1] > SGF_SIDE ? SGF_SIDE - hi[1] : SGF_ROW0;
	return 0;
}

/* One action node: "; P0[7 Move W wQ M 13 \\wS1]". */
static void sgf_out_action(struct record_out *o, int player, size_t *n, const char *text)
{
	char head[48];
	snprintf(head, sizeof head, "; P%d[%zu ", player, (*n)++);
	record_out_str(o, head);
	sgf_out_text(o, text, 0);
	record_out_str(o, "]\n");
}

/* The ply's action: "Move W wQ M 13 \wS1" (unescaped), or "Pass". */
static void sgf_move_text(const struct hive_board *b, struct hive_move m, uint16_t origin, int col0, int row0,
			  char *buf, size_t len)
{
	char name[8], uhp[HIVE_MOVESTR_MAX];
	int dc, dr;

	if (m.piece == HIVE_PASS_PIECE) {
		snprintf(buf, len, "Pass");
		return;
	}
	int color = hive_piece_name(m.piece)[0] == 'b';
	sgf_piece_name(m.piece, name, sizeof name);
	sgf_offset(origin, m.to, &dc, &dr);
	/* Its notation after the cell: UHP's reference, "." for the first piece and a
	 * climb, as BoardSpace writes them. */
	hive_move_format(b, m, uhp, sizeof uhp);
	const char *ref = strchr(uhp, ' ');
	if (!ref || b->height[m.to] > 0)
		ref = " .";
	snprintf(buf, len, "%s %c %s %c %d%s", color != hive_side_to_move(b) ? "PMove" : "Move", color ? 'B' : 'W',
		 name, 'A' + col0 + dc, row0 + dr, ref);
}

size_t hive_record_write_sgf(const struct hive_record *r, char *buf, size_t len)
{
	struct record_out o = { buf, len, 0 };
	struct hive_board b;
	char text[96];
	size_t n = 0;
	int col0, row0;
	uint16_t origin = HIVE_NOWHERE;
	const char *white = hive_record_tag(r, "White"), *black = hive_record_tag(r, "Black");
	const char *v;

	if (sgf_origin(r, &col0, &row0) < 0) {
		if (len > 0)
			buf[0] = '\0';
		return 0;
	}
	record_out_str(&o, "(;\nGM[27]VV[1]\nSU[Hive");
	if (r->game.type)
		record_out_str(&o, "-");
	if (r->game.type & HIVE_EXP_P)
		record_out_str(&o, "P");
	if (r->game.type & HIVE_EXP_L)
		record_out_str(&o, "L");
	if (r->game.type & HIVE_EXP_M)
		record_out_str(&o, "M");
	record_out_str(&o, "]\n");
	static const char *const props[][2] = { { "DT", "SgfDate" }, { "DT", "Date" }, { "GN", "SgfGameName" },
						 { "RE", "SgfResult" } };
	for (size_t i = 0; i < sizeof props / sizeof props[0]; i++) {
		/* DT once: BoardSpace's own date if the game came from it, else ours; RE only
		 * with a result (a reader takes the winner from it). */
		if ((v = hive_record_tag(r, props[i][1])) && !(i == 1 && hive_record_tag(r, "SgfDate")) &&
		    !(i == 3 && r->result < HIVE_DRAW)) {
			record_out_str(&o, props[i][0]);
			record_out_str(&o, "[");
			sgf_out_text(&o, v, 0);
			record_out_str(&o, "]\n");
		}
	}
	for (int p = 0; p < 2; p++) {
		snprintf(text, sizeof text, "P%d[id \"", p);
		record_out_str(&o, text);
		v = p ? black : white;
		sgf_out_text(&o, v && *v ? v : p ? "Black" : "White", 1);
		record_out_str(&o, "\"]\n");
	}
	sgf_out_action(&o, 0, &n, "Start P0");
	hive_board_init(&b, r->game.type);
	for (size_t i = 0; i < r->game.len; i++) {
		struct hive_move m = r->game.hist[i].move;
		struct hive_undo u;
		if (origin == HIVE_NOWHERE && m.piece != HIVE_PASS_PIECE)
			origin = m.to;
		sgf_move_text(&b, m, origin, col0, row0, text, sizeof text);
		sgf_out_action(&o, (int)(i & 1), &n, text);
		sgf_out_action(&o, (int)(i & 1), &n, "Done");
		hive_board_do(&b, m, &u);
	}
	/* A result the board does not show: said by its players' actions. */
	int side = hive_side_to_move(&b);
	if (b.state < HIVE_DRAW && (r->result == HIVE_WHITE_WINS || r->result == HIVE_BLACK_WINS)) {
		sgf_out_action(&o, r->result == HIVE_WHITE_WINS ? 1 : 0, &n, "Resign");
	} else if (b.state < HIVE_DRAW && r->result == HIVE_DRAW) {
		sgf_out_action(&o, side, &n, "OfferDraw");
		sgf_out_action(&o, !side, &n, "AcceptDraw");
	}
	record_out_str(&o, ")\n");
	if (len > 0)
		buf[o.n < len ? o.n : len - 1] = '\0';
	return o.n;
}
