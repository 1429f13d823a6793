/*
 * test_record.c: the game record codec (core/record.c) on the 13 real BoardSpace games
 * of tests/data/records, each as BoardSpace's SGF and Mzinga's PGN: both read to the
 * same legal moves and final GameString; PGN written in either dialect reads back to
 * the same game; broken records (an illegal 20th ply, cut short, not UTF-8) are refused
 * with the ply and the line, giving nothing back; hivegame.com's dialect; BoardSpace
 * SGF written reads back to the same game, result and players.
 */
#include "testutil.h"

#include "core/record.h"
#include "tests/unit/unit.h"

#define RECORDS "tests/data/records"

static const char *const games[] = {
	"HV-Abbo69-WeakBot-2018-10-28-2007",
	"HV-Abbo69-WeakBot-2018-11-03-1941",
	"HV-Dumbot-Kaur50-2023-01-17-0059",
	"HV-Dumbot-Mormor51-2023-05-11-0957",
	"HV-Quodlibet-Jewdoka-2018-10-10-0140",
	"HV-WeakBot-eebygum-2018-10-31-1613",
	"HV-blue1224-Dumbot-2016-04-02-1915",
	"T!HV-Eucalyx-Jewdoka-2020-12-12-1607",
	"T!HV-Jewdoka-Eucalyx-2020-12-12-1551",
	"T!HV-Jewdoka-Quodlibet-2019-10-03-0001",
	"T!HV-dube-Quodlibet-2021-12-11-1632",
	"U!HV-kearf29-Dumbot-2013-04-20-0054",
	"U!HV-nevir-Bechster-2016-03-29-1905",
};
#define NGAMES (sizeof games / sizeof games[0])

/* A whole file (malloc'd, NUL-terminated); NULL fails the test naming the path. */
static char *slurp(const char *name, const char *ext, size_t *len)
{
	char path[512];
	snprintf(path, sizeof path, RECORDS "/%s.%s", name, ext);
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		CU_FAIL("a record of tests/data/records is missing");
		return NULL;
	}
	char *buf = malloc(1 << 20);
	*len = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
	fclose(f);
	if (buf)
		buf[*len] = '\0';
	return buf;
}

static char *gamestring(const struct hive_game *g)
{
	size_t need = hive_game_format(g, NULL, 0);
	char *s = malloc(need + 1);
	hive_game_format(g, s, need + 1);
	return s;
}

/* The record as PGN (malloc'd). */
static char *pgn_of(const struct hive_record *r, enum hive_pgn_dialect d)
{
	size_t need = hive_record_write_pgn(r, d, NULL, 0);
	char *s = malloc(need + 1);
	CU_ASSERT_EQUAL(hive_record_write_pgn(r, d, s, need + 1), need);
	CU_ASSERT_EQUAL(strlen(s), need);
	return s;
}

/* Reads a text that must hold exactly one game. */
static int read_one(const char *text, size_t len, struct hive_record **v)
{
	size_t n = 0;
	char err[512];
	if (hive_records_read(text, len, v, &n, err, sizeof err) != 0) {
		fprintf(stderr, "refused: %s\n", err);
		return -1;
	}
	if (n != 1) {
		hive_records_free(*v, n);
		return -1;
	}
	return 0;
}

/* Every move of the game is one the core lists as legal where it is played. */
static int all_legal(const struct hive_game *g)
{
	struct hive_board b;
	hive_board_init(&b, g->type);
	for (size_t i = 0; i < g->len; i++) {
		struct hive_undo u;
		struct hive_move legal;
		if (!hive_board_find_move(&b, g->hist[i].move, &legal))
			return 0;
		hive_board_do(&b, legal, &u);
	}
	return 1;
}

