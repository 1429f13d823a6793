/*
 * test_uhp_codec.c: the UHP codec: every command form, bestmove/undo/perft/options
 * arguments with junk and overflowing numbers, engine reply lines, capability lines,
 * and option lines parsed, formatted and parsed again.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <string.h>

#include "adapters/uhp/uhp_codec.h"
#include "core/board.h"
#include "tests/unit/unit.h"

/* Parses a NUL-terminated line as a command. */
static struct uhp_command cmd(const char *line)
{
	struct uhp_command c;
	uhp_command_parse(line, strlen(line), &c);
	return c;
}

static int arg_is(struct uhp_command c, const char *want)
{
	return c.arg_len == strlen(want) && memcmp(c.arg, want, c.arg_len) == 0;
}

static void test_commands(void)
{
	static const struct { const char *line; enum uhp_cmd cmd; const char *arg; } cases[] = {
		{ "info", UHP_CMD_INFO, "" },
		{ "newgame", UHP_CMD_NEWGAME, "" },
		{ "newgame Base+MLP", UHP_CMD_NEWGAME, "Base+MLP" },
		{ "newgame Base;InProgress;White[3];wS1;bG1 -wS1", UHP_CMD_NEWGAME,
		  "Base;InProgress;White[3];wS1;bG1 -wS1" },
		{ "play wS1", UHP_CMD_PLAY, "wS1" },
		{ "play   bS1   wS1-  ", UHP_CMD_PLAY, "bS1   wS1-" },
		{ "  PLAY wS1\r", UHP_CMD_PLAY, "wS1" },
		{ "play", UHP_CMD_PLAY, "" },
		{ "pass", UHP_CMD_PASS, "" },
		{ "validmoves", UHP_CMD_VALIDMOVES, "" },
		{ "bestmove depth 2", UHP_CMD_BESTMOVE, "depth 2" },
		{ "bestmove time 00:00:05", UHP_CMD_BESTMOVE, "time 00:00:05" },
		{ "undo", UHP_CMD_UNDO, "" },
		{ "undo 3", UHP_CMD_UNDO, "3" },
		{ "options", UHP_CMD_OPTIONS, "" },
		{ "options set HashMB 32", UHP_CMD_OPTIONS, "set HashMB 32" },
		{ "exit", UHP_CMD_EXIT, "" },
		{ "perft 4", UHP_CMD_PERFT, "4" },
		{ "help", UHP_CMD_HELP, "" },
		{ "?", UHP_CMD_HELP, "" },
		{ "\tValidMoves", UHP_CMD_VALIDMOVES, "" },
		{ "", UHP_CMD_BLANK, "" },
		{ "   \t \r", UHP_CMD_BLANK, "" },
		{ "hi", UHP_CMD_UNKNOWN, "" },
		{ "playwS1", UHP_CMD_UNKNOWN, "" },
		{ "info2", UHP_CMD_UNKNOWN, "" },
		{ "inf", UHP_CMD_UNKNOWN, "" },
		{ "??", UHP_CMD_UNKNOWN, "" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct uhp_command c = cmd(cases[i].line);
		CU_ASSERT_EQUAL(c.cmd, cases[i].cmd);
		if (c.cmd != UHP_CMD_UNKNOWN)
			CU_ASSERT(arg_is(c, cases[i].arg));
		if (c.cmd != cases[i].cmd)
			fprintf(stderr, "line \"%s\": got %d\n", cases[i].line, c.cmd);
	}
	/* Bytes after an embedded NUL are still part of the (length-given) line. */
	struct uhp_command c;
	uhp_command_parse("play wS1\0x", 10, &c);
	CU_ASSERT_EQUAL(c.cmd, UHP_CMD_PLAY);
	CU_ASSERT_EQUAL(c.arg_len, 5);
	/* The line need not be terminated: parsing stops at len. */
	uhp_command_parse("info junk", 4, &c);
	CU_ASSERT_EQUAL(c.cmd, UHP_CMD_INFO);
	CU_ASSERT_EQUAL(c.arg_len, 0);

	CU_ASSERT_STRING_EQUAL(uhp_command_name(UHP_CMD_VALIDMOVES), "validmoves");
	CU_ASSERT_PTR_NULL(uhp_command_name(UHP_CMD_UNKNOWN));
	CU_ASSERT_PTR_NULL(uhp_command_name(UHP_CMD_BLANK));
	/* Every name in the table parses back to its own command. */
	for (int i = 0; i < UHP_CMD_COUNT; i++) {
		const char *name = uhp_command_name((enum uhp_cmd)i);
		if (name)
			CU_ASSERT_EQUAL(cmd(name).cmd, i);
	}
}

static int bestmove(const char *arg, struct uhp_bestmove *b)
{
	return uhp_bestmove_parse(arg, strlen(arg), b);
}

static void test_bestmove(void)
{
	struct uhp_bestmove b;

	CU_ASSERT_EQUAL(bestmove("time 00:00:05", &b), 0);
	CU_ASSERT_EQUAL(b.kind, UHP_BEST_TIME);
	CU_ASSERT_EQUAL(b.time_ms, 5000);
	CU_ASSERT_EQUAL(bestmove("time 01:02:03", &b), 0);
	CU_ASSERT_EQUAL(b.time_ms, (1 * 3600 + 2 * 60 + 3) * 1000ull);
	CU_ASSERT_EQUAL(bestmove("time 99:59:59", &b), 0);
	CU_ASSERT_EQUAL(b.time_ms, UHP_MAX_TIME_MS);
	CU_ASSERT_EQUAL(bestmove("TIME 0:0:1", &b), 0);
	CU_ASSERT_EQUAL(b.time_ms, 1000);
	CU_ASSERT_EQUAL(bestmove("time 00:00:00", &b), 0);
	CU_ASSERT_EQUAL(b.time_ms, 0);
	CU_ASSERT_EQUAL(bestmove("  time   00:00:05  ", &b), 0);
	CU_ASSERT_EQUAL(b.time_ms, 5000);

	CU_ASSERT_EQUAL(bestmove("depth 2", &b), 0);
	CU_ASSERT_EQUAL(b.kind, UHP_BEST_DEPTH);
	CU_ASSERT_EQUAL(b.depth, 2);
	CU_ASSERT_EQUAL(bestmove("depth 0", &b), 0);
	CU_ASSERT_EQUAL(b.depth, 0);
	CU_ASSERT_EQUAL(bestmove("depth 1000", &b), 0);
	CU_ASSERT_EQUAL(b.depth, UHP_MAX_DEPTH);
	CU_ASSERT_EQUAL(bestmove("depth 007", &b), 0);
	CU_ASSERT_EQUAL(b.depth, 7);

	static const char *const junk[] = {
		"", "time", "depth", "time 5", "time 00:05", "time 00:00:60", "time 00:60:00",
		"time 100:00:00", "time 000:00:01", "time 00:00:001", "time -0:00:01",
		"time 00:00:05 extra", "time 00:00:05:00", "time 00::05", "time ::", "time 0a:00:00",
		"time 00:00:5x", "time +0:00:05", "depth -1", "depth 1001", "depth 2x", "depth 2 3",
		"depth +2", "depth 99999999999999999999999999", "depth 18446744073709551617",
		"depth 4294967298", "depth 0x10", "depth 2.5", "nodes 100", "time00:00:05",
		"seconds 1.5", "depth\x01" "2",
	};
	for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++) {
		if (bestmove(junk[i], &b) != -1) {
			CU_FAIL("junk accepted");
			fprintf(stderr, "bestmove \"%s\" accepted\n", junk[i]);
		}
	}
}

