/*
 * config_keys.c: every configuration key as a row of one table (config_keys, redis's
 * config table being the model): its section, name, type and range, its default, its
 * help and where it is stored; the readers of the keys that need their own, the
 * defaults applied from the table, and the table printed as documentation
 * (`hivebridge help config`: the README's Configuration table and the man page's
 * CONFIGURATION are its output). config.c reads the file through it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/config.h"
#include "bridge/config_int.h"
#include "bridge/protocol.h"
#include "bridge/util.h"
#include "core/errbuf.h"
#include "core/game.h"

void config_str_set(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

char **config_command_split(const char *s, char *err, size_t errlen)
{
	size_t n = 0, cap = 4;
	char **argv = xreallocarray(NULL, cap, sizeof *argv);
	char *word = xreallocarray(NULL, strlen(s) + 1, 1);

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		size_t len = 0;
		char quote = 0;
		while (*s && (quote || (*s != ' ' && *s != '\t'))) {
			char ch = *s++;
			if (quote == '\'') {
				if (ch == '\'')
					quote = 0;
				else
					word[len++] = ch;
			} else if (ch == '\\' && *s && (!quote || *s == '"' || *s == '\\')) {
				word[len++] = *s++;
			} else if (quote == '"' && ch == '"') {
				quote = 0;
			} else if (!quote && (ch == '"' || ch == '\'')) {
				quote = ch;
			} else {
				word[len++] = ch;
			}
		}
		if (quote) {
			errbuf_set(err, errlen, "unbalanced %c quote in command", quote);
			free(word);
			argv[n] = NULL;
			lines_free(argv);
			return NULL;
		}
		word[len] = 0;
		if (n + 2 > cap) {
			cap *= 2;
			argv = xreallocarray(argv, cap, sizeof *argv);
		}
		argv[n++] = xstrdup(word);
	}
	free(word);
	argv[n] = NULL;
	if (n == 0) {
		lines_free(argv);
		errbuf_set(err, errlen, "empty command");
		return NULL;
	}
	return argv;
}

int config_kind_known(const char *s)
{
	const struct protocol *pr = protocol_by_kind(s);
	return !strcmp(s, "builtin") || (pr && pr->back_new);
}

/* A protocol with a front end. */
static int protocol_known(const char *s)
{
	const struct protocol *pr = protocol_find(s);
	return pr && pr->front.session_new;
}

/* Seconds (decimals allowed) to milliseconds, in (0, one day]; -1 if not. */
static int parse_seconds(const char *s, unsigned *ms)
{
	char *end;
	if ((*s < '0' || *s > '9') && *s != '.')
		return -1;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v <= 0 || v > 86400)
		return -1;
	double r = ceil(v * 1000);
	*ms = (unsigned)r;
	return 0;
}

/* ---- the keys' own readers (KEY_FN); obj is the section's struct ---- */

/* A name the protocol table must know (known), into *dst; the error lists the names
 * (of the back ends, and builtin, if backs; else of the front ends). */
static int set_known(char **dst, int known, const char *what, const char *v, int backs,
		     char *err, size_t errlen)
{
	char names[256];
	if (!known)
		return errbuf_set(err, errlen, "unknown %s \"%s\" (%s%s)", what, v, backs ? "builtin, " : "",
				  protocol_names(names, sizeof names, backs));
	config_str_set(dst, v);
	return 0;
}

static int set_kind(void *obj, const char *k, const char *v, char *err, size_t errlen)
{
	struct engine_profile *p = obj;
	return set_known(&p->kind, config_kind_known(v), "engine kind", v, 1, err, errlen);
}

static int set_command(void *obj, const char *k, const char *v, char *err, size_t errlen)
{
	struct engine_profile *p = obj;
	char **argv = config_command_split(v, err, errlen);
	if (!argv)
		return -1;
	lines_free(p->argv);
	p->argv = argv;
	return 0;
}

/* "Name Value" into the profile's options (a repeated name replaces its value). */
static int set_option(void *obj, const char *k, const char *v, char *err, size_t errlen)
{
	struct engine_profile *p = obj;
	size_t nlen = strcspn(v, " \t");
	const char *val = v + nlen;
	val += strspn(val, " \t");
	if (nlen == 0 || !*val || memchr(v, ';', nlen))
		return errbuf_set(err, errlen, "option must be \"Name Value\" (name without spaces or ';')");
	char *name = strndup(v, nlen);
	if (!name)
		abort();
	for (size_t i = 0; i < p->noptions; i++) {
		if (!strcmp(p->options[i][0], name)) {
			free(name);
			config_str_set(&p->options[i][1], val);
			return 0;
		}
	}
	if (p->noptions == CONFIG_MAX_OPTIONS) {
		free(name);
		return errbuf_set(err, errlen, "more than %d options", CONFIG_MAX_OPTIONS);
	}
	p->options[p->noptions][0] = name;
	p->options[p->noptions][1] = xstrdup(val);
	p->noptions++;
	return 0;
}

