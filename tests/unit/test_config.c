/*
 * test_config.c: the embedded defaults, and good and bad INI files written to a
 * temporary directory (each bad one must fail with the right line number).
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bridge/config.h"
#include "tests/unit/unit.h"

static char tmpdir[] = "/tmp/test_config.XXXXXX";
static char path[256];

static void write_file(const char *text)
{
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

/* Loads text over the defaults; returns config_load's result, cause (512 bytes) on
 * failure, "" on success. */
static int load(struct config *c, const char *text, char *cause)
{
	write_file(text);
	config_defaults(c);
	cause[0] = 0;
	return config_load(c, path, cause, 512);
}

static void test_defaults(void)
{
	struct config c;
	config_defaults(&c);
	CU_ASSERT_EQUAL(c.max_sessions, 1000);
	CU_ASSERT_EQUAL(c.max_line, 65536);
	CU_ASSERT_EQUAL(c.max_buffer, 1048576);
	/* Issue 10's budgets hold without a configuration file. */
	CU_ASSERT_EQUAL(c.max_sessions_per_peer, 32);
	CU_ASSERT_EQUAL(c.hash_budget_mb, 512);
	CU_ASSERT_EQUAL(c.search_threads, 0);
	CU_ASSERT_EQUAL(c.hash_idle_timeout, 60);
	CU_ASSERT_EQUAL(c.busy_poll_us, 0);
	CU_ASSERT_PTR_NULL(c.log_path);
	CU_ASSERT_EQUAL_FATAL(c.nprofiles, 1);
	const struct engine_profile *p = config_profile(&c, "builtin");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->kind, "builtin");
	CU_ASSERT_EQUAL(p->hash_mb, 16);
	CU_ASSERT_EQUAL(p->hash_mb_max, 256);
	CU_ASSERT_PTR_NULL(p->argv);
	/* One listener per protocol, all on loopback with the built-in engine. */
	CU_ASSERT_EQUAL_FATAL(c.nlisteners, 3);
	const char *protos[] = { "uhp", "hub", "trylobot" };
	unsigned ports[] = { 5000, 5002, 51337 };
	for (int i = 0; i < 3; i++) {
		CU_ASSERT_STRING_EQUAL(c.listeners[i].protocol, protos[i]);
		CU_ASSERT_STRING_EQUAL(c.listeners[i].address, "127.0.0.1");
		CU_ASSERT_EQUAL(c.listeners[i].port, ports[i]);
		CU_ASSERT_STRING_EQUAL(c.listeners[i].engine, "builtin");
		/* A silent client is closed by default (300 s, an hour in a game). */
		CU_ASSERT_EQUAL(c.listeners[i].idle_timeout_ms, 300 * 1000);
		CU_ASSERT_EQUAL(c.listeners[i].game_idle_timeout_ms, 3600 * 1000);
		CU_ASSERT_EQUAL(c.listeners[i].max_depth, 32);
		CU_ASSERT_EQUAL(c.listeners[i].max_think_ms, 60000);
	}
	CU_ASSERT_PTR_NULL(config_profile(&c, "nosuch"));
	config_free(&c);
}

