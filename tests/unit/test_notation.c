/*
 * test_notation.c: UHP notation. Piece names, GameTypeStrings, MoveStrings (every
 * legal move of random games of all 8 game types, printed, parsed back, and parsed
 * in every other notation that names it), GameStrings, and each of Mzinga's error
 * messages.
 */
#include <ctype.h>
#include "tests/unit/testutil.h"
#include "tests/unit/unit.h"

#define GAMES_PER_TYPE 3
#define MAX_PLIES      90    /* more than the initial 64 history slots */

static const char *const all_types[8] = {
	"Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP",
};

static void test_piece_names(void)
{
	static const char *const bad[] = {
		"", "w", "wQ1", "wM1", "wL1", "wP1", "wS", "wS0", "wS3", "wB3", "wG4", "wA4", "wA0",
		"xQ", "wX", "wS12", "w Q", "0", "pass",
	};
	for (int p = 0; p < HIVE_PIECES; p++) {
		const char *name = hive_piece_name(p);
		char up[8], low[8];
		size_t n = strlen(name);
		CU_ASSERT(n == 2 || n == 3);
		CU_ASSERT_EQUAL(hive_piece_parse(name, n), p);
		for (size_t i = 0; i <= n; i++) {
			up[i] = (char)toupper((unsigned char)name[i]);
			low[i] = (char)tolower((unsigned char)name[i]);
		}
		CU_ASSERT_EQUAL(hive_piece_parse(up, n), p);
		CU_ASSERT_EQUAL(hive_piece_parse(low, n), p);
		/* the length is honoured: a prefix is not the piece */
		CU_ASSERT_NOT_EQUAL(hive_piece_parse(name, n - 1), p);
		CU_ASSERT_EQUAL(name[0], HIVE_PIECE_COLOR(p) ? 'b' : 'w');
	}
	CU_ASSERT_STRING_EQUAL(hive_piece_name(HIVE_PIECE(HIVE_BLACK, 13)), "bP");
	CU_ASSERT_STRING_EQUAL(hive_piece_name(HIVE_PIECE(HIVE_WHITE, 7)), "wG3");
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CU_ASSERT_EQUAL(hive_piece_parse(bad[i], strlen(bad[i])), -1);
		if (hive_piece_parse(bad[i], strlen(bad[i])) != -1)
			fprintf(stderr, "accepted bad name \"%s\"\n", bad[i]);
	}
}

static void test_gametypes(void)
{
	static const char *const bad[] = {
		"", "Base+", "Base+Q", "Base+LM", "Base+PLM", "Base+MM", "Base+MLPX", "BaseM", "Base MLP", "Base;",
	};
	unsigned seen = 0;
	for (int i = 0; i < 8; i++) {
		unsigned t = 99;
		CU_ASSERT_EQUAL(hive_gametype_parse(all_types[i], &t), 0);
		CU_ASSERT(t < 8);
		CU_ASSERT_STRING_EQUAL(hive_gametype_name(t), all_types[i]);
		seen |= 1u << t;
		/* each letter is its expansion bit */
		CU_ASSERT_EQUAL(!!strchr(all_types[i], 'M'), !!(t & HIVE_EXP_M));
		CU_ASSERT_EQUAL(!!strchr(all_types[i], 'L'), !!(t & HIVE_EXP_L));
		CU_ASSERT_EQUAL(!!strchr(all_types[i], 'P'), !!(t & HIVE_EXP_P));
	}
	CU_ASSERT_EQUAL(seen, 0xFFu);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		unsigned t;
		CU_ASSERT_EQUAL(hive_gametype_parse(bad[i], &t), -1);
	}
	CU_ASSERT_STRING_EQUAL(hive_state_name(HIVE_NOT_STARTED), "NotStarted");
	CU_ASSERT_STRING_EQUAL(hive_state_name(HIVE_IN_PROGRESS), "InProgress");
	CU_ASSERT_STRING_EQUAL(hive_state_name(HIVE_DRAW), "Draw");
	CU_ASSERT_STRING_EQUAL(hive_state_name(HIVE_WHITE_WINS), "WhiteWins");
	CU_ASSERT_STRING_EQUAL(hive_state_name(HIVE_BLACK_WINS), "BlackWins");

	/* A new game of each type prints as "Type;NotStarted;White[1]" and reads back. */
	for (int i = 0; i < 8; i++) {
		struct hive_game g;
		char want[64], buf[64], err[256];
		unsigned t;
		CU_ASSERT_EQUAL_FATAL(hive_gametype_parse(all_types[i], &t), 0);
		hive_game_init(&g, t);
		snprintf(want, sizeof want, "%s;NotStarted;White[1]", all_types[i]);
		CU_ASSERT_EQUAL(hive_game_format(&g, buf, sizeof buf), strlen(want));
		CU_ASSERT_STRING_EQUAL(buf, want);
		hive_game_free(&g);
		hive_game_init(&g, 0);
		CU_ASSERT_EQUAL(hive_game_parse(&g, all_types[i], err, sizeof err), HIVE_OK);
		CU_ASSERT_EQUAL(g.type, t);
		CU_ASSERT_EQUAL(g.board.type, t);
		hive_game_format(&g, buf, sizeof buf);
		CU_ASSERT_STRING_EQUAL(buf, want);
		hive_game_free(&g);
	}
}

