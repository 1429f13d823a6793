/*
 * game.c: the game record (board + move history) and UHP notation: piece names,
 * MoveStrings, GameTypeStrings, TurnStrings and GameStrings.
 *
 * Parsing is as tolerant as Mzinga where that is harmless (any case, extra spaces,
 * the mover as its own reference) and stricter where Mzinga silently ignores input:
 * anything after the second token is an error, and so are characters after a
 * trailing direction mark. Whether a move is legal is decided by the move generator
 * alone (hive_board_find_move); the rule checks below only explain a rejection, in
 * Mzinga's order and wording.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "game.h"
#include "errbuf.h"

static const char *const piece_names[HIVE_PIECES] = {
	"wQ", "wS1", "wS2", "wB1", "wB2", "wG1", "wG2", "wG3", "wA1", "wA2", "wA3", "wM", "wL", "wP",
	"bQ", "bS1", "bS2", "bB1", "bB2", "bG1", "bG2", "bG3", "bA1", "bA2", "bA3", "bM", "bL", "bP",
};

/* Indexed by expansion bits (M = 1, L = 2, P = 4). */
static const char *const type_names[8] = {
	"Base", "Base+M", "Base+L", "Base+ML", "Base+P", "Base+MP", "Base+LP", "Base+MLP",
};

static const char *const state_names[] = {
	"NotStarted", "InProgress", "Draw", "WhiteWins", "BlackWins",
};

/* Bug letters in enum hive_bug order, their first slot and how many there are. */
static const char bug_letters[HIVE_BUGS] = { 'q', 's', 'b', 'g', 'a', 'm', 'l', 'p' };
static const uint8_t bug_first_slot[HIVE_BUGS] = { 0, 1, 3, 5, 8, 11, 12, 13 };
static const uint8_t bug_count[HIVE_BUGS] = { 1, 2, 2, 3, 3, 1, 1, 1 };

/* Mzinga's rule-check texts, in its order of checking. */
#define MSG_GAME_OVER    "You can't play, the game is over."
#define MSG_NOT_TURN     "It's not that player's turn."
#define MSG_NOT_ENABLED  "That piece is not enabled in this game."
#define MSG_TO_HAND      "You can't put a piece back into your hand."
#define MSG_QUEEN_FIRST  "You can't play your Queen Bee on your first turn."
#define MSG_QUEEN_FOURTH "You must play your Queen Bee on or before your fourth turn."
#define MSG_NO_QUEEN     "You can't move a piece in play until you've played your Queen Bee."
#define MSG_ORDER        "When there are multiple pieces of the same bug type, you must play the pieces in order."
#define MSG_OCCUPIED     "You can't move there because a piece already exists at that position."
#define MSG_COVERED      "You can't move that piece because it has another piece on top of it."
#define MSG_BREAKS_HIVE  "You can't move that piece because it will break the hive."
#define MSG_CANT_MOVE    "You can't move that piece there."
#define MSG_PASS_OVER    "You can't pass, the game is over."
#define MSG_PASS_MOVES   "You can't pass when you have valid moves."

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Case-insensitive comparison of s[0..len) with a NUL-terminated word. */
static int word_eq(const char *s, size_t len, const char *word)
{
	size_t i;
	for (i = 0; i < len && word[i]; i++)
		if (lower(s[i]) != lower(word[i]))
			return 0;
	return i == len && word[i] == '\0';
}

/*
 * Names, types, states, turns.
 */

const char *hive_piece_name(int piece)
{
	if (piece < 0 || piece >= HIVE_PIECES)
		return piece == HIVE_PASS_PIECE ? "pass" : "?";
	return piece_names[piece];
}

int hive_piece_parse(const char *s, size_t len)
{
	int color, bug, number = 0;

	if (len < 2 || len > 3)
		return -1;
	switch (lower(s[0])) {
	case 'w': color = HIVE_WHITE; break;
	case 'b': color = HIVE_BLACK; break;
	default:  return -1;
	}
	for (bug = 0; bug < HIVE_BUGS; bug++)
		if (lower(s[1]) == bug_letters[bug])
			break;
	if (bug == HIVE_BUGS)
		return -1;
	if (len == 3) {
		if (s[2] < '1' || s[2] > '9')
			return -1;
		number = s[2] - '0';
	}
	/* Unique pieces never carry a number ("wQ1" is not a name); the others always do. */
	if (bug_count[bug] == 1)
		return number == 0 ? HIVE_PIECE(color, bug_first_slot[bug]) : -1;
	if (number < 1 || number > bug_count[bug])
		return -1;
	return HIVE_PIECE(color, bug_first_slot[bug] + number - 1);
}

