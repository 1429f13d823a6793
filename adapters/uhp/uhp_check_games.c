/*
 * uhp_check_games.c: the UHP suite's checks of move generation (reference and
 * random positions, validmoves compared with the core as sets of moves), game flow
 * (newgame, play, pass, undo, the game's end) and rejections (moves that break a
 * rule, malformed moves). Talking to the engine is in uhp_check.c.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "adapters/uhp/uhp_check.h"

/* A short game for the malformed-move checks. */
#define POS_SHORT "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1/"

static uint32_t move_key(struct hive_move m)
{
	return m.piece == HIVE_PASS_PIECE ? (uint32_t)HIVE_PASS_PIECE << 16 : (uint32_t)m.piece << 16 | m.to;
}

static int key_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Compares a validmoves line with the core's moves on board b, as sets of moves;
 * the differences go into r's diff lists. 0 if they match. */
static int moves_compare(struct result *r, const struct hive_board *b, const char *line)
{
	struct hive_move core[HIVE_MAX_MOVES];
	size_t n = hive_board_moves(b, core);
	uint32_t *want = xreallocarray(NULL, (n + 1) * sizeof *want, 1);
	uint32_t *have = NULL;
	size_t nhave = 0, caphave = 0, bad = 0, dup = 0, only_engine = 0, only_core = 0;
	char *copy = xstrdup(line), err[256], buf[HIVE_MOVESTR_MAX];
	struct sbuf dups = { 0 };

	for (size_t i = 0; i < n; i++)
		want[i] = move_key(core[i]);
	qsort(want, n, sizeof *want, key_cmp);

	/* The engine's strings, parsed on the same board. */
	for (char *tok = copy, *next; tok; tok = next) {
		struct hive_move m;
		next = strchr(tok, ';');
		if (next)
			*next++ = 0;
		size_t len = strlen(tok);
		check_trim(&tok, &len);
		tok[len] = 0;
		if (len == 0)
			continue;
		if (hive_move_parse(b, tok, &m, err, sizeof err) != HIVE_OK) {
			char *s = xasprintf("%s (%s)", tok, err);
			struct sbuf esc = { 0 };
			sbuf_escaped(&esc, s, strlen(s), CHECK_SHOW_SENT);
			if (r->only_engine.n < CHECK_SHOW_MOVES)
				strlist_add(&r->only_engine, esc.s);
			sbuf_free(&esc);
			free(s);
			bad++;
			continue;
		}
		uint32_t k = move_key(m);
		size_t j;
		for (j = 0; j < nhave && have[j] != k; j++)
			;
		if (j < nhave) {
			if (dup++ < 8)
				sbuf_printf(&dups, "%s%s", dups.len ? ", " : "", tok);
			continue;
		}
		if (nhave == caphave) {
			caphave = caphave ? caphave * 2 : 64;
			have = xreallocarray(have, caphave * sizeof *have, 1);
		}
		have[nhave++] = k;
	}
	if (have)
		qsort(have, nhave, sizeof *have, key_cmp);

	/* Merge the two sorted sets. */
	size_t i = 0, j = 0;
	while (i < n || j < nhave) {
		if (j >= nhave || (i < n && want[i] < have[j])) {
			for (size_t k = 0; k < n; k++)
				if (move_key(core[k]) == want[i]) {
					hive_move_format(b, core[k], buf, sizeof buf);
					break;
				}
			if (r->only_core.n < CHECK_SHOW_MOVES)
				strlist_add(&r->only_core, buf);
			i++;
			only_core++;
		} else if (i >= n || have[j] < want[i]) {
			/* hive_move_parse checks the rules, so the core always generates what
			 * it parses; kept so that a disagreement is still reported. */
			snprintf(buf, sizeof buf, "%s@%u", hive_piece_name((int)(have[j] >> 16)),
				 (unsigned)(have[j] & 0xFFFF));
			if (r->only_engine.n < CHECK_SHOW_MOVES)
				strlist_add(&r->only_engine, buf);
			j++;
			only_engine++;
		} else {
			i++;
			j++;
		}
	}
	int rc = 0;
	if (only_engine || only_core || bad || dup) {
		check_fail(r, "validmoves differs from the core: %zu only in the engine's list "
			   "(%zu of them illegal or unparsable), %zu only in the core's%s%s",
			   only_engine + bad, bad, only_core, dup ? "; listed twice: " : "", dup ? dups.s : "");
		rc = -1;
	}
	sbuf_free(&dups);
	free(copy);
	free(have);
	free(want);
	return rc;
}