static void test_good_file(void)
{
	struct config c;
	char cause[512] = "";
	int rc = load(&c,
		"; a comment\n"
		"# another\n"
		"[daemon]\n"
		"log = /tmp/hb.log\n"
		"max_sessions = 20\n"
		"max_line = 4096\n"
		"max_buffer = 65536\n"
		"busy_poll_us = 150\n"
		"\n"
		"[engine mzinga]\n"
		"kind = uhp\n"
		"command = ./engine \"two words\" 'single \"q\"' back\\ slash \"esc\\\"aped\"\n"
		"workdir = /opt/mzinga\n"
		"start_timeout = 2.5\n"
		"command_timeout = 3\n"
		"stop_timeout = 0.25\n"
		"option = MaxHelperThreads None\n"
		"option = PonderDuringIdle Disabled\n"
		"option = MaxHelperThreads 2\n"
		"\n"
		"[engine builtin]\n"
		"hash_mb = 128\n"
		"hash_mb_max = 512\n"
		"\n"
		"[listen uhp]\n"
		"port = 5001\n"
		"\n"
		"[listen other]\n"
		"protocol = uhp\n"
		"address = ::1\n"
		"port = 0\n"
		"engine = mzinga\n"
		"think_time = 0.25\n"
		"depth = 3\n",
		cause);
	if (rc < 0)
		fprintf(stderr, "unexpected: %s\n", cause);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_STRING_EQUAL(c.log_path, "/tmp/hb.log");
	CU_ASSERT_EQUAL(c.max_sessions, 20);
	CU_ASSERT_EQUAL(c.max_line, 4096);
	CU_ASSERT_EQUAL(c.max_buffer, 65536);
	CU_ASSERT_EQUAL(c.busy_poll_us, 150);

	const struct engine_profile *p = config_profile(&c, "mzinga");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->kind, "uhp");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p->argv);
	const char *want[] = { "./engine", "two words", "single \"q\"", "back slash", "esc\"aped", NULL };
	for (int i = 0; want[i]; i++) {
		CU_ASSERT_PTR_NOT_NULL_FATAL(p->argv[i]);
		CU_ASSERT_STRING_EQUAL(p->argv[i], want[i]);
	}
	CU_ASSERT_PTR_NULL(p->argv[5]);
	CU_ASSERT_STRING_EQUAL(p->workdir, "/opt/mzinga");
	CU_ASSERT_EQUAL(p->start_timeout_ms, 2500);
	CU_ASSERT_EQUAL(p->command_timeout_ms, 3000);
	CU_ASSERT_EQUAL(p->stop_timeout_ms, 250);
	CU_ASSERT_EQUAL_FATAL(p->noptions, 2);
	CU_ASSERT_STRING_EQUAL(p->options[0][0], "MaxHelperThreads");
	CU_ASSERT_STRING_EQUAL(p->options[0][1], "2");
	CU_ASSERT_STRING_EQUAL(p->options[1][0], "PonderDuringIdle");
	CU_ASSERT_STRING_EQUAL(p->options[1][1], "Disabled");

	CU_ASSERT_EQUAL(config_profile(&c, "builtin")->hash_mb, 128);
	CU_ASSERT_EQUAL(config_profile(&c, "builtin")->hash_mb_max, 512);
	CU_ASSERT_EQUAL_FATAL(c.nlisteners, 2);
	CU_ASSERT_EQUAL(c.listeners[0].port, 5001);
	CU_ASSERT_STRING_EQUAL(c.listeners[0].address, "127.0.0.1");
	CU_ASSERT_STRING_EQUAL(c.listeners[1].name, "other");
	CU_ASSERT_STRING_EQUAL(c.listeners[1].address, "::1");
	CU_ASSERT_EQUAL(c.listeners[0].think_ms, 1000);
	CU_ASSERT_EQUAL(c.listeners[0].depth, 0);
	CU_ASSERT_EQUAL(c.listeners[1].think_ms, 250);
	CU_ASSERT_EQUAL(c.listeners[1].depth, 3);
	CU_ASSERT_EQUAL(c.listeners[1].port, 0);
	CU_ASSERT_STRING_EQUAL(c.listeners[1].engine, "mzinga");
	config_free(&c);
	CU_ASSERT_EQUAL(c.nprofiles, 0);
	CU_ASSERT_PTR_NULL(c.profiles);
}

