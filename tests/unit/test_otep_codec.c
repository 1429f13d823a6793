/*
 * test_otep_codec.c: the OTEP codec with Hive contents (docs/otep-hive.md). Every
 * message in both directions parses and rewrites to the same bytes; the fields come
 * out right; bad input (overlong, unknown command, wrong direction, missing fields,
 * bad numbers, bad moves) fails with a reason that says what was expected; the
 * writers refuse what would not read back; random games round-trip through the
 * host's lines and the core (otep_hive.c).
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/otep/otep_codec.h"
#include "adapters/otep/otep_hive.h"
#include "tests/unit/testutil.h"
#include "tests/unit/unit.h"

#define H OTEP_FROM_HOST
#define E OTEP_FROM_ENGINE

static int parse(const char *line, enum otep_from from, struct otep_msg *m, char *err, size_t errlen)
{
	return otep_msg_parse(line, strlen(line), from, m, err, errlen);
}

/* Every command, each direction it travels, in its canonical form. */
static const struct {
	enum otep_from from;
	const char    *line;
	enum otep_cmd  cmd;
} canon[] = {
	{ E, "hello", OTEP_HELLO },
	{ H, "hello", OTEP_HELLO },
	{ E, "simple-moves on", OTEP_SIMPLE_MOVES },
	{ E, "simple-moves off", OTEP_SIMPLE_MOVES },
	{ H, "rules Base+MLP", OTEP_RULES },
	{ H, "rules Base", OTEP_RULES },
	{ E, "rules", OTEP_RULES },
	{ E, "rules Base+M", OTEP_RULES },
	{ H, "position Base+MLP;InProgress;White[3];wS1;bS1_wS1-;wQ_-wS1;bQ_bS1-", OTEP_POSITION },
	{ H, "position Base+MLP", OTEP_POSITION },
	{ E, "position", OTEP_POSITION },
	{ H, "side white", OTEP_SIDE },
	{ H, "side black", OTEP_SIDE },
	{ E, "side", OTEP_SIDE },
	{ E, "side black", OTEP_SIDE },
	{ H, "clock 300000 295500", OTEP_CLOCK },
	{ H, "clock 300000 295500 0 0 0", OTEP_CLOCK },
	{ H, "clock 12000* 4000 30 2 3", OTEP_CLOCK },
	{ H, "clock 0 0* 10 0 0", OTEP_CLOCK },
	{ E, "clock", OTEP_CLOCK },
	{ H, "analyze 3 10", OTEP_ANALYZE },
	{ E, "analysis 1 wA1_\\wQ 0.26", OTEP_ANALYSIS },
	{ E, "analysis 2 wA1_\\wQ|bA1_\\bQ|wA1_bA1/ 0.48 wS2_\\wS1 -1.5", OTEP_ANALYSIS },
	{ E, "analysis 1 pass 0", OTEP_ANALYSIS },
	{ E, "analysis 1 bQ_bS1\\ 299.95", OTEP_ANALYSIS },
	{ H, "play white", OTEP_PLAY },
	{ H, "play black", OTEP_PLAY },
	{ E, "move wQ_-wS1", OTEP_MOVE },
	{ E, "move wS1", OTEP_MOVE },
	{ E, "move pass", OTEP_MOVE },
	{ E, "move bQ_bS1\\", OTEP_MOVE },
	{ E, "move wB1_bQ", OTEP_MOVE },
	{ H, "move Base+MLP;InProgress;Black[2];wS1;bS1_wS1-;wQ_-wS1", OTEP_MOVE },
	{ H, "move Base;WhiteWins;Black[12];wS1", OTEP_MOVE },
	{ H, "opponent-move bS1_wS1- Base+MLP;InProgress;White[2];wS1;bS1_wS1-", OTEP_OPPONENT_MOVE },
	{ H, "opponent-move - Base+MLP;NotStarted;White[1]", OTEP_OPPONENT_MOVE },
	{ H, "opponent-move wQ|bQ Base;InProgress;White[2];wQ;bQ_wQ-", OTEP_OPPONENT_MOVE },
	{ H, "error 1", OTEP_ERROR },
	{ H, "error 2", OTEP_ERROR },
	{ H, "error 3", OTEP_ERROR },
	{ H, "error 4", OTEP_ERROR },
	{ E, "error -1 out of memory: the engine stops", OTEP_ERROR },
	{ E, "error 0 opening book missing, playing without it", OTEP_ERROR },
	{ E, "error 0", OTEP_ERROR },
	{ H, "finish 0", OTEP_FINISH },
	{ H, "finish 1", OTEP_FINISH },
	{ H, "finish 2", OTEP_FINISH },
	{ H, "finish 3", OTEP_FINISH },
	{ H, "goodbye", OTEP_GOODBYE },
	{ E, "status", OTEP_STATUS },
	{ E, "status depth 6 nodes 26390 pv wA1 \\wQ; \"quoted\" = kept", OTEP_STATUS },
};