int hive_gametype_parse(const char *s, unsigned *type)
{
	/* The eight literal strings, letters in fixed order; case is forgiven. */
	for (unsigned t = 0; t < 8; t++)
		if (word_eq(s, strlen(s), type_names[t])) {
			*type = t;
			return 0;
		}
	return -1;
}

const char *hive_gametype_name(unsigned type)
{
	return type_names[type & 7];
}

const char *hive_state_name(int state)
{
	if (state < HIVE_NOT_STARTED || state > HIVE_BLACK_WINS)
		return "?";
	return state_names[state];
}

size_t hive_turn_format(const struct hive_board *b, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s[%u]", hive_side_to_move(b) == HIVE_WHITE ? "White" : "Black",
			 (unsigned)(b->ply / 2 + 1));
	return n < 0 ? 0 : (size_t)n;
}

/*
 * MoveString output.
 */

void hive_move_format(const struct hive_board *b, struct hive_move m, char *buf, size_t len)
{
	/* Notation of a reference in direction d of the destination: the destination is
	 * then in direction (d + 3) % 6 of the reference. */
	static const char *const ref_fmt[HIVE_DIRS] = {
		"%s %s\\", "%s /%s", "%s -%s", "%s \\%s", "%s %s/", "%s %s-",
	};
	const char *name;

	if (len == 0)
		return;
	if (m.piece == HIVE_PASS_PIECE) {
		snprintf(buf, len, "pass");
		return;
	}
	name = hive_piece_name(m.piece);
	if (m.piece >= HIVE_PIECES || b->ply == 0 || m.to >= HIVE_CELLS) {
		snprintf(buf, len, "%s", name);
		return;
	}
	if (b->height[m.to] > 0) {
		snprintf(buf, len, "%s %s", name, hive_piece_name(b->top[m.to]));
		return;
	}
	/* With the mover lifted, its own cell shows the piece under it, if any. */
	uint16_t from = b->pos[m.piece];
	for (int d = 0; d < HIVE_DIRS; d++) {
		uint16_t n = hive_cell_step(m.to, d);
		uint8_t top = n == from ? b->under[m.piece] : b->top[n];
		if (top != HIVE_NO_PIECE) {
			snprintf(buf, len, ref_fmt[d], name, hive_piece_name(top));
			return;
		}
	}
	/* A destination with no neighbour: only possible for a move no rule allows. */
	snprintf(buf, len, "%s", name);
}

/*
 * MoveString input.
 */

/* Why the move (piece to cell at level) is not legal, in Mzinga's order of checks.
 * ref_missing: the reference piece is not on the board. */
static const char *explain_reject(const struct hive_board *b, int piece, int ref_missing,
				  uint16_t cell, int level)
{
	int side = hive_side_to_move(b);
	int slot = HIVE_PIECE_SLOT(piece);
	int turn = b->ply / 2 + 1;
	int in_hand = b->pos[piece] == HIVE_NOWHERE;
	int queen_in = b->pos[HIVE_PIECE(side, 0)] != HIVE_NOWHERE;
	int bug = hive_piece_bug(piece);

	if (HIVE_PIECE_COLOR(piece) != side)
		return MSG_NOT_TURN;
	if (!hive_piece_enabled(b->type, piece))
		return MSG_NOT_ENABLED;
	if (ref_missing)
		return MSG_TO_HAND;
	if (in_hand && bug == HIVE_QUEEN && turn == 1)
		return MSG_QUEEN_FIRST;
	if (turn == 4 && !queen_in && bug != HIVE_QUEEN)
		return MSG_QUEEN_FOURTH;
	if (!in_hand && !queen_in)
		return MSG_NO_QUEEN;
	if (in_hand && slot > bug_first_slot[bug] && b->pos[piece - 1] == HIVE_NOWHERE)
		return MSG_ORDER;
	if (level != b->height[cell])
		return MSG_OCCUPIED;
	if (!in_hand && b->top[b->pos[piece]] != piece)
		return MSG_COVERED;
	if (!in_hand && !hive_board_can_lift(b, piece))
		return MSG_BREAKS_HIVE;
	return MSG_CANT_MOVE;
}

