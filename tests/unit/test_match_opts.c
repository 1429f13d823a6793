/*
 * test_match_opts.c: the options of `match`, `tournament` and `worker`, one table
 * (bridge/match/match_opts.c): every row is in its command's --help and in the man
 * page, every option a --help names is a row, so that the hand-formatted texts and
 * the table cannot drift; and the walker's defaults, ranges and forms.
 */
#include <CUnit/Basic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/match/match_int.h"
#include "bridge/referee.h"
#include "tests/unit/unit.h"

static const struct {
	unsigned    bit;
	const char *name;
} cmds[] = {
	{ MATCH_CMD_MATCH, "match" },
	{ MATCH_CMD_TOURNAMENT, "tournament" },
	{ MATCH_CMD_WORKER, "worker" },
};
#define NCMDS (sizeof cmds / sizeof cmds[0])

/* The --help text of cmd; the caller frees it. */
static char *help_of(unsigned cmd)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	match_help(f, cmd);
	fclose(f);
	return buf;
}

static int optchar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
}

/* Whether text holds the option name as a whole word. */
static int names(const char *text, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = text; (p = strstr(p, name)); p++)
		if ((p == text || !optchar(p[-1])) && !optchar(p[n]))
			return 1;
	return 0;
}

/* The row of that name that cmd takes. */
static int row_of(unsigned cmd, const char *name, size_t len)
{
	unsigned c;
	const char *r;
	for (size_t i = 0; (r = match_option_name(i, &c)); i++)
		if ((c & cmd) && strlen(r) == len && !strncmp(r, name, len))
			return 1;
	return 0;
}

/* Every row is named in text[k] of each command k that takes it, or in also (when
 * not NULL), or for tournament in match's text: tournament takes match's options
 * and sends there for them. what: where the texts are, for the message. */
static void rows_named(char *const text[NCMDS], const char *also, const char *what)
{
	unsigned c;
	const char *r;

	for (size_t i = 0; (r = match_option_name(i, &c)); i++)
		for (size_t k = 0; k < NCMDS; k++) {
			if (!(c & cmds[k].bit))
				continue;
			int ok = names(text[k], r) || (also && names(also, r)) ||
				 (cmds[k].bit == MATCH_CMD_TOURNAMENT && (c & MATCH_CMD_MATCH) && names(text[0], r));
			if (!ok)
				fprintf(stderr, "%s of %s lacks %s\n", what, cmds[k].name, r);
			CU_ASSERT(ok);
		}
}

static void test_rows_in_help(void)
{
	char *help[NCMDS];

	for (size_t k = 0; k < NCMDS; k++)
		help[k] = help_of(cmds[k].bit);
	rows_named(help, NULL, "--help");
	for (size_t k = 0; k < NCMDS; k++)
		free(help[k]);
}

static void test_help_in_rows(void)
{
	for (size_t k = 0; k < NCMDS; k++) {
		char *help = help_of(cmds[k].bit);
		for (const char *p = help; (p = strstr(p, "--")); ) {
			size_t n = 2;
			while (optchar(p[n]))
				n++;
			/* --help itself is the walker's (and match --help, tournament's pointer). */
			int ok = n == 2 || (n == 6 && !strncmp(p, "--help", 6)) || row_of(cmds[k].bit, p, n);
			if (!ok)
				fprintf(stderr, "%s --help names %.*s, which is not in the table\n", cmds[k].name,
					(int)n, p);
			CU_ASSERT(ok);
			p += n;
		}
		free(help);
	}
}

/* The man page with "\-" as "-"; the section from the line starting with from up to
 * the next ".SH" or ".SS" line. The caller frees it. */
static char *man_section(const char *from)
{
	FILE *f = fopen("docs/hivebridge.1", "r");
	char *out = NULL, *line = NULL;
	size_t olen = 0, cap = 0;
	int in = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	FILE *o = open_memstream(&out, &olen);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	while (getline(&line, &cap, f) >= 0) {
		if (!strncmp(line, ".SH", 3) || !strncmp(line, ".SS", 3))
			in = !strncmp(line, from, strlen(from));
		for (const char *p = line; in && *p; p++)
			if (!(p[0] == '\\' && p[1] == '-'))
				fputc(*p, o);
	}
	free(line);
	fclose(f);
	fclose(o);
	return out;
}

static void test_rows_in_man(void)
{
	char *sec[NCMDS], *global = man_section(".SH OPTIONS");

	for (size_t k = 0; k < NCMDS; k++) {
		char head[64];
		snprintf(head, sizeof head, ".SS \"hivebridge %s\"", cmds[k].name);
		sec[k] = man_section(head);
		CU_ASSERT(strlen(sec[k]) > 100);
	}
	/* Its command's section or OPTIONS (--config, --log). */
	rows_named(sec, global, "docs/hivebridge.1's section");
	for (size_t k = 0; k < NCMDS; k++)
		free(sec[k]);
	free(global);
}

