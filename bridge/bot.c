/*
 * bot.c: the runtime's part of a bot on a game web site (bot.h): its settings, its
 * password, back-off and clock, the drivers' table, the bots of `serve`, and the
 * `hivebridge bot` command, which runs only bots.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <event2/event.h>
#include <event2/thread.h>

#include "bridge/bot.h"
#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/engine_builtin.h"
#include "bridge/log.h"
#include "bridge/protocol.h"
#include "bridge/util.h"
#include "core/errbuf.h"

extern const struct site_driver site_hivegame;

static const struct site_driver *const drivers[] = { &site_hivegame };

const struct site_driver *site_driver_find(const char *site)
{
	for (size_t i = 0; i < sizeof drivers / sizeof drivers[0]; i++)
		if (!strcmp(drivers[i]->site, site))
			return drivers[i];
	return NULL;
}

void bot_conf_defaults(struct bot_conf *b, const char *name)
{
	memset(b, 0, sizeof *b);
	b->name = xstrdup(name);
	config_site_defaults(b);
}

void bot_conf_free(struct bot_conf *b)
{
	char **strs[] = { &b->name, &b->site, &b->url, &b->user, &b->password_file,
			  &b->password_env, &b->engine, &b->game_types, &b->time_modes };
	for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) {
		free(*strs[i]);
		*strs[i] = NULL;
	}
}

char *bot_password(const struct bot_conf *b, char *err, size_t errlen)
{
	if (!b->password_file) {
		const char *env = b->password_env ? b->password_env : BOT_PASSWORD_ENV;
		char *pw = util_take_secret_env(env);
		if (!pw)
			errbuf_set(err, errlen, "no password: set %s or a password file", env);
		return pw;
	}
	int fd = open(b->password_file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0) {
		errbuf_set(err, errlen, "password file %s: %s", b->password_file, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 077)) {
		close(fd);
		errbuf_set(err, errlen, "password file %s must be a regular file of this user that no "
			   "one else can read or write (chmod 600)", b->password_file);
		return NULL;
	}
	char *pw = calloc(BOT_PASSWORD_MAX + 1, 1);
	ssize_t n = pw ? read(fd, pw, BOT_PASSWORD_MAX + 1) : -1;
	close(fd);
	if (n < 0 || n > BOT_PASSWORD_MAX) {
		free(pw);
		errbuf_set(err, errlen, "password file %s: unreadable or longer than %d bytes",
			   b->password_file, BOT_PASSWORD_MAX);
		return NULL;
	}
	pw[n] = 0;
	pw[strcspn(pw, "\r\n")] = 0;
	if (!pw[0]) {
		free(pw);
		errbuf_set(err, errlen, "password file %s is empty", b->password_file);
		return NULL;
	}
	return pw;
}

unsigned bot_backoff(const struct bot_conf *b, unsigned last_ms)
{
	uint64_t next = last_ms ? (uint64_t)last_ms * 2 : b->poll_ms;
	if (next < 250)
		next = 250;
	if (next > b->backoff_max_ms)
		next = b->backoff_max_ms;
	/* Jitter, so that bots that failed together do not come back together. */
	return (unsigned)(next - (next / 4) * (unsigned)(rand() % 100) / 100);
}

void bot_limits(const struct bot_conf *b, enum bot_clock clock, int side, int64_t left_ms,
		int64_t inc_ms, int64_t lag_ms, struct engine_limits *l)
{
	memset(l, 0, sizeof *l);
	int64_t t = left_ms - lag_ms;
	if (t < 1)
		t = 1;
	if (clock == BOT_CLOCK_REAL) {
		l->time_ms[side] = (uint64_t)t;
		l->inc_ms[side] = inc_ms > 0 ? (uint64_t)inc_ms : 0;
		l->deadline_ms = engine_limits_budget(l, side);
		return;
	}
	if (clock == BOT_CLOCK_NONE && b->depth > 0) {
		l->depth = b->depth;
		return;
	}
	/* Days per move or untimed: the configured thought, within the clock's share. */
	l->movetime_ms = b->think_ms ? b->think_ms : 1000;
	if (clock == BOT_CLOCK_DAYS) {
		struct engine_limits c = { 0 };
		c.time_ms[side] = (uint64_t)t;
		uint64_t share = engine_limits_budget(&c, side);
		if (share < l->movetime_ms)
			l->movetime_ms = share;
	}
}

/* --- the bots of a configuration ----------------------------------------------------- */

struct bots {
	size_t                    n;
	const struct site_driver **drv;
	struct site_bot         **bot;
};