/* The text of "piece, reference seen from the destination in direction d". */
static void edge_text(char *buf, size_t len, int piece, int ref, int d)
{
	/* Reference at NW of the destination: the destination is SE of it, "X\". */
	static const char *const fmt[HIVE_DIRS] = {
		"%s %s\\", "%s /%s", "%s -%s", "%s \\%s", "%s %s/", "%s %s-",
	};
	snprintf(buf, len, fmt[d], hive_piece_name(piece), hive_piece_name(ref));
}

/* Upper-cases the text and spreads it out with extra spaces. */
static void loud_text(char *buf, size_t len, const char *text)
{
	size_t n = 0;
	if (len < 8)
		return;
	buf[n++] = ' ';
	buf[n++] = '\t';
	for (const char *p = text; *p && n + 4 < len; p++) {
		buf[n++] = (char)toupper((unsigned char)*p);
		if (*p == ' ')
			buf[n++] = ' ';
	}
	buf[n++] = ' ';
	buf[n] = '\0';
}

static int parses_to(const struct hive_board *b, const char *text, struct hive_move want)
{
	struct hive_move m;
	char err[256];
	int rc = hive_move_parse(b, text, &m, err, sizeof err);
	if (rc != HIVE_OK || m.piece != want.piece || m.to != want.to) {
		fprintf(stderr, "\"%s\" did not parse back (rc %d: %s)\n", text, rc, rc ? err : "other move");
		return 0;
	}
	CU_ASSERT_EQUAL(m.from, want.from);
	return 1;
}

/*
 * Every legal move of b: printed, parsed back; printed canonically (the first occupied
 * neighbour of the destination, NW to W, once the mover has left); and every other
 * notation for it parses to it too, including the mover as its own reference.
 */
static void check_all_moves(const struct hive_board *b, size_t *checked, size_t *self_refs)
{
	struct hive_move moves[HIVE_MAX_MOVES];
	size_t n = hive_board_moves(b, moves);
	char text[HIVE_MOVESTR_MAX], alt[64], again[HIVE_MOVESTR_MAX];

	for (size_t i = 0; i < n; i++) {
		struct hive_move m = moves[i];
		hive_move_format(b, m, text, sizeof text);
		hive_move_format(b, m, again, sizeof again);
		CU_ASSERT_STRING_EQUAL(text, again);
		CU_ASSERT(strlen(text) < HIVE_MOVESTR_MAX);
		CU_ASSERT(parses_to(b, text, m));
		loud_text(alt, sizeof alt, text);
		CU_ASSERT(parses_to(b, alt, m));
		(*checked)++;
		if (m.piece == HIVE_PASS_PIECE) {
			CU_ASSERT_STRING_EQUAL(text, "pass");
			continue;
		}
		if (b->ply == 0) {
			CU_ASSERT_STRING_EQUAL(text, hive_piece_name(m.piece));
			continue;
		}

		/* What the destination's neighbours are with the mover gone: play it and look. */
		struct hive_board after = *b;
		struct hive_undo u;
		hive_board_do(&after, m, &u);
		if (b->height[m.to] > 0) {
			char want[HIVE_MOVESTR_MAX];
			snprintf(want, sizeof want, "%s %s", hive_piece_name(m.piece),
				 hive_piece_name(after.under[m.piece]));
			CU_ASSERT_STRING_EQUAL(text, want);
		} else {
			int first = -1;
			for (int d = 0; d < HIVE_DIRS && first < 0; d++)
				if (after.top[hive_cell_step(m.to, d)] != HIVE_NO_PIECE)
					first = d;
			CU_ASSERT_FATAL(first >= 0);
			edge_text(alt, sizeof alt, m.piece, after.top[hive_cell_step(m.to, first)], first);
			CU_ASSERT_STRING_EQUAL(text, alt);
		}

		/* Every piece of every neighbouring stack (before the move) names the move. */
		for (int d = 0; d < HIVE_DIRS; d++) {
			uint16_t c = hive_cell_step(m.to, d);
			for (uint8_t r = b->top[c]; r != HIVE_NO_PIECE; r = b->under[r]) {
				char err[256];
				struct hive_move got;
				edge_text(alt, sizeof alt, m.piece, r, d);
				if (b->height[m.to] == 0) {
					CU_ASSERT(parses_to(b, alt, m));
					*self_refs += r == m.piece;
				} else {
					/* An edge pointing at an occupied cell is not a climb. */
					CU_ASSERT_EQUAL(hive_move_parse(b, alt, &got, err, sizeof err), HIVE_ERR_ILLEGAL);
					CU_ASSERT_STRING_EQUAL(err, "You can't move there because a piece already exists at that position.");
				}
			}
		}
	}
}