int hive_move_parse(const struct hive_board *b, const char *s, struct hive_move *m,
		    char *err, size_t errlen)
{
	const char *tok[3];
	size_t toklen[3];
	int ntok = 0;
	const char *p = s;

	/* Split on white space; a third token is junk that Mzinga would ignore. */
	while (*p) {
		while (is_space(*p))
			p++;
		if (!*p)
			break;
		if (ntok == 3)
			break;
		tok[ntok] = p;
		while (*p && !is_space(*p))
			p++;
		toklen[ntok] = (size_t)(p - tok[ntok]);
		ntok++;
	}
	if (ntok == 0 || ntok > 2)
		goto syntax;
	if (b->ply >= HIVE_MAX_PLIES) {
		errbuf_set(err, errlen, "The game is too long: %d plies is the most this engine supports.",
			   HIVE_MAX_PLIES);
		return HIVE_ERR_ILLEGAL;
	}

	if (ntok == 1 && word_eq(tok[0], toklen[0], "pass")) {
		struct hive_move pass = { HIVE_PASS_PIECE, HIVE_NOWHERE, HIVE_NOWHERE };
		if (hive_game_over(b)) {
			errbuf_set(err, errlen, MSG_PASS_OVER);
			return HIVE_ERR_GAMEOVER;
		}
		if (!hive_board_find_move(b, pass, m)) {
			errbuf_set(err, errlen, MSG_PASS_MOVES);
			return HIVE_ERR_ILLEGAL;
		}
		return HIVE_OK;
	}

	int piece = hive_piece_parse(tok[0], toklen[0]);
	if (piece < 0)
		goto syntax;

	/* The destination: a direction mark before or after the reference, or none. */
	int ref = -1, dir = -1;
	if (ntok == 2) {
		const char *r = tok[1];
		size_t rlen = toklen[1];
		const char *marks = "-/\\";
		static const int8_t before[3] = { HIVE_W, HIVE_SW, HIVE_NW };
		static const int8_t after[3] = { HIVE_E, HIVE_NE, HIVE_SE };
		const char *mk = strchr(marks, r[0]);
		if (mk) {
			dir = before[mk - marks];
			r++;
			rlen--;
		}
		if (rlen > 0 && (mk = strchr(marks, r[rlen - 1])) != NULL) {
			if (dir >= 0)
				goto syntax;
			dir = after[mk - marks];
			rlen--;
		}
		ref = hive_piece_parse(r, rlen);
		if (ref < 0)
			goto syntax;
	}

	if (hive_game_over(b)) {
		errbuf_set(err, errlen, MSG_GAME_OVER);
		return HIVE_ERR_GAMEOVER;
	}

	/* A bare name goes to the origin; X alone is on top of X; X with a mark beside it. */
	uint16_t cell = HIVE_ORIGIN;
	int level = 0, ref_missing = 0;
	if (ref >= 0) {
		uint16_t rc = b->pos[ref];
		if (rc == HIVE_NOWHERE) {
			ref_missing = 1;
		} else if (dir < 0) {
			cell = rc;
			level = b->level[ref] + 1;
		} else {
			cell = hive_cell_step(rc, dir);
		}
	}

	struct hive_move want = { (uint8_t)piece, b->pos[piece], cell };
	if (!ref_missing && level == b->height[cell] && hive_board_find_move(b, want, m))
		return HIVE_OK;
	errbuf_set(err, errlen, "%s", explain_reject(b, piece, ref_missing, cell, level));
	return HIVE_ERR_ILLEGAL;

syntax:
	errbuf_set(err, errlen, "Unable to parse move \"%s\".", s);
	return HIVE_ERR_SYNTAX;
}

/*
 * The game record.
 */

void hive_game_init(struct hive_game *g, unsigned type)
{
	hive_board_init(&g->board, type);
	g->type = type & 7;
	g->hist = NULL;
	g->len = 0;
	g->cap = 0;
}

void hive_game_free(struct hive_game *g)
{
	free(g->hist);
	g->hist = NULL;
	g->len = 0;
	g->cap = 0;
}