static void test_bestmove_format(void)
{
	struct uhp_bestmove b = { UHP_BEST_TIME, 5000, 0 }, back;
	char buf[64];

	CU_ASSERT_EQUAL(uhp_bestmove_format(&b, buf, sizeof buf), strlen("time 00:00:05"));
	CU_ASSERT_STRING_EQUAL(buf, "time 00:00:05");
	b.time_ms = 3723001;    /* 1:02:03.001 rounds up: never less time than asked */
	uhp_bestmove_format(&b, buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "time 01:02:04");
	b.time_ms = 1000ull * 3600 * 500;
	uhp_bestmove_format(&b, buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "time 99:59:59");
	b.kind = UHP_BEST_DEPTH;
	b.depth = 12;
	uhp_bestmove_format(&b, buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "depth 12");
	/* Truncation reports the length needed, like snprintf. */
	CU_ASSERT_EQUAL(uhp_bestmove_format(&b, buf, 3), 8);
	CU_ASSERT_STRING_EQUAL(buf, "de");

	/* Format then parse gives the same limit, for whole seconds. */
	for (uint64_t s = 0; s < 100 * 3600; s += 7919) {
		b.kind = UHP_BEST_TIME;
		b.time_ms = s * 1000;
		uhp_bestmove_format(&b, buf, sizeof buf);
		CU_ASSERT_EQUAL_FATAL(uhp_bestmove_parse(buf, strlen(buf), &back), 0);
		CU_ASSERT_EQUAL(back.time_ms, s * 1000);
	}
}