static int same_board(const struct hive_board *a, const struct hive_board *b)
{
	return a->type == b->type && a->state == b->state && a->last_moved == b->last_moved &&
	       a->ply == b->ply && a->hash == b->hash && a->in_play == b->in_play &&
	       !memcmp(a->pos, b->pos, sizeof a->pos) && !memcmp(a->level, b->level, sizeof a->level) &&
	       !memcmp(a->under, b->under, sizeof a->under) && !memcmp(a->top, b->top, sizeof a->top) &&
	       !memcmp(a->height, b->height, sizeof a->height);
}

/* Random games of every type: notation of every move, GameString and undo round trips. */
static void test_random_games(void)
{
	struct tu_rng rng = { 20240611 };
	size_t checked = 0, self_refs = 0, plies = 0, finished = 0;

	for (unsigned t = 0; t < 8; t++) {
		for (int gi = 0; gi < GAMES_PER_TYPE; gi++) {
			struct hive_game g;
			uint64_t hashes[MAX_PLIES + 1];
			hive_game_init(&g, t);
			hashes[0] = g.board.hash;
			while (g.len < MAX_PLIES && !hive_game_over(&g.board)) {
				struct hive_move moves[HIVE_MAX_MOVES];
				check_all_moves(&g.board, &checked, &self_refs);
				size_t n = hive_board_moves(&g.board, moves);
				CU_ASSERT_FATAL(n > 0);
				CU_ASSERT_EQUAL_FATAL(hive_game_play(&g, moves[tu_rng_below(&rng, n)]), HIVE_OK);
				CU_ASSERT_EQUAL(hive_board_check(&g.board), 0);
				hashes[g.len] = g.board.hash;
				plies++;
			}
			finished += hive_game_over(&g.board);
			CU_ASSERT(g.cap >= g.len);

			/* GameString round trip; the copy reads back identically. */
			static char gs[8192], gs2[8192];
			char err[256];
			size_t need = hive_game_format(&g, gs, sizeof gs);
			CU_ASSERT_EQUAL(need, strlen(gs));
			CU_ASSERT(gs[need - 1] != ';');
			struct hive_game g2;
			hive_game_init(&g2, 0);
			CU_ASSERT_EQUAL(hive_game_parse(&g2, gs, err, sizeof err), HIVE_OK);
			hive_game_format(&g2, gs2, sizeof gs2);
			CU_ASSERT_STRING_EQUAL(gs, gs2);
			CU_ASSERT_EQUAL(g2.len, g.len);
			CU_ASSERT_EQUAL(g2.board.hash, g.board.hash);
			CU_ASSERT(same_board(&g2.board, &g.board));
			hive_game_free(&g2);

			/* Short buffers: the length is still the whole length, the text a prefix. */
			char small[20];
			CU_ASSERT_EQUAL(hive_game_format(&g, small, sizeof small), need);
			CU_ASSERT_EQUAL(strlen(small), sizeof small - 1);
			CU_ASSERT_EQUAL(strncmp(small, gs, sizeof small - 1), 0);

			/* Undo back through the game, checking every position on the way. */
			struct hive_game g3;
			CU_ASSERT_EQUAL_FATAL(hive_game_copy(&g3, &g), HIVE_OK);
			CU_ASSERT_EQUAL(hive_game_undo(&g3, 0), HIVE_ERR_ILLEGAL);
			CU_ASSERT_EQUAL(hive_game_undo(&g3, g3.len + 1), HIVE_ERR_ILLEGAL);
			CU_ASSERT_EQUAL(g3.board.hash, g.board.hash);
			while (g3.len > 0) {
				size_t k = 1 + tu_rng_below(&rng, g3.len < 5 ? g3.len : 5);
				CU_ASSERT_EQUAL(hive_game_undo(&g3, k), HIVE_OK);
				CU_ASSERT_EQUAL(g3.board.hash, hashes[g3.len]);
				CU_ASSERT_EQUAL(hive_board_check(&g3.board), 0);
			}
			CU_ASSERT_EQUAL(g3.board.state, HIVE_NOT_STARTED);
			/* the original is untouched by its copy's undos */
			CU_ASSERT_EQUAL(g.board.hash, hashes[g.len]);
			hive_game_format(&g, gs2, sizeof gs2);
			CU_ASSERT_STRING_EQUAL(gs, gs2);
			hive_game_free(&g3);
			hive_game_free(&g);
			CU_ASSERT_PTR_NULL(g.hist);
		}
	}
	fprintf(stderr, "  %zu plies, %zu finished games, %zu moves round-tripped, %zu self-references\n",
		plies, finished, checked, self_refs);
	CU_ASSERT(checked > 10000);
	CU_ASSERT(self_refs > 0);
}