int hive_game_copy(struct hive_game *dst, const struct hive_game *src)
{
	struct hive_undo *hist = NULL;
	if (src->len > 0) {
		hist = malloc(src->len * sizeof *hist);
		if (!hist)
			return HIVE_ERR_NOMEM;
		memcpy(hist, src->hist, src->len * sizeof *hist);
	}
	dst->board = src->board;
	dst->type = src->type;
	dst->hist = hist;
	dst->len = src->len;
	dst->cap = src->len;
	return HIVE_OK;
}

int hive_game_is_prefix(const struct hive_game *a, const struct hive_game *b)
{
	if (a->type != b->type || a->len > b->len)
		return 0;
	for (size_t i = 0; i < a->len; i++)
		if (a->hist[i].move.piece != b->hist[i].move.piece || a->hist[i].move.to != b->hist[i].move.to)
			return 0;
	return 1;
}

int hive_game_play(struct hive_game *g, struct hive_move m)
{
	struct hive_move legal;

	if (hive_game_over(&g->board))
		return HIVE_ERR_GAMEOVER;
	if (g->board.ply >= HIVE_MAX_PLIES)
		return HIVE_ERR_ILLEGAL;
	/* The history needs the source cell, so take the generator's copy of the move. */
	if (!hive_board_find_move(&g->board, m, &legal))
		return HIVE_ERR_ILLEGAL;
	if (g->len == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 64;
		struct hive_undo *hist = realloc(g->hist, cap * sizeof *hist);
		if (!hist)
			return HIVE_ERR_NOMEM;
		g->hist = hist;
		g->cap = cap;
	}
	hive_board_do(&g->board, legal, &g->hist[g->len]);
	g->len++;
	return HIVE_OK;
}

int hive_game_undo(struct hive_game *g, size_t n)
{
	if (n < 1 || n > g->len)
		return HIVE_ERR_ILLEGAL;
	while (n-- > 0)
		hive_board_undo(&g->board, &g->hist[--g->len]);
	return HIVE_OK;
}

/*
 * GameString.
 */

/* One ';'-separated field of a GameString, without surrounding white space. */
struct field {
	const char *s;
	size_t len;
};

static struct field field_trim(const char *s, size_t len)
{
	while (len > 0 && is_space(*s)) {
		s++;
		len--;
	}
	while (len > 0 && is_space(s[len - 1]))
		len--;
	return (struct field){ s, len };
}

static int state_parse(struct field f)
{
	for (int st = HIVE_NOT_STARTED; st <= HIVE_BLACK_WINS; st++)
		if (word_eq(f.s, f.len, state_names[st]))
			return st;
	return -1;
}

/* "White[3]" (any case) to a ply count, -1 if malformed. */
static long turn_parse(struct field f)
{
	size_t i;
	int side;
	long n = 0;

	if (f.len > 6 && word_eq(f.s, 6, "white["))
		side = HIVE_WHITE;
	else if (f.len > 6 && word_eq(f.s, 6, "black["))
		side = HIVE_BLACK;
	else
		return -1;
	for (i = 6; i < f.len && f.s[i] >= '0' && f.s[i] <= '9'; i++) {
		n = n * 10 + (f.s[i] - '0');
		if (n > 100000)
			return -1;
	}
	if (i == 6 || i + 1 != f.len || f.s[i] != ']' || n < 1)
		return -1;
	return (n - 1) * 2 + side;
}