static int set_expansions(void *obj, const char *k, const char *v, char *err, size_t errlen)
{
	static const char letters[] = "MLP";     /* HIVE_EXP_M, _L, _P */
	struct engine_profile *p = obj;
	unsigned bits = 0;
	for (const char *q = v; strcmp(v, "none") && *q; q++) {
		const char *at = strchr(letters, *q);
		unsigned bit = at ? 1u << (at - letters) : 0;
		if (!bit || bits & bit)
			return errbuf_set(err, errlen, "expansions must be letters of MLP or none, not \"%s\"", v);
		bits |= bit;
	}
	p->expansions = bits;
	return 0;
}

static int set_protocol(void *obj, const char *k, const char *v, char *err, size_t errlen)
{
	struct listener_conf *l = obj;
	return set_known(&l->protocol, protocol_known(v), "protocol", v, 0, err, errlen);
}

static int set_address(void *obj, const char *k, const char *v, char *err, size_t errlen)
{
	struct listener_conf *l = obj;
	unsigned char buf[sizeof(struct in6_addr)];
	if (inet_pton(AF_INET, v, buf) != 1 && inet_pton(AF_INET6, v, buf) != 1)
		return errbuf_set(err, errlen, "address must be a numeric IPv4 or IPv6 address, not \"%s\"", v);
	config_str_set(&l->address, v);
	return 0;
}

/* The remote-play keys are the lobby's to read (bridge/lobby/lobby_conf.h). */
static int set_lobby(void *obj, const char *k, const char *v, char *err, size_t errlen)
{
	struct listener_conf *l = obj;
	return lobby_conf_key(&l->lobby, k, v, err, errlen) < 0 ? -1 : 0;
}

static int set_site(void *obj, const char *k, const char *v, char *err, size_t errlen)
{
	struct bot_conf *b = obj;
	if (!site_driver_find(v))
		return errbuf_set(err, errlen, "unknown site \"%s\" (hivegame)", v);
	config_str_set(&b->site, v);
	return 0;
}

/* A comma-separated list whose every item check() accepts, kept as written. */
static int set_list(char **dst, const char *v, int (*check)(const char *item), const char *what,
		    char *err, size_t errlen)
{
	char item[64];
	for (const char *p = v; *p; ) {
		size_t n = strcspn(p, ",");
		if (n == 0 || n >= sizeof item)
			return errbuf_set(err, errlen, "%s: an empty or long item in \"%s\"", what, v);
		memcpy(item, p, n);
		item[n] = 0;
		if (!check(item))
			return errbuf_set(err, errlen, "%s: unknown \"%s\"", what, item);
		p += n + (p[n] == ',');
	}
	config_str_set(dst, v);
	return 0;
}

static int game_type_ok(const char *s)
{
	unsigned t;
	return hive_gametype_parse(s, &t) == 0;
}

static int time_mode_ok(const char *s)
{
	return !strcmp(s, "realtime") || !strcmp(s, "correspondence") || !strcmp(s, "untimed");
}

static int set_game_types(void *obj, const char *k, const char *v, char *err, size_t errlen)
{
	return set_list(&((struct bot_conf *)obj)->game_types, v, game_type_ok, "game_types", err, errlen);
}

static int set_time_modes(void *obj, const char *k, const char *v, char *err, size_t errlen)
{
	return set_list(&((struct bot_conf *)obj)->time_modes, v, time_mode_ok, "time_modes", err, errlen);
}

static int set_rated(void *obj, const char *k, const char *v, char *err, size_t errlen)
{
	struct bot_conf *b = obj;
	if (!strcmp(v, "any"))
		b->rated = -1;
	else if (!strcmp(v, "yes") || !strcmp(v, "no"))
		b->rated = !strcmp(v, "yes");
	else
		return errbuf_set(err, errlen, "rated must be any, yes or no, not \"%s\"", v);
	return 0;
}

static int set_resign(void *obj, const char *k, const char *v, char *err, size_t errlen)
{
	struct bot_conf *b = obj;
	char *end;
	if (!strcmp(v, "never")) {
		b->resign = 0;
		return 0;
	}
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno || end == v || *end || n < -30000 || n > 30000)
		return errbuf_set(err, errlen, "resign_below must be never or -30000..30000, not \"%s\"", v);
	b->resign = 1;
	b->resign_below = (int)n;
	return 0;
}

/* ---- the table ---- */

static const char *const section_title[] = {
	[CONFIG_DAEMON] = "[daemon]", [CONFIG_ENGINE] = "[engine NAME]",
	[CONFIG_LISTEN] = "[listen NAME]", [CONFIG_SITE] = "[site NAME]", [CONFIG_QUEUE] = "[queue]",
};