void bots_free(struct bots *bs)
{
	if (!bs)
		return;
	for (size_t i = 0; i < bs->n; i++)
		if (bs->bot[i])
			bs->drv[i]->free(bs->bot[i]);
	free(bs->drv);
	free(bs->bot);
	free(bs);
}

struct bots *bots_start(struct event_base *base, struct config *c, char *err, size_t errlen)
{
	struct bots *bs = calloc(1, sizeof *bs);
	if (!bs || !(bs->drv = calloc(c->nsites + 1, sizeof *bs->drv)) ||
	    !(bs->bot = calloc(c->nsites + 1, sizeof *bs->bot))) {
		bots_free(bs);
		errbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < c->nsites; i++) {
		struct bot_conf *b = &c->sites[i];
		char why[256];
		int depth = 0;
		const struct site_driver *d = site_driver_find(b->site);
		const struct engine_profile *p = config_engine_parse(c, b->engine, &depth, why, sizeof why);
		if (!d || !b->user || !p || config_engine_movetime(b->engine) ||
		    config_engine_check(c, p, why, sizeof why) < 0) {
			errbuf_set(err, errlen, "[site %s]: %s", b->name,
				   !d ? "unknown site" : !b->user ? "no user" :
				   p && config_engine_movetime(b->engine) ? "builtin:movetime=MS is for match and "
				   "tournament (the site's clock sets the time here)" : why);
			bots_free(bs);
			return NULL;
		}
		if (depth && !b->depth)
			b->depth = depth;
		if (!b->url)
			b->url = xstrdup(d->default_url);
		char *pw = bot_password(b, why, sizeof why);
		if (!pw) {
			errbuf_set(err, errlen, "[site %s]: %s", b->name, why);
			bots_free(bs);
			return NULL;
		}
		bs->drv[bs->n] = d;
		bs->bot[bs->n] = d->start(base, b, p, pw, (unsigned)(900000 + 1000 * i), why, sizeof why);
		if (!bs->bot[bs->n]) {
			errbuf_set(err, errlen, "[site %s]: %s", b->name, why);
			bots_free(bs);
			return NULL;
		}
		bs->n++;
	}
	return bs;
}

/* --- hivebridge bot -------------------------------------------------------------------- */

static const char bot_usage[] =
	"usage: hivebridge bot --url URL --user NAME --password-file FILE --engine ENGINE\n"
	"                      [--max-games K] [--poll MS] [--log FILE]\n"
	"       hivebridge bot --config FILE [--log FILE]\n"
	"  play on hivegame.com (or a server of its bot API) as a bot account until\n"
	"  SIGINT or SIGTERM: accept the challenges addressed to it (up to K games at once,\n"
	"  default 2), one engine session per game, every move checked by the core and\n"
	"  timed from the game's clock. With --config, every [site NAME] section of FILE.\n"
	"  --url URL            https://hivegame.com (http:// for a local server)\n"
	"  --user NAME          the bot account's name or e-mail\n"
	"  --password-file F    a file holding the password, readable by its owner only\n"
	"                       (chmod 600); without it the password comes from\n"
	"                       $" BOT_PASSWORD_ENV ". Never on the command line.\n"
	"  --engine ENGINE      the engine (below; default builtin)\n"
	"  --max-games K        games at once (1..256)\n"
	"  --poll MS            the polling interval (100..600000, default 2000)\n"
	"  --config FILE        configuration file ([site NAME] sections, engine profiles)\n"
	"  --log FILE           protocol trace log (\"-\" = stderr): every request and\n"
	"                       answer (no password, no token) and every engine line\n"
	"  exit status: 0 after SIGINT/SIGTERM, 1 on a runtime, configuration or engine\n"
	"  error, 2 on a usage error\n"
	"ENGINE:\n";

struct bot_run {
	struct event_base *base;
};

static void bot_on_signal(evutil_socket_t sig, short what, void *arg)
{
	struct bot_run *r = arg;
	log_note(0, "signal %d: stopping the bots", (int)sig);
	event_base_loopbreak(r->base);
}

static int bot_usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "hivebridge bot: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'hivebridge bot --help'.\n");
	return 2;
}