static void test_undo_perft(void)
{
	uint64_t n = 0;
	int d = -1;

	CU_ASSERT_EQUAL(uhp_undo_parse("", 0, &n), 0);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_EQUAL(uhp_undo_parse("  ", 2, &n), 0);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_EQUAL(uhp_undo_parse("3", 1, &n), 0);
	CU_ASSERT_EQUAL(n, 3);
	CU_ASSERT_EQUAL(uhp_undo_parse("0", 1, &n), 0);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_EQUAL(uhp_undo_parse("18446744073709551615", 20, &n), 0);
	CU_ASSERT_EQUAL(n, UINT64_MAX);
	CU_ASSERT_EQUAL(uhp_undo_parse("18446744073709551616", 20, &n), -1);
	CU_ASSERT_EQUAL(uhp_undo_parse("99999999999999999999999", 23, &n), -1);
	CU_ASSERT_EQUAL(uhp_undo_parse("x", 1, &n), -1);
	CU_ASSERT_EQUAL(uhp_undo_parse("-1", 2, &n), -1);
	CU_ASSERT_EQUAL(uhp_undo_parse("1 2", 3, &n), -1);
	CU_ASSERT_EQUAL(uhp_undo_parse("2x", 2, &n), -1);
	/* The length is honoured: "12" cut to one byte is 1. */
	CU_ASSERT_EQUAL(uhp_undo_parse("12", 1, &n), 0);
	CU_ASSERT_EQUAL(n, 1);

	CU_ASSERT_EQUAL(uhp_perft_parse("4", 1, 8, &d), 0);
	CU_ASSERT_EQUAL(d, 4);
	CU_ASSERT_EQUAL(uhp_perft_parse("0", 1, 8, &d), 0);
	CU_ASSERT_EQUAL(d, 0);
	CU_ASSERT_EQUAL(uhp_perft_parse("8", 1, 8, &d), 0);
	CU_ASSERT_EQUAL(uhp_perft_parse("9", 1, 8, &d), -1);
	CU_ASSERT_EQUAL(uhp_perft_parse("", 0, 8, &d), -1);
	CU_ASSERT_EQUAL(uhp_perft_parse("-1", 2, 8, &d), -1);
	CU_ASSERT_EQUAL(uhp_perft_parse("4294967300", 10, 8, &d), -1);
	CU_ASSERT_EQUAL(uhp_perft_parse("3", 1, -1, &d), -1);
}

static int options(const char *arg, struct uhp_options_req *o)
{
	return uhp_options_parse(arg, strlen(arg), o);
}

static int span_is(const char *p, size_t n, const char *want)
{
	return n == strlen(want) && memcmp(p, want, n) == 0;
}

static void test_options_request(void)
{
	struct uhp_options_req o;

	CU_ASSERT_EQUAL(options("", &o), 0);
	CU_ASSERT_EQUAL(o.kind, UHP_OPTIONS_LIST);
	CU_ASSERT_EQUAL(options("get MaxBranchingFactor", &o), 0);
	CU_ASSERT_EQUAL(o.kind, UHP_OPTIONS_GET);
	CU_ASSERT(span_is(o.name, o.name_len, "MaxBranchingFactor"));
	CU_ASSERT_EQUAL(options("set MaxBranchingFactor 25", &o), 0);
	CU_ASSERT_EQUAL(o.kind, UHP_OPTIONS_SET);
	CU_ASSERT(span_is(o.name, o.name_len, "MaxBranchingFactor"));
	CU_ASSERT(span_is(o.value, o.value_len, "25"));
	CU_ASSERT_EQUAL(options("SET  X   some value  ", &o), 0);
	CU_ASSERT(span_is(o.value, o.value_len, "some value"));

	static const char *const junk[] = {
		"get", "set", "set X", "get X Y", "list", "get a;b", "set a;b 1", "frob X 1",
	};
	for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++)
		CU_ASSERT_EQUAL(options(junk[i], &o), -1);
}

static enum uhp_reply reply(const char *line, char *rest, size_t cap)
{
	const char *r;
	size_t n;
	enum uhp_reply k = uhp_reply_parse(line, strlen(line), &r, &n);
	snprintf(rest, cap, "%.*s", (int)n, r);
	return k;
}