/* Sends validmoves and compares it with the core's moves on b. */
int uhp_expect_moves(struct checker *ck, struct result *r, const struct hive_board *b)
{
	struct reply rep = { 0 };
	char core_n[64];
	struct hive_move moves[HIVE_MAX_MOVES];

	snprintf(core_n, sizeof core_n, "%zu moves, the same set as the core's", hive_board_moves(b, moves));
	check_expect(r, "%s", core_n);
	if (uhp_cmd(ck, r, "validmoves", ck->timeout_ms, &rep) < 0) {
		reply_free(&rep);
		return -1;
	}
	int rc = 0;
	if (uhp_reply_refused(&rep) || rep.lines.n != 1) {
		check_fail(r, "validmoves: expected one line of moves, got %zu line(s)%s", rep.lines.n,
			   uhp_reply_refused(&rep) ? ", refused" : "");
		rc = -1;
	} else {
		rc = moves_compare(r, b, uhp_reply_first(&rep));
	}
	reply_free(&rep);
	return rc;
}

const struct end_position uhp_end_positions[UHP_END_POSITIONS] = {
	{ "white-wins", HIVE_WHITE_WINS,
	  "Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;"
	  "wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1" },
	{ "black-wins", HIVE_BLACK_WINS,
	  "Base;BlackWins;White[7];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wG1 -wQ;bG1 bQ-;wA1 wG1\\;bA1 bQ\\;"
	  "wA2 \\wQ;bA2 \\bG1;wG2 wQ/;bG1 wG2\\" },
	{ "draw", HIVE_DRAW,
	  "Base;Draw;White[11];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;"
	  "bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bG1 wA1/;wQ -bQ;bA1 \\wQ;wB1 -wS1;bG3 bG1-;wB1 /bA1;bG3 -bG2" },
	{ "black-suicide", HIVE_WHITE_WINS,
	  "Base;WhiteWins;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;"
	  "wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 /bG1" },
};

/* newgame with g, then validmoves compared with the core. */
static void position_check(struct checker *ck, struct result *r, const struct hive_game *g)
{
	if (r->st != ST_RUN)
		return;
	if (check_needs(ck, r, g->type) == 0 && uhp_load_game(ck, r, g) == 0)
		uhp_expect_moves(ck, r, &g->board);
	check_end(r);
}

void uhp_group_movegen_start(struct checker *ck)
{
	for (unsigned t = 0; t < 8; t++) {
		struct result *r = check_begin(ck, 1, "movegen.start[%s]", hive_gametype_name(t));
		struct hive_game g;
		struct reply rep = { 0 };
		if (!r)
			continue;
		if (check_needs(ck, r, t) == 0) {
			char *line = xasprintf("newgame %s", hive_gametype_name(t));
			hive_game_init(&g, t);
			if (uhp_cmd(ck, r, line, ck->timeout_ms, &rep) == 0 && uhp_expect_game(r, &rep, &g, "newgame") == 0)
				uhp_expect_moves(ck, r, &g.board);
			reply_free(&rep);
			hive_game_free(&g);
			free(line);
		}
		check_end(r);
	}
}