/* Each bad file fails, and the cause names the line and the problem. */
static void test_bad_files(void)
{
	static const struct {
		const char *text;
		const char *line;     /* "line N:" expected in the cause, or NULL */
		const char *words;    /* a fragment of the cause */
	} bad[] = {
		{ "[daemon]\nmax_sessions = 10\nfrobnicate = 1\n", "line 3:", "frobnicate" },
		{ "[daemon]\n\n; c\nmax_sessions = ten\n", "line 4:", "max_sessions" },
		{ "[daemon]\nmax_sessions = 0\n", "line 2:", "max_sessions" },
		{ "[daemon]\nmax_line = 12\n", "line 2:", "max_line" },
		{ "[daemon]\nmax_buffer = -5\n", "line 2:", "max_buffer" },
		{ "[bogus]\nx = 1\n", "line 2:", "bogus" },
		{ "x = 1\n", "line 1:", "outside" },
		{ "[engine e]\ncommand = ./e \"unterminated\n", "line 2:", "quote" },
		{ "[engine e]\ncommand = ./e\nkind = lisp\n", "line 3:", "lisp" },
		{ "[engine e]\ncommand = ./e\nstart_timeout = 0\n", "line 3:", "start_timeout" },
		{ "[engine e]\ncommand = ./e\ncommand_timeout = soon\n", "line 3:", "command_timeout" },
		{ "[engine e]\ncommand = ./e\nhash_mb = 0\n", "line 3:", "hash_mb" },
		{ "[engine e]\ncommand = ./e\noption = Lonely\n", "line 3:", "option" },
		{ "[engine e]\ncommand = ./e\nspeed = 11\n", "line 3:", "speed" },
		{ "[listen l]\nport = 70000\n", "line 2:", "port" },
		{ "[listen l]\naddress = localhost\n", "line 2:", "address" },
		{ "[listen l]\nprotocol = gopher\n", "line 2:", "gopher" },
		{ "[listen l]\nthink_time = 0\n", "line 2:", "think_time" },
		{ "[listen l]\ndepth = 65\n", "line 2:", "depth" },
		{ "[listen l]\nport = 6000\nengine = ghost\n", NULL, "ghost" },
		{ "[engine e]\nkind = uhp\n", NULL, "command" },
		{ "[listen a]\nport = 6000\n[listen b]\nport = 6000\n", NULL, "6000" },
		{ "[daemon\nmax_sessions = 1\n", "line 1:", "syntax" },
		{ "[daemon]\nmax_sessions_per_peer = 0\n", "line 2:", "max_sessions_per_peer" },
		{ "[daemon]\nhash_budget_mb = 0\n", "line 2:", "hash_budget_mb" },
		{ "[daemon]\nsearch_threads = 257\n", "line 2:", "search_threads" },
		{ "[daemon]\nhash_idle_timeout = 86401\n", "line 2:", "hash_idle_timeout" },
		{ "[daemon]\nhash_idle_timeout = 1s\n", "line 2:", "hash_idle_timeout" },
		{ "[daemon]\nbusy_poll_us = 10001\n", "line 2:", "busy_poll_us" },
		{ "[daemon]\nbusy_poll_us = -1\n", "line 2:", "busy_poll_us" },
		{ "[daemon]\nbusy_poll_us = 50us\n", "line 2:", "busy_poll_us" },
		{ "[listen l]\nidle_timeout = -1\n", "line 2:", "idle_timeout" },
		{ "[listen l]\ngame_idle_timeout = 86401\n", "line 2:", "game_idle_timeout" },
		{ "[listen l]\nmax_depth = 65\n", "line 2:", "max_depth" },
		{ "[listen l]\nmax_think_time = 0\n", "line 2:", "max_think_time" },
		{ "[engine t]\nkind = trylobot\nexpansions = MLX\n", "line 3:", "expansions" },
		{ "[engine t]\nkind = trylobot\nexpansions = MM\n", "line 3:", "expansions" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct config c;
		char cause[512] = "";
		int rc = load(&c, bad[i].text, cause);
		CU_ASSERT_EQUAL(rc, -1);
		CU_ASSERT(cause[0] != 0);
		if (rc != -1 || !cause[0]) {
			fprintf(stderr, "case %zu loaded\n", i);
		} else {
			int ok = strstr(cause, bad[i].words) != NULL &&
				 (!bad[i].line || strstr(cause, bad[i].line) != NULL) &&
				 strstr(cause, path) != NULL;
			if (!ok)
				fprintf(stderr, "case %zu: cause \"%s\"\n", i, cause);
			CU_ASSERT(ok);
		}
		config_free(&c);
	}
}

static void test_too_many_options(void)
{
	char text[4096];
	size_t n = (size_t)snprintf(text, sizeof text, "[engine e]\ncommand = ./e\n");
	for (int i = 0; i <= CONFIG_MAX_OPTIONS; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "option = O%d %d\n", i, i);
	struct config c;
	char cause[512] = "";
	CU_ASSERT_EQUAL(load(&c, text, cause), -1);
	CU_ASSERT_FATAL(cause[0] != 0);
	char want[32];
	snprintf(want, sizeof want, "line %d:", CONFIG_MAX_OPTIONS + 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(cause, want));
	config_free(&c);
}

/* Loads len bytes (NULs included) over the defaults. */
static int load_bytes(struct config *c, const char *text, size_t len, char *cause)
{
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fwrite(text, 1, len, f);
	fclose(f);
	config_defaults(c);
	cause[0] = 0;
	return config_load(c, path, cause, 512);
}

/* text must fail with "line N:" and words in the cause. */
static void must_fail(const char *text, size_t len, const char *line, const char *words)
{
	struct config c;
	char cause[512] = "";
	CU_ASSERT_EQUAL(load_bytes(&c, text, len, cause), -1);
	CU_ASSERT_FATAL(cause[0] != 0);
	int ok = strstr(cause, line) && strstr(cause, words) && strstr(cause, path);
	if (!ok)
		fprintf(stderr, "cause \"%s\", want %s %s\n", cause, line, words);
	CU_ASSERT(ok);
	config_free(&c);
}

static void test_long_line(void)
{
	char text[1024];
	struct config c;
	char cause[512] = "";

	/* 198 bytes is the most (inih's 200-byte buffer, with the newline and NUL). */
	strcpy(text, "[engine e]\ncommand = ./e ");
	size_t head = strlen(text), line2 = strlen("command = ./e ");
	memset(text + head, 'x', 198 - line2);
	strcpy(text + head + 198 - line2, "\r\n");
	CU_ASSERT_EQUAL(load(&c, text, cause), 0);
	CU_ASSERT_EQUAL(cause[0], 0);
	const struct engine_profile *p = config_profile(&c, "e");
	CU_ASSERT(p && p->argv && p->argv[1] && strlen(p->argv[1]) == 198 - line2);
	config_free(&c);

	memset(text + head, 'x', 199 - line2);
	strcpy(text + head + 199 - line2, "\n");
	must_fail(text, strlen(text), "line 2:", "199 bytes long, over the limit of 198 bytes");
	memset(text + head, 'x', 600);
	strcpy(text + head + 600, "\n");
	must_fail(text, strlen(text), "line 2:", "over the limit of 198 bytes");

	/* A comment too: inih's own reader (the [queue] password's) would cut it. */
	strcpy(text, "[daemon]\n; ");
	head = strlen(text);
	memset(text + head, 'c', 700);
	strcpy(text + head + 700, "\nmax_sessions = 7\n");
	must_fail(text, strlen(text), "line 2:", "702 bytes long, over the limit of 198 bytes");
}

/* inih reads an indented line as the continuation of the value above (the handler
 * then sees that name again with the new value): an error here, whatever comes
 * between; indented comments stay comments. */
static void test_continuation(void)
{
	static const char t1[] = "[listen l]\naddress = 127.0.0.1\n  0.0.0.0\n";
	static const char t2[] = "[daemon]\nmax_sessions = 10\n\n; c\n\t20\n";
	static const char t3[] = "[daemon]\n  max_sessions = 10\n";
	static const char t4[] = "[daemon]\nmax_sessions = 10\n   ; an indented comment\n\t# another\n";
	struct config c;
	char cause[512] = "";

	must_fail(t1, sizeof t1 - 1, "line 3:", "indented line");
	must_fail(t2, sizeof t2 - 1, "line 5:", "indented line");
	must_fail(t3, sizeof t3 - 1, "line 2:", "indented line");
	/* inih's blanks are isspace(): \f, \v and \r lead a continuation too, and
	 * "\f;" starts a comment (a CR at the line's end is its line end). */
	static const char t5[] = "[listen l]\naddress = 127.0.0.1\n\f127.0.0.2\n";
	static const char t6[] = "[listen l]\naddress = 127.0.0.1\n\v127.0.0.2\n";
	static const char t7[] = "[listen l]\naddress = 127.0.0.1\n\r127.0.0.2\n";
	static const char t8[] = "[listen l]\naddress = 127.0.0.2\f; 127.0.0.1 meant\n";
	static const char t9[] = "[daemon]\r\nmax_sessions = 10\r\n";
	must_fail(t5, sizeof t5 - 1, "line 3:", "control byte (0x0c)");
	must_fail(t6, sizeof t6 - 1, "line 3:", "control byte (0x0b)");
	must_fail(t7, sizeof t7 - 1, "line 3:", "control byte (0x0d)");
	must_fail(t8, sizeof t8 - 1, "line 2:", "control byte (0x0c)");
	CU_ASSERT_EQUAL(load(&c, t9, cause), 0);
	CU_ASSERT_EQUAL(c.max_sessions, 10);
	config_free(&c);
	CU_ASSERT_EQUAL(load(&c, t4, cause), 0);
	CU_ASSERT_EQUAL(c.max_sessions, 10);
	config_free(&c);
}

/* inih ends a line at a NUL: what follows it must not vanish silently. */
static void test_nul(void)
{
	static const char t1[] = "[daemon]\nmax_sessions = 10\0 20\nmax_line = 4096\n";
	static const char t2[] = "[daemon]\n; a comment\0\n";
	must_fail(t1, sizeof t1 - 1, "line 2:", "NUL");
	must_fail(t2, sizeof t2 - 1, "line 2:", "NUL");
}

/* " ;" starts an inline comment for inih: an error; ';' inside a word is text. */
/* A Trylobot module's expansions: Base only unless the profile names them. */
static void test_expansions(void)
{
	static const struct { const char *value; unsigned bits; } cases[] = {
		{ NULL, 0 }, { "none", 0 }, { "MLP", 7 }, { "PL", 6 }, { "M", 1 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[128];
		struct config c;
		char cause[512] = "";
		snprintf(text, sizeof text, "[engine t]\nkind = trylobot\nhost = 127.0.0.1\nport = 1\n%s%s\n",
			 cases[i].value ? "expansions = " : "", cases[i].value ? cases[i].value : "");
		CU_ASSERT_EQUAL_FATAL(load(&c, text, cause), 0);
		CU_ASSERT_EQUAL(config_profile(&c, "t")->expansions, cases[i].bits);
		config_free(&c);
	}
}

static void test_inline_comment(void)
{
	static const char t1[] = "[daemon]\nmax_sessions = 10 ; ten\n";
	static const char t2[] = "[engine e]\ncommand = sh -c 'a\t;b'\n";
	static const char t3[] = "[engine e] ; the engine\ncommand = ./e\n";
	static const char t4[] = "# full line\n; full line\n[engine e]\ncommand = ./e a;b #c\n";
	struct config c;
	char cause[512] = "";

	must_fail(t1, sizeof t1 - 1, "line 2:", "\" ;\" starts a comment");
	must_fail(t2, sizeof t2 - 1, "line 2:", "\" ;\" starts a comment");
	must_fail(t3, sizeof t3 - 1, "line 1:", "\" ;\" starts a comment");
	CU_ASSERT_EQUAL(load(&c, t4, cause), 0);
	const struct engine_profile *p = config_profile(&c, "e");
	CU_ASSERT(p && p->argv && p->argv[1] && !strcmp(p->argv[1], "a;b") &&
		  p->argv[2] && !strcmp(p->argv[2], "#c"));
	config_free(&c);
}

static void test_missing_file(void)
{
	struct config c;
	char cause[512] = "";
	config_defaults(&c);
	CU_ASSERT_EQUAL(config_load(&c, "/nonexistent/hivebridge.conf", cause, sizeof cause), -1);
	CU_ASSERT_FATAL(cause[0] != 0);
	CU_ASSERT_STRING_EQUAL(cause, "/nonexistent/hivebridge.conf: cannot open: No such file or directory");
	cause[0] = 0;
	/* fopen takes a directory, which then reads as an empty file. */
	CU_ASSERT_EQUAL(config_load(&c, tmpdir, cause, sizeof cause), -1);
	CU_ASSERT_FATAL(cause[0] != 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(cause, "Is a directory"));
	config_free(&c);
}

/* A file that names a listener gets exactly its listeners, not the defaults too. */
static void test_listeners_replace(void)
{
	struct config c;
	char cause[512] = "";
	int rc = load(&c, "[listen h]\nprotocol = hub\nport = 0\n", cause);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL_FATAL(c.nlisteners, 1);
	CU_ASSERT_STRING_EQUAL(c.listeners[0].protocol, "hub");
	config_free(&c);
	/* A file without listeners keeps the three defaults. */
	rc = load(&c, "[daemon]\nmax_sessions = 5\n", cause);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(c.nlisteners, 3);
	config_free(&c);
}

/* Every ENGINE form, parsed by the one function. */
static void test_engine_parse(void)
{
	struct config c;
	char cause[512] = "";
	int depth = -1;
	const struct engine_profile *p;

	CU_ASSERT_EQUAL_FATAL(load(&c, "[engine mz]\ncommand = /bin/true\n", cause), 0);
	p = config_engine_parse(&c, "builtin", &depth, cause, sizeof cause);
	CU_ASSERT(p && !strcmp(p->kind, "builtin") && depth == 0);
	p = config_engine_parse(&c, "builtin:depth=3", &depth, cause, sizeof cause);
	CU_ASSERT(p && !strcmp(p->name, "builtin") && depth == 3);
	CU_ASSERT_PTR_NULL(config_engine_parse(&c, "builtin:depth=0", &depth, cause, sizeof cause));
	cause[0] = 0;
	CU_ASSERT_PTR_NULL(config_engine_parse(&c, "builtin:fast", &depth, cause, sizeof cause));
	cause[0] = 0;
	p = config_engine_parse(&c, "mz", &depth, cause, sizeof cause);
	CU_ASSERT(p && !strcmp(p->name, "mz"));
	p = config_engine_parse(&c, "hub:/x/e hub", &depth, cause, sizeof cause);
	CU_ASSERT(p && !strcmp(p->kind, "hub") && !strcmp(p->argv[0], "/x/e") && !strcmp(p->argv[1], "hub"));
	p = config_engine_parse(&c, "uhp:/x/u", &depth, cause, sizeof cause);
	CU_ASSERT(p && !strcmp(p->kind, "uhp") && !strcmp(p->argv[0], "/x/u"));
	p = config_engine_parse(&c, "/x/u --a", &depth, cause, sizeof cause);
	CU_ASSERT(p && !strcmp(p->kind, "uhp") && !strcmp(p->argv[1], "--a"));
	p = config_engine_parse(&c, "trylobot:localhost:51338", &depth, cause, sizeof cause);
	CU_ASSERT(p && !strcmp(p->kind, "trylobot") && !strcmp(p->host, "localhost") && p->port == 51338);
	CU_ASSERT_PTR_NULL(config_engine_parse(&c, "", &depth, cause, sizeof cause));
	config_free(&c);
}

/* What serve checks before it listens. */
static void test_engine_check(void)
{
	struct config c;
	char cause[512] = "";
	int depth;
	const struct engine_profile *p;

	config_defaults(&c);
	CU_ASSERT_EQUAL(config_engine_check(&c, config_profile(&c, "builtin"), cause, sizeof cause), 0);
	p = config_engine_parse(&c, "sh -c true", &depth, cause, sizeof cause);       /* on PATH */
	CU_ASSERT_EQUAL(config_engine_check(&c, p, cause, sizeof cause), 0);
	p = config_engine_parse(&c, "no-such-engine-here", &depth, cause, sizeof cause);
	CU_ASSERT_EQUAL(config_engine_check(&c, p, cause, sizeof cause), -1);
	CU_ASSERT(cause[0] && strstr(cause, "not found on PATH"));
	cause[0] = 0;
	p = config_engine_parse(&c, "/nonexistent/engine", &depth, cause, sizeof cause);
	CU_ASSERT_EQUAL(config_engine_check(&c, p, cause, sizeof cause), -1);
	CU_ASSERT(cause[0] && strstr(cause, "No such file"));
	cause[0] = 0;
	p = config_engine_parse(&c, "hub:/etc/passwd", &depth, cause, sizeof cause);   /* not executable */
	CU_ASSERT_EQUAL(config_engine_check(&c, p, cause, sizeof cause), -1);
	CU_ASSERT(cause[0] && strstr(cause, "not executable"));
	cause[0] = 0;
	/* A name is resolved once, before any loop runs, and kept numeric. */
	p = config_engine_parse(&c, "trylobot:localhost:51338", &depth, cause, sizeof cause);
	CU_ASSERT_EQUAL(config_engine_check(&c, p, cause, sizeof cause), 0);
	p = config_profile(&c, p->name);
	CU_ASSERT(p && (!strcmp(p->host, "127.0.0.1") || !strcmp(p->host, "::1")));
	p = config_engine_parse(&c, "trylobot:no-such-host.invalid:1", &depth, cause, sizeof cause);
	CU_ASSERT_EQUAL(config_engine_check(&c, p, cause, sizeof cause), -1);
	CU_ASSERT(cause[0] && strstr(cause, "cannot resolve"));
	config_free(&c);
}

static void test_add_command(void)
{
	struct config c;
	char cause[512] = "";
	config_defaults(&c);
	const struct engine_profile *p = config_add_command(&c, "uhp", "./fake --fault 'no ok'", cause, sizeof cause);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->kind, "uhp");
	CU_ASSERT_STRING_EQUAL(p->argv[0], "./fake");
	CU_ASSERT_STRING_EQUAL(p->argv[1], "--fault");
	CU_ASSERT_STRING_EQUAL(p->argv[2], "no ok");
	CU_ASSERT_PTR_NULL(p->argv[3]);
	CU_ASSERT_EQUAL(p->command_timeout_ms, 10000);
	CU_ASSERT_PTR_EQUAL(config_profile(&c, p->name), p);

	const struct engine_profile *b = config_add_command(&c, "builtin", NULL, cause, sizeof cause);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_STRING_EQUAL(b->kind, "builtin");
	CU_ASSERT_EQUAL(c.nprofiles, 3);

	CU_ASSERT_PTR_NULL(config_add_command(&c, "uhp", "  ", cause, sizeof cause));
	CU_ASSERT(cause[0] != 0);
	cause[0] = 0;
	CU_ASSERT_PTR_NULL(config_add_command(&c, "uhp", "./x 'open", cause, sizeof cause));
	CU_ASSERT(cause[0] != 0);
	cause[0] = 0;
	CU_ASSERT_PTR_NULL(config_add_command(&c, "smoke", "./x", cause, sizeof cause));
	CU_ASSERT(cause[0] != 0);
	CU_ASSERT_EQUAL(c.nprofiles, 3);

	/* "--engine" spellings: a kind prefix, or a bare UHP command line. */
	p = config_add_command(&c, NULL, "hub:./scan hub", cause, sizeof cause);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->kind, "hub");
	CU_ASSERT_STRING_EQUAL(p->argv[0], "./scan");
	CU_ASSERT_STRING_EQUAL(p->argv[1], "hub");
	p = config_add_command(&c, NULL, "trylobot:127.0.0.1:51337", cause, sizeof cause);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->kind, "trylobot");
	CU_ASSERT_STRING_EQUAL(p->host, "127.0.0.1");
	CU_ASSERT_EQUAL(p->port, 51337);
	p = config_add_command(&c, NULL, "uhp:/opt/e --x a:b", cause, sizeof cause);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->kind, "uhp");
	CU_ASSERT_STRING_EQUAL(p->argv[2], "a:b");
	p = config_add_command(&c, NULL, "/opt/e --x a:b", cause, sizeof cause);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->kind, "uhp");
	CU_ASSERT_STRING_EQUAL(p->argv[0], "/opt/e");
	p = config_add_command(&c, NULL, "builtin", cause, sizeof cause);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->kind, "builtin");
	CU_ASSERT_PTR_NULL(config_add_command(&c, NULL, "trylobot:nohost", cause, sizeof cause));
	CU_ASSERT(cause[0] != 0);
	cause[0] = 0;
	CU_ASSERT_PTR_NULL(config_add_command(&c, NULL, "trylobot:h:99999", cause, sizeof cause));
	CU_ASSERT(cause[0] != 0);
	config_free(&c);
}