static int parse(unsigned cmd, struct match_opts *o, ...)
{
	char *argv[32] = { "hivebridge" };
	int argc = 1;
	va_list ap;
	va_start(ap, o);
	for (char *a; argc < 31 && (a = va_arg(ap, char *)); )
		argv[argc++] = a;
	va_end(ap);
	return match_options_parse(argc, argv, cmd, o);
}

static void test_parse(void)
{
	struct match_opts o;

	/* The table's defaults, each command its own. */
	CU_ASSERT_EQUAL(parse(MATCH_CMD_MATCH, &o, "a", "b", NULL), 0);
	CU_ASSERT_EQUAL(o.nspec, 2);
	CU_ASSERT_EQUAL(o.concurrency, 1);
	CU_ASSERT_EQUAL(o.max_plies, REFEREE_MAX_PLIES);
	CU_ASSERT_EQUAL(o.repetition, REFEREE_REPETITION);
	CU_ASSERT_EQUAL(o.max_move_ms, 0);
	CU_ASSERT_EQUAL(o.claim_ms, 0);
	CU_ASSERT_EQUAL(parse(MATCH_CMD_WORKER, &o, NULL), 0);
	CU_ASSERT_EQUAL(o.concurrency, 1);
	CU_ASSERT_EQUAL(o.max_move_ms, MATCH_MAX_MOVE_MS);
	CU_ASSERT_EQUAL(o.claim_ms, MATCH_CLAIM_MS);
	CU_ASSERT_EQUAL(o.max_plies, 0);

	/* Both forms, every kind, the "was set" flags. */
	CU_ASSERT_EQUAL(parse(MATCH_CMD_TOURNAMENT, &o, "--games=4", "--depth", "3", "--type", "Base+MLP",
			      "--sprt", "0,5", "--gauntlet", "--anchor", "x", "--clock=1000+10",
			      "--movetime", "86400000", "--repetition", "0", "--max-plies", "60000",
			      "--sprt-model=trinomial", "--results", "r", "-", "x", "y", NULL), 0);
	CU_ASSERT(o.games == 4 && o.games_set && o.depth == 3 && o.type_set && o.sprt_set);
	CU_ASSERT(o.gauntlet && !strcmp(o.anchor, "x") && o.clock_ms == 1000 && o.inc_ms == 10);
	CU_ASSERT(o.movetime_ms == 86400000ULL && o.repetition == 0 && o.max_plies == 60000);
	CU_ASSERT(o.sprt_trinomial && !strcmp(o.results_path, "r") && o.nspec == 3);
	CU_ASSERT_STRING_EQUAL(o.spec[0], "-");
	CU_ASSERT_EQUAL(parse(MATCH_CMD_WORKER, &o, "--queue", "q", "--name=w1", "--claim-after", "100",
			      "--max-move-ms=86400000", "--allow-engine-commands", "--concurrency", "64",
			      NULL), 0);
	CU_ASSERT(!strcmp(o.queue, "q") && !strcmp(o.worker_name, "w1") && o.claim_ms == 100);
	CU_ASSERT(o.max_move_ms == 86400000ULL && o.allow_commands && o.concurrency == 64);
	CU_ASSERT_EQUAL(parse(MATCH_CMD_MATCH, &o, "--help", NULL), 1);
	CU_ASSERT_EQUAL(parse(MATCH_CMD_WORKER, &o, "-h", NULL), 1);

	/* Out of range, of another command, misspelt, a flag given a value, no value. */
	char *bad[][2] = {
		{ "--games", "0" }, { "--max-plies", "0" }, { "--repetition", "1" },
		{ "--repetition", "1001" }, { "--live-expiry", "99" }, { "--clock", "0" },
		{ "--clock", "1+x" }, { "--sprt-model", "x" }, { "--type", "Chess" },
		{ "--sprt", "5,0" }, { "--depth", "65" }, { "--gauntlet", "x" }, { "--anchor", "x" },
		{ "--resume=1" }, { "--bogus", "1" }, { "--games" }, { "--name", "w" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CU_ASSERT_EQUAL(parse(MATCH_CMD_MATCH, &o, bad[i][0], bad[i][1], NULL), -1);
	CU_ASSERT_EQUAL(parse(MATCH_CMD_MATCH, &o, "a", "b", "c", NULL), -1);
	CU_ASSERT_EQUAL(parse(MATCH_CMD_WORKER, &o, "a", NULL), -1);
	CU_ASSERT_EQUAL(parse(MATCH_CMD_WORKER, &o, "--name", "a b", NULL), -1);
	CU_ASSERT_EQUAL(parse(MATCH_CMD_WORKER, &o, "--claim-after", "99", NULL), -1);
	CU_ASSERT_EQUAL(parse(MATCH_CMD_WORKER, &o, "--games", "2", NULL), -1);
}

static const struct unit_test tests[] = {
	{ "every option in its --help", test_rows_in_help },
	{ "every option --help names in the table", test_help_in_rows },
	{ "every option in the man page", test_rows_in_man },
	{ "parsing", test_parse },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "match_opts",
	.tests = tests,
};