/* Mzinga's positions from real games: "GameString<TAB>moves". */
void uhp_group_movegen_realgames(struct checker *ck)
{
	struct strlist lines = { 0 };
	size_t idx = 0;

	if (check_data_lines(ck, "mzinga/Board_ValidMovesFromRealGamesTest.csv", "movegen.realgames", &lines) < 0)
		return;
	for (size_t i = 0; i < lines.n; i++) {
		char *s = lines.v[i];
		struct hive_game g;
		if (!*s || *s == '#')
			continue;
		s[strcspn(s, "\t")] = 0;
		struct result *r = check_begin(ck, 1, "movegen.realgames[%zu]", idx++);
		if (!r)
			continue;
		if (check_load_position(r, &g, s) < 0)
			continue;
		if (hive_game_over(&g.board))
			check_skip(r, "the game is over");
		position_check(ck, r, &g);
		hive_game_free(&g);
	}
	strlist_free(&lines);
}

/* A slug of a title: "Pillbug can't throw." -> "pillbug-can-t-throw". */
static char *slug(const char *title)
{
	struct sbuf b = { 0 };
	int dash = 0;
	for (; *title; title++) {
		if (isalnum((unsigned char)*title)) {
			if (dash && b.len)
				sbuf_str(&b, "-");
			char c = (char)tolower((unsigned char)*title);
			sbuf_add(&b, &c, 1);
			dash = 0;
		} else {
			dash = 1;
		}
	}
	return sbuf_take(&b);
}

/* nokamute's uhp_tests: "# title", a GameString, then its moves (if in progress). */
void uhp_group_movegen_nokamute(struct checker *ck)
{
	struct strlist lines = { 0 };
	const char *title = "case";

	if (check_data_lines(ck, "nokamute/uhp_tests.txt", "movegen.nokamute", &lines) < 0)
		return;
	for (size_t i = 0; i < lines.n; i++) {
		const char *s = lines.v[i];
		char type[32];
		unsigned t;
		struct hive_game g;
		if (*s == '#') {
			title = s + 1;
			continue;
		}
		check_field_copy(s, 0, type, sizeof type);
		if (!*s || hive_gametype_parse(type, &t) != 0)
			continue;     /* a move list: the core computes its own */
		char *name = slug(title);
		struct result *r = check_begin(ck, 1, "movegen.nokamute[%s]", name);
		free(name);
		if (!r)
			continue;
		if (check_load_position(r, &g, s) < 0)
			continue;
		check_field_copy(s, 1, type, sizeof type);
		if (hive_game_over(&g.board))
			check_skip(r, "the game is over (end states are checked in gameflow)");
		else if (strcmp(type, "NotStarted") && strcmp(type, "InProgress"))
			check_skip(r, "nokamute says %s where the core says %s (a nokamute-only rule)", type,
				   hive_state_name(g.board.state));
		position_check(ck, r, &g);
		hive_game_free(&g);
	}
	strlist_free(&lines);
}

void uhp_group_movegen_random(struct checker *ck)
{
	struct hive_game g;
	for (int i = 0; i < ck->positions && check_position(ck, i, &g) == 0; i++) {
		struct result *r = check_begin(ck, 1, "movegen.random[%d]", i);
		if (r && check_needs(ck, r, g.type) == 0)
			position_check(ck, r, &g);
		hive_game_free(&g);
	}
}

/* "play <move>" (or "pass") for a move of the core, in canonical notation. */
static char *play_line(const struct hive_board *b, struct hive_move m)
{
	char buf[HIVE_MOVESTR_MAX];
	if (m.piece == HIVE_PASS_PIECE)
		return xstrdup("pass");
	hive_move_format(b, m, buf, sizeof buf);
	return xasprintf("play %s", buf);
}

static void check_play_sequence(struct checker *ck, unsigned best)
{
	struct result *r = check_begin(ck, 1, "gameflow.play");
	struct hive_game g, cur;
	if (!r)
		return;
	check_random_game(ck, &g, best, 16);
	hive_game_init(&cur, best);
	char *line = xasprintf("newgame %s", hive_gametype_name(best));
	if (uhp_expect_cmd_game(ck, r, line, &cur) == 0) {
		for (size_t i = 0; i < g.len; i++) {
			char *play = play_line(&cur.board, g.hist[i].move);
			hive_game_play(&cur, g.hist[i].move);
			int rc = uhp_expect_cmd_game(ck, r, play, &cur);
			free(play);
			if (rc < 0)
				break;
		}
	}
	free(line);
	hive_game_free(&cur);
	hive_game_free(&g);
	check_end(r);
}