/* Parses text on the position gs; returns rc and leaves the message in err. */
static int try_move(const char *gs, const char *text, struct hive_move *m, char *err, size_t errlen)
{
	struct hive_game g;
	hive_game_init(&g, 0);
	err[0] = '\0';
	if (tu_load(&g, gs) != HIVE_OK) {
		hive_game_free(&g);
		return 1;
	}
	int rc = hive_move_parse(&g.board, text, m, err, errlen);
	hive_game_free(&g);
	return rc;
}

static void test_tolerance(void)
{
	const char *opening = "Base;InProgress;Black[1];wS1";
	const char *mid = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1/";
	struct hive_move m, ref;
	char err[256];

	/* Spaces and case. */
	CU_ASSERT_EQUAL(try_move(opening, "bS1 wS1-", &ref, err, sizeof err), HIVE_OK);
	static const char *const same[] = {
		"bs1 ws1-", "BS1 WS1-", "  bS1   wS1-  ", "\tbS1\twS1-", "bS1 wS1-\r\n",
	};
	for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
		CU_ASSERT_EQUAL(try_move(opening, same[i], &m, err, sizeof err), HIVE_OK);
		CU_ASSERT(m.piece == ref.piece && m.to == ref.to);
	}
	CU_ASSERT_EQUAL(ref.piece, HIVE_PIECE(HIVE_BLACK, 1));
	CU_ASSERT_EQUAL(ref.to, hive_cell_step(HIVE_ORIGIN, HIVE_E));

	/* The first move of the game goes to the origin. */
	CU_ASSERT_EQUAL(try_move("Base", " ws1 ", &m, err, sizeof err), HIVE_OK);
	CU_ASSERT(m.piece == HIVE_PIECE(HIVE_WHITE, 1) && m.to == HIVE_ORIGIN && m.from == HIVE_NOWHERE);

	/* The mover as its own reference: wQ is NW of wS1, and "wQ /wQ" is SW of wQ,
	 * which is W of wS1. */
	const char *mid2 = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/";
	CU_ASSERT_EQUAL(try_move(mid2, "wQ /wQ", &m, err, sizeof err), HIVE_OK);
	uint16_t wq = hive_cell_step(HIVE_ORIGIN, HIVE_NW);
	CU_ASSERT(m.piece == HIVE_PIECE(HIVE_WHITE, 0) && m.from == wq && m.to == hive_cell_step(wq, HIVE_SW));
	CU_ASSERT_EQUAL(try_move(mid2, "wQ -wS1", &ref, err, sizeof err), HIVE_OK);
	CU_ASSERT(m.to == ref.to && m.to == hive_cell_step(HIVE_ORIGIN, HIVE_W));

	/* "pass", any case, where it is the only move. */
	const char *forced = "Base;InProgress;White[7];wA1;bS1 wA1-;wQ -wA1;bQ bS1/;wQ \\wA1;bA1 bS1\\;wQ -wA1;bA2 bQ\\;wQ \\wA1;bA1 \\wQ;wG1 /wQ;bA2 /wG1";
	CU_ASSERT_EQUAL(try_move(forced, "PASS", &m, err, sizeof err), HIVE_OK);
	CU_ASSERT_EQUAL(m.piece, HIVE_PASS_PIECE);
	CU_ASSERT_EQUAL(try_move(forced, " Pass ", &m, err, sizeof err), HIVE_OK);

	/* Junk is refused, stricter than Mzinga, with Mzinga's parse message. */
	static const char *const junk[] = {
		"", "   ", "wQ -wS1x", "wQ wS1-xyz", "wQ wS1- more", "wQ1 -wS1", "wQ -wS1-", "wQ --wS1",
		"wQ wS1--", "wQ -", "wQ /", "wQ;", "wQ -wS1;", "passs", "pass wS1", "wX -wS1", "wQ -wM1",
		"0 -wS1",
	};
	for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++) {
		char want[64];
		int rc = try_move(mid, junk[i], &m, err, sizeof err);
		CU_ASSERT_EQUAL(rc, HIVE_ERR_SYNTAX);
		snprintf(want, sizeof want, "Unable to parse move \"%s\".", junk[i]);
		CU_ASSERT_STRING_EQUAL(err, want);
		if (rc != HIVE_ERR_SYNTAX)
			fprintf(stderr, "junk \"%s\" gave rc %d: %s\n", junk[i], rc, err);
	}
	/* A tiny error buffer is still terminated. */
	char tiny[8];
	CU_ASSERT_EQUAL(try_move(mid, "nonsense", &m, tiny, sizeof tiny), HIVE_ERR_SYNTAX);
	CU_ASSERT_EQUAL(strlen(tiny), sizeof tiny - 1);
}

struct error_case {
	const char *gs;
	const char *move;
	int rc;
	const char *msg;
};