enum key_type {
	KEY_STR,          /* text, kept as written (empty: none, where empty_ok) */
	KEY_UINT,         /* a decimal in [lo, hi] */
	KEY_SECONDS,      /* seconds, decimals allowed, in (0, 86400], kept in ms */
	KEY_SECONDS0,     /* 0 (never) or as KEY_SECONDS */
	KEY_WHOLE_SECONDS,/* a decimal of seconds in [lo, hi], kept in ms */
	KEY_FN,           /* its own reader, fn */
	KEY_ELSEWHERE,    /* accepted and read by another module (see help) */
};

#define NOWHERE ((size_t)-1)
/* The protocol table's names, which a key's help lists: each kind of engine, or
 * each protocol a listener can serve. */
enum { NAMES_NONE, NAMES_KINDS, NAMES_FRONTS };

struct config_key {
	enum config_section section;
	const char      *name;
	enum key_type    type;
	unsigned long long lo, hi;   /* KEY_UINT, KEY_WHOLE_SECONDS */
	const char      *range;      /* what a bad value's error says it must be */
	const char      *def;        /* the default, applied as if written in the file; NULL: none */
	const char      *shown;      /* the default as the docs say it, when def does not */
	const char      *help;       /* one paragraph; `code` in backquotes */
	size_t           off;        /* where it is stored in its section's struct */
	size_t           size;       /* the size of that field (KEY_UINT: 2, 4 or 8) */
	int              empty_ok;   /* an empty value is allowed (and means none) */
	int              names;      /* the help ends with NAMES_KINDS or NAMES_FRONTS */
	int            (*fn)(void *obj, const char *k, const char *v, char *err, size_t errlen);
};

#define D(field)  .off = offsetof(struct config, field), .size = sizeof(((struct config *)0)->field)
#define E(field)  .off = offsetof(struct engine_profile, field), \
		  .size = sizeof(((struct engine_profile *)0)->field)
#define L(field)  .off = offsetof(struct listener_conf, field), \
		  .size = sizeof(((struct listener_conf *)0)->field)
#define S(field)  .off = offsetof(struct bot_conf, field), \
		  .size = sizeof(((struct bot_conf *)0)->field)
#define LOBBY     .type = KEY_FN, .fn = set_lobby, .off = NOWHERE
#define SECONDS   .type = KEY_SECONDS, .range = "seconds in (0, 86400]"