static void check_undo(struct checker *ck, unsigned best)
{
	struct result *r = check_begin(ck, 1, "gameflow.undo");
	struct hive_game g, cur;
	struct reply rep = { 0 };
	if (!r)
		return;
	check_random_game(ck, &g, best, 10);
	if (g.len < 6) {
		check_skip(r, "the random game is too short");
		hive_game_free(&g);
		check_end(r);
		return;
	}
	if (hive_game_copy(&cur, &g) != HIVE_OK) {
		check_fail(r, "out of memory");
		hive_game_free(&g);
		check_end(r);
		return;
	}
	if (uhp_load_game(ck, r, &g) < 0)
		goto out;
	hive_game_undo(&cur, 1);
	if (uhp_expect_cmd_game(ck, r, "undo", &cur) < 0)
		goto out;
	hive_game_undo(&cur, 3);
	if (uhp_cmd(ck, r, "undo 3", ck->timeout_ms, &rep) < 0 || uhp_expect_game(r, &rep, &cur, "undo 3") < 0) {
		reply_free(&rep);
		goto out;
	}
	/* A round trip play + undo gives back the same GameString, text included. */
	char *before = xstrdup(uhp_reply_first(&rep));
	reply_free(&rep);
	struct hive_move m = g.hist[cur.len].move;
	char *play = play_line(&cur.board, m);
	hive_game_play(&cur, m);
	int rc = uhp_expect_cmd_game(ck, r, play, &cur);
	free(play);
	hive_game_undo(&cur, 1);
	if (rc == 0 && uhp_cmd(ck, r, "undo", ck->timeout_ms, &rep) == 0) {
		if (uhp_expect_game(r, &rep, &cur, "undo") == 0 && strcmp(before, uhp_reply_first(&rep)))
			check_fail(r, "play + undo changed the GameString's text");
	}
	reply_free(&rep);
	free(before);
out:
	hive_game_free(&cur);
	hive_game_free(&g);
	check_end(r);
}

static void check_undo_too_many(struct checker *ck, unsigned best)
{
	struct result *r = check_begin(ck, 1, "gameflow.undo-too-many");
	struct hive_game g;
	if (!r)
		return;
	check_random_game(ck, &g, best, 4);
	char *line = xasprintf("undo %zu", g.len + 1);
	if (uhp_load_game(ck, r, &g) == 0 && uhp_expect_refusal(ck, r, line, "err (+ok), the game unchanged", 1) == 0)
		uhp_expect_moves(ck, r, &g.board);
	free(line);
	hive_game_free(&g);
	check_end(r);
}

/* Loads one of uhp_end_positions (or fails/skips r); 0 when g holds it. */
int uhp_end_load(struct result *r, const struct end_position *e, struct hive_game *g)
{
	if (check_load_position(r, g, e->gs) < 0)
		return -1;
	if (g->board.state != e->state) {
		check_skip(r, "the core says %s", hive_state_name(g->board.state));
		hive_game_free(g);
		return -1;
	}
	return 0;
}

static void check_game_ends(struct checker *ck)
{
	for (size_t i = 0; i < UHP_END_POSITIONS; i++) {
		const struct end_position *e = &uhp_end_positions[i];
		struct result *r = check_begin(ck, 1, "gameflow.end[%s]", e->name);
		struct hive_game g, before;
		if (!r || uhp_end_load(r, e, &g) < 0) {
			check_end(r);
			continue;
		}
		if (hive_game_copy(&before, &g) == HIVE_OK) {
			hive_game_undo(&before, 1);
			char *play = play_line(&before.board, g.hist[g.len - 1].move);
			if (uhp_load_game(ck, r, &before) == 0)
				uhp_expect_cmd_game(ck, r, play, &g);
			free(play);
			hive_game_free(&before);
		}
		hive_game_free(&g);
		check_end(r);
	}
}