int bot_main(int argc, char **argv)
{
	const char *url = NULL, *user = NULL, *pwfile = NULL, *engine = NULL, *config = NULL,
		   *logpath = NULL, *maxg = NULL, *poll = NULL;
	struct { const char *flag; const char **dst; } flags[] = {
		{ "--url", &url }, { "--user", &user }, { "--password-file", &pwfile },
		{ "--engine", &engine }, { "--config", &config }, { "--log", &logpath },
		{ "--max-games", &maxg }, { "--poll", &poll },
	};
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(bot_usage, stdout);
			protocol_usage_engines(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--password"))
			return bot_usage_error("%s: a password is never taken from the command line "
					       "(use --password-file or $" BOT_PASSWORD_ENV ")", argv[i]);
		size_t f = 0;
		while (f < sizeof flags / sizeof flags[0] && strcmp(argv[i], flags[f].flag))
			f++;
		if (f == sizeof flags / sizeof flags[0])
			return bot_usage_error("unknown argument %s", argv[i]);
		if (i + 1 >= argc)
			return bot_usage_error("%s needs a value", argv[i]);
		*flags[f].dst = argv[++i];
	}
	unsigned long long k = 0, pm = 0;
	if (maxg && parse_uint(maxg, 1, 256, &k) < 0)
		return bot_usage_error("--max-games takes 1..256, not %s", maxg);
	if (poll && parse_uint(poll, 100, 600000, &pm) < 0)
		return bot_usage_error("--poll takes 100..600000, not %s", poll);
	if (!config && (!url || !user))
		return bot_usage_error("%s", "--url and --user are needed (or --config FILE)");

	struct config c;
	char err[512];
	int status = 1;
	config_defaults(&c);
	if (config && config_load(&c, config, err, sizeof err) < 0) {
		fprintf(stderr, "hivebridge bot: %s\n", err);
		config_free(&c);
		return 1;
	}
	if (url || user) {
		/* The command line's bot: one more [site], named "bot". */
		struct bot_conf *s = xreallocarray(c.sites, c.nsites + 1, sizeof *s);
		c.sites = s;
		struct bot_conf *b = &c.sites[c.nsites++];
		bot_conf_defaults(b, "bot");
		if (url) {
			b->url = xstrdup(url);
			size_t n = strlen(b->url);
			while (n > 0 && b->url[n - 1] == '/')
				b->url[--n] = 0;
		}
		b->user = user ? xstrdup(user) : NULL;
		b->password_file = pwfile ? xstrdup(pwfile) : NULL;
		if (engine) {
			free(b->engine);
			b->engine = xstrdup(engine);
		}
		if (k)
			b->max_games = (unsigned)k;
		if (pm)
			b->poll_ms = (unsigned)pm;
	}
	if (c.nsites == 0) {
		fprintf(stderr, "hivebridge bot: %s has no [site NAME] section\n", config);
		config_free(&c);
		return 1;
	}
	const char *lp = logpath ? logpath : c.log_path;
	if (lp && log_open(lp) < 0) {
		fprintf(stderr, "hivebridge bot: log %s: cannot open: %s\n", lp, strerror(errno));
		config_free(&c);
		return 1;
	}
	log_warn_stderr(1);
	/* Every game may search at once: with fewer built-in search threads than games, a
	 * timed search would wait in the queue past its time (and fail). */
	unsigned threads = c.search_threads, games = 0;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	for (size_t i = 0; i < c.nsites; i++)
		games += c.sites[i].max_games;
	if (!threads)
		threads = games > (unsigned)(cpus > 0 ? cpus : 1) ? games : (unsigned)(cpus > 0 ? cpus : 1);
	engine_builtin_configure(c.hash_budget_mb, threads, c.hash_idle_timeout);
	evthread_use_pthreads();
	struct bot_run r = { event_base_new() };
	struct event *si = NULL, *st = NULL;
	struct bots *bs = NULL;
	if (!r.base) {
		fprintf(stderr, "hivebridge bot: cannot set up the event loop\n");
		goto out;
	}
	if (!(bs = bots_start(r.base, &c, err, sizeof err))) {
		fprintf(stderr, "hivebridge bot: %s\n", err);
		goto out;
	}
	si = evsignal_new(r.base, SIGINT, bot_on_signal, &r);
	st = evsignal_new(r.base, SIGTERM, bot_on_signal, &r);
	if (!si || !st || evsignal_add(si, NULL) < 0 || evsignal_add(st, NULL) < 0) {
		fprintf(stderr, "hivebridge bot: cannot catch signals\n");
		goto out;
	}
	event_base_dispatch(r.base);
	status = 0;
out:
	bots_free(bs);
	if (si)
		event_free(si);
	if (st)
		event_free(st);
	if (r.base)
		event_base_free(r.base);
	config_free(&c);
	log_close();
	return status;
}
