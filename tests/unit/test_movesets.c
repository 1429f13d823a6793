/*
 * test_movesets.c: the move generator against the reference engines' data, comparing
 * moves as (piece, cell, height) sets, never as text:
 *   mzinga/Board_ValidMovesFromRealGamesTest.csv   exact sets, 195 tournament positions
 *   mzinga/Board_ValidMovesFor*Test.csv            listed moves must be generated
 *   mzinga/Board_InvalidMovesByRuleTest.csv        rejected with the section's message
 *   nokamute/uhp_tests.txt                         exact sets and end states
 * Mismatches print the position and the moves only one side has.
 */
#include "tests/unit/testutil.h"
#include "tests/unit/unit.h"

#define LINE_MAX_LEN 16384

/* Splits "GameString<TAB>moves"; returns the moves part or NULL. */
static char *split_tab(char *line)
{
	char *tab = strchr(line, '\t');
	if (!tab)
		return NULL;
	*tab = '\0';
	return tab + 1;
}

/*
 * Checks every "GameString<TAB>move;move;..." row of a file: exact or subset.
 * Every listed move must also be accepted by hive_move_parse as that very move.
 * Returns the number of rows checked.
 */
static int check_valid_file(const char *name, int exact)
{
	FILE *f = tu_open_data(name);
	static char line[LINE_MAX_LEN];
	static struct tu_moveset want, got;
	int rows = 0;
	size_t lineno = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	while (tu_read_line(f, line, sizeof line)) {
		lineno++;
		if (line[0] == '#' || line[0] == '\0')
			continue;
		char *list = split_tab(line);
		CU_ASSERT_PTR_NOT_NULL(list);
		if (!list)
			continue;
		struct hive_game g;
		hive_game_init(&g, 0);
		if (tu_load(&g, line) != HIVE_OK) {
			hive_game_free(&g);
			continue;
		}
		CU_ASSERT_EQUAL(hive_board_check(&g.board), 0);
		char label[64];
		snprintf(label, sizeof label, "%s line %zu", name, lineno);
		CU_ASSERT_EQUAL(tu_expected(&g.board, list, &want), 0);
		size_t dups = tu_generated(&g.board, &got);
		if (dups)
			fprintf(stderr, "%s: %zu duplicated generated moves\n", label, dups);
		CU_ASSERT_EQUAL(dups, 0);
		size_t diff = tu_compare(label, &want, &got, exact);
		if (diff)
			fprintf(stderr, "  position: %s\n", line);
		CU_ASSERT_EQUAL(diff, 0);

		/* The parser must read each listed notation as the same move. */
		for (size_t i = 0; i < want.n; i++) {
			struct hive_move m;
			char err[256];
			int rc = hive_move_parse(&g.board, want.text[i], &m, err, sizeof err);
			if (rc == HIVE_OK) {
				CU_ASSERT_EQUAL(tu_move_key(&g.board, m), want.key[i]);
			} else if (tu_in(&got, want.key[i])) {
				/* Generated but not parsed: a notation bug, not a movegen bug. */
				fprintf(stderr, "%s: \"%s\" rejected: %s\n", label, want.text[i], err);
				CU_FAIL("a generated move was not parsed");
			}
		}
		hive_game_free(&g);
		rows++;
	}
	fclose(f);
	return rows;
}

static void test_real_games(void)
{
	int rows = check_valid_file("mzinga/Board_ValidMovesFromRealGamesTest.csv", 1);
	CU_ASSERT(rows >= 195);
}

static void test_valid_for_bug(void)
{
	static const char *const files[] = {
		"Beetle", "Grasshopper", "Ladybug", "Mosquito", "Pillbug", "QueenBee", "SoldierAnt", "Spider",
	};
	int rows = 0;
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char name[128];
		snprintf(name, sizeof name, "mzinga/Board_ValidMovesFor%sTest.csv", files[i]);
		rows += check_valid_file(name, 0);
	}
	CU_ASSERT(rows >= 10);
}

/* Every move of the file is rejected with the message of its section header, and
 * neither the GameString nor the move set changes. */