static void test_sgf_and_pgn_agree(void)
{
	for (size_t i = 0; i < NGAMES; i++) {
		size_t lp, ls;
		char *pgn = slurp(games[i], "pgn", &lp), *sgf = slurp(games[i], "sgf", &ls);
		struct hive_record *p, *s;
		if (!pgn || !sgf || read_one(pgn, lp, &p) != 0) {
			CU_FAIL(games[i]);
			free(pgn);
			free(sgf);
			continue;
		}
		if (read_one(sgf, ls, &s) != 0) {
			fprintf(stderr, "%s.sgf does not read\n", games[i]);
			CU_FAIL("an SGF does not read");
			hive_records_free(p, 1);
			free(pgn);
			free(sgf);
			continue;
		}
		char *gp = gamestring(&p->game), *gs = gamestring(&s->game);
		CU_ASSERT(p->game.len > 20);
		CU_ASSERT_EQUAL(p->game.len, s->game.len);
		CU_ASSERT(hive_game_is_prefix(&p->game, &s->game) && hive_game_is_prefix(&s->game, &p->game));
		CU_ASSERT_STRING_EQUAL(gp, gs);
		CU_ASSERT(all_legal(&p->game) && all_legal(&s->game));
		CU_ASSERT_EQUAL(p->result, s->result);
		CU_ASSERT(p->result >= HIVE_DRAW);
		CU_ASSERT_STRING_EQUAL(hive_record_tag(p, "White"), hive_record_tag(s, "White"));
		CU_ASSERT_STRING_EQUAL(hive_record_tag(p, "Black"), hive_record_tag(s, "Black"));
		CU_ASSERT_STRING_EQUAL(hive_record_tag(p, "Date"), hive_record_tag(s, "Date"));
		if (strcmp(gp, gs) != 0)
			fprintf(stderr, "%s: pgn %s\n   sgf %s\n", games[i], gp, gs);
		free(gp);
		free(gs);
		hive_records_free(p, 1);
		hive_records_free(s, 1);
		free(pgn);
		free(sgf);
	}
}

/* round_trip's format beside the two PGN dialects. */
#define SGF (-1)

/* The record as SGF (malloc'd). */
static char *sgf_of(const struct hive_record *r)
{
	size_t need = hive_record_write_sgf(r, NULL, 0);
	char *s = malloc(need + 1);
	CU_ASSERT(need > 0);
	CU_ASSERT_EQUAL(hive_record_write_sgf(r, s, need + 1), need);
	CU_ASSERT_EQUAL(strlen(s), need);
	return s;
}

/* Writes r in a PGN dialect or as SGF and reads it back: the same game, result,
 * players and date (SGF: names "White" and "Black" where none; no comments). */
static void round_trip(const struct hive_record *r, int how)
{
	char *text = how == SGF ? sgf_of(r) : pgn_of(r, (enum hive_pgn_dialect)how);
	size_t need = strlen(text);
	struct hive_record *back;
	CU_ASSERT_EQUAL(hive_record_detect(text, need), how == SGF ? HIVE_RECORD_SGF : HIVE_RECORD_PGN);
	if (read_one(text, need, &back) != 0) {
		fprintf(stderr, "%s\n", text);
		CU_FAIL("written record does not read back");
		free(text);
		return;
	}
	char *a = gamestring(&r->game), *b = gamestring(&back->game);
	CU_ASSERT_STRING_EQUAL(a, b);
	CU_ASSERT_EQUAL(r->result, back->result);
	for (int p = 0; p < 2; p++) {
		const char *n1 = hive_record_tag(r, p ? "Black" : "White"), *n2 = hive_record_tag(back, p ? "Black" : "White");
		char name[HIVE_RECORD_MAX_TEXT];
		if (how == SGF) {
			snprintf(name, sizeof name, "%s", n1 && *n1 ? n1 : p ? "Black" : "White");
			for (char *q = name; (q = strchr(q, '"')); )
				*q = '\'';
			n1 = name;
		}
		CU_ASSERT((n1 == NULL) == (n2 == NULL));
		if (n1 && n2)
			CU_ASSERT_STRING_EQUAL(n1, n2);
	}
	char d1[11], d2[11];
	if (how != SGF || hive_record_tag(r, "Date"))
		CU_ASSERT(hive_record_date(hive_record_tag(r, "Date"), d1) == 0 &&
			  hive_record_date(hive_record_tag(back, "Date"), d2) == 0 && !strcmp(d1, d2));
	for (size_t i = 0; how != SGF && i < r->game.len; i++) {
		const char *c1 = r->comments ? r->comments[i] : NULL, *c2 = back->comments ? back->comments[i] : NULL;
		CU_ASSERT((c1 == NULL) == (c2 == NULL));
		if (c1 && c2)
			CU_ASSERT_STRING_EQUAL(c1, c2);
	}
	free(a);
	free(b);
	hive_records_free(back, 1);
	free(text);
}

