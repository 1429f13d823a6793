/*
 * test_bot.c: the runtime's part of a bot on a game web site (bridge/bot.c): a
 * [site NAME] read from a file with its defaults and refusals, the password file's
 * rules (mode 600, a regular file, one line) and the environment, the back-off, and
 * an engine's limits from a site's clock (the share engine_limits_budget gives).
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bridge/bot.h"
#include "bridge/config.h"
#include "bridge/engine.h"
#include "tests/unit/unit.h"

static char dir[] = "/tmp/test_bot.XXXXXX";

static int setup(void)
{
	return mkdtemp(dir) ? 0 : -1;
}

static void write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	chmod(path, mode);
}

static void test_config(void)
{
	char path[256], err[512];
	struct config c;
	snprintf(path, sizeof path, "%s/c.conf", dir);
	write_file(path, "[site one]\nuser = b1\nmax_games = 5\ngame_types = Base,Base+MLP\n"
		   "rated = no\npoll_interval = 0.5\nresign_below = -29000\n[site two]\nuser = b2\n", 0600);
	config_defaults(&c);
	CU_ASSERT_EQUAL_FATAL(config_load(&c, path, err, sizeof err), 0);
	CU_ASSERT_EQUAL_FATAL(c.nsites, 2);
	CU_ASSERT_STRING_EQUAL(c.sites[0].name, "one");
	CU_ASSERT_STRING_EQUAL(c.sites[0].site, "hivegame");
	CU_ASSERT_EQUAL(c.sites[0].max_games, 5);
	CU_ASSERT_EQUAL(c.sites[0].rated, 0);
	CU_ASSERT_EQUAL(c.sites[0].poll_ms, 500);
	CU_ASSERT_STRING_EQUAL(c.sites[0].game_types, "Base,Base+MLP");
	CU_ASSERT_TRUE(c.sites[0].resign);
	CU_ASSERT_EQUAL(c.sites[0].resign_below, -29000);
	CU_ASSERT_FALSE(c.sites[1].resign);
	CU_ASSERT_EQUAL(c.sites[1].max_games, 2);
	CU_ASSERT_EQUAL(c.sites[1].poll_ms, 2000);
	CU_ASSERT_EQUAL(c.sites[1].rated, -1);
	CU_ASSERT_STRING_EQUAL(c.sites[1].engine, "builtin");
	config_free(&c);

	static const char *const bad[] = {
		"[site x]\nsite = chess.com\n", "[site x]\ngame_types = Base,Chess\n",
		"[site x]\ntime_modes = blitz\n", "[site x]\nrated = maybe\n", "[site x]\nmax_games = 0\n",
		"[site x]\npassword = hunter2\n", "[site x]\nresign_below = -30001\n",
		"[site x]\nresign_below = lost\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		write_file(path, bad[i], 0600);
		config_defaults(&c);
		CU_ASSERT_EQUAL(config_load(&c, path, err, sizeof err), -1);
		config_free(&c);
	}
}

static void test_password(void)
{
	char path[256], err[512];
	struct bot_conf b;
	bot_conf_defaults(&b, "t");
	snprintf(path, sizeof path, "%s/pw", dir);
	b.password_file = strdup(path);
	write_file(path, "s3cret\nignored\n", 0644);
	CU_ASSERT_PTR_NULL(bot_password(&b, err, sizeof err));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "chmod 600"));
	chmod(path, 0600);
	char *pw = bot_password(&b, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pw);
	CU_ASSERT_STRING_EQUAL(pw, "s3cret");
	free(pw);
	write_file(path, "\n", 0600);
	CU_ASSERT_PTR_NULL(bot_password(&b, err, sizeof err));
	free(b.password_file);
	b.password_file = strdup(dir);     /* a directory */
	CU_ASSERT_PTR_NULL(bot_password(&b, err, sizeof err));
	free(b.password_file);
	b.password_file = NULL;
	b.password_env = strdup("TEST_BOT_PW");
	setenv("TEST_BOT_PW", "from-env", 1);
	pw = bot_password(&b, err, sizeof err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pw);
	CU_ASSERT_STRING_EQUAL(pw, "from-env");
	CU_ASSERT_PTR_NULL(getenv("TEST_BOT_PW"));    /* taken out of the environment */
	free(pw);
	bot_conf_free(&b);
}

static void test_backoff(void)
{
	struct bot_conf b;
	bot_conf_defaults(&b, "t");
	b.poll_ms = 1000;
	b.backoff_max_ms = 8000;
	unsigned ms = 0;
	for (int i = 0; i < 10; i++) {
		unsigned next = bot_backoff(&b, ms);
		CU_ASSERT_TRUE(next <= 8000);
		CU_ASSERT_TRUE(next >= (ms ? (2 * ms > 8000 ? 8000 : 2 * ms) : 1000) * 3 / 4);
		ms = next;
	}
	CU_ASSERT_TRUE(ms >= 6000);
	bot_conf_free(&b);
}

static void test_limits(void)
{
	struct bot_conf b;
	struct engine_limits l;
	bot_conf_defaults(&b, "t");
	/* Real time: the referee's fields, less the lag; the deadline is the one share. */
	bot_limits(&b, BOT_CLOCK_REAL, 1, 60000, 2000, 1000, &l);
	CU_ASSERT_EQUAL(l.time_ms[1], 59000);
	CU_ASSERT_EQUAL(l.inc_ms[1], 2000);
	CU_ASSERT_EQUAL(l.time_ms[0], 0);
	CU_ASSERT_EQUAL(l.deadline_ms, engine_limits_budget(&l, 1));
	CU_ASSERT_EQUAL(l.deadline_ms, 59000 / 30 + 1000);
	/* Less time than lag: never zero (zero would mean no limit). */
	bot_limits(&b, BOT_CLOCK_REAL, 0, 500, 0, 2000, &l);
	CU_ASSERT_EQUAL(l.time_ms[0], 1);
	CU_ASSERT_TRUE(l.deadline_ms >= 1);
	/* Days per move: think_time, within the clock's share. */
	bot_limits(&b, BOT_CLOCK_DAYS, 0, 86400000, 0, 0, &l);
	CU_ASSERT_EQUAL(l.movetime_ms, 5000);
	bot_limits(&b, BOT_CLOCK_DAYS, 0, 30000, 0, 0, &l);
	CU_ASSERT_EQUAL(l.movetime_ms, 1000);
	/* Untimed: think_time, or the depth. */
	bot_limits(&b, BOT_CLOCK_NONE, 0, 0, 0, 0, &l);
	CU_ASSERT_EQUAL(l.movetime_ms, 5000);
	b.depth = 4;
	bot_limits(&b, BOT_CLOCK_NONE, 0, 0, 0, 0, &l);
	CU_ASSERT_EQUAL(l.depth, 4);
	CU_ASSERT_EQUAL(l.movetime_ms, 0);
	bot_conf_free(&b);
}

static int teardown(void)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static const struct unit_test tests[] = {
	{ "config", test_config },
	{ "password", test_password },
	{ "backoff", test_backoff },
	{ "limits", test_limits },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "bot",
	.setup = setup,
	.teardown = teardown,
	.tests = tests,
};