static void test_every_message(void)
{
	for (size_t i = 0; i < sizeof canon / sizeof canon[0]; i++) {
		struct otep_msg m, again;
		char err[256], out[512], out2[512];
		char why[128] = "";
		int rc = parse(canon[i].line, canon[i].from, &m, err, sizeof err);
		if (rc != 0)
			fprintf(stderr, "\n  [%s]: %s\n", canon[i].line, err);
		CU_ASSERT_EQUAL_FATAL(rc, 0);
		CU_ASSERT_EQUAL(m.cmd, canon[i].cmd);
		CU_ASSERT_EQUAL(m.from, canon[i].from);
		int n = otep_msg_format(&m, out, sizeof out, why, sizeof why);
		if (n < 0 || strcmp(out, canon[i].line) != 0)
			fprintf(stderr, "\n  [%s] rewrote as [%s] (%s)\n", canon[i].line, out, why);
		CU_ASSERT_EQUAL(n, (int)strlen(canon[i].line));
		CU_ASSERT_STRING_EQUAL(out, canon[i].line);
		/* with a CR LF, and extra blanks between tokens (not inside free text) */
		snprintf(out2, sizeof out2, "%s\r\n", canon[i].line);
		CU_ASSERT_EQUAL_FATAL(parse(out2, canon[i].from, &again, err, sizeof err), 0);
		CU_ASSERT_EQUAL(otep_msg_format(&again, out2, sizeof out2, NULL, 0), n);
		CU_ASSERT_STRING_EQUAL(out2, canon[i].line);
		otep_msg_free(&again);
		otep_msg_free(&m);
		otep_msg_free(&m);   /* twice is harmless */
	}
}