/* After the end: play is refused, validmoves lists nothing. */
static void check_after_end(struct checker *ck)
{
	const struct end_position *e = &uhp_end_positions[0];
	struct hive_game g;
	struct reply rep = { 0 };

	struct result *r = check_begin(ck, 1, "gameflow.play-after-end");
	if (r && uhp_end_load(r, e, &g) == 0) {
		/* A well-formed placement: a piece in hand next to the last piece moved. */
		int side = hive_side_to_move(&g.board), piece = -1;
		for (int slot = 1; slot < 14 && piece < 0; slot++)
			if (g.board.pos[HIVE_PIECE(side, slot)] == HIVE_NOWHERE &&
			    hive_piece_enabled(g.type, HIVE_PIECE(side, slot)))
				piece = HIVE_PIECE(side, slot);
		char *line = xasprintf("play %s -%s", hive_piece_name(piece < 0 ? HIVE_PIECE(side, 0) : piece),
				    hive_piece_name(g.hist[g.len - 1].move.piece));
		if (uhp_load_game(ck, r, &g) == 0)
			uhp_expect_refusal(ck, r, line, "err or invalidmove (+ok): the game is over", 0);
		free(line);
		hive_game_free(&g);
	}
	check_end(r);

	/* Optional: Mzinga says err, nokamute an empty line; both list no move. */
	r = check_begin(ck, 0, "gameflow.validmoves-after-end");
	if (r && uhp_end_load(r, e, &g) == 0) {
		check_expect(r, "err (+ok), or an empty line");
		if (uhp_load_game(ck, r, &g) == 0 && uhp_cmd(ck, r, "validmoves", ck->timeout_ms, &rep) == 0 &&
		    !uhp_reply_refused(&rep) && (rep.lines.n > 1 || strlen(uhp_reply_first(&rep)) > 0))
			check_fail(r, "moves listed after the game ended");
		reply_free(&rep);
		hive_game_free(&g);
	}
	check_end(r);
}

void uhp_group_gameflow(struct checker *ck)
{
	unsigned best = ck->caps_type & 7;
	struct hive_game g;
	struct result *r;

	r = check_begin(ck, 1, "gameflow.newgame");
	if (r) {
		hive_game_init(&g, 0);
		uhp_expect_cmd_game(ck, r, "newgame", &g);
		hive_game_free(&g);
		check_end(r);
	}

	r = check_begin(ck, 1, "gameflow.newgame-type");
	if (r) {
		char *line = xasprintf("newgame %s", hive_gametype_name(best));
		hive_game_init(&g, best);
		uhp_expect_cmd_game(ck, r, line, &g);
		hive_game_free(&g);
		free(line);
		check_end(r);
	}

	r = check_begin(ck, 1, "gameflow.newgame-gamestring");
	if (r) {
		if (check_load_position(r, &g, POS_BEETLE_GATE) == 0) {
			uhp_load_game(ck, r, &g);
			hive_game_free(&g);
		}
		check_end(r);
	}

	/* Optional: what a bad GameType gives differs between engines, but it is refused. */
	r = check_begin(ck, 0, "gameflow.newgame-bad-type");
	if (r) {
		uhp_expect_refusal(ck, r, "newgame Base+Q", "err (+ok)", 0);
		check_end(r);
	}

	check_play_sequence(ck, best);
	check_undo(ck, best);
	check_undo_too_many(ck, best);

	r = check_begin(ck, 1, "gameflow.pass-forced");
	if (r) {
		if (check_load_position(r, &g, POS_FORCED_PASS) == 0) {
			struct hive_move pass = { HIVE_PASS_PIECE, HIVE_NOWHERE, HIVE_NOWHERE }, legal;
			if (hive_board_find_move(&g.board, pass, &legal) == 0)
				check_skip(r, "the core does not see a forced pass");
			else if (uhp_load_game(ck, r, &g) == 0 && hive_game_play(&g, legal) == HIVE_OK)
				uhp_expect_cmd_game(ck, r, "pass", &g);
			hive_game_free(&g);
		}
		check_end(r);
	}

	check_game_ends(ck);
	check_after_end(ck);
}