static const struct config_key config_keys[] = {
	/* [daemon] */
	{ CONFIG_DAEMON, "log", KEY_STR, D(log_path), .empty_ok = 1, .shown = "none",
	  .help = "protocol trace log: a path, `-` for stderr, empty for none" },
	{ CONFIG_DAEMON, "http", KEY_STR, D(http), .shown = "none",
	  .help = "the web page and its JSON endpoints at `ADDR:PORT` (docs/web.md); `--http` overrides" },
	{ CONFIG_DAEMON, "http_token_file", KEY_STR, D(http_token_file), .shown = "none",
	  .help = "a file (mode 600) whose first line is the web API's access token (16 to 256 "
		  "printable characters): every change through the API (`POST`) then needs "
		  "`Authorization: Bearer TOKEN`, reads stay open. Required when `http` is beyond "
		  "loopback: the daemon refuses to start without one. `$HIVEBRIDGE_HTTP_TOKEN` wins "
		  "over it (taken out of the environment, and its bytes out of `/proc/PID/environ`, "
		  "before any engine starts)" },
	{ CONFIG_DAEMON, "http_hosts", KEY_STR, D(http_hosts), .shown = "none",
	  .help = "more names a request's `Host` may give, spaces between (besides the address, "
		  "and `localhost` on loopback); any other `Host` is refused with 421, as DNS "
		  "rebinding sends" },
	{ CONFIG_DAEMON, "games", KEY_STR, D(games_path), .shown = "none",
	  .help = "a PGN file (Mzinga's) every finished game of the web page and of remote play "
		  "is appended to as it ends, one write each, and, while the page is on, every game "
		  "a session plays to the board's end (`match --pgnout` may name the same file); "
		  "created if missing; the web page lists its newest 256 games, after a restart too" },
	{ CONFIG_DAEMON, "max_sessions", KEY_UINT, 1, 1000000, "1..1000000", "1000", D(max_sessions),
	  .help = "concurrent sessions; more are refused with an error" },
	{ CONFIG_DAEMON, "max_sessions_per_peer", KEY_UINT, 1, 1000000, "1..1000000", "32",
	  D(max_sessions_per_peer),
	  .help = "concurrent sessions from one IP address (loopback included), over all listeners" },
	{ CONFIG_DAEMON, "http_max_connections", KEY_UINT, 2, 100000, "2..100000", "256",
	  D(http_max_connections),
	  .help = "HTTP connections open at once, counted at accept (beyond: 503 and closed); never "
		  "more than half the descriptors the process may open beyond 64" },
	{ CONFIG_DAEMON, "http_max_connections_per_address", KEY_UINT, 1, 100000, "1..100000", "64",
	  D(http_max_connections_per_address),
	  .help = "HTTP connections from one IP address, at most half of the above" },
	{ CONFIG_DAEMON, "http_head_timeout", KEY_WHOLE_SECONDS, 1, 3600, "1..3600 seconds", "10",
	  D(http_head_timeout_ms),
	  .help = "seconds from a request's first byte until its head and body are in (408 after)" },
	{ CONFIG_DAEMON, "http_max_head", KEY_UINT, 4096, 1048576, "4096..1048576 bytes", "32768",
	  D(http_max_head),
	  .help = "bytes of an HTTP request line and headers (431 beyond)" },
	{ CONFIG_DAEMON, "http_max_record", KEY_UINT, 4096, 4194304, "4096..4194304 bytes", "1048576",
	  D(http_max_record),
	  .help = "bytes of the body of a record opened on the web page (POST /api/records, a "
		  "GameString, PGN or SGF in JSON; 413 beyond); every other body is at most 4096" },
	{ CONFIG_DAEMON, "http_play_move_time", KEY_WHOLE_SECONDS, 1, 86400, "1..86400 seconds", "1800",
	  D(http_play_move_ms),
	  .help = "seconds a person playing an engine on the web page has for each move (then the "
		  "game is lost on time)" },
	{ CONFIG_DAEMON, "http_play_max_plies", KEY_UINT, 0, 60000, "0..60000 (0: never)", "1000",
	  D(http_play_max_plies),
	  .help = "a game on the web page is adjudicated a draw after this many plies (0: never)" },
	{ CONFIG_DAEMON, "max_line", KEY_UINT, 256, 16777216, "256..16777216", "65536", D(max_line),
	  .help = "longest protocol line from a client or an engine, bytes" },
	{ CONFIG_DAEMON, "max_buffer", KEY_UINT, 4096, 1073741824, "4096..1073741824", "1048576",
	  D(max_buffer),
	  .help = "bytes buffered per direction per session before reading pauses" },
	{ CONFIG_DAEMON, "hash_budget_mb", KEY_UINT, 1, 1048576, "1..1048576", "512", D(hash_budget_mb),
	  .help = "built-in engine: MB all sessions' hash tables may take together; a table beyond "
		  "what is left is halved until it fits (`options` shows the size in use), and with "
		  "less than 1 MB left a search gets an error" },
	{ CONFIG_DAEMON, "search_threads", KEY_UINT, 0, 256, "0..256 (0: one per CPU)", "0",
	  D(search_threads),
	  .help = "built-in engine: threads every search and `perft` queue for, first come first "
		  "served (0: one per online CPU)" },
	{ CONFIG_DAEMON, "hash_idle_timeout", KEY_UINT, 0, 86400, "0..86400 seconds (0: never)", "60",
	  D(hash_idle_timeout),
	  .help = "built-in engine: seconds a session's hash table is kept with no search using it, "
		  "then given back (its next search starts a new one); 0 keeps it until `newgame` or "
		  "close" },
	{ CONFIG_DAEMON, "busy_poll_us", KEY_UINT, 0, 10000, "0..10000 microseconds (0: never)", "0",
	  D(busy_poll_us),
	  .help = "microseconds the event loop keeps polling, without sleeping, after each pass that "
		  "handled something; 0 sleeps at once. For request-reply clients on a VM, where "
		  "waking a halted CPU costs tens of µs a request (README, Benchmarks). The price is "
		  "CPU time: up to one core while any traffic comes more often than the window. The "
		  "loop sleeps while the built-in engine's searches run and when idle" },

	/* [engine NAME] */
	{ CONFIG_ENGINE, "kind", KEY_FN, .fn = set_kind, .off = NOWHERE,
	  .shown = "uhp (`[engine builtin]`: builtin)", .names = NAMES_KINDS,
	  .help = "`builtin` or a protocol's:" },
	{ CONFIG_ENGINE, "command", KEY_FN, .fn = set_command, .off = NOWHERE,
	  .help = "command line of an external engine (split on blanks; quotes group); for "
		  "`kind = otep` also the path of the engine's `.ini` (one word ending in `.ini`: its "
		  "`directory` is the working directory, `command` and `arguments` what runs, `name` "
		  "the engine's id), the same rule as `otep:X`" },
	{ CONFIG_ENGINE, "workdir", KEY_STR, E(workdir), .empty_ok = 1, .shown = "inherited",
	  .help = "its working directory (empty: inherited)" },
	{ CONFIG_ENGINE, "host", KEY_STR, E(host),
	  .help = "a Trylobot AI module's host (a name is resolved at start-up)" },
	{ CONFIG_ENGINE, "port", KEY_UINT, 1, 65535, "1..65535", NULL, E(port),
	  .help = "a Trylobot AI module's port" },
	{ CONFIG_ENGINE, "start_timeout", SECONDS, .def = "10", E(start_timeout_ms),
	  .help = "seconds for the info block / readiness" },
	{ CONFIG_ENGINE, "command_timeout", SECONDS, .def = "10", E(command_timeout_ms),
	  .help = "seconds for any reply; for a timed search, the grace past its time (counted from "
		  "when the engine has the command) before the engine is failed" },
	{ CONFIG_ENGINE, "stop_timeout", SECONDS, .def = "2", E(stop_timeout_ms),
	  .help = "seconds after a stop before the engine is killed" },
	{ CONFIG_ENGINE, "option", KEY_FN, .fn = set_option, .off = NOWHERE,
	  .help = "`Name Value`, set at start (repeatable)" },
	{ CONFIG_ENGINE, "hash_mb", KEY_UINT, 1, 65536, "1..65536", "16", E(hash_mb),
	  .help = "built-in engine: transposition table per session, MB" },
	{ CONFIG_ENGINE, "hash_mb_max", KEY_UINT, 1, 65536, "1..65536", "256", E(hash_mb_max),
	  .help = "built-in engine: the most a client may set with `HashMB` (or Hub's `hash`)" },
	{ CONFIG_ENGINE, "threads", KEY_UINT, 1, 64, "1..64", NULL, E(threads), .shown = "1",
	  .help = "built-in engine: threads per search (the `Threads` option, Lazy SMP), at most "
		  "`search_threads`" },
	{ CONFIG_ENGINE, "expansions", KEY_FN, .fn = set_expansions, .off = NOWHERE,
	  .shown = "none (Base only)",
	  .help = "a Trylobot module (`kind = trylobot`): the expansions it plays, letters of `MLP` "
		  "or `none`; announced as its capabilities, other game types refused" },

	/* [listen NAME] */
	{ CONFIG_LISTEN, "protocol", KEY_FN, .fn = set_protocol, .off = NOWHERE, .shown = "uhp",
	  .names = NAMES_FRONTS,
	  .help = "the protocol it serves (remote play: docs/remote-play.md):" },
	{ CONFIG_LISTEN, "address", KEY_FN, .fn = set_address, .off = NOWHERE, .def = "127.0.0.1",
	  .help = "where to listen: a numeric IPv4 or IPv6 address" },
	{ CONFIG_LISTEN, "port", KEY_UINT, 0, 65535, "0..65535", NULL, L(port),
	  .shown = "the protocol's (uhp 5000)",
	  .help = "where to listen (0: any free port)" },
	{ CONFIG_LISTEN, "engine", KEY_STR, L(engine), .def = "builtin",
	  .help = "the engine profile its sessions use" },
	{ CONFIG_LISTEN, "think_time", SECONDS, .def = "1", L(think_ms),
	  .help = "seconds a search may take when the protocol sets no limit (Trylobot requests "
		  "without a deadline)" },
	{ CONFIG_LISTEN, "depth", KEY_UINT, 0, 64, "0..64", "0", L(depth),
	  .help = "a fixed search depth instead of `think_time` (0: none)" },
	{ CONFIG_LISTEN, "idle_timeout", KEY_SECONDS0, .range = "0 (never) or seconds in (0, 86400]",
	  .def = "300", L(idle_timeout_ms),
	  .help = "seconds without input before a session with no game in progress is closed "
		  "(0: never)" },
	{ CONFIG_LISTEN, "game_idle_timeout", KEY_SECONDS0, .range = "0 (never) or seconds in (0, 86400]",
	  .def = "3600", L(game_idle_timeout_ms),
	  .help = "the same with a game in progress: UHP from `newgame` until the game ends, Hub "
		  "from `pos` until it ends, Trylobot once a Choose Turn listed moves (0: never)" },
	{ CONFIG_LISTEN, "max_depth", KEY_UINT, 1, 64, "1..64", "32", L(max_depth),
	  .help = "the deepest search (or `perft`) a client may ask for: beyond it UHP answers "
		  "`err`, Hub `error`" },
	{ CONFIG_LISTEN, "max_think_time", SECONDS, .def = "60", L(max_think_ms),
	  .help = "the longest search (or `perft`) a client may ask for, seconds: beyond it UHP "
		  "answers `err`, Hub `error`; a Trylobot deadline further away is clamped (the spec "
		  "has no refusal); every search stops by it" },
	/* Remote play (uhp-remote, uhp-player, uhp-spectate): bridge/lobby/lobby_conf.c reads them. */
	{ CONFIG_LISTEN, "wait_time", LOBBY, .def = "30",
	  .help = "remote play: seconds `newgame` waits for an opponent" },
	{ CONFIG_LISTEN, "house_engine", LOBBY,
	  .help = "remote play: an `[engine NAME]` that plays a client nobody pairs with" },
	{ CONFIG_LISTEN, "house_wait", LOBBY, .def = "0",
	  .help = "remote play: seconds a client waits for a person before the house engine takes it "
		  "(at most `wait_time`; 0: at once)" },
	{ CONFIG_LISTEN, "clock", LOBBY, .def = "600+5",
	  .help = "remote play: each player's time and increment, seconds (`300`, `0.5+0.1`)" },
	{ CONFIG_LISTEN, "move_time", LOBBY,
	  .help = "remote play: instead of `clock`, a fixed time per move, seconds" },
	{ CONFIG_LISTEN, "grace", LOBBY, .def = "30",
	  .help = "remote play: seconds a disconnected player's seat waits for a `resume`" },
	{ CONFIG_LISTEN, "max_waiting", LOBBY, .def = "64",
	  .help = "remote play: clients waiting for an opponent at once" },
	{ CONFIG_LISTEN, "max_games", LOBBY, .def = "128",
	  .help = "remote play: games at once" },
	{ CONFIG_LISTEN, "max_spectators", LOBBY, .def = "16",
	  .help = "remote play: spectators per game" },
	{ CONFIG_LISTEN, "max_spectators_total", LOBBY, .def = "256",
	  .help = "remote play: spectators of all the listener's games together" },
	{ CONFIG_LISTEN, "game_type", LOBBY, .def = "Base",
	  .help = "`uhp-player`: the game its engines play (`Base+MLP`, ...)" },
	{ CONFIG_LISTEN, "watch", LOBBY,
	  .help = "`uhp-spectate`: the listener whose games it shows" },
	{ CONFIG_LISTEN, "max_plies", LOBBY, .def = "1000",
	  .help = "remote play: a longer game is adjudicated a draw (0: never)" },
	{ CONFIG_LISTEN, "repetition", LOBBY, .def = "0",
	  .help = "remote play: a game is adjudicated a draw once a position occurs this often "
		  "(0: never, else 2..1000; `match` uses 3)" },
	{ CONFIG_LISTEN, "hints", LOBBY, .def = "no",
	  .help = "remote play: whether `bestmove` is answered (by the listener's engine)" },
	{ CONFIG_LISTEN, "results", LOBBY,
	  .help = "remote play: every finished game appended to this file as one JSON line "
		  "(schemas/match-result.json)" },

	/* [site NAME]: a bot on a game web site (bridge/bot.h, adapters/hivegame/). */
	{ CONFIG_SITE, "site", KEY_FN, .fn = set_site, .off = NOWHERE, .def = "hivegame",
	  .help = "the site's API: `hivegame` (hivegame.com's bot API, docs: README \"A bot on "
		  "hivegame.com\")" },
	{ CONFIG_SITE, "url", KEY_STR, S(url), .shown = "https://hivegame.com",
	  .help = "the site's base URL (`http://` only for a local test server)" },
	{ CONFIG_SITE, "user", KEY_STR, S(user),
	  .help = "the bot account's name (or e-mail); the site's admins make an account a bot" },
	{ CONFIG_SITE, "password_file", KEY_STR, S(password_file), .shown = "none",
	  .help = "a file holding the account's password (one line), a regular file of the daemon's "
		  "user that no one else may read or write (mode 600), else the daemon refuses to "
		  "start; without it the password comes from `password_env`" },
	{ CONFIG_SITE, "password_env", KEY_STR, S(password_env), .shown = "HIVEBRIDGE_BOT_PASSWORD",
	  .help = "the environment variable holding the password (taken out of the environment "
		  "before any engine starts)" },
	{ CONFIG_SITE, "engine", KEY_STR, S(engine), .def = "builtin",
	  .help = "the engine: a profile NAME or any ENGINE (`uhp:CMD`, ...); one session of it "
		  "per game" },
	{ CONFIG_SITE, "max_games", KEY_UINT, 1, 256, "1..256", "2", S(max_games),
	  .help = "games at once: challenges beyond it wait" },
	{ CONFIG_SITE, "game_types", KEY_FN, .fn = set_game_types, .off = NOWHERE, .shown = "all",
	  .help = "the game types of the challenges it accepts, commas between (`Base,Base+MLP`)" },
	{ CONFIG_SITE, "time_modes", KEY_FN, .fn = set_time_modes, .off = NOWHERE,
	  .def = "realtime,correspondence,untimed",
	  .help = "the time controls of the challenges it accepts, commas between" },
	{ CONFIG_SITE, "rated", KEY_FN, .fn = set_rated, .off = NOWHERE, .def = "any",
	  .help = "which challenges it accepts: `any`, `yes` (rated only) or `no` (unrated only)" },
	{ CONFIG_SITE, "min_base", KEY_UINT, 0, 1000000, "0..1000000 seconds", "0", S(min_base_s),
	  .help = "real-time challenges: the least base time accepted, seconds (0: any)" },
	{ CONFIG_SITE, "max_base", KEY_UINT, 0, 1000000, "0..1000000 seconds", "0", S(max_base_s),
	  .help = "real-time challenges: the most base time accepted, seconds (0: any)" },
	{ CONFIG_SITE, "poll_interval", SECONDS, .def = "2", S(poll_ms),
	  .help = "seconds between two polls of the site (the API has no push channel for bots)" },
	{ CONFIG_SITE, "backoff_max", SECONDS, .def = "60", S(backoff_max_ms),
	  .help = "after network errors and 5xx answers the wait doubles from `poll_interval` up to "
		  "this many seconds; the games are kept" },
	{ CONFIG_SITE, "request_timeout", SECONDS, .def = "15", S(request_timeout_ms),
	  .help = "seconds a request to the site may take, connection included" },
	{ CONFIG_SITE, "think_time", SECONDS, .def = "5", S(think_ms),
	  .help = "seconds a move of a correspondence or untimed game may take (a correspondence "
		  "clock's share, if smaller, wins); real-time games take theirs from the clock" },
	{ CONFIG_SITE, "depth", KEY_UINT, 0, 64, "0..64", "0", S(depth),
	  .help = "untimed games: a fixed search depth instead of `think_time` (0: none)" },
	{ CONFIG_SITE, "resign_below", KEY_FN, .fn = set_resign, .off = NOWHERE, .def = "never",
	  .help = "resign (from the 2nd turn, as the site allows) when the engine's score for the "
		  "move it chose, from its own side, is at or below this (-30000..30000, centipawn-like; "
		  "the built-in engine's forced losses are below -29000); only an engine that reports "
		  "its score resigns (the built-in one with `option = ReportIntermediateBestMoves true` "
		  "in its profile)" },

	/* [queue]: read by match --queue and worker (bridge/match/queue.c). */
	{ CONFIG_QUEUE, "password", KEY_ELSEWHERE, .off = NOWHERE,
	  .help = "the Redis password of `match --queue` and `worker`; `$HIVEBRIDGE_REDIS_PASSWORD` "
		  "wins over it" },
	{ CONFIG_QUEUE, "user", KEY_ELSEWHERE, .off = NOWHERE, .shown = "Redis's default user",
	  .help = "the Redis ACL user that password belongs to; `$HIVEBRIDGE_REDIS_USER` wins over it" },
};
#define NKEYS (sizeof config_keys / sizeof config_keys[0])