/* One case per Mzinga message, in its order of checking, plus parse and pass errors.
 * Several come from Mzinga's Board_InvalidMovesByRuleTest.csv. */
static const struct error_case error_cases[] = {
	{ "Base;WhiteWins;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 /bG1",
	  "wB1 wS1-", HIVE_ERR_GAMEOVER, "You can't play, the game is over." },
	{ "Base;NotStarted;White[1]", "bA1", HIVE_ERR_ILLEGAL, "It's not that player's turn." },
	{ "Base;InProgress;Black[1];wS1", "wA1 wS1-", HIVE_ERR_ILLEGAL, "It's not that player's turn." },
	{ "Base;NotStarted;White[1]", "wM", HIVE_ERR_ILLEGAL, "That piece is not enabled in this game." },
	{ "Base+ML;InProgress;Black[1];wS1", "bP wS1-", HIVE_ERR_ILLEGAL, "That piece is not enabled in this game." },
	{ "Base;InProgress;Black[1];wS1", "bS1 wQ-", HIVE_ERR_ILLEGAL, "You can't put a piece back into your hand." },
	{ "Base;InProgress;Black[1];wS1", "bS1 -bS1", HIVE_ERR_ILLEGAL, "You can't put a piece back into your hand." },
	{ "Base;NotStarted;White[1]", "wQ", HIVE_ERR_ILLEGAL, "You can't play your Queen Bee on your first turn." },
	{ "Base;InProgress;Black[1];wS1", "bQ wS1-", HIVE_ERR_ILLEGAL, "You can't play your Queen Bee on your first turn." },
	{ "Base;InProgress;White[4];wS1;bS1 wS1-;wB1 \\wS1;bB1 bS1/;wG1 /wS1;bG1 bS1\\",
	  "wS2 /wG1", HIVE_ERR_ILLEGAL, "You must play your Queen Bee on or before your fourth turn." },
	{ "Base;InProgress;White[3];wS1;bS1 wS1-;wB1 \\wS1;bB1 bS1/",
	  "wB1 -wS1", HIVE_ERR_ILLEGAL, "You can't move a piece in play until you've played your Queen Bee." },
	{ "Base;InProgress;White[3];wS1;bS1 wS1-;wB1 \\wS1;bB1 bS1/",
	  "wG2 /wS1", HIVE_ERR_ILLEGAL, "When there are multiple pieces of the same bug type, you must play the pieces in order." },
	{ "Base;InProgress;White[5];wS1;bS1 wS1-;wB1 \\wS1;bB1 bS1/;wG1 /wS1;bG1 bS1\\;wQ /wB1;bQ bB1\\",
	  "wB1 /wS1", HIVE_ERR_ILLEGAL, "You can't move there because a piece already exists at that position." },
	/* a bare name after the first move means the origin, which is taken */
	{ "Base;InProgress;Black[1];wS1", "bS1", HIVE_ERR_ILLEGAL, "You can't move there because a piece already exists at that position." },
	/* on top of a covered piece: that level is taken (wB1 bB1 would be the climb) */
	{ "Base;InProgress;White[6];wS1;bS1 wS1-;wB1 \\wS1;bB1 bS1/;wG1 /wS1;bG1 bS1\\;wQ /wB1;bQ bB1\\;wB1 wQ;bB1 bQ",
	  "wB1 bQ", HIVE_ERR_ILLEGAL, "You can't move there because a piece already exists at that position." },
	{ "Base;InProgress;White[6];wS1;bS1 wS1-;wB1 \\wS1;bB1 bS1/;wG1 /wS1;bG1 bS1\\;wQ /wB1;bQ bB1\\;wB1 wQ;bB1 bQ",
	  "wQ \\wS1", HIVE_ERR_ILLEGAL, "You can't move that piece because it has another piece on top of it." },
	{ "Base;InProgress;White[5];wS1;bS1 wS1-;wB1 \\wS1;bB1 bS1/;wG1 /wS1;bG1 bS1\\;wQ /wG1;bQ bG1\\",
	  "wG1 -bB1", HIVE_ERR_ILLEGAL, "You can't move that piece because it will break the hive." },
	{ "Base;InProgress;Black[1];wS1", "bS1 wS1", HIVE_ERR_ILLEGAL, "You can't move that piece there." },
	{ "Base;InProgress;Black[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wS2 \\wQ", "bQ bQ-", HIVE_ERR_ILLEGAL,
	  "You can't move that piece there." },
	{ "Base;InProgress;White[2];wS1;bS1 wS1-", "wS2 bS1-", HIVE_ERR_ILLEGAL, "You can't move that piece there." },
	{ "Base;InProgress;White[2];wS1;bS1 wS1-", "wS1 -wS1x", HIVE_ERR_SYNTAX, "Unable to parse move \"wS1 -wS1x\"." },
	{ "Base;WhiteWins;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 /bG1",
	  "pass", HIVE_ERR_GAMEOVER, "You can't pass, the game is over." },
	{ "Base;NotStarted;White[1]", "pass", HIVE_ERR_ILLEGAL, "You can't pass when you have valid moves." },
};