/* After a refusal, the game must be as it was: validmoves while it is in progress;
 * once it is over (no moves to compare), undo 1 must give the game minus its last ply. */
static void expect_unchanged(struct checker *ck, struct result *r, const struct hive_game *g)
{
	struct hive_game prev;
	if (!hive_game_over(&g->board) || g->len == 0) {
		uhp_expect_moves(ck, r, &g->board);
		return;
	}
	if (hive_game_copy(&prev, g) != HIVE_OK) {
		check_fail(r, "out of memory");
		return;
	}
	hive_game_undo(&prev, 1);
	uhp_expect_cmd_game(ck, r, "undo", &prev);
	hive_game_free(&prev);
}

/* Mzinga's moves that break a rule: "# rule" comments, "GameString<TAB>move" rows. */
void uhp_group_rejections_byrule(struct checker *ck)
{
	struct strlist lines = { 0 };
	char err[256];
	const char *rule = "a rule";
	size_t idx = 0;

	if (check_data_lines(ck, "mzinga/Board_InvalidMovesByRuleTest.csv", "rejections.byrule", &lines) < 0)
		return;
	for (size_t i = 0; i < lines.n; i++) {
		char *s = lines.v[i], *tab;
		struct hive_game g;
		struct hive_move m;
		if (*s == '#') {
			rule = s + 1 + strspn(s + 1, " ");
			continue;
		}
		if (!*s || !(tab = strchr(s, '\t')))
			continue;
		*tab = 0;
		const char *move = tab + 1;
		struct result *r = check_begin(ck, 1, "rejections.byrule[%zu]", idx++);
		if (!r)
			continue;
		if (check_load_position(r, &g, s) < 0)
			continue;
		if (check_needs(ck, r, g.type) == 0) {
			if (hive_move_parse(&g.board, move, &m, err, sizeof err) == HIVE_OK) {
				check_skip(r, "the core accepts %s", move);
			} else {
				char *line = strcasecmp(move, "pass") ? xasprintf("play %s", move) : xstrdup("pass");
				char *what = xasprintf("err or invalidmove (Mzinga: %s), the game unchanged", rule);
				if (uhp_load_game(ck, r, &g) == 0 && uhp_expect_refusal(ck, r, line, what, 0) == 0)
					expect_unchanged(ck, r, &g);
				free(what);
				free(line);
			}
		}
		hive_game_free(&g);
		check_end(r);
	}
	strlist_free(&lines);
}

void uhp_group_rejections_malformed(struct checker *ck)
{
	static const struct {
		const char *name;
		const char *line;
	} cases[] = {
		{ "play-without-move", "play" },
		{ "gibberish", "play xyzzy" },
		{ "unknown-bug", "play wX1 -wS1" },
		{ "unknown-colour", "play gA1 -wS1" },
		{ "bad-direction", "play wA1 *wS1" },
		{ "number-on-queen", "play wQ1 -wS1" },
		{ "no-such-ant", "play wA4 -wS1" },
		{ "reference-missing", "play wA1 -" },
		{ "reference-unknown", "play wA1 -bZ9" },
		{ "reference-in-hand", "play wA1 -bB1" },
	};
	char err[256];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct result *r = check_begin(ck, 1, "rejections.malformed[%s]", cases[i].name);
		struct hive_game g;
		struct hive_move m;
		if (!r)
			continue;
		const char *arg = cases[i].line + 4 + strspn(cases[i].line + 4, " ");
		if (check_load_position(r, &g, POS_SHORT) == 0) {
			if (*arg && hive_move_parse(&g.board, arg, &m, err, sizeof err) == HIVE_OK)
				check_skip(r, "the core accepts %s", arg);
			else if (uhp_load_game(ck, r, &g) == 0 &&
				 uhp_expect_refusal(ck, r, cases[i].line, "err or invalidmove (+ok), the game unchanged", 0) == 0)
				uhp_expect_moves(ck, r, &g.board);
			hive_game_free(&g);
		}
		check_end(r);
	}
}