/* The shipped example must load. */
static void test_example_conf(void)
{
	struct config c;
	char cause[512] = "";
	config_defaults(&c);
	int rc = config_load(&c, "conf/hivebridge.conf", cause, sizeof cause);
	if (rc < 0)
		fprintf(stderr, "conf/hivebridge.conf: %s\n", cause);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT(c.nlisteners >= 1);
	config_free(&c);
}

/* The web server's transport limits: defaults, read, and out-of-range values refused. */
static void test_http_limits(void)
{
	struct config c;
	char cause[512] = "";
	config_defaults(&c);
	CU_ASSERT_EQUAL(c.http_max_connections, 256);
	CU_ASSERT_EQUAL(c.http_max_connections_per_address, 64);
	CU_ASSERT_EQUAL(c.http_head_timeout_ms, 10000);
	CU_ASSERT_EQUAL(c.http_max_head, 32768);
	config_free(&c);
	int rc = load(&c, "[daemon]\nhttp_max_connections = 40\nhttp_max_connections_per_address = 5\n"
		      "http_head_timeout = 2\nhttp_max_head = 8192\n", cause);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(c.http_max_connections, 40);
	CU_ASSERT_EQUAL(c.http_max_connections_per_address, 5);
	CU_ASSERT_EQUAL(c.http_head_timeout_ms, 2000);
	CU_ASSERT_EQUAL(c.http_max_head, 8192);
	config_free(&c);
	const char *bad[] = { "http_max_connections = 1", "http_max_connections_per_address = 0",
			      "http_head_timeout = 0", "http_max_head = 100" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char text[128];
		snprintf(text, sizeof text, "[daemon]\n%s\n", bad[i]);
		cause[0] = 0;
		CU_ASSERT_EQUAL(load(&c, text, cause), -1);
		CU_ASSERT(cause[0] != 0);
		if (cause[0])
			CU_ASSERT_PTR_NOT_NULL(strstr(cause, "must be"));
		config_free(&c);
	}
}