static void test_fields(void)
{
	struct otep_msg m;
	char err[256];

	CU_ASSERT_EQUAL_FATAL(parse("  position\tBase+MLP;InProgress;White[2];wS1;bS1_wS1-  ", H, &m, err, sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(m.text, "Base+MLP;InProgress;White[2];wS1;bS1 wS1-");
	otep_msg_free(&m);

	CU_ASSERT_EQUAL_FATAL(parse("position", E, &m, err, sizeof err), 0);
	CU_ASSERT_PTR_NULL(m.text);
	otep_msg_free(&m);

	CU_ASSERT_EQUAL_FATAL(parse("rules Base+LP", H, &m, err, sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(m.text, "Base+LP");
	otep_msg_free(&m);

	CU_ASSERT_EQUAL_FATAL(parse("play black", H, &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(m.side, OTEP_BLACK);
	CU_ASSERT_TRUE(m.has_side);
	otep_msg_free(&m);

	CU_ASSERT_EQUAL_FATAL(parse("simple-moves off", E, &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(m.flag, 0);
	otep_msg_free(&m);

	CU_ASSERT_EQUAL_FATAL(parse("clock 12000* 4000 30 2 3", H, &m, err, sizeof err), 0);
	CU_ASSERT_TRUE(m.has_clock);
	CU_ASSERT_EQUAL(m.clock.ms[0], 12000);
	CU_ASSERT_EQUAL(m.clock.ms[1], 4000);
	CU_ASSERT_EQUAL(m.clock.in_overtime[0], 1);
	CU_ASSERT_EQUAL(m.clock.in_overtime[1], 0);
	CU_ASSERT_EQUAL(m.clock.has_overtime, 1);
	CU_ASSERT_EQUAL(m.clock.overtime_s, 30);
	CU_ASSERT_EQUAL(m.clock.overtimes[0], 2);
	CU_ASSERT_EQUAL(m.clock.overtimes[1], 3);
	otep_msg_free(&m);

	CU_ASSERT_EQUAL_FATAL(parse("clock 1 2", H, &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(m.clock.has_overtime, 0);
	otep_msg_free(&m);

	CU_ASSERT_EQUAL_FATAL(parse("analyze 3 10", H, &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(m.number, 3);
	CU_ASSERT_EQUAL(m.seconds, 10);
	otep_msg_free(&m);

	CU_ASSERT_EQUAL_FATAL(parse("analysis 2 wA1_\\wQ|bA1_\\bQ|wA1_bA1/ 0.48 wS2_\\wS1 -1.5", E, &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL_FATAL(m.nlines, 2);
	CU_ASSERT_EQUAL_FATAL(m.lines[0].n, 3);
	CU_ASSERT_STRING_EQUAL(m.lines[0].moves[0], "wA1 \\wQ");
	CU_ASSERT_STRING_EQUAL(m.lines[0].moves[1], "bA1 \\bQ");
	CU_ASSERT_STRING_EQUAL(m.lines[0].moves[2], "wA1 bA1/");
	CU_ASSERT_EQUAL(m.lines[0].eval_cp, 48);
	CU_ASSERT_EQUAL_FATAL(m.lines[1].n, 1);
	CU_ASSERT_STRING_EQUAL(m.lines[1].moves[0], "wS2 \\wS1");
	CU_ASSERT_EQUAL(m.lines[1].eval_cp, -150);
	otep_msg_free(&m);

	CU_ASSERT_EQUAL_FATAL(parse("move bQ_bS1\\", E, &m, err, sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(m.text, "bQ bS1\\");
	otep_msg_free(&m);

	/* UHP's sloppy forms survive the trip: case and extra spaces are the core's to judge */
	CU_ASSERT_EQUAL_FATAL(parse("move wq__-WS1", E, &m, err, sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(m.text, "wq  -WS1");
	otep_msg_free(&m);

	CU_ASSERT_EQUAL_FATAL(parse("opponent-move - Base+MLP", H, &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL_FATAL(m.nlines, 1);
	CU_ASSERT_EQUAL(m.lines[0].n, 0);
	CU_ASSERT_STRING_EQUAL(m.text, "Base+MLP");
	otep_msg_free(&m);

	CU_ASSERT_EQUAL_FATAL(parse("error 2", H, &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(m.code, OTEP_ERR_ILLEGAL);
	CU_ASSERT_PTR_NULL(m.text);
	otep_msg_free(&m);

	CU_ASSERT_EQUAL_FATAL(parse("error -1   no  memory \r\n", E, &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(m.code, OTEP_ERR_CRITICAL);
	CU_ASSERT_STRING_EQUAL(m.text, "no  memory ");
	otep_msg_free(&m);

	CU_ASSERT_EQUAL_FATAL(parse("status  searching\tdepth 5\r", E, &m, err, sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(m.text, "searching\tdepth 5");
	otep_msg_free(&m);

	/* a CR inside free text reads as a space, as the writer would write it */
	CU_ASSERT_EQUAL_FATAL(parse("status a\rb", E, &m, err, sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(m.text, "a b");
	otep_msg_free(&m);

	CU_ASSERT_EQUAL_FATAL(parse("finish 3", H, &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(m.code, OTEP_FINISH_BLACK);
	otep_msg_free(&m);
}

/* Asserts that line (sent by from) fails with a reason containing want. */
static void expect_error(enum otep_from from, const char *line, const char *want)
{
	struct otep_msg m;
	char err[512];
	int rc = parse(line, from, &m, err, sizeof err);
	CU_ASSERT_EQUAL(rc, -1);
	if (rc != -1 || strstr(err, want) == NULL)
		fprintf(stderr, "\n  line [%s]: rc %d, err [%s], wanted [%s]\n", line, rc, err, want);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
	CU_ASSERT_PTR_NULL(m.buf);
	CU_ASSERT_PTR_NULL(m.lines);
	otep_msg_free(&m);
}

static void test_bad_input(void)
{
	/* empty, unknown, wrong direction, case */
	expect_error(H, "", "empty line (expected a command)");
	expect_error(H, " \t\r\n", "empty line");
	expect_error(H, "newgame Base", "unknown command 'newgame' (the host sends hello, rules, position,");
	expect_error(E, "bestmove", "unknown command 'bestmove' (the engine sends hello, simple-moves,");
	expect_error(H, "PLAY white", "unknown command 'PLAY'");
	expect_error(E, "play white", "'play' is sent by the host, not by the engine");
	expect_error(H, "analysis 1 wQ 0", "'analysis' is sent by the engine, not by the host");
	expect_error(H, "status hi", "'status' is sent by the engine");
	expect_error(E, "goodbye", "'goodbye' is sent by the host");
	expect_error(H, "simple-moves on", "'simple-moves' is sent by the engine");
	expect_error(E, "opponent-move wQ Base", "sent by the host");
	/* bytes a line cannot hold */
	{
		struct otep_msg m;
		char err[256];
		CU_ASSERT_EQUAL(otep_msg_parse("hello\0x", 7, E, &m, err, sizeof err), -1);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "NUL byte at column 6"));
		otep_msg_free(&m);
		CU_ASSERT_EQUAL(otep_msg_parse("hello\nhello", 11, E, &m, err, sizeof err), -1);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "LF byte at column 6"));
		otep_msg_free(&m);
	}
	/* missing fields */
	expect_error(H, "rules", "rules: missing a GameTypeString at column 6");
	expect_error(H, "position", "position: missing a GameString");
	expect_error(H, "side", "side: missing a side (white or black)");
	expect_error(H, "play", "play: missing a side (white or black)");
	expect_error(H, "clock", "clock: missing White's milliseconds");
	expect_error(H, "clock 1000", "clock: missing Black's milliseconds");
	expect_error(H, "clock 1 2 30", "clock: missing White's overtime periods left");
	expect_error(H, "clock 1 2 30 1", "clock: missing Black's overtime periods left");
	expect_error(H, "clock 1* 2", "'*' (in overtime) needs the three overtime fields");
	expect_error(H, "analyze 3", "analyze: missing the seconds");
	expect_error(E, "analysis", "analysis: missing the number of move lists");
	expect_error(E, "analysis 2 wQ 0.1", "analysis: missing a move list");
	expect_error(E, "analysis 1 wQ", "analysis: missing an evaluation");
	expect_error(E, "move", "move: missing a MoveString");
	expect_error(H, "move", "move: missing a GameString");
	expect_error(H, "opponent-move", "opponent-move: missing a move list");
	expect_error(H, "opponent-move wQ", "opponent-move: missing a GameString");
	expect_error(H, "error", "error: missing an error code (1 wrong side, 2 illegal move");
	expect_error(E, "error", "error: missing an error code (-1 critical, 0 non-critical)");
	expect_error(H, "finish", "finish: missing a finish code (0 aborted, 1 draw, 2 White wins, 3 Black wins)");
	expect_error(E, "simple-moves", "simple-moves: missing on or off");
	/* too much */
	expect_error(E, "hello there", "hello: unexpected 'there' at column 7 (nothing follows)");
	expect_error(H, "play white now", "unexpected 'now'");
	expect_error(E, "move wQ_-wS1 bS1", "unexpected 'bS1'");
	expect_error(E, "move wQ -wS1", "unexpected '-wS1' at column 9");   /* the space is not written '_' */
	expect_error(H, "clock 1 2 3 4 5 6", "unexpected '6'");
	expect_error(E, "analysis 1 wQ 0 bQ 1", "more than the 1 move lists announced");
	/* bad words and numbers */
	expect_error(H, "side attackers", "side: expected a side (white or black) at column 6, got 'attackers'");
	expect_error(H, "play defenders", "got 'defenders'");
	expect_error(H, "play White", "got 'White'");
	expect_error(E, "simple-moves yes", "expected on or off");
	expect_error(H, "rules Base+X", "'Base+X' is not a GameTypeString");
	expect_error(H, "rules brandubh", "not a GameTypeString");
	expect_error(H, "position Tafl;InProgress", "'Tafl' is not a GameTypeString");
	expect_error(H, "position ;InProgress", "does not start with a GameTypeString");
	expect_error(H, "move base;move;;|\xff", "'|' joins moves of a list");   /* found by fuzz_otep */
	expect_error(H, "clock -5 100", "expected White's milliseconds");
	expect_error(H, "clock 5x 100", "got '5x'");
	expect_error(H, "clock 1 99999999999999999999999", "expected Black's milliseconds");
	expect_error(H, "clock 1 2 -3 0 0", "the overtime period in seconds (an integer from 0 to");
	expect_error(H, "clock 1 2** 3 0 0", "got '2**'");
	expect_error(H, "analyze 0 10", "the number of moves (an integer from 1 to 64)");
	expect_error(H, "analyze 65 10", "from 1 to 64");
	expect_error(H, "analyze 3 ten", "expected the seconds");
	expect_error(E, "analysis 0", "the number of move lists (an integer from 1 to 64)");
	expect_error(E, "analysis x wQ 0", "expected the number of move lists");
	expect_error(E, "analysis 1 wQ high", "expected an evaluation (pawns");
	expect_error(E, "analysis 1 wQ 1e3", "got '1e3'");
	expect_error(E, "analysis 1 wQ .5", "got '.5'");
	expect_error(E, "analysis 1 wQ 5.", "got '5.'");
	expect_error(E, "analysis 1 wQ 99999999999", "expected an evaluation");
	expect_error(H, "finish 4", "from 0 to 3");
	expect_error(H, "finish -1", "finish code");
	expect_error(H, "error 0 oops", "an error code (1 wrong side");      /* the engine's code */
	expect_error(E, "error 2", "an error code (-1 critical, 0 non-critical)");   /* the host's code */
	expect_error(E, "error x", "got 'x'");
	/* bad moves */
	expect_error(E, "move wX", "'wX' is not a piece");
	expect_error(E, "move wQ1", "'wQ1' is not a piece");
	expect_error(E, "move wS3", "is not a piece");
	expect_error(E, "move wQ_-wS1-", "'-wS1-' is not a reference");
	expect_error(E, "move wQ_-", "is not a reference");
	expect_error(E, "move wQ_wS1_bS1", "more than a piece and a reference");
	expect_error(E, "move _", "empty");
	expect_error(E, "move a4-a1", "not a piece");                        /* tafl notation */
	expect_error(E, "move pass_wQ", "'pass' is not a piece");
	expect_error(E, "move wQ\x01", "control byte 0x01");
	expect_error(E, "analysis 1 wQ||bQ 0", "move 2 '' is not a MoveString: empty");
	expect_error(E, "analysis 1 wQ|bZ 0", "move 2 'bZ' is not a MoveString");
	expect_error(E, "analysis 1 - 0", "an empty list is not allowed here");
	expect_error(H, "opponent-move wQ| Base", "move 2 '' is not a MoveString");
	expect_error(H, "opponent-move a4-a1 Base", "move 1 'a4-a1' is not a MoveString");
}

static void test_overlong(void)
{
	struct otep_msg m;
	char err[256];
	size_t n = OTEP_LINE_MAX + 1;
	char *line = malloc(n + 2);
	CU_ASSERT_FATAL(line != NULL);
	memcpy(line, "status ", 7);
	memset(line + 7, 'x', n - 7);
	CU_ASSERT_EQUAL(otep_msg_parse(line, n, E, &m, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "line of 65537 bytes is longer than the limit of 65536"));
	otep_msg_free(&m);
	/* exactly at the bound, with its CR LF: fine */
	line[n - 1] = '\r';
	line[n] = '\n';
	CU_ASSERT_EQUAL(otep_msg_parse(line, n + 1, E, &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(strlen(m.text), OTEP_LINE_MAX - 7);
	otep_msg_free(&m);
	free(line);
	/* a caller's own bound */
	CU_ASSERT_EQUAL(otep_msg_parse_max("move wQ_-wS1", 12, 8, E, &m, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "line of 12 bytes is longer than the limit of 8"));
	otep_msg_free(&m);
	/* a move list longer than OTEP_LIST_MAX */
	size_t cap = 16 * (OTEP_LIST_MAX + 2);
	char *big = malloc(cap);
	CU_ASSERT_FATAL(big != NULL);
	size_t len = (size_t)snprintf(big, cap, "analysis 1 wQ");
	for (int i = 0; i < OTEP_LIST_MAX; i++)
		len += (size_t)snprintf(big + len, cap - len, "|bQ");
	len += (size_t)snprintf(big + len, cap - len, " 0");
	CU_ASSERT_EQUAL(otep_msg_parse(big, len, E, &m, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "too many moves"));
	otep_msg_free(&m);
	free(big);
}

static void test_writers(void)
{
	char buf[512];
	char why[128] = "";

	CU_ASSERT_EQUAL(otep_format_hello(buf, sizeof buf), 5);
	CU_ASSERT_STRING_EQUAL(buf, "hello");
	otep_format_simple_moves(buf, sizeof buf, 1);
	CU_ASSERT_STRING_EQUAL(buf, "simple-moves on");
	otep_format_rules(buf, sizeof buf, "Base+MLP");
	CU_ASSERT_STRING_EQUAL(buf, "rules Base+MLP");
	otep_format_rules(buf, sizeof buf, NULL);
	CU_ASSERT_STRING_EQUAL(buf, "rules");
	otep_format_position(buf, sizeof buf, "Base;InProgress;White[2];wS1;bS1 wS1-");
	CU_ASSERT_STRING_EQUAL(buf, "position Base;InProgress;White[2];wS1;bS1_wS1-");
	otep_format_side(buf, sizeof buf, OTEP_BLACK);
	CU_ASSERT_STRING_EQUAL(buf, "side black");
	otep_format_play(buf, sizeof buf, OTEP_WHITE);
	CU_ASSERT_STRING_EQUAL(buf, "play white");
	struct otep_clock c = { .ms = { 290500, 301000 }, .has_overtime = 1, .overtime_s = 0 };
	otep_format_clock(buf, sizeof buf, &c);
	CU_ASSERT_STRING_EQUAL(buf, "clock 290500 301000 0 0 0");
	c.in_overtime[1] = 1;
	c.overtime_s = 30;
	c.overtimes[0] = 3;
	otep_format_clock(buf, sizeof buf, &c);
	CU_ASSERT_STRING_EQUAL(buf, "clock 290500 301000* 30 3 0");
	otep_format_analyze(buf, sizeof buf, 3, 10);
	CU_ASSERT_STRING_EQUAL(buf, "analyze 3 10");
	const char *pv1[] = { "wA1 \\wQ", "bA1 \\bQ" }, *pv2[] = { "pass" };
	struct otep_moves lines[] = { { pv1, 2, 26 }, { pv2, 1, -29995 } };
	otep_format_analysis(buf, sizeof buf, lines, 2);
	CU_ASSERT_STRING_EQUAL(buf, "analysis 2 wA1_\\wQ|bA1_\\bQ 0.26 pass -299.95");
	otep_format_move(buf, sizeof buf, "bQ bS1\\");
	CU_ASSERT_STRING_EQUAL(buf, "move bQ_bS1\\");
	otep_format_move_result(buf, sizeof buf, "Base+MLP;InProgress;Black[1];wS1");
	CU_ASSERT_STRING_EQUAL(buf, "move Base+MLP;InProgress;Black[1];wS1");
	otep_format_error(buf, sizeof buf, OTEP_FROM_HOST, OTEP_ERR_WRONG_SIDE, NULL);
	CU_ASSERT_STRING_EQUAL(buf, "error 1");
	otep_format_error(buf, sizeof buf, OTEP_FROM_ENGINE, OTEP_ERR_CRITICAL, "  lost\r\nmy book");
	CU_ASSERT_STRING_EQUAL(buf, "error -1 lost  my book");
	const char *om[] = { "bS1 wS1-" };
	otep_format_opponent_move(buf, sizeof buf, om, 1, "Base;InProgress;White[2];wS1;bS1 wS1-");
	CU_ASSERT_STRING_EQUAL(buf, "opponent-move bS1_wS1- Base;InProgress;White[2];wS1;bS1_wS1-");
	otep_format_opponent_move(buf, sizeof buf, NULL, 0, "Base;NotStarted;White[1]");
	CU_ASSERT_STRING_EQUAL(buf, "opponent-move - Base;NotStarted;White[1]");
	otep_format_finish(buf, sizeof buf, OTEP_FINISH_DRAW);
	CU_ASSERT_STRING_EQUAL(buf, "finish 1");
	otep_format_goodbye(buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "goodbye");
	otep_format_status(buf, sizeof buf, "depth 5\nscore 0.2");
	CU_ASSERT_STRING_EQUAL(buf, "status depth 5 score 0.2");

	/* refusals: what would not read back */
	CU_ASSERT_EQUAL(otep_format_move(buf, sizeof buf, "wQ_-wS1"), -1);
	CU_ASSERT_STRING_EQUAL(buf, "");
	CU_ASSERT_EQUAL(otep_format_move(buf, sizeof buf, "wQ\t-wS1"), -1);
	CU_ASSERT_EQUAL(otep_format_move(buf, sizeof buf, "a4-a1"), -1);
	CU_ASSERT_EQUAL(otep_format_move(buf, sizeof buf, ""), -1);
	CU_ASSERT_EQUAL(otep_format_move(buf, sizeof buf, NULL), -1);
	CU_ASSERT_EQUAL(otep_format_position(buf, sizeof buf, "Chess;InProgress"), -1);
	CU_ASSERT_EQUAL(otep_format_position(buf, sizeof buf, "Base;a|b"), -1);
	CU_ASSERT_EQUAL(otep_format_rules(buf, sizeof buf, "Base+Q"), -1);
	CU_ASSERT_EQUAL(otep_format_play(buf, sizeof buf, (enum otep_side)2), -1);
	CU_ASSERT_EQUAL(otep_format_finish(buf, sizeof buf, (enum otep_finish)4), -1);
	CU_ASSERT_EQUAL(otep_format_error(buf, sizeof buf, OTEP_FROM_ENGINE, 2, "x"), -1);
	CU_ASSERT_EQUAL(otep_format_error(buf, sizeof buf, OTEP_FROM_HOST, 0, NULL), -1);
	CU_ASSERT_EQUAL(otep_format_analyze(buf, sizeof buf, 0, 5), -1);
	CU_ASSERT_EQUAL(otep_format_analysis(buf, sizeof buf, lines, 0), -1);
	const char *badpv[] = { "wQ", "b|Q" };
	struct otep_moves bad = { badpv, 2, 0 };
	CU_ASSERT_EQUAL(otep_format_analysis(buf, sizeof buf, &bad, 1), -1);
	struct otep_moves empty = { NULL, 0, 0 };
	CU_ASSERT_EQUAL(otep_format_analysis(buf, sizeof buf, &empty, 1), -1);
	struct otep_moves far = { pv2, 1, OTEP_EVAL_MAX + 1 };
	CU_ASSERT_EQUAL(otep_format_analysis(buf, sizeof buf, &far, 1), -1);
	struct otep_clock star = { .ms = { 1, 2 }, .in_overtime = { 1, 0 } };
	CU_ASSERT_EQUAL(otep_format_clock(buf, sizeof buf, &star), -1);
	struct otep_clock neg = { .ms = { -1, 2 } };
	CU_ASSERT_EQUAL(otep_format_clock(buf, sizeof buf, &neg), -1);
	/* direction: the engine never sends play, the host never sends status */
	struct otep_msg m = { .cmd = OTEP_PLAY, .from = OTEP_FROM_ENGINE, .has_side = 1 };
	CU_ASSERT_EQUAL(otep_msg_format(&m, buf, sizeof buf, why, sizeof why), -1);
	CU_ASSERT(why[0] != '\0');
	why[0] = '\0';
	m.cmd = OTEP_NCMDS;
	CU_ASSERT_EQUAL(otep_msg_format(&m, buf, sizeof buf, why, sizeof why), -1);
	CU_ASSERT(why[0] != '\0');
	/* no room */
	CU_ASSERT_EQUAL(otep_format_move(buf, 8, "wQ -wS1"), -1);
	CU_ASSERT_EQUAL(otep_format_move(buf, 13, "wQ -wS1"), 12);
	CU_ASSERT_EQUAL(otep_format_hello(buf, 0), -1);
	/* free text is cut to fit, never in the middle of a UTF-8 character */
	CU_ASSERT_EQUAL(otep_format_status(buf, 12, "d\xC3\xA9j\xC3\xA0 vu"), 11);
	CU_ASSERT_STRING_EQUAL(buf, "status d\xC3\xA9j");
	CU_ASSERT_EQUAL(otep_format_status(buf, 10, "d\xC3\xA9j\xC3\xA0 vu"), 8);
	CU_ASSERT_STRING_EQUAL(buf, "status d");
}

static void test_eval(void)
{
	static const struct { const char *in; int64_t cp; const char *out; } ok[] = {
		{ "0", 0, "0" }, { "-0", 0, "0" }, { "0.26", 26, "0.26" }, { "0.5", 50, "0.5" },
		{ "0.50", 50, "0.5" }, { "-1.5", -150, "-1.5" }, { "299.95", 29995, "299.95" },
		{ "0.005", 1, "0.01" }, { "-0.004", 0, "0" }, { "3", 300, "3" }, { "0.999", 100, "1" },
		{ "1000000", OTEP_EVAL_MAX, "1000000" },
	};
	static const char *const bad[] = { "", "-", "+1", "1.", ".5", "1e3", "1,5", "1000000.01",
					   "99999999999999999999", "0x10", " 1" };
	char buf[32];
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		int64_t cp = -7;
		CU_ASSERT_EQUAL(otep_eval_parse(ok[i].in, strlen(ok[i].in), &cp), 0);
		CU_ASSERT_EQUAL(cp, ok[i].cp);
		otep_eval_format(buf, sizeof buf, cp);
		CU_ASSERT_STRING_EQUAL(buf, ok[i].out);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int64_t cp;
		CU_ASSERT_EQUAL(otep_eval_parse(bad[i], strlen(bad[i]), &cp), -1);
	}
	for (int64_t v = -30000; v <= 30000; v += 7) {
		int64_t back;
		int n = otep_eval_format(buf, sizeof buf, v);
		CU_ASSERT_EQUAL_FATAL(otep_eval_parse(buf, (size_t)n, &back), 0);
		CU_ASSERT_EQUAL_FATAL(back, v);
	}
}

/* The core side: the engine's move read on the board, with its error code. */
static void test_hive_moves(void)
{
	struct hive_game g;
	struct hive_move mv;
	char err[256];

	hive_game_init(&g, 7);
	CU_ASSERT_EQUAL_FATAL(tu_load(&g, "Base+MLP;InProgress;White[2];wS1;bS1 wS1-"), HIVE_OK);
	CU_ASSERT_EQUAL(otep_side_to_move(&g.board), OTEP_WHITE);
	CU_ASSERT_EQUAL(otep_move_read(&g.board, "wQ -wS1", &mv, err, sizeof err), 0);
	CU_ASSERT_EQUAL(mv.piece, HIVE_PIECE(HIVE_WHITE, 0));
	CU_ASSERT_EQUAL(otep_move_read(&g.board, "bQ bS1-", &mv, err, sizeof err), OTEP_ERR_WRONG_SIDE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "bQ is not a piece of white"));
	CU_ASSERT_EQUAL(otep_move_read(&g.board, "wQ bS1-", &mv, err, sizeof err), OTEP_ERR_ILLEGAL);
	CU_ASSERT_EQUAL(otep_move_read(&g.board, "pass", &mv, err, sizeof err), OTEP_ERR_ILLEGAL);
	CU_ASSERT_EQUAL(otep_move_read(&g.board, "zz", &mv, err, sizeof err), OTEP_ERR_ILLEGAL);
	CU_ASSERT_EQUAL(otep_finish_of(&g.board), OTEP_FINISH_ABORTED);
	hive_game_free(&g);

	/* games that end by the queens (Mzinga's data; a surrounded queen loses, both at once draw) */
	static const struct { const char *gs; enum otep_finish code; } ends[] = {
		{ "Base;WhiteWins;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;"
		  "bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 /bG1", OTEP_FINISH_WHITE },
		{ "Base;BlackWins;White[7];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wG1 -wQ;bG1 bQ-;wA1 wG1\\;"
		  "bA1 bQ\\;wA2 \\wQ;bA2 \\bG1;wG2 wQ/;bG1 wG2\\", OTEP_FINISH_BLACK },
	};
	for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
		int lied;
		hive_game_init(&g, 0);
		CU_ASSERT_EQUAL(tu_load_relaxed(&g, ends[i].gs, &lied), HIVE_OK);
		CU_ASSERT_EQUAL(otep_finish_of(&g.board), ends[i].code);
		hive_game_free(&g);
	}
}

/* opponent-move's list must be the position's last moves. */
static void test_hive_game(void)
{
	struct hive_game g;
	struct otep_msg m;
	char err[256];

	hive_game_init(&g, 7);
	CU_ASSERT_EQUAL_FATAL(parse("opponent-move bS1_wS1- Base+MLP;InProgress;White[2];wS1;bS1_wS1-", H, &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(otep_game_from_msg(&m, &g, err, sizeof err), 0);
	CU_ASSERT_EQUAL(g.len, 2);
	otep_msg_free(&m);
	/* the same move written another way is the same move */
	CU_ASSERT_EQUAL_FATAL(parse("opponent-move BS1__-wS1 Base+MLP;InProgress;White[2];wS1;bS1_wS1-", H, &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(otep_game_from_msg(&m, &g, err, sizeof err), -1);   /* -wS1 is the west side */
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "is not the position's move 2"));
	otep_msg_free(&m);
	CU_ASSERT_EQUAL(g.len, 2);   /* unchanged */
	CU_ASSERT_EQUAL_FATAL(parse("opponent-move wS1|bS1_wS1- Base+MLP;InProgress;White[2];wS1;bS1_wS1-", H, &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(otep_game_from_msg(&m, &g, err, sizeof err), 0);
	otep_msg_free(&m);
	CU_ASSERT_EQUAL_FATAL(parse("opponent-move wS1|wS1|bS1_wS1- Base+MLP;InProgress;White[2];wS1;bS1_wS1-", H, &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(otep_game_from_msg(&m, &g, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "3 moves but the position only 2"));
	otep_msg_free(&m);
	CU_ASSERT_EQUAL_FATAL(parse("position Base+MLP;InProgress;White[5];wS1", H, &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(otep_game_from_msg(&m, &g, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "GameString says"));
	otep_msg_free(&m);
	CU_ASSERT_EQUAL_FATAL(parse("rules Base+M", H, &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(otep_game_from_msg(&m, &g, err, sizeof err), 0);
	CU_ASSERT_EQUAL(g.len, 0);
	CU_ASSERT_EQUAL(g.type, HIVE_EXP_M);
	otep_msg_free(&m);
	CU_ASSERT_EQUAL_FATAL(parse("position", E, &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(otep_game_from_msg(&m, &g, err, sizeof err), -1);
	otep_msg_free(&m);
	hive_game_free(&g);
}

/* Random games: every host line made from the game reads back as the same game, and
 * every engine move written and read back is the same move. */
static void test_random_games(void)
{
	struct tu_rng rng = { 12 };
	static struct hive_move moves[HIVE_MAX_MOVES];
	static char line[OTEP_LINE_MAX];
	char err[256], mv[HIVE_MOVESTR_MAX];
	size_t plies = 0;

	for (int game = 0; game < 40; game++) {
		struct hive_game g, back;
		hive_game_init(&g, (unsigned)(game % 8));
		hive_game_init(&back, 0);
		for (int ply = 0; ply < 120 && !hive_game_over(&g.board); ply++) {
			struct otep_msg m;
			size_t n = hive_board_moves(&g.board, moves);
			CU_ASSERT_FATAL(n > 0);
			struct hive_move pick = moves[tu_rng_below(&rng, n)], got;
			/* the engine's move */
			hive_move_format(&g.board, pick, mv, sizeof mv);
			int len = otep_format_move(line, sizeof line, mv);
			CU_ASSERT_FATAL(len > 0);
			CU_ASSERT_EQUAL_FATAL(otep_msg_parse(line, (size_t)len, E, &m, err, sizeof err), 0);
			CU_ASSERT_STRING_EQUAL(m.text, mv);
			CU_ASSERT_EQUAL(otep_move_read(&g.board, m.text, &got, err, sizeof err), 0);
			CU_ASSERT(got.piece == pick.piece && got.to == pick.to);
			otep_msg_free(&m);
			CU_ASSERT_EQUAL_FATAL(hive_game_play(&g, pick), HIVE_OK);
			plies++;
			/* the host's answer and the next opponent-move */
			len = otep_format_game_move_result(line, sizeof line, &g);
			CU_ASSERT_FATAL(len > 0);
			CU_ASSERT_EQUAL_FATAL(otep_msg_parse(line, (size_t)len, H, &m, err, sizeof err), 0);
			CU_ASSERT_EQUAL(otep_game_from_msg(&m, &back, err, sizeof err), 0);
			CU_ASSERT_EQUAL(back.board.hash, g.board.hash);
			otep_msg_free(&m);
			len = otep_format_game_opponent_move(line, sizeof line, &g);
			CU_ASSERT_FATAL(len > 0);
			CU_ASSERT_EQUAL_FATAL(otep_msg_parse(line, (size_t)len, H, &m, err, sizeof err), 0);
			if (otep_game_from_msg(&m, &back, err, sizeof err) != 0)
				fprintf(stderr, "\n  [%s]: %s\n", line, err);
			CU_ASSERT_EQUAL(back.len, g.len);
			CU_ASSERT_EQUAL(back.board.hash, g.board.hash);
			otep_msg_free(&m);
		}
		if (hive_game_over(&g.board)) {
			char want[4];
			snprintf(want, sizeof want, "%d", (int)otep_finish_of(&g.board));
			CU_ASSERT(otep_finish_of(&g.board) != OTEP_FINISH_ABORTED);
		}
		hive_game_free(&back);
		hive_game_free(&g);
	}
	CU_ASSERT(plies > 1000);

	/* the empty game's opponent-move has the empty list */
	struct hive_game g;
	hive_game_init(&g, 7);
	otep_format_game_opponent_move(line, sizeof line, &g);
	CU_ASSERT_STRING_EQUAL(line, "opponent-move - Base+MLP;NotStarted;White[1]");
	otep_format_game_rules(line, sizeof line, &g);
	CU_ASSERT_STRING_EQUAL(line, "rules Base+MLP");
	otep_format_game_position(line, sizeof line, &g);
	CU_ASSERT_STRING_EQUAL(line, "position Base+MLP;NotStarted;White[1]");
	hive_game_free(&g);
}

static const struct unit_test tests[] = {
	{ "every message, both directions", test_every_message },
	{ "fields", test_fields },
	{ "bad input", test_bad_input },
	{ "overlong lines and lists", test_overlong },
	{ "writers", test_writers },
	{ "evaluations", test_eval },
	{ "engine moves on the board", test_hive_moves },
	{ "games from host lines", test_hive_game },
	{ "random games round-trip", test_random_games },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "otep_codec",
	.tests = tests,
};