const struct config_key *config_key_find(enum config_section sec, const char *name)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (config_keys[i].section == sec && !strcmp(config_keys[i].name, name))
			return &config_keys[i];
	return NULL;
}

int config_key_empty_ok(const char *name)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (config_keys[i].empty_ok && !strcmp(config_keys[i].name, name))
			return 1;
	return 0;
}

static void store_uint(void *field, size_t size, unsigned long long v)
{
	if (size == sizeof(uint16_t)) {
		uint16_t x = (uint16_t)v;
		memcpy(field, &x, size);
	} else if (size == sizeof(unsigned)) {
		unsigned x = (unsigned)v;
		memcpy(field, &x, size);
	} else {
		uint64_t x = v;
		memcpy(field, &x, sizeof x);
	}
}

int config_key_set(const struct config_key *k, void *obj, const char *v, char *err, size_t errlen)
{
	void *field = k->off == NOWHERE ? NULL : (char *)obj + k->off;
	unsigned long long n;
	unsigned ms = 0;

	switch (k->type) {
	case KEY_STR:
		config_str_set(field, *v ? v : NULL);
		return 0;
	case KEY_UINT:
	case KEY_WHOLE_SECONDS:
		if (parse_uint(v, k->lo, k->hi, &n) < 0)
			break;
		store_uint(field, k->size, k->type == KEY_UINT ? n : n * 1000);
		return 0;
	case KEY_SECONDS0:
		if (!strcmp(v, "0")) {
			store_uint(field, k->size, 0);
			return 0;
		}
		/* fall through */
	case KEY_SECONDS:
		if (parse_seconds(v, &ms) < 0)
			break;
		store_uint(field, k->size, ms);
		return 0;
	case KEY_FN:
		return k->fn(obj, k->name, v, err, errlen);
	case KEY_ELSEWHERE:
		return 0;
	}
	return errbuf_set(err, errlen, "%s must be %s, not \"%s\"", k->name, k->range, v);
}