int hive_game_parse(struct hive_game *g, const char *s, char *err, size_t errlen)
{
	struct hive_game tmp;
	struct field f[3];
	const char *p = s, *end;
	int nf = 0, rc;
	unsigned type;
	char movetext[256], moveerr[256];

	/* The header: GameType, then optionally State and Turn. */
	while (nf < 3) {
		end = strchr(p, ';');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		f[nf++] = field_trim(p, len);
		if (!end) {
			p = NULL;
			break;
		}
		p = end + 1;
	}
	if (f[0].len >= sizeof movetext) {
		errbuf_set(err, errlen, "Unknown GameType in GameString.");
		return HIVE_ERR_SYNTAX;
	}
	memcpy(movetext, f[0].s, f[0].len);
	movetext[f[0].len] = '\0';
	if (hive_gametype_parse(movetext, &type) != 0) {
		errbuf_set(err, errlen, "Unknown GameType \"%s\" in GameString.", movetext);
		return HIVE_ERR_SYNTAX;
	}
	int want_state = -1;
	long want_ply = -1;
	if (nf >= 2 && (want_state = state_parse(f[1])) < 0) {
		errbuf_set(err, errlen, "Unknown GameStateString \"%.*s\" in GameString.",
			   (int)(f[1].len > 64 ? 64 : f[1].len), f[1].s);
		return HIVE_ERR_SYNTAX;
	}
	if (nf >= 3 && (want_ply = turn_parse(f[2])) < 0) {
		errbuf_set(err, errlen, "Unknown TurnString \"%.*s\" in GameString.",
			   (int)(f[2].len > 64 ? 64 : f[2].len), f[2].s);
		return HIVE_ERR_SYNTAX;
	}
	/* The moves, replayed on a scratch game so that g is untouched on failure. */
	hive_game_init(&tmp, type);
	for (size_t i = 1; p != NULL; i++) {
		end = strchr(p, ';');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		struct hive_move m;
		if (len >= sizeof movetext) {
			errbuf_set(err, errlen, "Unable to parse move %zu in GameString: too long.", i);
			rc = HIVE_ERR_SYNTAX;
			goto fail;
		}
		memcpy(movetext, p, len);
		movetext[len] = '\0';
		rc = hive_move_parse(&tmp.board, movetext, &m, moveerr, sizeof moveerr);
		if (rc == HIVE_OK)
			rc = hive_game_play(&tmp, m);
		if (rc != HIVE_OK) {
			if (rc == HIVE_ERR_NOMEM)
				snprintf(moveerr, sizeof moveerr, "out of memory.");
			errbuf_set(err, errlen, "Unable to play move %zu \"%s\": %s", i, movetext, moveerr);
			if (rc == HIVE_ERR_GAMEOVER)
				rc = HIVE_ERR_ILLEGAL;
			goto fail;
		}
		p = end ? end + 1 : NULL;
	}

	/* A GameString must not lie about where its moves lead. */
	if ((want_state >= 0 && want_state != tmp.board.state) ||
	    (want_ply >= 0 && (unsigned long)want_ply != tmp.board.ply)) {
		char said[128], got[64], turn[32];
		int n = snprintf(said, sizeof said, "%.*s", (int)(f[1].len > 40 ? 40 : f[1].len), f[1].s);
		if (nf >= 3 && n >= 0)
			snprintf(said + n, sizeof said - (size_t)n, ";%.*s",
				 (int)(f[2].len > 40 ? 40 : f[2].len), f[2].s);
		hive_turn_format(&tmp.board, turn, sizeof turn);
		snprintf(got, sizeof got, "%s;%s", hive_state_name(tmp.board.state), turn);
		errbuf_set(err, errlen, "GameString says %s but the moves give %s.", said, got);
		rc = HIVE_ERR_ILLEGAL;
		goto fail;
	}

	hive_game_free(g);
	*g = tmp;
	return HIVE_OK;

fail:
	hive_game_free(&tmp);
	return rc;
}

size_t hive_game_format(const struct hive_game *g, char *buf, size_t len)
{
	struct hive_board b;
	char turn[32], move[HIVE_MOVESTR_MAX];
	size_t n = 0;

	/* Appends to buf while it fits, and counts everything. */
#define APPEND(str) do {                                                \
		const char *a_ = (str);                                 \
		size_t l_ = strlen(a_);                                 \
		if (n < len)                                            \
			memcpy(buf + n, a_, n + l_ < len ? l_ : len - n); \
		n += l_;                                                \
	} while (0)

	hive_turn_format(&g->board, turn, sizeof turn);
	APPEND(hive_gametype_name(g->type));
	APPEND(";");
	APPEND(hive_state_name(g->board.state));
	APPEND(";");
	APPEND(turn);
	hive_board_init(&b, g->type);
	for (size_t i = 0; i < g->len; i++) {
		struct hive_undo u;
		hive_move_format(&b, g->hist[i].move, move, sizeof move);
		APPEND(";");
		APPEND(move);
		hive_board_do(&b, g->hist[i].move, &u);
	}
#undef APPEND
	if (len > 0)
		buf[n < len ? n : len - 1] = '\0';
	return n;
}
