/*
 * test_hub_codec.c: the Hub line codec. Quoting and escapes, flags versus empty
 * values, unknown commands, length bounds, syntax errors with their messages, random
 * write/parse round trips, every level form, go, info, done and error lines.
 */
#include <CUnit/Basic.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/hub/hub_codec.h"
#include "tests/unit/unit.h"

/* Parses a C string; returns the parse result, the message in *m (caller frees). */
static int parse(const char *line, struct hub_msg *m, char *err, size_t errlen)
{
	return hub_line_parse(line, strlen(line), m, err, errlen);
}

/* Asserts that line fails with a reason containing want. */
static void expect_error(const char *line, const char *want)
{
	struct hub_msg m;
	char err[256];
	int rc = parse(line, &m, err, sizeof err);
	CU_ASSERT_EQUAL(rc, -1);
	if (rc != -1 || strstr(err, want) == NULL)
		fprintf(stderr, "\n  line [%s]: rc %d, err [%s], wanted [%s]\n", line, rc, err, want);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
	CU_ASSERT_PTR_NULL(m.buf);
	CU_ASSERT_EQUAL(m.nargs, 0);
	hub_msg_free(&m);
}

static void test_basic(void)
{
	struct hub_msg m;
	char err[128];
	const char *line = "pos pos=\"Base+MLP;InProgress;White[3];wS1;bS1 wS1-\" "
			   "moves=\"wQ -wS1;bQ bS1-\"\r\n";
	CU_ASSERT_EQUAL_FATAL(parse(line, &m, err, sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(m.cmd, "pos");
	CU_ASSERT_EQUAL_FATAL(m.nargs, 2);
	CU_ASSERT_STRING_EQUAL(hub_msg_get(&m, "pos"), "Base+MLP;InProgress;White[3];wS1;bS1 wS1-");
	CU_ASSERT_STRING_EQUAL(hub_msg_get(&m, "moves"), "wQ -wS1;bQ bS1-");
	CU_ASSERT_PTR_NULL(hub_msg_get(&m, "variant"));
	CU_ASSERT_PTR_NULL(hub_msg_get(&m, "POS"));   /* names are case-sensitive */
	hub_msg_free(&m);
	hub_msg_free(&m);   /* twice is harmless */

	/* extra blanks anywhere between tokens mean nothing */
	CU_ASSERT_EQUAL_FATAL(parse("  \tlevel   time=291.587\t moves=9  ", &m, err, sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(m.cmd, "level");
	CU_ASSERT_EQUAL(m.nargs, 2);
	CU_ASSERT_STRING_EQUAL(m.args[0].name, "time");
	CU_ASSERT_STRING_EQUAL(m.args[0].value, "291.587");
	CU_ASSERT_STRING_EQUAL(m.args[1].name, "moves");
	hub_msg_free(&m);

	/* a blank line is the empty command */
	CU_ASSERT_EQUAL_FATAL(parse(" \t\r\n", &m, err, sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(m.cmd, "");
	CU_ASSERT_EQUAL(m.nargs, 0);
	hub_msg_free(&m);

	/* a command alone */
	CU_ASSERT_EQUAL_FATAL(parse("ponder-hit", &m, err, sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(m.cmd, "ponder-hit");
	CU_ASSERT_EQUAL(m.nargs, 0);
	hub_msg_free(&m);

	/* the first of duplicated arguments wins */
	CU_ASSERT_EQUAL_FATAL(parse("level time=1 time=2", &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(m.nargs, 2);
	CU_ASSERT_STRING_EQUAL(hub_msg_get(&m, "time"), "1");
	hub_msg_free(&m);
}

static void test_quoting(void)
{
	struct hub_msg m;
	char err[128];
	const char *line = "id name=\"Hive Bridge\" eq=\"a=b\" q=\"say \"\"hi\"\"\" "
			   "bs=\"C:\\x\\\" path=\"C:\\engines\\new\" raw=C:\\dir "
			   "pv=\"wA1 \\wS1;bQ bS1\\\" one=\"\"\"\" "
			   "empty=\"\" utf=\"Bj\xc3\xb6rk \xe2\x99\x9b\" bare=\xc3\xa9t\xc3\xa9 "
			   "tab=\"a\tb\"";
	CU_ASSERT_EQUAL_FATAL(parse(line, &m, err, sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(hub_msg_get(&m, "name"), "Hive Bridge");
	CU_ASSERT_STRING_EQUAL(hub_msg_get(&m, "eq"), "a=b");
	CU_ASSERT_STRING_EQUAL(hub_msg_get(&m, "q"), "say \"hi\"");
	/* a backslash is an ordinary byte, even right before the closing quote */
	CU_ASSERT_STRING_EQUAL(hub_msg_get(&m, "bs"), "C:\\x\\");
	CU_ASSERT_STRING_EQUAL(hub_msg_get(&m, "pv"), "wA1 \\wS1;bQ bS1\\");
	CU_ASSERT_STRING_EQUAL(hub_msg_get(&m, "one"), "\"");
	CU_ASSERT_STRING_EQUAL(hub_msg_get(&m, "path"), "C:\\engines\\new");
	CU_ASSERT_STRING_EQUAL(hub_msg_get(&m, "raw"), "C:\\dir");
	CU_ASSERT_STRING_EQUAL(hub_msg_get(&m, "empty"), "");
	CU_ASSERT_STRING_EQUAL(hub_msg_get(&m, "utf"), "Bj\xc3\xb6rk \xe2\x99\x9b");
	CU_ASSERT_STRING_EQUAL(hub_msg_get(&m, "bare"), "\xc3\xa9t\xc3\xa9");
	CU_ASSERT_STRING_EQUAL(hub_msg_get(&m, "tab"), "a\tb");
	hub_msg_free(&m);

	/* and the writer quotes exactly what needs it */
	char buf[256];
	struct span_writer w;
	hub_writer_begin(&w, buf, sizeof buf, "id");
	hub_writer_add(&w, "name", "Hive Bridge");
	hub_writer_add(&w, "eq", "a=b");
	hub_writer_add(&w, "q", "say \"hi\"");
	hub_writer_add(&w, "bs", "C:\\x\\");
	hub_writer_add(&w, "raw", "C:\\dir");
	hub_writer_add(&w, "empty", "");
	hub_writer_add(&w, "utf", "\xc3\xa9t\xc3\xa9");
	hub_writer_add(&w, "tab", "a\tb");
	hub_writer_add(&w, "plain", "Base+MLP");
	int n = hub_writer_end(&w);
	const char *want = "id name=\"Hive Bridge\" eq=\"a=b\" q=\"say \"\"hi\"\"\" "
			   "bs=C:\\x\\ raw=C:\\dir empty=\"\" utf=\xc3\xa9t\xc3\xa9 "
			   "tab=\"a\tb\" plain=Base+MLP";
	CU_ASSERT_STRING_EQUAL(buf, want);
	CU_ASSERT_EQUAL(n, (int)strlen(want));
}

static void test_flags(void)
{
	struct hub_msg m;
	char err[128];
	CU_ASSERT_EQUAL_FATAL(parse("go think x=\"\" y=1 ponder", &m, err, sizeof err), 0);
	const struct hub_arg *think = hub_msg_arg(&m, "think");
	const struct hub_arg *x = hub_msg_arg(&m, "x");
	CU_ASSERT_PTR_NOT_NULL_FATAL(think);
	CU_ASSERT_PTR_NOT_NULL_FATAL(x);
	/* flag: empty value, but distinguishable from x="" and from absence */
	CU_ASSERT_EQUAL(think->has_value, 0);
	CU_ASSERT_STRING_EQUAL(think->value, "");
	CU_ASSERT_EQUAL(x->has_value, 1);
	CU_ASSERT_STRING_EQUAL(x->value, "");
	CU_ASSERT_TRUE(hub_msg_has(&m, "think"));
	CU_ASSERT_TRUE(hub_msg_has(&m, "x"));
	CU_ASSERT_TRUE(hub_msg_has(&m, "ponder"));
	CU_ASSERT_FALSE(hub_msg_has(&m, "analyze"));
	CU_ASSERT_STRING_EQUAL(hub_msg_get(&m, "think"), "");
	CU_ASSERT_PTR_NULL(hub_msg_get(&m, "analyze"));

	/* the canonical rewrite keeps the difference */
	char buf[128];
	char why[128] = "";
	CU_ASSERT_EQUAL(hub_msg_write(&m, buf, sizeof buf, why, sizeof why), 24);
	CU_ASSERT_STRING_EQUAL(buf, "go think x=\"\" y=1 ponder");
	hub_msg_free(&m);
}

static void test_unknown(void)
{
	struct hub_msg m;
	char err[128];
	enum hub_go_mode mode = HUB_GO_PONDER;
	/* unknown commands parse like any other: the glue just ignores them */
	CU_ASSERT_EQUAL_FATAL(parse("frobnicate level=\"x y\" --weird +1 \xe2\x86\x92", &m, err,
				    sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(m.cmd, "frobnicate");
	CU_ASSERT_EQUAL(m.nargs, 4);
	CU_ASSERT_STRING_EQUAL(m.args[1].name, "--weird");
	CU_ASSERT_STRING_EQUAL(m.args[3].name, "\xe2\x86\x92");
	CU_ASSERT_EQUAL(m.args[3].has_value, 0);
	CU_ASSERT_STRING_EQUAL(m.args[2].name, "+1");
	CU_ASSERT_STRING_EQUAL(m.args[0].value, "x y");
	hub_msg_free(&m);

	/* unknown arguments do not disturb the known ones */
	CU_ASSERT_EQUAL_FATAL(parse("go colour=\"no such\" think mean-depth=3.2", &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(hub_go_parse(&m, &mode, err, sizeof err), 0);
	CU_ASSERT_EQUAL(mode, HUB_GO_THINK);
	hub_msg_free(&m);

	struct hub_level lv;
	CU_ASSERT_EQUAL_FATAL(parse("level future=1 depth=7 novelty", &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(hub_level_parse(&m, &lv, err, sizeof err), 0);
	CU_ASSERT_EQUAL(lv.depth, 7);
	hub_msg_free(&m);

	struct hub_info in;
	const char *pv;
	CU_ASSERT_EQUAL_FATAL(parse("info mean-depth=20.8 depth=21 hashfull=300 score=-0.01 "
				    "nps=8.0 pv=\"wS1;bS1 wS1-\"", &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(hub_info_parse(&m, &in, &pv, err, sizeof err), 0);
	CU_ASSERT_EQUAL(in.depth, 21);
	CU_ASSERT_TRUE(in.has_score);
	CU_ASSERT_EQUAL(in.score_cp, -1);
	CU_ASSERT_FALSE(in.has_time);
	CU_ASSERT_STRING_EQUAL(pv, "wS1;bS1 wS1-");
	hub_msg_free(&m);
}

static void test_length(void)
{
	struct hub_msg m;
	char err[128];
	size_t max = 40;
	char line[128];
	/* "go x=" plus filler up to exactly max bytes, then a newline that does not count */
	memset(line, 'a', sizeof line);
	memcpy(line, "go x=", 5);
	line[max] = '\n';
	CU_ASSERT_EQUAL(hub_line_parse_max(line, max + 1, max, &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(strlen(hub_msg_get(&m, "x")), max - 5);
	hub_msg_free(&m);
	CU_ASSERT_EQUAL(hub_line_parse_max(line, max + 1, max, &m, err, sizeof err), 0);
	hub_msg_free(&m);
	line[max] = 'a';
	CU_ASSERT_EQUAL(hub_line_parse_max(line, max + 1, max, &m, err, sizeof err), -1);
	CU_ASSERT_STRING_EQUAL(err, "line too long: 41 bytes (limit 40)");
	CU_ASSERT_PTR_NULL(m.buf);
	hub_msg_free(&m);

	/* the default bound */
	size_t big = HUB_LINE_MAX + 1;
	char *huge = malloc(big);
	CU_ASSERT_PTR_NOT_NULL_FATAL(huge);
	memset(huge, 'z', big);
	CU_ASSERT_EQUAL(hub_line_parse(huge, big, &m, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "line too long"));
	hub_msg_free(&m);
	CU_ASSERT_EQUAL(hub_line_parse(huge, big - 1, &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(strlen(m.cmd), HUB_LINE_MAX);
	hub_msg_free(&m);
	free(huge);

	/* at most HUB_MAX_ARGS arguments */
	char many[1024] = "x";
	for (int i = 0; i < HUB_MAX_ARGS; i++)
		snprintf(many + strlen(many), sizeof many - strlen(many), " a%d=%d", i, i);
	CU_ASSERT_EQUAL(parse(many, &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(m.nargs, HUB_MAX_ARGS);
	CU_ASSERT_STRING_EQUAL(hub_msg_get(&m, "a31"), "31");
	hub_msg_free(&m);
	strcat(many, " one-more");
	expect_error(many, "too many arguments (limit 32)");
}

static void test_errors(void)
{
	expect_error("pos pos=\"Base;NotStarted;White[1]", "unbalanced quote: the value of 'pos' opened at column 9 is not closed");
	expect_error("go x=\"ab\"\"", "unbalanced quote");
	expect_error("go x=\"\"\"", "unbalanced quote");
	expect_error("go x=\"ab\"cd", "missing space after the closing quote at column 10");
	expect_error("go x=ab\"cd\"", "unexpected '\"' at column 8");
	expect_error("go x=a=b", "unexpected '=' at column 7 inside an unquoted value");
	expect_error("go x==b", "unexpected '=' at column 6");
	expect_error("go x=", "missing value after '=' at column 5 (write x=\"\" for an empty value)");
	expect_error("go x= think", "missing value after '='");
	expect_error("go =think", "missing argument name before '=' at column 4");
	expect_error("go \"think\"", "argument names cannot be quoted (column 4)");
	expect_error("go think\"x\"", "unexpected '\"' at column 9");
	expect_error("\"go\" think", "where a command was expected");
	expect_error("=go", "unexpected '=' at column 1");
	expect_error("go=think", "unexpected '=' at column 3 after the command");
	expect_error("go \x01think", "control byte 0x01 at column 4");
	expect_error("go x=\"a\rb\"", "line break (CR) inside quotes at column 8");
	expect_error("go\nthink", "line break (LF) at column 3");

	/* a NUL byte can only come through the length */
	struct hub_msg m;
	char err[128];
	CU_ASSERT_EQUAL(hub_line_parse("go\0think", 8, &m, err, sizeof err), -1);
	CU_ASSERT_STRING_EQUAL(err, "NUL byte at column 3");
	hub_msg_free(&m);

	/* a short error buffer truncates, a missing one is fine */
	char tiny[8];
	CU_ASSERT_EQUAL(parse("go x=", &m, tiny, sizeof tiny), -1);
	CU_ASSERT_STRING_EQUAL(tiny, "missing");
	hub_msg_free(&m);
	CU_ASSERT_EQUAL(parse("go x=", &m, NULL, 0), -1);
	hub_msg_free(&m);
}

static void test_writer_errors(void)
{
	char buf[64];
	struct span_writer w;

	hub_writer_begin(&w, buf, sizeof buf, "go");
	hub_writer_add(&w, "x", "a\nb");
	hub_writer_add(&w, "y", "1");
	CU_ASSERT_EQUAL(hub_writer_end(&w), -1);
	CU_ASSERT_STRING_EQUAL(w.error, "a value cannot contain CR or LF");
	CU_ASSERT_STRING_EQUAL(buf, "");

	const char *bad_names[] = { "", "a b", "a=b", "a\"", "\t" };
	for (size_t i = 0; i < sizeof bad_names / sizeof *bad_names; i++) {
		hub_writer_begin(&w, buf, sizeof buf, "go");
		hub_writer_add(&w, bad_names[i], "1");
		CU_ASSERT_EQUAL(hub_writer_end(&w), -1);
		CU_ASSERT_PTR_NOT_NULL(w.error);
	}
	hub_writer_begin(&w, buf, sizeof buf, "bad cmd");
	CU_ASSERT_EQUAL(hub_writer_end(&w), -1);

	/* exactly fitting, then one byte short */
	hub_writer_begin(&w, buf, 12, "go");
	hub_writer_add(&w, "x", "a b");   /* go x="a b" is 10 bytes + NUL */
	CU_ASSERT_EQUAL(hub_writer_end(&w), 10);
	hub_writer_begin(&w, buf, 11, "go");
	hub_writer_add(&w, "x", "a b");
	CU_ASSERT_EQUAL(hub_writer_end(&w), 11 - 1);
	hub_writer_begin(&w, buf, 10, "go");
	hub_writer_add(&w, "x", "a b");
	CU_ASSERT_EQUAL(hub_writer_end(&w), -1);
	CU_ASSERT_STRING_EQUAL(w.error, "the line does not fit the buffer");
	hub_writer_begin(&w, buf, 0, "go");
	CU_ASSERT_EQUAL(hub_writer_end(&w), -1);

	/* lists */
	const char *ok[] = { "wS1", "bS1 wS1-", "wQ -wS1" };
	hub_writer_begin(&w, buf, sizeof buf, "info");
	hub_writer_add_list(&w, "pv", ok, 3);
	CU_ASSERT_EQUAL(hub_writer_end(&w), 30);
	CU_ASSERT_STRING_EQUAL(buf, "info pv=\"wS1;bS1 wS1-;wQ -wS1\"");
	hub_writer_begin(&w, buf, sizeof buf, "info");
	hub_writer_add_list(&w, "pv", ok, 1);
	CU_ASSERT_EQUAL(hub_writer_end(&w), 11);
	CU_ASSERT_STRING_EQUAL(buf, "info pv=wS1");
	hub_writer_begin(&w, buf, sizeof buf, "info");
	hub_writer_add_list(&w, "pv", ok, 0);
	CU_ASSERT_EQUAL(hub_writer_end(&w), 10);
	CU_ASSERT_STRING_EQUAL(buf, "info pv=\"\"");
	const char *bad_lists[][2] = { { "wS1", "a;b" }, { "wS1", "" }, { " wS1", "x" },
				       { "wS1", "x\r" } };
	for (size_t i = 0; i < sizeof bad_lists / sizeof *bad_lists; i++) {
		hub_writer_begin(&w, buf, sizeof buf, "info");
		hub_writer_add_list(&w, "pv", bad_lists[i], 2);
		CU_ASSERT_EQUAL(hub_writer_end(&w), -1);
	}

	/* formatted values */
	hub_writer_begin(&w, buf, sizeof buf, "info");
	hub_writer_addf(&w, "depth", "%d", 12);
	hub_writer_addf(&w, "note", "%s %s", "two", "words");
	CU_ASSERT_EQUAL(hub_writer_end(&w), 30);
	CU_ASSERT_STRING_EQUAL(buf, "info depth=12 note=\"two words\"");
}

/* xorshift64*: a fixed-seed generator so failures reproduce */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1Dull;
}

/* A random byte string of length < max without NUL, CR, LF; biased to the
 * interesting bytes. */
static void random_value(char *s, size_t max)
{
	static const char special[] = " \"\\=\t;\xc3\xa9\x7f\x01";
	size_t n = rng() % max;
	for (size_t i = 0; i < n; i++) {
		unsigned char c;
		if (rng() % 2)
			c = (unsigned char)special[rng() % (sizeof special - 1)];
		else
			do c = (unsigned char)(rng() % 256); while (c == 0 || c == '\r' || c == '\n');
		s[i] = (char)c;
	}
	s[n] = '\0';
}

/* A random valid name: bare bytes only, at least one. */
static void random_name(char *s, size_t max)
{
	size_t n = 1 + rng() % (max - 1);
	for (size_t i = 0; i < n; i++) {
		unsigned char c;
		do c = (unsigned char)(33 + rng() % 223); while (c == '=' || c == '"');
		s[i] = (char)c;
	}
	s[n] = '\0';
}

static void test_round_trip(void)
{
	char names[HUB_MAX_ARGS][16], values[HUB_MAX_ARGS][48], cmd[16];
	int flags[HUB_MAX_ARGS];
	char line[4096], again[4096], err[128];
	int failures = 0;

	for (int iter = 0; iter < 3000; iter++) {
		size_t nargs = rng() % (HUB_MAX_ARGS + 1);
		struct span_writer w;
		random_name(cmd, sizeof cmd);
		hub_writer_begin(&w, line, sizeof line, cmd);
		for (size_t i = 0; i < nargs; i++) {
			random_name(names[i], sizeof names[i]);
			flags[i] = rng() % 5 == 0;
			random_value(values[i], sizeof values[i]);
			hub_writer_add(&w, names[i], flags[i] ? NULL : values[i]);
		}
		int n = hub_writer_end(&w);
		CU_ASSERT_FATAL(n > 0);

		struct hub_msg m;
		int ok = hub_line_parse(line, (size_t)n, &m, err, sizeof err) == 0 &&
			 strcmp(m.cmd, cmd) == 0 && m.nargs == nargs;
		for (size_t i = 0; ok && i < nargs; i++)
			ok = strcmp(m.args[i].name, names[i]) == 0 &&
			     m.args[i].has_value == !flags[i] &&
			     strcmp(m.args[i].value, flags[i] ? "" : values[i]) == 0;
		/* the canonical rewrite of what we wrote is what we wrote */
		if (ok)
			ok = hub_msg_write(&m, again, sizeof again, NULL, 0) == n &&
			     memcmp(again, line, (size_t)n) == 0;
		if (!ok && failures++ < 3)
			fprintf(stderr, "\n  round trip failed on [%s]: %s\n", line, err);
		CU_ASSERT_TRUE(ok);
		hub_msg_free(&m);
	}

	/* random lists through hub_writer_add_list and hub_list_next */
	for (int iter = 0; iter < 1000; iter++) {
		char items[8][24];
		const char *ptrs[8];
		size_t n = rng() % 8;
		for (size_t i = 0; i < n; i++) {
			do {
				random_value(items[i], sizeof items[i]);
				for (char *p = items[i]; *p; p++)
					if (*p == ';' || *p == ' ' || *p == '\t')
						*p = 'x';
			} while (items[i][0] == '\0');
			ptrs[i] = items[i];
		}
		struct span_writer w;
		hub_writer_begin(&w, line, sizeof line, "info");
		hub_writer_add_list(&w, "pv", ptrs, n);
		int len = hub_writer_end(&w);
		CU_ASSERT_FATAL(len > 0);
		struct hub_msg m;
		CU_ASSERT_EQUAL_FATAL(hub_line_parse(line, (size_t)len, &m, err, sizeof err), 0);
		const char *cur = hub_msg_get(&m, "pv"), *item;
		size_t k = 0, ilen;
		CU_ASSERT_PTR_NOT_NULL_FATAL(cur);
		while (hub_list_next(&cur, &item, &ilen)) {
			CU_ASSERT_FATAL(k < n);
			CU_ASSERT(ilen == strlen(items[k]) && memcmp(item, items[k], ilen) == 0);
			k++;
		}
		CU_ASSERT_EQUAL(k, n);
		hub_msg_free(&m);
	}
}

static void test_list(void)
{
	const char *cur = " wS1 ; bS1 wS1-;;wQ -wS1;", *item;
	size_t len;
	CU_ASSERT_EQUAL_FATAL(hub_list_next(&cur, &item, &len), 1);
	CU_ASSERT(len == 3 && memcmp(item, "wS1", 3) == 0);
	CU_ASSERT_EQUAL_FATAL(hub_list_next(&cur, &item, &len), 1);
	CU_ASSERT(len == 8 && memcmp(item, "bS1 wS1-", 8) == 0);
	CU_ASSERT_EQUAL_FATAL(hub_list_next(&cur, &item, &len), 1);
	CU_ASSERT(len == 7 && memcmp(item, "wQ -wS1", 7) == 0);
	CU_ASSERT_EQUAL(hub_list_next(&cur, &item, &len), 0);
	CU_ASSERT_EQUAL(hub_list_next(&cur, &item, &len), 0);
	cur = "";
	CU_ASSERT_EQUAL(hub_list_next(&cur, &item, &len), 0);
	cur = " ; ;";
	CU_ASSERT_EQUAL(hub_list_next(&cur, &item, &len), 0);
}

static void test_decimal(void)
{
	static const struct { const char *s; int dec; int64_t v; } good[] = {
		{ "0", 3, 0 }, { "1", 3, 1000 }, { "291.587", 3, 291587 }, { "0.5", 3, 500 },
		{ ".5", 3, 500 }, { "5.", 3, 5000 }, { "-0.01", 2, -1 }, { "+2.5", 2, 250 },
		{ "0.0004", 3, 0 }, { "0.0005", 3, 1 }, { "1.23456", 3, 1235 },
		{ "-1.2349", 3, -1235 }, { "-1.2344", 3, -1234 }, { "7.9", 0, 8 },
		{ "9223372036854775", 3, 9223372036854775000ll },
	};
	static const char *const bad[] = {
		"", "-", ".", "1e3", "inf", "nan", "0x10", " 1", "1 ", "1.2.3", "--1",
		"99999999999999999999", "9223372036854776", "1,5",
	};
	for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
		int64_t v = -42;
		CU_ASSERT_EQUAL(hub_decimal_parse(good[i].s, good[i].dec, &v), 0);
		if (v != good[i].v)
			fprintf(stderr, "\n  %s -> %" PRId64 "\n", good[i].s, v);
		CU_ASSERT_EQUAL(v, good[i].v);
	}
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		int64_t v;
		CU_ASSERT_EQUAL(hub_decimal_parse(bad[i], 3, &v), -1);
	}

	static const struct { int64_t v; int dec; const char *s; } fmt[] = {
		{ 0, 3, "0" }, { 1500, 3, "1.5" }, { 291587, 3, "291.587" }, { 3906, 3, "3.906" },
		{ -1, 2, "-0.01" }, { 35, 2, "0.35" }, { -100, 2, "-1" }, { 1, 3, "0.001" },
		{ INT64_MIN, 3, "-9223372036854775.808" }, { 42, 0, "42" },
	};
	for (size_t i = 0; i < sizeof fmt / sizeof *fmt; i++) {
		char buf[32];
		int n = hub_decimal_format(buf, sizeof buf, fmt[i].v, fmt[i].dec);
		CU_ASSERT_STRING_EQUAL(buf, fmt[i].s);
		CU_ASSERT_EQUAL(n, (int)strlen(fmt[i].s));
	}
	/* format then parse is the identity */
	for (int i = 0; i < 2000; i++) {
		int64_t v = (int64_t)(rng() >> 12) - (int64_t)(1ll << 51), back;
		char buf[32];
		hub_decimal_format(buf, sizeof buf, v, 3);
		CU_ASSERT(hub_decimal_parse(buf, 3, &back) == 0 && back == v);
	}
}

/* Parses a level line; returns hub_level_parse's result. */
static int level(const char *line, struct hub_level *lv, char *err, size_t errlen)
{
	struct hub_msg m;
	CU_ASSERT_EQUAL_FATAL(parse(line, &m, err, errlen), 0);
	int rc = hub_level_parse(&m, lv, err, errlen);
	hub_msg_free(&m);
	return rc;
}

/* Writes lv and checks the exact line and that it reads back the same. */
static void level_round_trip(const struct hub_level *lv, const char *want)
{
	char buf[128], err[128];
	char why[128] = "";
	struct hub_level back;
	int n = hub_level_write(buf, sizeof buf, lv, why, sizeof why);
	CU_ASSERT_EQUAL(n, (int)strlen(want));
	CU_ASSERT_STRING_EQUAL(buf, want);
	CU_ASSERT_EQUAL(level(buf, &back, err, sizeof err), 0);
	CU_ASSERT_EQUAL(memcmp(&back, lv, sizeof back), 0);
}

static void test_level(void)
{
	struct hub_level lv;
	char err[128];

	CU_ASSERT_EQUAL(level("level depth=12", &lv, err, sizeof err), 0);
	CU_ASSERT_EQUAL(lv.depth, 12);
	CU_ASSERT(lv.nodes == 0 && !lv.has_move_time && !lv.has_time && !lv.infinite);
	level_round_trip(&lv, "level depth=12");

	CU_ASSERT_EQUAL(level("level nodes=18446744073709551615", &lv, err, sizeof err), 0);
	CU_ASSERT_EQUAL(lv.nodes, UINT64_MAX);
	level_round_trip(&lv, "level nodes=18446744073709551615");

	CU_ASSERT_EQUAL(level("level move-time=1", &lv, err, sizeof err), 0);
	CU_ASSERT(lv.has_move_time && lv.move_time_ms == 1000);
	level_round_trip(&lv, "level move-time=1");

	CU_ASSERT_EQUAL(level("level move-time=0.25", &lv, err, sizeof err), 0);
	CU_ASSERT_EQUAL(lv.move_time_ms, 250);

	/* sudden death */
	CU_ASSERT_EQUAL(level("level time=60", &lv, err, sizeof err), 0);
	CU_ASSERT(lv.has_time && lv.time_ms == 60000 && lv.moves == 0 && lv.inc_ms == 0);
	level_round_trip(&lv, "level time=60");

	/* x/y */
	CU_ASSERT_EQUAL(level("level moves=9 time=291.587", &lv, err, sizeof err), 0);
	CU_ASSERT(lv.moves == 9 && lv.time_ms == 291587);
	level_round_trip(&lv, "level moves=9 time=291.587");

	/* Fischer */
	CU_ASSERT_EQUAL(level("level time=300 inc=2.5", &lv, err, sizeof err), 0);
	CU_ASSERT(lv.time_ms == 300000 && lv.inc_ms == 2500);
	level_round_trip(&lv, "level time=300 inc=2.5");

	/* all three clock fields */
	CU_ASSERT_EQUAL(level("level inc=1 time=10 moves=40", &lv, err, sizeof err), 0);
	CU_ASSERT(lv.moves == 40 && lv.time_ms == 10000 && lv.inc_ms == 1000);
	level_round_trip(&lv, "level moves=40 time=10 inc=1");

	/* a clock that overran reads as no time left */
	CU_ASSERT_EQUAL(level("level time=-0.3", &lv, err, sizeof err), 0);
	CU_ASSERT(lv.has_time && lv.time_ms == 0);
	level_round_trip(&lv, "level time=0");

	CU_ASSERT_EQUAL(level("level infinite", &lv, err, sizeof err), 0);
	CU_ASSERT_TRUE(lv.infinite);
	level_round_trip(&lv, "level infinite");

	/* combined limits, first reached wins */
	CU_ASSERT_EQUAL(level("level depth=8 move-time=2", &lv, err, sizeof err), 0);
	CU_ASSERT(lv.depth == 8 && lv.move_time_ms == 2000);
	level_round_trip(&lv, "level depth=8 move-time=2");

	static const struct { const char *line, *err; } bad[] = {
		{ "level", "level needs depth, nodes, move-time, time or infinite" },
		{ "level future=3", "level needs depth" },
		{ "level depth=0", "bad depth '0': expected an integer from 1 to 2147483647" },
		{ "level depth=-3", "bad depth '-3'" },
		{ "level depth=2.5", "bad depth" },
		{ "level depth=99999999999", "bad depth" },
		{ "level depth", "'depth' needs a value" },
		{ "level depth=\"\"", "'depth' needs a value" },
		{ "level nodes=0", "bad nodes" },
		{ "level nodes=18446744073709551616", "bad nodes" },
		{ "level move-time=-1", "bad move-time '-1': must not be negative" },
		{ "level move-time=fast", "bad move-time 'fast': expected seconds" },
		{ "level time=1e3", "bad time" },
		{ "level inc=2", "level inc= needs time=" },
		{ "level moves=10", "level moves= needs time=" },
		{ "level moves=0 time=10", "bad moves" },
		{ "level time=10 inc=-1", "bad inc" },
		{ "level infinite depth=3", "level infinite cannot be combined with other limits" },
		{ "level infinite time=3", "cannot be combined" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		lv.depth = 99;
		int rc = level(bad[i].line, &lv, err, sizeof err);
		CU_ASSERT_EQUAL(rc, -1);
		if (rc != -1 || strstr(err, bad[i].err) == NULL)
			fprintf(stderr, "\n  [%s]: rc %d err [%s]\n", bad[i].line, rc, err);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[i].err));
		CU_ASSERT_EQUAL(lv.depth, 0);   /* cleared on failure */
	}

	/* the writer refuses what the parser refuses */
	char buf[64];
	char why[128] = "";
	memset(&lv, 0, sizeof lv);
	CU_ASSERT_EQUAL(hub_level_write(buf, sizeof buf, &lv, why, sizeof why), -1);
	CU_ASSERT_STRING_EQUAL(why, "level needs depth, nodes, move-time, time or infinite");
	lv.infinite = 1;
	lv.depth = 3;
	CU_ASSERT_EQUAL(hub_level_write(buf, sizeof buf, &lv, why, sizeof why), -1);
	memset(&lv, 0, sizeof lv);
	lv.inc_ms = 100;
	CU_ASSERT_EQUAL(hub_level_write(buf, sizeof buf, &lv, why, sizeof why), -1);
	CU_ASSERT_STRING_EQUAL(why, "level moves= or inc= needs time=");
}

static void test_go(void)
{
	static const struct { const char *line; int rc; enum hub_go_mode mode; } cases[] = {
		{ "go think", 0, HUB_GO_THINK }, { "go ponder", 0, HUB_GO_PONDER },
		{ "go analyze", 0, HUB_GO_ANALYZE }, { "go", -1, 0 },
		{ "go think ponder", -1, 0 }, { "go sprint", -1, 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct hub_msg m;
		char err[128];
		enum hub_go_mode mode = (enum hub_go_mode)-1;
		CU_ASSERT_EQUAL_FATAL(parse(cases[i].line, &m, err, sizeof err), 0);
		CU_ASSERT_EQUAL(hub_go_parse(&m, &mode, err, sizeof err), cases[i].rc);
		if (cases[i].rc == 0) {
			CU_ASSERT_EQUAL(mode, cases[i].mode);
			/* the name is the flag it came from */
			CU_ASSERT_STRING_EQUAL(hub_go_name(mode), cases[i].line + 3);
		} else {
			CU_ASSERT_PTR_NOT_NULL(strstr(err, "go "));
		}
		hub_msg_free(&m);
	}
}

static void test_info_done(void)
{
	const char *pv[] = { "wS1", "bS1 wS1-", "wQ -wS1" };
	struct hub_info in = {
		.depth = 21, .has_score = 1, .score_cp = -1, .nodes = 31261613,
		.has_time = 1, .time_ms = 3906, .pv = pv, .pvlen = 3,
	};
	char buf[256], err[128];
	char why[128] = "";
	int n = hub_info_write(buf, sizeof buf, &in, why, sizeof why);
	/* 31261613 nodes / 3906 ms = 8003 nodes per ms = 8.003 million per second */
	const char *want = "info depth=21 score=-0.01 nodes=31261613 time=3.906 nps=8.003 "
			   "pv=\"wS1;bS1 wS1-;wQ -wS1\"";
	CU_ASSERT_STRING_EQUAL(buf, want);
	CU_ASSERT_EQUAL(n, (int)strlen(want));

	struct hub_msg m;
	struct hub_info back;
	const char *pvs;
	CU_ASSERT_EQUAL_FATAL(parse(buf, &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL_FATAL(hub_info_parse(&m, &back, &pvs, err, sizeof err), 0);
	CU_ASSERT(back.depth == 21 && back.has_score && back.score_cp == -1);
	CU_ASSERT(back.nodes == 31261613 && back.has_time && back.time_ms == 3906);
	CU_ASSERT_STRING_EQUAL(pvs, "wS1;bS1 wS1-;wQ -wS1");
	hub_msg_free(&m);

	/* only what is set */
	struct hub_info some = { .has_score = 1, .score_cp = 250 };
	CU_ASSERT_EQUAL(hub_info_write(buf, sizeof buf, &some, why, sizeof why), 14);
	CU_ASSERT_STRING_EQUAL(buf, "info score=2.5");
	struct hub_info none = { .has_time = 1, .time_ms = 0, .nodes = 5 };
	hub_info_write(buf, sizeof buf, &none, why, sizeof why);
	CU_ASSERT_STRING_EQUAL(buf, "info nodes=5 time=0");   /* no nps from zero time */

	/* a malformed known field is an error, and clears the output */
	CU_ASSERT_EQUAL_FATAL(parse("info depth=3 score=high pv=wS1", &m, err, sizeof err), 0);
	CU_ASSERT_EQUAL(hub_info_parse(&m, &back, &pvs, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad score 'high'"));
	CU_ASSERT_PTR_NULL(pvs);
	CU_ASSERT_EQUAL(back.depth, 0);
	hub_msg_free(&m);

	/* done */
	CU_ASSERT_EQUAL(hub_done_write(buf, sizeof buf, "wQ -wS1", "bA1 wQ-", why, sizeof why), 36);
	CU_ASSERT_STRING_EQUAL(buf, "done move=\"wQ -wS1\" ponder=\"bA1 wQ-\"");
	CU_ASSERT_EQUAL(hub_done_write(buf, sizeof buf, "wS1", NULL, why, sizeof why), 13);
	CU_ASSERT_STRING_EQUAL(buf, "done move=wS1");
	CU_ASSERT_EQUAL(hub_done_write(buf, sizeof buf, "pass", "", why, sizeof why), 14);
	CU_ASSERT_STRING_EQUAL(buf, "done move=pass");
	/* Hive MoveStrings with backslashes go through untouched, even at the end */
	struct hub_msg dm;
	CU_ASSERT_EQUAL(hub_done_write(buf, sizeof buf, "bQ bS1\\", "wA1 \\wS1", why, sizeof why), 37);
	CU_ASSERT_STRING_EQUAL(buf, "done move=\"bQ bS1\\\" ponder=\"wA1 \\wS1\"");
	CU_ASSERT_EQUAL_FATAL(parse(buf, &dm, err, sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(hub_msg_get(&dm, "move"), "bQ bS1\\");
	CU_ASSERT_STRING_EQUAL(hub_msg_get(&dm, "ponder"), "wA1 \\wS1");
	hub_msg_free(&dm);
	CU_ASSERT_EQUAL(hub_done_write(buf, sizeof buf, "", NULL, why, sizeof why), -1);
	CU_ASSERT_STRING_EQUAL(why, "done needs a move");
	CU_ASSERT_EQUAL(hub_done_write(buf, 10, "wQ -wS1", NULL, why, sizeof why), -1);
	CU_ASSERT_STRING_EQUAL(why, "the line does not fit the buffer");
}

static void test_error_line(void)
{
	char buf[64], err[128];
	struct hub_msg m;
	int n = hub_error_write(buf, sizeof buf, "bad \"pos\" at C:\\x\nsecond line");
	CU_ASSERT_STRING_EQUAL(buf, "error message=\"bad \"\"pos\"\" at C:\\x second line\"");
	CU_ASSERT_EQUAL(n, (int)strlen(buf));
	CU_ASSERT_EQUAL_FATAL(parse(buf, &m, err, sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(m.cmd, "error");
	CU_ASSERT_STRING_EQUAL(hub_msg_get(&m, "message"), "bad \"pos\" at C:\\x second line");
	hub_msg_free(&m);

	/* a parse error rendered as an error line reads back as the same message */
	char perr[128];
	CU_ASSERT_EQUAL(parse("go x=\"ab\"cd", &m, perr, sizeof perr), -1);
	hub_msg_free(&m);
	char line[256];
	hub_error_write(line, sizeof line, perr);
	CU_ASSERT_EQUAL_FATAL(parse(line, &m, err, sizeof err), 0);
	CU_ASSERT_STRING_EQUAL(hub_msg_get(&m, "message"), perr);
	hub_msg_free(&m);

	/* truncation never splits an escape or a UTF-8 character */
	const char *msg = "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9";   /* 4 x e-acute, 8 bytes */
	for (size_t cap = 17; cap < 30; cap++) {
		n = hub_error_write(buf, cap, msg);
		CU_ASSERT_FATAL(n > 0 && (size_t)n < cap);
		CU_ASSERT_EQUAL_FATAL(parse(buf, &m, err, sizeof err), 0);
		const char *v = hub_msg_get(&m, "message");
		size_t k = strlen(v);
		CU_ASSERT(k % 2 == 0 && memcmp(v, msg, k) == 0);
		hub_msg_free(&m);
	}
	for (size_t cap = 17; cap < 24; cap++) {
		n = hub_error_write(buf, cap, "\"\"\"\"");
		CU_ASSERT_EQUAL_FATAL(parse(buf, &m, err, sizeof err), 0);
		CU_ASSERT_EQUAL(strspn(hub_msg_get(&m, "message"), "\""), strlen(hub_msg_get(&m, "message")));
		hub_msg_free(&m);
	}
	CU_ASSERT_EQUAL(hub_error_write(buf, 16, "x"), -1);
	CU_ASSERT_EQUAL(hub_error_write(buf, 17, "x"), 16);
	CU_ASSERT_STRING_EQUAL(buf, "error message=\"\"");
}

/* Strips the "    > " or "    < " marker and a trailing "  # comment"; returns the
 * direction ('>' or '<') or 0 for a line that is not an example. */
static int doc_example(char *line)
{
	size_t n = strlen(line);
	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = '\0';
	if (n < 6 || strncmp(line, "    ", 4) != 0 || (line[4] != '>' && line[4] != '<') ||
	    line[5] != ' ')
		return 0;
	int dir = line[4];
	char *hash = strstr(line, "  #");
	if (hash != NULL)
		*hash = '\0';
	n = strlen(line);
	while (n > 0 && line[n - 1] == ' ')
		line[--n] = '\0';
	memmove(line, line + 6, strlen(line + 6) + 1);
	return dir;
}

/* Checks that a refused GUI line is answered, in the document, with its exact error. */
static void doc_check_error(const char *line, const char *reason, const char *next)
{
	char want[512];
	hub_error_write(want, sizeof want, reason);
	if (strcmp(want, next) != 0)
		fprintf(stderr, "\n  doc: [%s] should be answered [%s], not [%s]\n", line, want, next);
	CU_ASSERT_STRING_EQUAL(want, next);
}

/*
 * Every example line of docs/hub-hive.md goes through the codec: engine lines must be
 * exactly what the writer makes of them, refused GUI lines must be followed by the
 * codec's own error line, and the quoting table must be what the writer does.
 */
static void test_doc(void)
{
	FILE *f = fopen("docs/hub-hive.md", "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	char lines[400][512];
	int dirs[400];
	size_t n = 0, table = 0;
	int in_table = 0;
	char buf[512];
	while (n < 400 && fgets(buf, sizeof buf, f) != NULL) {
		/* the quoting table: | `value` | `written` | */
		char v[128], wr[128];
		if (strstr(buf, "| value") != NULL && strstr(buf, "| written as") != NULL)
			in_table = 1;
		else if (strspn(buf, " \n") == strlen(buf))
			in_table = 0;
		if (in_table && (sscanf(buf, " | `%127[^`]` | `%127[^`]` |", v, wr) == 2 ||
		    (sscanf(buf, " | (empty) | `%127[^`]` |", wr) == 1 && (v[0] = '\0', 1)))) {
			struct span_writer w;
			char out[256], want[256];
			hub_writer_begin(&w, out, sizeof out, "x");
			hub_writer_add(&w, "v", v);
			CU_ASSERT(hub_writer_end(&w) > 0);
			snprintf(want, sizeof want, "x v=%s", wr);
			CU_ASSERT_STRING_EQUAL(out, want);
			table++;
			continue;
		}
		int dir = doc_example(buf);
		if (dir == 0 || strcmp(buf, "...") == 0)
			continue;
		strcpy(lines[n], buf);
		dirs[n++] = dir;
	}
	fclose(f);
	CU_ASSERT(table >= 8);
	CU_ASSERT(n >= 60);

	for (size_t i = 0; i < n; i++) {
		struct hub_msg m;
		char err[256], out[512];
		const char *next = i + 1 < n && dirs[i + 1] == '<' ? lines[i + 1] : "";
		int rc = hub_line_parse(lines[i], strlen(lines[i]), &m, err, sizeof err);
		if (dirs[i] == '<') {
			/* the engine's lines are canonical */
			CU_ASSERT_EQUAL(rc, 0);
			if (rc == 0 && (hub_msg_write(&m, out, sizeof out, NULL, 0) < 0 ||
					strcmp(out, lines[i]) != 0)) {
				fprintf(stderr, "\n  doc: [%s] is not canonical\n", lines[i]);
				CU_FAIL("engine line not canonical");
			}
			struct hub_info in;
			const char *pv;
			if (rc == 0 && strcmp(m.cmd, "info") == 0)
				CU_ASSERT_EQUAL(hub_info_parse(&m, &in, &pv, err, sizeof err), 0);
			if (rc == 0 && strcmp(m.cmd, "done") == 0)
				CU_ASSERT_PTR_NOT_NULL(hub_msg_get(&m, "move"));
		} else if (rc == -1) {
			doc_check_error(lines[i], err, next);
		} else if (strcmp(m.cmd, "level") == 0) {
			struct hub_level lv;
			if (hub_level_parse(&m, &lv, err, sizeof err) == -1)
				doc_check_error(lines[i], err, next);
		} else if (strcmp(m.cmd, "go") == 0) {
			enum hub_go_mode mode;
			if (hub_go_parse(&m, &mode, err, sizeof err) == -1)
				doc_check_error(lines[i], err, next);
		}
		hub_msg_free(&m);
	}
}

static const struct unit_test tests[] = {
	{ "basic", test_basic },
	{ "quoting", test_quoting },
	{ "flags", test_flags },
	{ "unknown", test_unknown },
	{ "length", test_length },
	{ "errors", test_errors },
	{ "writer_errors", test_writer_errors },
	{ "round_trip", test_round_trip },
	{ "list", test_list },
	{ "decimal", test_decimal },
	{ "level", test_level },
	{ "go", test_go },
	{ "info_done", test_info_done },
	{ "error_line", test_error_line },
	{ "doc", test_doc },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "hub_codec",
	.tests = tests,
};
