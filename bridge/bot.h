/*
 * bot.h: an engine playing on a game web site as a bot account, the runtime's part
 * (naming no site): what a [site NAME] section or `hivebridge bot`'s command line
 * configures, the password (from a file only its owner can read, or from the
 * environment; never the command line, never logged), the back-off between failed
 * requests, the engine's limits from a site's clock (the one budget formula,
 * engine_limits_budget), and the site drivers' table. A driver (adapters/<site>/)
 * does the rest: log in, poll, accept challenges, one engine per game.
 */
#ifndef BRIDGE_BOT_H
#define BRIDGE_BOT_H

#include <stddef.h>
#include <stdint.h>

struct event_base;
struct engine_limits;
struct engine_profile;
struct config;

#define BOT_PASSWORD_ENV "HIVEBRIDGE_BOT_PASSWORD"
#define BOT_PASSWORD_MAX 1024

/* Which time control a game is played under. */
enum bot_clock { BOT_CLOCK_NONE, BOT_CLOCK_REAL, BOT_CLOCK_DAYS };

struct bot_conf {
	char    *name;               /* the section's NAME ("bot" from the command line) */
	char    *site;               /* the driver's kind: "hivegame" */
	char    *url;                /* base URL, no trailing '/' */
	char    *user;
	char    *password_file;      /* NULL: the environment variable */
	char    *password_env;       /* NULL: BOT_PASSWORD_ENV */
	char    *engine;             /* a profile NAME or an ENGINE spec */
	unsigned max_games;          /* games at once (K) */
	char    *game_types;         /* accepted game types, comma-separated; NULL = all */
	char    *time_modes;         /* "realtime,correspondence,untimed" by default */
	int      rated;              /* -1 both, 0 unrated only, 1 rated only */
	unsigned poll_ms;
	unsigned backoff_max_ms;
	unsigned request_timeout_ms;
	unsigned think_ms;           /* a move of a correspondence or untimed game */
	int      depth;              /* untimed games: this depth instead (0 = think_ms) */
	unsigned min_base_s, max_base_s;  /* real-time base time accepted (0 = any) */
	int      resign;             /* resign_below is set */
	int      resign_below;       /* resign when the engine's score (its own view) is at or below */
};

/* The defaults of every field, name and site set (and owned). */
void bot_conf_defaults(struct bot_conf *b, const char *name);
void bot_conf_free(struct bot_conf *b);

/* A running bot of some site. */
struct site_bot;

struct site_driver {
	const char *site;            /* [site] "site =" */
	const char *title;           /* "hivegame.com" */
	const char *default_url;
	/* Starts b's bot on base with engine profile p (both kept alive by the caller
	 * for as long), the password taken (freed by the bot). NULL with err. */
	struct site_bot *(*start)(struct event_base *base, const struct bot_conf *b,
				  const struct engine_profile *p, char *password, unsigned log_id,
				  char *err, size_t errlen);
	/* Games in progress (for the log and the tests). */
	size_t (*games)(const struct site_bot *bot);
	void (*free)(struct site_bot *bot);
};

const struct site_driver *site_driver_find(const char *site);

/* The password of b: its file (a regular file owned by this user that no one else
 * may read or write; one line, the newline dropped) or its environment variable
 * (taken out of the environment). The caller frees it. NULL with err. */
char *bot_password(const struct bot_conf *b, char *err, size_t errlen);
/* The next wait after a failure, from the last one (0: none yet): doubled from
 * poll_ms, at most backoff_max_ms, with up to a quarter of jitter. */
unsigned bot_backoff(const struct bot_conf *b, unsigned last_ms);
/* An engine's limits for a move of side under a site's clock: time left and
 * increment in ms (a clock's time less lag_ms: the round trip and the polling
 * delay), for BOT_CLOCK_REAL the referee's fields (time_ms, inc_ms, so that the
 * back end's budget is engine_limits_budget's) and a deadline; else think_ms (or
 * depth for an untimed game), never more than the clock's share. */
void bot_limits(const struct bot_conf *b, enum bot_clock clock, int side, int64_t left_ms,
		int64_t inc_ms, int64_t lag_ms, struct engine_limits *l);

/* The bots of a configuration on base (serve): NULL with err if one cannot start;
 * an empty list when there is none. */
struct bots;
struct bots *bots_start(struct event_base *base, struct config *c, char *err, size_t errlen);
void bots_free(struct bots *bs);

/* `hivebridge bot ...` */
int bot_main(int argc, char **argv);

#endif