static void test_write_read_back(void)
{
	for (size_t i = 0; i < NGAMES; i++) {
		for (int ext = 0; ext < 2; ext++) {
			size_t len;
			char *text = slurp(games[i], ext ? "sgf" : "pgn", &len);
			struct hive_record *r;
			if (!text || read_one(text, len, &r) != 0) {
				CU_FAIL(games[i]);
				free(text);
				continue;
			}
			round_trip(r, HIVE_PGN_MZINGA);
			round_trip(r, HIVE_PGN_HIVEGAME);
			round_trip(r, SGF);
			hive_records_free(r, 1);
			free(text);
		}
	}
}

static void test_sgf_written(void)
{
	/* Results the board does not show: a resignation, an accepted draw, none; names
	 * with SGF's special bytes; the game type's letters in SU. */
	static const int results[] = { HIVE_WHITE_WINS, HIVE_BLACK_WINS, HIVE_DRAW, HIVE_IN_PROGRESS };
	struct hive_move moves[HIVE_MAX_MOVES];
	for (size_t k = 0; k < sizeof results / sizeof results[0]; k++) {
		struct hive_record r;
		hive_record_init(&r, k == 3 ? 0 : HIVE_EXP_M | HIVE_EXP_P);
		CU_ASSERT_EQUAL(hive_record_set_tag(&r, "White", "a]b\\c"), 0);
		for (int i = 0; i < 9 + (int)k; i++) {
			size_t n = hive_board_moves(&r.game.board, moves);
			CU_ASSERT_FATAL(n > 0);
			CU_ASSERT_EQUAL(hive_record_play(&r, moves[(i * 5) % n], NULL), HIVE_OK);
		}
		r.result = results[k];
		round_trip(&r, SGF);
		char text[8192];
		CU_ASSERT(hive_record_write_sgf(&r, text, sizeof text) < sizeof text);
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "P0[id \"a\\]b\\\\c\"]"));
		CU_ASSERT_PTR_NOT_NULL(strstr(text, k == 3 ? "SU[Hive]" : "SU[Hive-PM]"));
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "; P0[1 Move W "));
		CU_ASSERT((strstr(text, "Resign]") != NULL) == (k < 2));
		CU_ASSERT((strstr(text, "AcceptDraw]") != NULL) == (k == 2));
		hive_record_free(&r);
	}
}

/* A match's record: moves played with comments as `match --pgnout` will write them. */
static void test_comments(void)
{
	struct hive_record r;
	struct hive_move moves[HIVE_MAX_MOVES];
	char note[64];

	hive_record_init(&r, HIVE_EXP_M | HIVE_EXP_L | HIVE_EXP_P);
	CU_ASSERT_EQUAL(hive_record_set_tag(&r, "White", "builtin \"depth=2\""), 0);
	CU_ASSERT_EQUAL(hive_record_set_tag(&r, "Black", "uhp:nokamute"), 0);
	CU_ASSERT_EQUAL(hive_record_set_tag(&r, "Date", "2026.11.27"), 0);
	CU_ASSERT_EQUAL(hive_record_set_tag(&r, "TimeControl", "60+1"), 0);
	CU_ASSERT_EQUAL(hive_record_set_tag(&r, "White", "builtin \"depth=3\""), 0);
	CU_ASSERT_STRING_EQUAL(hive_record_tag(&r, "White"), "builtin \"depth=3\"");
	for (int i = 0; i < 12; i++) {
		size_t n = hive_board_moves(&r.game.board, moves);
		CU_ASSERT_FATAL(n > 0);
		snprintf(note, sizeof note, "%dms score %d depth %d }{", 10 * i, i - 6, i % 4);
		CU_ASSERT_EQUAL(hive_record_play(&r, moves[(i * 7) % n], i % 3 ? note : NULL), HIVE_OK);
	}
	char *text = pgn_of(&r, HIVE_PGN_MZINGA);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "[White \"builtin \\\"depth=3\\\"\"]\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "[TimeControl \"60+1\"]\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n2. "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, " {10ms score -5 depth 1 ){}\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n\nInProgress\n"));
	free(text);
	/* Comments as written read back; as written, "}{" cannot survive inside one. */
	for (int i = 0; i < 12; i++)
		if (r.comments[i])
			strstr(r.comments[i], "}{")[0] = ')';
	round_trip(&r, HIVE_PGN_MZINGA);
	round_trip(&r, HIVE_PGN_HIVEGAME);
	round_trip(&r, SGF);
	hive_record_free(&r);
}