static void test_replies(void)
{
	char rest[256];

	CU_ASSERT_EQUAL(reply("ok", rest, sizeof rest), UHP_REPLY_OK);
	CU_ASSERT_STRING_EQUAL(rest, "");
	CU_ASSERT_EQUAL(reply("ok\r", rest, sizeof rest), UHP_REPLY_OK);
	CU_ASSERT_EQUAL(reply("ok  ", rest, sizeof rest), UHP_REPLY_OK);
	CU_ASSERT_EQUAL(reply("err Invalid command.", rest, sizeof rest), UHP_REPLY_ERR);
	CU_ASSERT_STRING_EQUAL(rest, "Invalid command.");
	CU_ASSERT_EQUAL(reply("err", rest, sizeof rest), UHP_REPLY_ERR);
	CU_ASSERT_STRING_EQUAL(rest, "");
	CU_ASSERT_EQUAL(reply("invalidmove You can't move that piece there.", rest, sizeof rest),
			UHP_REPLY_INVALIDMOVE);
	CU_ASSERT_STRING_EQUAL(rest, "You can't move that piece there.");
	CU_ASSERT_EQUAL(reply("id MzingaEngine v0.16.0", rest, sizeof rest), UHP_REPLY_ID);
	CU_ASSERT_STRING_EQUAL(rest, "MzingaEngine v0.16.0");
	CU_ASSERT_EQUAL(reply("Base;NotStarted;White[1]", rest, sizeof rest), UHP_REPLY_LINE);
	CU_ASSERT_STRING_EQUAL(rest, "Base;NotStarted;White[1]");
	/* A keyword must stand alone: these are result lines. */
	CU_ASSERT_EQUAL(reply("okay", rest, sizeof rest), UHP_REPLY_LINE);
	CU_ASSERT_EQUAL(reply("error x", rest, sizeof rest), UHP_REPLY_LINE);
	CU_ASSERT_EQUAL(reply("identity", rest, sizeof rest), UHP_REPLY_LINE);
	CU_ASSERT_EQUAL(reply(" ok", rest, sizeof rest), UHP_REPLY_LINE);
	CU_ASSERT_EQUAL(reply("OK", rest, sizeof rest), UHP_REPLY_LINE);
	CU_ASSERT_EQUAL(reply("", rest, sizeof rest), UHP_REPLY_LINE);
	CU_ASSERT_EQUAL(reply("wS1", rest, sizeof rest), UHP_REPLY_LINE);
}

static void test_caps(void)
{
	unsigned exp = 99;
	const char *s;

	s = "Mosquito;Ladybug;Pillbug";
	CU_ASSERT_EQUAL(uhp_caps_parse(s, strlen(s), &exp), 0);
	CU_ASSERT_EQUAL(exp, HIVE_EXP_M | HIVE_EXP_L | HIVE_EXP_P);
	s = "pillbug; MOSQUITO ;Future";
	CU_ASSERT_EQUAL(uhp_caps_parse(s, strlen(s), &exp), 0);
	CU_ASSERT_EQUAL(exp, HIVE_EXP_M | HIVE_EXP_P);
	s = "Ladybug;";
	CU_ASSERT_EQUAL(uhp_caps_parse(s, strlen(s), &exp), 0);
	CU_ASSERT_EQUAL(exp, HIVE_EXP_L);
	CU_ASSERT_EQUAL(uhp_caps_parse("", 0, &exp), 0);
	CU_ASSERT_EQUAL(exp, 0);
	s = "ok";
	CU_ASSERT_EQUAL(uhp_caps_parse(s, strlen(s), &exp), -1);
	s = "Mosquitoes";
	CU_ASSERT_EQUAL(uhp_caps_parse(s, strlen(s), &exp), -1);
	/* Cut to "Mosq", the flag is not there. */
	CU_ASSERT_EQUAL(uhp_caps_parse("Mosquito", 4, &exp), -1);
}

static int option(const char *line, struct uhp_option *o)
{
	char err[128];
	return uhp_option_parse(line, strlen(line), o, err, sizeof err);
}

/* Parses, formats and checks the result is the same text. */
static void round_trip(const char *line)
{
	struct uhp_option o;
	char buf[4096];
	char err[128] = "";
	int rc = uhp_option_parse(line, strlen(line), &o, err, sizeof err);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc) {
		fprintf(stderr, "option \"%s\": %s\n", line, err);
		return;
	}
	CU_ASSERT_EQUAL(uhp_option_format(&o, buf, sizeof buf), strlen(line));
	CU_ASSERT_STRING_EQUAL(buf, line);
}