static void test_error_messages(void)
{
	for (size_t i = 0; i < sizeof error_cases / sizeof error_cases[0]; i++) {
		const struct error_case *c = &error_cases[i];
		struct hive_move m;
		char err[256];
		int rc = try_move(c->gs, c->move, &m, err, sizeof err);
		CU_ASSERT_EQUAL(rc, c->rc);
		CU_ASSERT_STRING_EQUAL(err, c->msg);
		if (rc != c->rc || strcmp(err, c->msg))
			fprintf(stderr, "\"%s\" on %s: rc %d \"%s\", expected rc %d \"%s\"\n",
				c->move, c->gs, rc, err, c->rc, c->msg);
	}
}

static void test_gamestrings(void)
{
	const char *good = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1/";
	struct hive_game g;
	char gs0[1024], gs1[1024], err[256];

	hive_game_init(&g, 0);
	CU_ASSERT_EQUAL_FATAL(hive_game_parse(&g, good, err, sizeof err), HIVE_OK);
	hive_game_format(&g, gs0, sizeof gs0);
	CU_ASSERT_STRING_EQUAL(gs0, good);
	CU_ASSERT_EQUAL(g.len, 4);

	/* Rejections leave the game as it was. */
	static const struct { const char *gs; int rc; const char *msg; } bad[] = {
		{ "Base;InProgress;Black[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1/", HIVE_ERR_ILLEGAL,
		  "GameString says InProgress;Black[3] but the moves give InProgress;White[3]." },
		{ "Base;WhiteWins;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1/", HIVE_ERR_ILLEGAL,
		  "GameString says WhiteWins;White[3] but the moves give InProgress;White[3]." },
		{ "Base;NotStarted;Black[1];wS1", HIVE_ERR_ILLEGAL,
		  "GameString says NotStarted;Black[1] but the moves give InProgress;Black[1]." },
		{ "Base;InProgress", HIVE_ERR_ILLEGAL,
		  "GameString says InProgress but the moves give NotStarted;White[1]." },
		{ "Base;NotStarted;White[1];", HIVE_ERR_SYNTAX,
		  "Unable to play move 1 \"\": Unable to parse move \"\"." },
		{ "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;", HIVE_ERR_SYNTAX,
		  "Unable to play move 5 \"\": Unable to parse move \"\"." },
		{ "Base;InProgress;Black[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wS2 bQ-", HIVE_ERR_ILLEGAL,
		  "Unable to play move 5 \"wS2 bQ-\": You can't move that piece there." },
		{ "Base;InProgress;White[2];wS1;bS1 wS1-;wQ -wS1;bQ wS1;x", HIVE_ERR_ILLEGAL,
		  "Unable to play move 4 \"bQ wS1\": You can't move that piece there." },
		{ "Base+Q;NotStarted;White[1]", HIVE_ERR_SYNTAX, "Unknown GameType \"Base+Q\" in GameString." },
		{ "Base;Garbage;White[1]", HIVE_ERR_SYNTAX, "Unknown GameStateString \"Garbage\" in GameString." },
		{ "Base;NotStarted;Whatever[1]", HIVE_ERR_SYNTAX, "Unknown TurnString \"Whatever[1]\" in GameString." },
		{ "Base;NotStarted;White[0]", HIVE_ERR_SYNTAX, "Unknown TurnString \"White[0]\" in GameString." },
		{ "Base;NotStarted;White[1]x", HIVE_ERR_SYNTAX, "Unknown TurnString \"White[1]x\" in GameString." },
		{ "", HIVE_ERR_SYNTAX, "Unknown GameType \"\" in GameString." },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		int rc = hive_game_parse(&g, bad[i].gs, err, sizeof err);
		CU_ASSERT_EQUAL(rc, bad[i].rc);
		CU_ASSERT_STRING_EQUAL(err, bad[i].msg);
		if (rc != bad[i].rc || strcmp(err, bad[i].msg))
			fprintf(stderr, "%s: rc %d \"%s\"\n", bad[i].gs, rc, err);
		hive_game_format(&g, gs1, sizeof gs1);
		CU_ASSERT_STRING_EQUAL(gs1, gs0);
		CU_ASSERT_EQUAL(g.len, 4);
		CU_ASSERT_EQUAL(hive_board_check(&g.board), 0);
	}

	/* Accepted variants: turn and state in any case, spaces in moves, GameType alone. */
	CU_ASSERT_EQUAL(hive_game_parse(&g, "Base;inprogress;white[3]; wS1 ;bS1  wS1-;WQ -WS1;bQ bS1/", err, sizeof err), HIVE_OK);
	hive_game_format(&g, gs1, sizeof gs1);
	CU_ASSERT_STRING_EQUAL(gs1, good);
	/* Non-canonical references are re-printed canonically: wS2 goes NW of wS1 (0,-1),
	 * whose neighbours NW, NE, E are empty and SE is wS1, so "\\wS1" and not "wQ/". */
	CU_ASSERT_EQUAL(hive_game_parse(&g, "Base;InProgress;Black[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wS2 wQ/", err, sizeof err), HIVE_OK);
	hive_game_format(&g, gs1, sizeof gs1);
	CU_ASSERT_STRING_EQUAL(gs1, "Base;InProgress;Black[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wS2 \\wS1");
	/* bS1 W of wS1 prints as "-wS1"; wQ SE of wS1 as "wS1\\"; bQ SW of bS1 as "/bS1". */
	CU_ASSERT_EQUAL(hive_game_parse(&g, "Base;InProgress;White[3];wS1;bS1 -wS1;wQ wS1\\;bQ /bS1", err, sizeof err), HIVE_OK);
	hive_game_format(&g, gs1, sizeof gs1);
	CU_ASSERT_STRING_EQUAL(gs1, "Base;InProgress;White[3];wS1;bS1 -wS1;wQ wS1\\;bQ /bS1");
	CU_ASSERT_EQUAL(hive_game_parse(&g, "Base+MLP", err, sizeof err), HIVE_OK);
	hive_game_format(&g, gs1, sizeof gs1);
	CU_ASSERT_STRING_EQUAL(gs1, "Base+MLP;NotStarted;White[1]");
	CU_ASSERT_EQUAL(g.len, 0);
	CU_ASSERT_EQUAL(g.type, HIVE_EXP_M | HIVE_EXP_L | HIVE_EXP_P);
	hive_game_free(&g);
}