/* The PGN of the first game with its 20th ply replaced: what reading it says. */
static int read_broken(const char *pgn, size_t len, char *err, size_t errlen)
{
	struct hive_record *v = (struct hive_record *)&v;
	size_t n = 99;
	int rc = hive_records_read(pgn, len, &v, &n, err, errlen);
	CU_ASSERT(rc != 0 && v == NULL && n == 0);  /* nothing half-read comes back */
	return rc;
}

/* The line number of the text's first line starting with "prefix". */
static size_t line_of(const char *text, const char *prefix)
{
	size_t line = 1;
	for (const char *p = text; *p; p++) {
		if ((p == text || p[-1] == '\n') && !strncmp(p, prefix, strlen(prefix)))
			return line;
		if (*p == '\n')
			line++;
	}
	return 0;
}

static void test_broken_records(void)
{
	size_t len;
	char *pgn = slurp(games[0], "pgn", &len), err[512], want[64];
	if (!pgn)
		return;
	size_t line20 = line_of(pgn, "20. ");
	CU_ASSERT_FATAL(line20 > 0);

	/* Ply 20 is Black's: White's 19th move there is illegal. */
	char *bad = malloc(2 * len + 64);
	char *at = strstr(pgn, "\n20. ") + 1, *eol = strchr(at, '\n');
	char *p19 = strstr(pgn, "\n19. ") + 5, *eol19 = strchr(p19, '\n');
	int k = snprintf(bad, 2 * len + 64, "%.*s20. %.*s%s", (int)(at - pgn), pgn, (int)(eol19 - p19), p19, eol);
	CU_ASSERT_EQUAL(read_broken(bad, (size_t)k, err, sizeof err), -1);
	snprintf(want, sizeof want, "ply 20 at line %zu: \"wS2 wB1\\\"", line20);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "game 1 (Abbo69 vs WeakBot, line 1)"));
	if (!strstr(err, want))
		fprintf(stderr, "illegal: %s\n", err);

	/* Cut short after the 20th ply's piece, and inside a comment. */
	k = snprintf(bad, 2 * len + 64, "%.*s20. bS1", (int)(at - pgn), pgn);
	CU_ASSERT_EQUAL(read_broken(bad, (size_t)k, err, sizeof err), -1);
	snprintf(want, sizeof want, "ply 20 at line %zu: \"bS1\" has no position", line20);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
	k = snprintf(bad, 2 * len + 64, "%.*s20. bS1 wQ/ {12ms", (int)(at - pgn), pgn);
	CU_ASSERT_EQUAL(read_broken(bad, (size_t)k, err, sizeof err), -1);
	snprintf(want, sizeof want, "line %zu: a comment \"{\" is not closed", line20);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));

	/* Not UTF-8 on the 20th ply's line. */
	memcpy(bad, pgn, len);
	bad[at - pgn + 1] = (char)0xC3;
	bad[at - pgn + 2] = '(';
	CU_ASSERT_EQUAL(read_broken(bad, len, err, sizeof err), -1);
	snprintf(want, sizeof want, "line %zu is not UTF-8", line20);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));

	/* A second game that fails gives back nothing of the first either. */
	k = snprintf(bad, 2 * len + 64, "%s\n%.*s20. bS1", pgn, (int)(at - pgn), pgn);
	CU_ASSERT_EQUAL(read_broken(bad, (size_t)k, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "game 2 (Abbo69 vs WeakBot"));

	/* The SGF cut short, and with an illegal 20th ply (a placement far from the hive). */
	char *sgf = slurp(games[0], "sgf", &len);
	CU_ASSERT_FATAL(sgf != NULL);
	CU_ASSERT_EQUAL(read_broken(sgf, len / 2, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "cut short"));
	char *drop = strstr(sgf, "P1[49 move B bS1 Q 16 wQ/]");
	CU_ASSERT_FATAL(drop != NULL);
	memcpy(drop + 17, "A 1", 3);
	size_t sline = line_of(sgf, "; P1[49 ");
	CU_ASSERT_EQUAL(read_broken(sgf, len, err, sizeof err), -1);
	snprintf(want, sizeof want, "ply 20 at line %zu: BoardSpace's \"49 move B bS1 A 1", sline);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
	if (!strstr(err, want))
		fprintf(stderr, "sgf: %s\n", err);
	free(sgf);

	/* Past the caps. */
	size_t big = HIVE_RECORD_MAX_BYTES + 1;
	char *huge = malloc(big);
	memset(huge, ' ', big);
	CU_ASSERT_EQUAL(read_broken(huge, big, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "larger than"));
	size_t n = 0;
	for (int i = 0; i <= HIVE_RECORD_MAX_GAMES; i++)
		n += (size_t)snprintf(huge + n, 16, "Base\n");
	CU_ASSERT_EQUAL(read_broken(huge, n, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "more than"));
	free(huge);
	free(bad);
	free(pgn);
}