/* Remote play's keys: their defaults come from the table, a file sets them, and a bad
 * value names the key and the line. */
static void test_lobby_keys(void)
{
	struct config c;
	char cause[512] = "";

	config_defaults(&c);
	const struct lobby_conf *lc = &c.listeners[0].lobby;
	CU_ASSERT_EQUAL(lc->wait_ms, 30000);
	CU_ASSERT_EQUAL(lc->house_wait_ms, 0);
	CU_ASSERT_EQUAL(lc->clock_ms, 600000);
	CU_ASSERT_EQUAL(lc->inc_ms, 5000);
	CU_ASSERT_EQUAL(lc->move_time_ms, 0);
	CU_ASSERT_EQUAL(lc->grace_ms, 30000);
	CU_ASSERT_EQUAL(lc->max_waiting, 64);
	CU_ASSERT_EQUAL(lc->max_games, 128);
	CU_ASSERT_EQUAL(lc->max_spectators, 16);
	CU_ASSERT_EQUAL(lc->max_spectators_total, 256);
	CU_ASSERT_EQUAL(lc->max_plies, 1000);
	CU_ASSERT_EQUAL(lc->hints, 0);
	CU_ASSERT_EQUAL(lc->game_type, 0);
	CU_ASSERT_PTR_NULL(lc->house_engine);
	CU_ASSERT_PTR_NULL(lc->results);
	CU_ASSERT_PTR_NULL(lc->watch);
	config_free(&c);

	CU_ASSERT_EQUAL_FATAL(load(&c, "[listen r]\nprotocol = uhp-remote\nport = 0\nmove_time = 2\n"
				   "hints = yes\ngame_type = Base+MLP\nhouse_engine = builtin\n", cause), 0);
	lc = &c.listeners[0].lobby;
	CU_ASSERT_EQUAL(lc->move_time_ms, 2000);
	CU_ASSERT_EQUAL(lc->clock_ms, 0);
	CU_ASSERT_EQUAL(lc->hints, 1);
	CU_ASSERT_NOT_EQUAL(lc->game_type, 0);
	CU_ASSERT_EQUAL(lc->wait_ms, 30000);
	CU_ASSERT_STRING_EQUAL(lc->house_engine, "builtin");
	config_free(&c);

	CU_ASSERT_EQUAL(load(&c, "[listen r]\nport = 0\nclock = soon\n", cause), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(cause, "line 3: clock must be SECONDS or SECONDS+INCREMENT, not \"soon\""));
	config_free(&c);
	CU_ASSERT_EQUAL(load(&c, "[listen r]\nmax_games = 0\n", cause), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(cause, "line 2: max_games must be 1..100000, not \"0\""));
	config_free(&c);
}