/* Moves onto stacks and off them print with the right references. */
static void test_stack_notation(void)
{
	struct hive_game g;
	char gs[1024], err[256], text[HIVE_MOVESTR_MAX];
	struct hive_move m;

	hive_game_init(&g, 0);
	/* wB1 climbs onto wQ, then steps down: the piece under it is its reference. */
	CU_ASSERT_EQUAL_FATAL(tu_load(&g, "Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wB1 \\wQ;bB1 bQ\\"), HIVE_OK);
	CU_ASSERT_EQUAL_FATAL(hive_move_parse(&g.board, "wB1 wQ", &m, err, sizeof err), HIVE_OK);
	hive_move_format(&g.board, m, text, sizeof text);
	CU_ASSERT_STRING_EQUAL(text, "wB1 wQ");
	CU_ASSERT_EQUAL_FATAL(hive_game_play(&g, m), HIVE_OK);
	CU_ASSERT_EQUAL(g.board.level[HIVE_PIECE(HIVE_WHITE, 3)], 1);
	CU_ASSERT_EQUAL_FATAL(hive_move_parse(&g.board, "bB1 bS1", &m, err, sizeof err), HIVE_OK);
	CU_ASSERT_EQUAL_FATAL(hive_game_play(&g, m), HIVE_OK);
	/* wB1 (on wQ, W of wS1) to SW of wQ: from there, NE is wQ's cell, now showing wQ. */
	CU_ASSERT_EQUAL_FATAL(hive_move_parse(&g.board, "wB1 /wQ", &m, err, sizeof err), HIVE_OK);
	hive_move_format(&g.board, m, text, sizeof text);
	CU_ASSERT_STRING_EQUAL(text, "wB1 /wQ");
	/* the same move named by the mover itself */
	struct hive_move m2;
	CU_ASSERT_EQUAL(hive_move_parse(&g.board, "wB1 /wB1", &m2, err, sizeof err), HIVE_OK);
	CU_ASSERT(m2.piece == m.piece && m2.to == m.to);
	CU_ASSERT_EQUAL_FATAL(hive_game_play(&g, m), HIVE_OK);
	hive_game_format(&g, gs, sizeof gs);
	CU_ASSERT_STRING_EQUAL(gs, "Base;InProgress;Black[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wB1 \\wQ;bB1 bQ\\;wB1 wQ;bB1 bS1;wB1 /wQ");

	/* hive_game_play refuses what is not legal, and changes nothing. */
	struct hive_move bogus = { HIVE_PIECE(HIVE_BLACK, 0), HIVE_NOWHERE, HIVE_ORIGIN };
	CU_ASSERT_EQUAL(hive_game_play(&g, bogus), HIVE_ERR_ILLEGAL);
	struct hive_move pass = { HIVE_PASS_PIECE, HIVE_NOWHERE, HIVE_NOWHERE };
	CU_ASSERT_EQUAL(hive_game_play(&g, pass), HIVE_ERR_ILLEGAL);
	char gs2[1024];
	hive_game_format(&g, gs2, sizeof gs2);
	CU_ASSERT_STRING_EQUAL(gs, gs2);
	char turn[16];
	CU_ASSERT_EQUAL(hive_turn_format(&g.board, turn, sizeof turn), 8);
	CU_ASSERT_STRING_EQUAL(turn, "Black[5]");
	hive_game_free(&g);

	/* After the end, play is refused as game over. */
	hive_game_init(&g, 0);
	CU_ASSERT_EQUAL_FATAL(tu_load(&g, error_cases[0].gs), HIVE_OK);
	CU_ASSERT_EQUAL(hive_game_play(&g, pass), HIVE_ERR_GAMEOVER);
	CU_ASSERT_EQUAL(hive_game_undo(&g, 1), HIVE_OK);
	CU_ASSERT_EQUAL(g.board.state, HIVE_IN_PROGRESS);
	hive_game_free(&g);
}