static void test_option_lines(void)
{
	struct uhp_option o;
	char err[128];

	/* Mzinga's seven options, as it prints them. */
	round_trip("MaxBranchingFactor;int;500;500;1;500");
	round_trip("MaxHelperThreads;enum;Auto;Auto;Auto;None;1;2;3;4;5");
	round_trip("PonderDuringIdle;enum;SingleThreaded;SingleThreaded;Disabled;SingleThreaded;MultiThreaded");
	round_trip("TranspositionTableSizeMB;int;32;32;1;1024");
	round_trip("ReportIntermediateBestMoves;bool;False;False");
	round_trip("QuiescentSearchMaxDepth;int;6;6;0;12");
	round_trip("Aggression;double;0.5;1.25;-3;3.5e2");
	round_trip("Threads;int;4;4");

	CU_ASSERT_EQUAL(option("MaxHelperThreads;enum;Auto;Auto;Auto;None;1;2", &o), 0);
	CU_ASSERT_STRING_EQUAL(o.name, "MaxHelperThreads");
	CU_ASSERT_EQUAL(o.type, UHP_OPT_ENUM);
	CU_ASSERT_STRING_EQUAL(o.value, "Auto");
	CU_ASSERT_EQUAL(o.nvalues, 4);
	CU_ASSERT_STRING_EQUAL(o.values[3], "2");
	CU_ASSERT_EQUAL(option("TableSizeMiB;int;100;100;1;256\r", &o), 0);
	CU_ASSERT_STRING_EQUAL(o.min, "1");
	CU_ASSERT_STRING_EQUAL(o.max, "256");

	static const char *const junk[] = {
		"", "ok", "Name;bool;True", "Name;frob;1;1", ";bool;True;False", "Na me;bool;True;False",
		"Name;bool;Yes;False", "Name;bool;True;False;extra", "Name;int;x;1", "Name;int;1;1;0",
		"Name;int;1;1;0;9;10", "Name;int;1.5;1;0;9", "Name;int;1;1;a;9",
		"Name;int;99999999999999999999;1", "Name;double;nan;1", "Name;double;inf;1",
		"Name;double;1e999;1", "Name;double; 1;1", "Name;enum;A;A;;B", "Name;bool;Tr\x01ue;False",
		"A123456789012345678901234567890123456789012345678901234567890123456789;bool;True;True",
	};
	for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++) {
		err[0] = 0;
		if (uhp_option_parse(junk[i], strlen(junk[i]), &o, err, sizeof err) != -1) {
			CU_FAIL("junk option accepted");
			fprintf(stderr, "option \"%s\" accepted\n", junk[i]);
		} else {
			CU_ASSERT(err[0] != 0);
		}
	}
	/* Too many enum values. */
	char many[1024] = "E;enum;a;a";
	for (int i = 0; i < UHP_OPT_MAX_VALUES + 1; i++)
		strcat(many, ";v");
	CU_ASSERT_EQUAL(option(many, &o), -1);
	/* Exactly the maximum is fine. */
	many[strlen(many) - 2] = 0;
	CU_ASSERT_EQUAL(option(many, &o), 0);
	CU_ASSERT_EQUAL(o.nvalues, UHP_OPT_MAX_VALUES);

	/* Formatting into a short buffer truncates and reports the full length. */
	char small[8];
	CU_ASSERT_EQUAL(option("ReportIntermediateBestMoves;bool;False;False", &o), 0);
	CU_ASSERT_EQUAL(uhp_option_format(&o, small, sizeof small),
			strlen("ReportIntermediateBestMoves;bool;False;False"));
	CU_ASSERT_STRING_EQUAL(small, "ReportI");

	CU_ASSERT_EQUAL(uhp_opt_type_parse("enum", 4), UHP_OPT_ENUM);
	CU_ASSERT_EQUAL(uhp_opt_type_parse("Bool", 4), UHP_OPT_BOOL);
	CU_ASSERT_EQUAL(uhp_opt_type_parse("string", 6), -1);
	CU_ASSERT_STRING_EQUAL(uhp_opt_type_name(UHP_OPT_DOUBLE), "double");
}

static const struct unit_test tests[] = {
	{ "commands", test_commands },
	{ "bestmove", test_bestmove },
	{ "bestmove format", test_bestmove_format },
	{ "undo and perft", test_undo_perft },
	{ "options requests", test_options_request },
	{ "engine replies", test_replies },
	{ "capabilities", test_caps },
	{ "option lines", test_option_lines },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "uhp_codec",
	.tests = tests,
};