void config_site_defaults(struct bot_conf *b)
{
	config_section_defaults(CONFIG_SITE, b);
}

void config_section_defaults(enum config_section sec, void *obj)
{
	char err[256];
	for (size_t i = 0; i < NKEYS; i++) {
		const struct config_key *k = &config_keys[i];
		if (k->section == sec && k->def && config_key_set(k, obj, k->def, err, sizeof err) < 0) {
			fprintf(stderr, "config: the default of %s is wrong: %s\n", k->name, err);
			abort();
		}
	}
}

/* ---- the table as documentation ---- */

/* The help text (`code` in backquotes) as how wants it: markdown as written, plain
 * text without the backquotes, troff with them bold and its special characters
 * escaped. */
static void doc_text(FILE *f, const char *s, enum config_doc how)
{
	int code = 0;
	if (how == CONFIG_DOC_MAN && (*s == '.' || *s == '\''))
		fputs("\\&", f);
	for (; *s; s++) {
		if (*s == '`' && how != CONFIG_DOC_MARKDOWN) {
			code = !code;
			if (how == CONFIG_DOC_MAN)
				fputs(code ? "\\fB" : "\\fR", f);
		} else if (how == CONFIG_DOC_MAN && *s == '-') {
			fputs("\\-", f);
		} else if (how == CONFIG_DOC_MAN && *s == '\\') {
			fputs("\\e", f);
		} else {
			fputc(*s, f);
		}
	}
}