/* Random text: never a crash, always a reason on failure, and whatever is accepted is
 * a legal move (parse) or a game that prints and reads back the same (GameString). */
static void test_random_text(void)
{
	static const char alphabet[] = "wbWBqsbgamlpQSGAMLP0123 -/\\;\t";
	const char *base = "Base+MLP;InProgress;White[4];wG1;bA1 wG1-;wQ \\wG1;bQ bA1-;wP wQ/;bB1 bQ-";
	struct tu_rng rng = { 7 };
	struct hive_game g;
	size_t accepted = 0, games = 0;
	char text[48], err[256], gs0[2048], gs1[2048], gs2[2048];

	hive_game_init(&g, 0);
	CU_ASSERT_EQUAL_FATAL(tu_load(&g, base), HIVE_OK);
	hive_game_format(&g, gs0, sizeof gs0);
	CU_ASSERT_STRING_EQUAL(gs0, base);
	for (int i = 0; i < 20000; i++) {
		if (i & 1) {
			size_t n = tu_rng_below(&rng, 10);
			for (size_t j = 0; j < n; j++)
				text[j] = alphabet[tu_rng_below(&rng, sizeof alphabet - 1)];
			text[n] = '\0';
		} else {
			/* piece, then a reference with a mark on either side or none */
			static const char marks[] = "-/\\";
			char pre[2] = "", post[2] = "";
			size_t k = tu_rng_below(&rng, 7);
			if (k < 3)
				pre[0] = marks[k];
			else if (k < 6)
				post[0] = marks[k - 3];
			snprintf(text, sizeof text, "%s %s%s%s",
				 hive_piece_name((int)tu_rng_below(&rng, HIVE_PIECES)), pre,
				 hive_piece_name((int)tu_rng_below(&rng, HIVE_PIECES)), post);
		}
		struct hive_move m;
		err[0] = '\0';
		int rc = hive_move_parse(&g.board, text, &m, err, sizeof err);
		if (rc == HIVE_OK) {
			CU_ASSERT(hive_board_find_move(&g.board, m, NULL));
			accepted++;
		} else {
			CU_ASSERT(rc == HIVE_ERR_SYNTAX || rc == HIVE_ERR_ILLEGAL);
			CU_ASSERT(err[0] != '\0');
		}
	}
	/* GameStrings: a valid one with one character replaced, or cut short. */
	size_t len = strlen(base);
	for (int i = 0; i < 3000; i++) {
		char buf[256];
		memcpy(buf, base, len + 1);
		if (i & 1)
			buf[tu_rng_below(&rng, len)] = alphabet[tu_rng_below(&rng, sizeof alphabet - 1)];
		else
			buf[tu_rng_below(&rng, len)] = '\0';
		struct hive_game h;
		CU_ASSERT_EQUAL_FATAL(hive_game_copy(&h, &g), HIVE_OK);
		int rc = hive_game_parse(&h, buf, err, sizeof err);
		if (rc == HIVE_OK) {
			hive_game_format(&h, gs1, sizeof gs1);
			CU_ASSERT_EQUAL(hive_game_parse(&h, gs1, err, sizeof err), HIVE_OK);
			hive_game_format(&h, gs2, sizeof gs2);
			CU_ASSERT_STRING_EQUAL(gs1, gs2);
			games++;
		} else {
			CU_ASSERT(rc == HIVE_ERR_SYNTAX || rc == HIVE_ERR_ILLEGAL);
			hive_game_format(&h, gs1, sizeof gs1);
			CU_ASSERT_STRING_EQUAL(gs1, gs0);
		}
		hive_game_free(&h);
	}
	fprintf(stderr, "  %zu random moves and %zu mutated GameStrings accepted\n", accepted, games);
	CU_ASSERT(accepted > 0);
	hive_game_free(&g);
}

static const struct unit_test tests[] = {
	{ "piece names", test_piece_names },
	{ "GameTypeStrings and new games", test_gametypes },
	{ "random games: every move round-trips", test_random_games },
	{ "case, spaces, self-reference, junk", test_tolerance },
	{ "Mzinga's error messages", test_error_messages },
	{ "GameStrings", test_gamestrings },
	{ "stacks", test_stack_notation },
	{ "random text", test_random_text },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "notation",
	.tests = tests,
};