/* hivegame.com: move pairs, 1-0 results, its Date; written back in both dialects. */
static void test_hivegame_dialect(void)
{
	static const char text[] =
		"[GameType \"Base+MLP\"]\n"
		"[Date \"28-Oct-2018_20:07:42\"]\n"
		"[Site \"hivegame.com\"]\n"
		"[White \"alice\"]\n"
		"[Black \"bob\"]\n"
		"[Result \"0-1\"]\n"
		"\n"
		"1. wS1 bL /wS1\n"
		"2. wA1 \\wS1 bB1 -bL\n"
		"3. wQ wS1- bS1 /bL\n"
		"4. wP \\wQ bQ -bS1\n"
		"0-1\n";
	struct hive_record *r;
	char gs[512], date[11];

	CU_ASSERT_EQUAL(hive_record_detect(text, sizeof text - 1), HIVE_RECORD_PGN);
	CU_ASSERT_EQUAL_FATAL(read_one(text, sizeof text - 1, &r), 0);
	hive_game_format(&r->game, gs, sizeof gs);
	CU_ASSERT_STRING_EQUAL(gs, "Base+MLP;InProgress;White[5];wS1;bL /wS1;wA1 \\wS1;bB1 -bL;wQ wS1-;"
			       "bS1 bB1\\;wP \\wQ;bQ /bB1");
	CU_ASSERT_EQUAL(r->result, HIVE_BLACK_WINS);
	CU_ASSERT_EQUAL(hive_record_date(hive_record_tag(r, "Date"), date), 0);
	CU_ASSERT_STRING_EQUAL(date, "2018.10.28");

	char *out = pgn_of(r, HIVE_PGN_HIVEGAME);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "[Date \"28-Oct-2018_20:07:42\"]\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "[Result \"0-1\"]\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n2. wA1 \\wS1 bB1 -bL\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n\n0-1\n"));
	free(out);
	out = pgn_of(r, HIVE_PGN_MZINGA);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "[Date \"2018.10.28\"]\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "[Result \"BlackWins\"]\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n3. wA1 \\wS1\n4. bB1 -bL\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n\nBlackWins\n"));
	free(out);
	hive_records_free(r, 1);

	/* 1/2-1/2 and 1-0 as tags or as the movetext's last word. */
	static const char *const draws[] = { "[Result \"1/2-1/2\"]\n\n1. wS1\n", "1. wS1 1/2-1/2\n", "1.wS1 2...bS1 wS1- Draw" };
	for (size_t i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL_FATAL(read_one(draws[i], strlen(draws[i]), &r), 0);
		CU_ASSERT_EQUAL(r->result, HIVE_DRAW);
		hive_records_free(r, 1);
	}
	/* A resignation: the result said, the board going on. */
	static const char resigned[] = "[Result \"0-1\"]\n\n1. wS1";
	CU_ASSERT_EQUAL_FATAL(read_one(resigned, sizeof resigned - 1, &r), 0);
	CU_ASSERT_EQUAL(r->result, HIVE_BLACK_WINS);
	hive_records_free(r, 1);
	/* A result the moves contradict is refused. */
	size_t len, n;
	char *pgn = slurp(games[0], "pgn", &len), err[512];
	struct hive_record *v;
	CU_ASSERT_FATAL(pgn != NULL);
	memcpy(strstr(pgn, "[Result \"WhiteWins\"]") + 9, "BlackWins", 9);
	CU_ASSERT_EQUAL(hive_records_read(pgn, len, &v, &n, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "line 45: the Result tag says BlackWins but the movetext WhiteWins"));
	memcpy(strstr(pgn, "\nWhiteWins") + 1, "BlackWins", 9);
	CU_ASSERT_EQUAL(hive_records_read(pgn, len, &v, &n, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "the record says BlackWins but the moves give WhiteWins"));
	free(pgn);
}