/* Plain text wrapped at 80 columns, each line indented by indent. */
static void doc_wrapped(FILE *f, const char *s, int indent)
{
	char buf[2048];
	int col = 0;
	size_t n = 0;

	for (const char *p = s; *p && n + 1 < sizeof buf; p++)
		if (*p != '`')
			buf[n++] = *p;
	buf[n] = 0;
	for (char *w = strtok(buf, " "); w; w = strtok(NULL, " ")) {
		int len = (int)strlen(w);
		if (col && col + 1 + len > 80) {
			fputc('\n', f);
			col = 0;
		}
		col += col ? fprintf(f, " %s", w) : fprintf(f, "%*s%s", indent, "", w);
	}
	fputc('\n', f);
}

/* The help of k, with the names it lists. */
static void doc_help(FILE *f, const struct config_key *k, enum config_doc how)
{
	const struct protocol *pr;
	char buf[1024];
	size_t n = (size_t)snprintf(buf, sizeof buf, "%s", k->help);

	for (size_t i = 0; k->names && (pr = protocol_at(i)) != NULL && n < sizeof buf; i++) {
		int listed = k->names == NAMES_KINDS ? pr->back_new != NULL : pr->front.session_new != NULL;
		if (listed)
			n += (size_t)snprintf(buf + n, sizeof buf - n, " `%s`,", pr->name);
	}
	if (k->names && n < sizeof buf && buf[n - 1] == ',')
		buf[n - 1] = 0;
	if (how == CONFIG_DOC_TEXT)
		doc_wrapped(f, buf, 6);
	else
		doc_text(f, buf, how);
}