/* The referee's policy keys: the page's games ([daemon]) and remote play's repetition. */
static void test_game_keys(void)
{
	struct config c;
	char cause[512] = "";
	config_defaults(&c);
	CU_ASSERT_EQUAL(c.http_play_move_ms, 1800000);
	CU_ASSERT_EQUAL(c.http_play_max_plies, 1000);
	config_free(&c);
	int rc = load(&c, "[daemon]\nhttp_play_move_time = 60\nhttp_play_max_plies = 0\n"
		      "[listen r]\nprotocol = uhp-remote\nport = 6000\n"
		      "[listen s]\nprotocol = uhp-remote\nport = 6001\nrepetition = 3\n", cause);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(c.http_play_move_ms, 60000);
	CU_ASSERT_EQUAL(c.http_play_max_plies, 0);
	CU_ASSERT_EQUAL_FATAL(c.nlisteners, 2);
	CU_ASSERT_EQUAL(c.listeners[0].lobby.repetition + c.listeners[1].lobby.repetition, 3);
	config_free(&c);
	const char *bad[] = { "[daemon]\nhttp_play_move_time = 0\n", "[daemon]\nhttp_play_max_plies = 60001\n",
			      "[listen r]\nrepetition = 1\n", "[listen r]\nrepetition = 1001\n" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		cause[0] = 0;
		CU_ASSERT_EQUAL(load(&c, bad[i], cause), -1);
		CU_ASSERT_PTR_NOT_NULL(strstr(cause, "must be"));
		config_free(&c);
	}
}

/* The files are written into a directory of their own. */
static int config_setup(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return -1;
	}
	snprintf(path, sizeof path, "%s/hivebridge.conf", tmpdir);
	return 0;
}

static int config_teardown(void)
{
	unlink(path);
	rmdir(tmpdir);
	return 0;
}

static const struct unit_test tests[] = {
	{ "defaults", test_defaults },
	{ "good file", test_good_file },
	{ "bad files", test_bad_files },
	{ "too many options", test_too_many_options },
	{ "long line", test_long_line },
	{ "continuation line", test_continuation },
	{ "NUL byte", test_nul },
	{ "inline comment", test_inline_comment },
	{ "expansions", test_expansions },
	{ "missing file", test_missing_file },
	{ "add command", test_add_command },
	{ "listeners replace the defaults", test_listeners_replace },
	{ "engine parse", test_engine_parse },
	{ "engine check", test_engine_check },
	{ "example conf", test_example_conf },
	{ "http limits", test_http_limits },
	{ "remote-play keys", test_lobby_keys },
	{ "game keys", test_game_keys },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "config",
	.setup = config_setup,
	.teardown = config_teardown,
	.tests = tests,
};