static void test_gamestrings_and_detection(void)
{
	static const char gs_bad[] = "Base;InProgress;White[2];wS1;bQ wQ-\n";
	static const char sgf_gm[] = "(;GM[1]SU[hive];P0[1 Pick W 1 wA1])", sgf_su[] = "(;GM[27]SU[hive-ultimate])";
	static const char text[] = "\xEF\xBB\xBF# openings\n\nBase;InProgress;White[2];wS1;bS1 wS1-\n  Base+M  \n";
	struct hive_record *v;
	size_t n;
	char err[256];

	CU_ASSERT_EQUAL(hive_record_detect(text, sizeof text - 1), HIVE_RECORD_GAMESTRING);
	CU_ASSERT_EQUAL_FATAL(hive_records_read(text, sizeof text - 1, &v, &n, err, sizeof err), 0);
	CU_ASSERT_EQUAL(n, 2);
	CU_ASSERT_EQUAL(v[0].game.len, 2);
	CU_ASSERT_EQUAL(v[0].line, 3);
	CU_ASSERT_EQUAL(v[1].game.type, HIVE_EXP_M);
	hive_records_free(v, n);
	CU_ASSERT_EQUAL(hive_records_read(gs_bad, strlen(gs_bad), &v, &n, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "game 1 (line 1), line 1: Unable to play move 2"));
	CU_ASSERT_EQUAL(hive_record_detect(" (;GM[27]", 9), HIVE_RECORD_SGF);
	CU_ASSERT_EQUAL(hive_record_detect("\n\n[GameType \"Base\"]", 19), HIVE_RECORD_PGN);
	CU_ASSERT_EQUAL(hive_record_detect("1. wS1", 6), HIVE_RECORD_PGN);
	CU_ASSERT_EQUAL(hive_record_detect("hello", 5), HIVE_RECORD_UNKNOWN);
	CU_ASSERT_EQUAL(hive_records_read("hello", 5, &v, &n, err, sizeof err), -1);
	CU_ASSERT_EQUAL(hive_records_read("  \n", 3, &v, &n, err, sizeof err), -1);
	CU_ASSERT_EQUAL(hive_records_read(sgf_gm, strlen(sgf_gm), &v, &n, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not a Hive record"));
	CU_ASSERT_EQUAL(hive_records_read(sgf_su, strlen(sgf_su), &v, &n, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not one the core plays"));

	/* Dates as the three formats write them. */
	static const char *const dates[][2] = {
		{ "2018.10.28", "2018.10.28" }, { "28 October 2018", "2018.10.28" },
		{ "October 2, 2019", "2019.10.02" }, { "Fri Apr 19 19:54:39 CDT 2013", "2013.04.19" },
		{ "28-Oct-2018_20:07:00", "2018.10.28" },
	};
	char d[11];
	for (size_t i = 0; i < sizeof dates / sizeof dates[0]; i++) {
		CU_ASSERT_EQUAL(hive_record_date(dates[i][0], d), 0);
		CU_ASSERT_STRING_EQUAL(d, dates[i][1]);
	}
	CU_ASSERT_EQUAL(hive_record_date("????.??.??", d), -1);
}

static const struct unit_test tests[] = {
	{ "13 real games: SGF and PGN agree, every move legal", test_sgf_and_pgn_agree },
	{ "PGN written in both dialects and SGF read back", test_write_read_back },
	{ "per-move comments and tags written", test_comments },
	{ "SGF: a result the board does not show, names, game types", test_sgf_written },
	{ "illegal 20th ply, cut short, not UTF-8: refused with ply and line", test_broken_records },
	{ "hivegame.com's dialect", test_hivegame_dialect },
	{ "GameString lines, detection, dates", test_gamestrings_and_detection },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "record",
	.tests = tests,
};