void config_describe(FILE *f, enum config_doc how)
{
	int last = -1;

	if (how == CONFIG_DOC_MARKDOWN)
		fputs("| section | key | meaning | default |\n|---|---|---|---|\n", f);
	for (size_t i = 0; i < NKEYS; i++) {
		const struct config_key *k = &config_keys[i];
		const char *def = k->def ? k->def : k->shown ? k->shown : "";
		int first = (int)k->section != last;
		last = (int)k->section;
		if (how == CONFIG_DOC_MARKDOWN) {
			if (first)
				fprintf(f, "| `%s` ", section_title[k->section]);
			else
				fputs("| ", f);
			fprintf(f, "| `%s` | ", k->name);
			doc_help(f, k, how);
			fputs(" | ", f);
			doc_text(f, def, how);
			fputs(" |\n", f);
		} else if (how == CONFIG_DOC_MAN) {
			if (first)
				fprintf(f, ".SS \"%s\"\n", section_title[k->section]);
			fprintf(f, ".TP\n.B %s\n", k->name);
			doc_help(f, k, how);
			if (*def) {
				fputs(" (default: ", f);
				doc_text(f, def, how);
				fputs(")", f);
			}
			fputs(".\n", f);
		} else {
			if (first)
				fprintf(f, "%s%s\n", i ? "\n" : "", section_title[k->section]);
			fprintf(f, "  %s", k->name);
			if (*def)
				fprintf(f, " (default: %s)", def);
			fputc('\n', f);
			doc_help(f, k, how);
		}
	}
}