static void test_invalid_by_rule(void)
{
	FILE *f = tu_open_data("mzinga/Board_InvalidMovesByRuleTest.csv");
	static char line[LINE_MAX_LEN];
	static struct tu_moveset before, after;
	char section[256] = "";
	int rows = 0, lied = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	while (tu_read_line(f, line, sizeof line)) {
		if (line[0] == '#') {
			snprintf(section, sizeof section, "%.255s", line + 1 + (line[1] == ' '));
			continue;
		}
		if (line[0] == '\0')
			continue;
		char *move = split_tab(line);
		CU_ASSERT_PTR_NOT_NULL_FATAL(move);
		struct hive_game g;
		int lie;
		hive_game_init(&g, 0);
		if (tu_load_relaxed(&g, line, &lie) != HIVE_OK) {
			hive_game_free(&g);
			continue;
		}
		lied += lie;
		char gs0[4096], gs1[4096], err[256] = "";
		struct hive_move m;
		hive_game_format(&g, gs0, sizeof gs0);
		tu_generated(&g.board, &before);

		int rc = hive_move_parse(&g.board, move, &m, err, sizeof err);
		if (rc == HIVE_OK)
			hive_game_play(&g, m);   /* wrong, but then show what it did */
		CU_ASSERT_NOT_EQUAL(rc, HIVE_OK);
		CU_ASSERT_STRING_EQUAL(err, section);
		if (rc == HIVE_OK || strcmp(err, section))
			fprintf(stderr, "%s + \"%s\": rc %d, \"%s\", expected \"%s\"\n", line, move, rc, err, section);
		/* A finished game rejects with GAMEOVER, every other rule with ILLEGAL. */
		CU_ASSERT_EQUAL(rc, strstr(section, "game is over") ? HIVE_ERR_GAMEOVER : HIVE_ERR_ILLEGAL);

		hive_game_format(&g, gs1, sizeof gs1);
		tu_generated(&g.board, &after);
		CU_ASSERT_STRING_EQUAL(gs0, gs1);
		CU_ASSERT_EQUAL(before.n, after.n);
		CU_ASSERT_EQUAL(tu_compare("move set after a rejected move", &before, &after, 1), 0);
		hive_game_free(&g);
		rows++;
	}
	fclose(f);
	CU_ASSERT(rows >= 24);
	/* Four of Mzinga's rows say NotStarted after a move; the strict parser refused them. */
	CU_ASSERT_EQUAL(lied, 4);
}

/* One nokamute case: the GameString, and the expected move list or NULL (end state). */
static int check_nokamute_case(const char *name, const char *gs, const char *list)
{
	static struct tu_moveset want, got;
	struct hive_game g;
	char label[160];

	/* Mzinga's rules have no repetition draw: that case is nokamute's own rule. */
	if (strstr(name, "threefold repetition"))
		return 0;
	snprintf(label, sizeof label, "nokamute \"%s\"", name);
	hive_game_init(&g, 0);
	if (tu_load(&g, gs) != HIVE_OK) {
		fprintf(stderr, "  in %s\n", label);
		hive_game_free(&g);
		return 1;
	}
	CU_ASSERT_EQUAL(hive_board_check(&g.board), 0);
	/* The state field is checked by hive_game_parse; check it here too, plainly. */
	const char *state = strchr(gs, ';');
	CU_ASSERT_PTR_NOT_NULL_FATAL(state);
	const char *sname = hive_state_name(g.board.state);
	CU_ASSERT(strncmp(state + 1, sname, strlen(sname)) == 0 && state[1 + strlen(sname)] == ';');
	if (list) {
		CU_ASSERT_EQUAL(tu_expected(&g.board, list, &want), 0);
		CU_ASSERT_EQUAL(tu_generated(&g.board, &got), 0);
		size_t diff = tu_compare(label, &want, &got, 1);
		if (diff)
			fprintf(stderr, "  position: %s\n", gs);
		CU_ASSERT_EQUAL(diff, 0);
	} else {
		CU_ASSERT(hive_game_over(&g.board));
		/* A finished game has no moves at all, not even a pass. */
		CU_ASSERT_EQUAL(tu_generated(&g.board, &got), 0);
		CU_ASSERT_EQUAL(got.n, 0);
	}
	hive_game_free(&g);
	return 1;
}

static void test_nokamute_uhp(void)
{
	FILE *f = tu_open_data("nokamute/uhp_tests.txt");
	static char line[LINE_MAX_LEN], gs[LINE_MAX_LEN];
	char name[128] = "";
	int have_gs = 0, cases = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	for (;;) {
		char *l = tu_read_line(f, line, sizeof line);
		/* A GameString followed by a blank line, a comment or the end is an end-state case. */
		if (!l || l[0] == '#' || l[0] == '\0') {
			if (have_gs)
				cases += check_nokamute_case(name, gs, NULL);
			have_gs = 0;
			if (!l)
				break;
			if (l[0] == '#')
				snprintf(name, sizeof name, "%.127s", l + 1 + (l[1] == ' '));
			continue;
		}
		if (!have_gs) {
			snprintf(gs, sizeof gs, "%s", l);
			have_gs = 1;
		} else {
			cases += check_nokamute_case(name, gs, l);
			have_gs = 0;
		}
	}
	fclose(f);
	CU_ASSERT(cases >= 20);
}

static const struct unit_test tests[] = {
	{ "Mzinga real games: exact move sets", test_real_games },
	{ "Mzinga valid moves per bug: subsets", test_valid_for_bug },
	{ "Mzinga invalid moves by rule", test_invalid_by_rule },
	{ "nokamute uhp_tests", test_nokamute_uhp },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "movesets",
	.tests = tests,
};
