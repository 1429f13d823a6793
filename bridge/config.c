/*
 * config.c: the daemon's configuration: embedded defaults, then an INI file read
 * with inih over them. Every key is a row of one table (config_keys, redis's config
 * table being the model): its section, name, type and range, its default, its help
 * and where it is stored. The defaults are applied from the table, the file is read
 * through it, and `hivebridge help config` prints it (the README's Configuration
 * table and the man page's CONFIGURATION are that output). Every error names the
 * file's line.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bridge/config.h"
#include "bridge/protocol.h"
#include "bridge/util.h"
#include "core/errbuf.h"

/* State of one config_load(). */
struct config_parse {
	struct config *c;
	FILE          *f;
	int            lineno;        /* line inih is handling */
	char          *line;          /* the line read (getline's buffer) */
	size_t         line_cap;
	char           cause[512];    /* first error, already prefixed with the line; "" if none */
	int            cause_line;    /* its line */
};

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

static void argv_free(char **argv)
{
	if (!argv)
		return;
	for (char **a = argv; *a; a++)
		free(*a);
	free(argv);
}

/* Splits a command line on blanks. Single quotes are literal, double quotes allow
 * \" and \\, a backslash outside quotes escapes the next byte. NULL-terminated
 * result (caller frees with argv_free); NULL with err on error. */
static char **command_split(const char *s, char *err, size_t errlen)
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
			argv_free(argv);
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
		argv_free(argv);
		errbuf_set(err, errlen, "empty command");
		return NULL;
	}
	return argv;
}

/* "builtin" or a protocol with a back end. */
static int kind_known(const char *s)
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
	set_str(dst, v);
	return 0;
}

static int set_kind(void *obj, const char *k, const char *v, char *err, size_t errlen)
{
	struct engine_profile *p = obj;
	return set_known(&p->kind, kind_known(v), "engine kind", v, 1, err, errlen);
}

static int set_command(void *obj, const char *k, const char *v, char *err, size_t errlen)
{
	struct engine_profile *p = obj;
	char **argv = command_split(v, err, errlen);
	if (!argv)
		return -1;
	argv_free(p->argv);
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
			set_str(&p->options[i][1], val);
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
	set_str(&l->address, v);
	return 0;
}

/* The remote-play keys are the lobby's to read (bridge/lobby/lobby_conf.h). */
static int set_lobby(void *obj, const char *k, const char *v, char *err, size_t errlen)
{
	struct listener_conf *l = obj;
	return lobby_conf_key(&l->lobby, k, v, err, errlen) < 0 ? -1 : 0;
}

/* ---- the table ---- */

enum key_section { SEC_DAEMON, SEC_ENGINE, SEC_LISTEN, SEC_QUEUE };
static const char *const section_title[] = {
	[SEC_DAEMON] = "[daemon]", [SEC_ENGINE] = "[engine NAME]",
	[SEC_LISTEN] = "[listen NAME]", [SEC_QUEUE] = "[queue]",
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
	enum key_section section;
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
#define LOBBY     .type = KEY_FN, .fn = set_lobby, .off = NOWHERE
#define SECONDS   .type = KEY_SECONDS, .range = "seconds in (0, 86400]"

static const struct config_key config_keys[] = {
	/* [daemon] */
	{ SEC_DAEMON, "log", KEY_STR, D(log_path), .empty_ok = 1, .shown = "none",
	  .help = "protocol trace log: a path, `-` for stderr, empty for none" },
	{ SEC_DAEMON, "http", KEY_STR, D(http), .shown = "none",
	  .help = "the web page and its JSON endpoints at `ADDR:PORT` (docs/web.md); `--http` overrides" },
	{ SEC_DAEMON, "http_token_file", KEY_STR, D(http_token_file), .shown = "none",
	  .help = "a file (mode 600) whose first line is the web API's access token (16 to 256 "
		  "printable characters): every change through the API (`POST`) then needs "
		  "`Authorization: Bearer TOKEN`, reads stay open. Required when `http` is beyond "
		  "loopback: the daemon refuses to start without one. `$HIVEBRIDGE_HTTP_TOKEN` wins "
		  "over it (taken out of the environment, and its bytes out of `/proc/PID/environ`, "
		  "before any engine starts)" },
	{ SEC_DAEMON, "http_hosts", KEY_STR, D(http_hosts), .shown = "none",
	  .help = "more names a request's `Host` may give, spaces between (besides the address, "
		  "and `localhost` on loopback); any other `Host` is refused with 421, as DNS "
		  "rebinding sends" },
	{ SEC_DAEMON, "max_sessions", KEY_UINT, 1, 1000000, "1..1000000", "1000", D(max_sessions),
	  .help = "concurrent sessions; more are refused with an error" },
	{ SEC_DAEMON, "max_sessions_per_peer", KEY_UINT, 1, 1000000, "1..1000000", "32",
	  D(max_sessions_per_peer),
	  .help = "concurrent sessions from one IP address (loopback included), over all listeners" },
	{ SEC_DAEMON, "http_max_connections", KEY_UINT, 2, 100000, "2..100000", "256",
	  D(http_max_connections),
	  .help = "HTTP connections open at once, counted at accept (beyond: 503 and closed); never "
		  "more than half the descriptors the process may open beyond 64" },
	{ SEC_DAEMON, "http_max_connections_per_address", KEY_UINT, 1, 100000, "1..100000", "64",
	  D(http_max_connections_per_address),
	  .help = "HTTP connections from one IP address, at most half of the above" },
	{ SEC_DAEMON, "http_head_timeout", KEY_WHOLE_SECONDS, 1, 3600, "1..3600 seconds", "10",
	  D(http_head_timeout_ms),
	  .help = "seconds from a request's first byte until its head and body are in (408 after)" },
	{ SEC_DAEMON, "http_max_head", KEY_UINT, 4096, 1048576, "4096..1048576 bytes", "32768",
	  D(http_max_head),
	  .help = "bytes of an HTTP request line and headers (431 beyond)" },
	{ SEC_DAEMON, "max_line", KEY_UINT, 256, 16777216, "256..16777216", "65536", D(max_line),
	  .help = "longest protocol line from a client or an engine, bytes" },
	{ SEC_DAEMON, "max_buffer", KEY_UINT, 4096, 1073741824, "4096..1073741824", "1048576",
	  D(max_buffer),
	  .help = "bytes buffered per direction per session before reading pauses" },
	{ SEC_DAEMON, "hash_budget_mb", KEY_UINT, 1, 1048576, "1..1048576", "512", D(hash_budget_mb),
	  .help = "built-in engine: MB all sessions' hash tables may take together; a table beyond "
		  "what is left is halved until it fits (`options` shows the size in use), and with "
		  "less than 1 MB left a search gets an error" },
	{ SEC_DAEMON, "search_threads", KEY_UINT, 0, 256, "0..256 (0: one per CPU)", "0",
	  D(search_threads),
	  .help = "built-in engine: threads every search and `perft` queue for, first come first "
		  "served (0: one per online CPU)" },
	{ SEC_DAEMON, "hash_idle_timeout", KEY_UINT, 0, 86400, "0..86400 seconds (0: never)", "60",
	  D(hash_idle_timeout),
	  .help = "built-in engine: seconds a session's hash table is kept with no search using it, "
		  "then given back (its next search starts a new one); 0 keeps it until `newgame` or "
		  "close" },
	{ SEC_DAEMON, "busy_poll_us", KEY_UINT, 0, 10000, "0..10000 microseconds (0: never)", "0",
	  D(busy_poll_us),
	  .help = "microseconds the event loop keeps polling, without sleeping, after each pass that "
		  "handled something; 0 sleeps at once. For request-reply clients on a VM, where "
		  "waking a halted CPU costs tens of µs a request (README, Benchmarks). The price is "
		  "CPU time: up to one core while any traffic comes more often than the window. The "
		  "loop sleeps while the built-in engine's searches run and when idle" },

	/* [engine NAME] */
	{ SEC_ENGINE, "kind", KEY_FN, .fn = set_kind, .off = NOWHERE,
	  .shown = "uhp (`[engine builtin]`: builtin)", .names = NAMES_KINDS,
	  .help = "`builtin` or a protocol's:" },
	{ SEC_ENGINE, "command", KEY_FN, .fn = set_command, .off = NOWHERE,
	  .help = "command line of an external engine (split on blanks; quotes group); for "
		  "`kind = otep` also the path of the engine's `.ini` (one word ending in `.ini`: its "
		  "`directory` is the working directory, `command` and `arguments` what runs, `name` "
		  "the engine's id), the same rule as `otep:X`" },
	{ SEC_ENGINE, "workdir", KEY_STR, E(workdir), .empty_ok = 1, .shown = "inherited",
	  .help = "its working directory (empty: inherited)" },
	{ SEC_ENGINE, "host", KEY_STR, E(host),
	  .help = "a Trylobot AI module's host (a name is resolved at start-up)" },
	{ SEC_ENGINE, "port", KEY_UINT, 1, 65535, "1..65535", NULL, E(port),
	  .help = "a Trylobot AI module's port" },
	{ SEC_ENGINE, "start_timeout", SECONDS, .def = "10", E(start_timeout_ms),
	  .help = "seconds for the info block / readiness" },
	{ SEC_ENGINE, "command_timeout", SECONDS, .def = "10", E(command_timeout_ms),
	  .help = "seconds for any reply; for a timed search, the grace past its time (counted from "
		  "when the engine has the command) before the engine is failed" },
	{ SEC_ENGINE, "stop_timeout", SECONDS, .def = "2", E(stop_timeout_ms),
	  .help = "seconds after a stop before the engine is killed" },
	{ SEC_ENGINE, "option", KEY_FN, .fn = set_option, .off = NOWHERE,
	  .help = "`Name Value`, set at start (repeatable)" },
	{ SEC_ENGINE, "hash_mb", KEY_UINT, 1, 65536, "1..65536", "16", E(hash_mb),
	  .help = "built-in engine: transposition table per session, MB" },
	{ SEC_ENGINE, "hash_mb_max", KEY_UINT, 1, 65536, "1..65536", "256", E(hash_mb_max),
	  .help = "built-in engine: the most a client may set with `HashMB` (or Hub's `hash`)" },
	{ SEC_ENGINE, "threads", KEY_UINT, 1, 64, "1..64", NULL, E(threads), .shown = "1",
	  .help = "built-in engine: threads per search (the `Threads` option, Lazy SMP), at most "
		  "`search_threads`" },
	{ SEC_ENGINE, "expansions", KEY_FN, .fn = set_expansions, .off = NOWHERE,
	  .shown = "none (Base only)",
	  .help = "a Trylobot module (`kind = trylobot`): the expansions it plays, letters of `MLP` "
		  "or `none`; announced as its capabilities, other game types refused" },

	/* [listen NAME] */
	{ SEC_LISTEN, "protocol", KEY_FN, .fn = set_protocol, .off = NOWHERE, .shown = "uhp",
	  .names = NAMES_FRONTS,
	  .help = "the protocol it serves (remote play: docs/remote-play.md):" },
	{ SEC_LISTEN, "address", KEY_FN, .fn = set_address, .off = NOWHERE, .def = "127.0.0.1",
	  .help = "where to listen: a numeric IPv4 or IPv6 address" },
	{ SEC_LISTEN, "port", KEY_UINT, 0, 65535, "0..65535", NULL, L(port),
	  .shown = "the protocol's (uhp 5000)",
	  .help = "where to listen (0: any free port)" },
	{ SEC_LISTEN, "engine", KEY_STR, L(engine), .def = "builtin",
	  .help = "the engine profile its sessions use" },
	{ SEC_LISTEN, "think_time", SECONDS, .def = "1", L(think_ms),
	  .help = "seconds a search may take when the protocol sets no limit (Trylobot requests "
		  "without a deadline)" },
	{ SEC_LISTEN, "depth", KEY_UINT, 0, 64, "0..64", "0", L(depth),
	  .help = "a fixed search depth instead of `think_time` (0: none)" },
	{ SEC_LISTEN, "idle_timeout", KEY_SECONDS0, .range = "0 (never) or seconds in (0, 86400]",
	  .def = "300", L(idle_timeout_ms),
	  .help = "seconds without input before a session with no game in progress is closed "
		  "(0: never)" },
	{ SEC_LISTEN, "game_idle_timeout", KEY_SECONDS0, .range = "0 (never) or seconds in (0, 86400]",
	  .def = "3600", L(game_idle_timeout_ms),
	  .help = "the same with a game in progress: UHP from `newgame` until the game ends, Hub "
		  "from `pos` until it ends, Trylobot once a Choose Turn listed moves (0: never)" },
	{ SEC_LISTEN, "max_depth", KEY_UINT, 1, 64, "1..64", "32", L(max_depth),
	  .help = "the deepest search (or `perft`) a client may ask for: beyond it UHP answers "
		  "`err`, Hub `error`" },
	{ SEC_LISTEN, "max_think_time", SECONDS, .def = "60", L(max_think_ms),
	  .help = "the longest search (or `perft`) a client may ask for, seconds: beyond it UHP "
		  "answers `err`, Hub `error`; a Trylobot deadline further away is clamped (the spec "
		  "has no refusal); every search stops by it" },
	/* Remote play (uhp-remote, uhp-player, uhp-spectate): bridge/lobby/lobby_conf.c reads them. */
	{ SEC_LISTEN, "wait_time", LOBBY, .def = "30",
	  .help = "remote play: seconds `newgame` waits for an opponent" },
	{ SEC_LISTEN, "house_engine", LOBBY,
	  .help = "remote play: an `[engine NAME]` that plays a client nobody pairs with" },
	{ SEC_LISTEN, "house_wait", LOBBY, .def = "0",
	  .help = "remote play: seconds a client waits for a person before the house engine takes it "
		  "(at most `wait_time`; 0: at once)" },
	{ SEC_LISTEN, "clock", LOBBY, .def = "600+5",
	  .help = "remote play: each player's time and increment, seconds (`300`, `0.5+0.1`)" },
	{ SEC_LISTEN, "move_time", LOBBY,
	  .help = "remote play: instead of `clock`, a fixed time per move, seconds" },
	{ SEC_LISTEN, "grace", LOBBY, .def = "30",
	  .help = "remote play: seconds a disconnected player's seat waits for a `resume`" },
	{ SEC_LISTEN, "max_waiting", LOBBY, .def = "64",
	  .help = "remote play: clients waiting for an opponent at once" },
	{ SEC_LISTEN, "max_games", LOBBY, .def = "128",
	  .help = "remote play: games at once" },
	{ SEC_LISTEN, "max_spectators", LOBBY, .def = "16",
	  .help = "remote play: spectators per game" },
	{ SEC_LISTEN, "max_spectators_total", LOBBY, .def = "256",
	  .help = "remote play: spectators of all the listener's games together" },
	{ SEC_LISTEN, "game_type", LOBBY, .def = "Base",
	  .help = "`uhp-player`: the game its engines play (`Base+MLP`, ...)" },
	{ SEC_LISTEN, "watch", LOBBY,
	  .help = "`uhp-spectate`: the listener whose games it shows" },
	{ SEC_LISTEN, "max_plies", LOBBY, .def = "1000",
	  .help = "remote play: a longer game is adjudicated a draw (0: never)" },
	{ SEC_LISTEN, "hints", LOBBY, .def = "no",
	  .help = "remote play: whether `bestmove` is answered (by the listener's engine)" },
	{ SEC_LISTEN, "results", LOBBY,
	  .help = "remote play: every finished game appended to this file as one JSON line "
		  "(schemas/match-result.json)" },

	/* [queue]: read by match --queue and worker (bridge/match/queue.c). */
	{ SEC_QUEUE, "password", KEY_ELSEWHERE, .off = NOWHERE,
	  .help = "the Redis password of `match --queue` and `worker`; `$HIVEBRIDGE_REDIS_PASSWORD` "
		  "wins over it" },
	{ SEC_QUEUE, "user", KEY_ELSEWHERE, .off = NOWHERE, .shown = "Redis's default user",
	  .help = "the Redis ACL user that password belongs to; `$HIVEBRIDGE_REDIS_USER` wins over it" },
};
#define NKEYS (sizeof config_keys / sizeof config_keys[0])

static const struct config_key *key_find(enum key_section sec, const char *name)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (config_keys[i].section == sec && !strcmp(config_keys[i].name, name))
			return &config_keys[i];
	return NULL;
}

/* An empty value is an error but for the keys that take one (in any section, as the
 * check runs before the section is known). */
static int key_empty_ok(const char *name)
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

/* Reads v into obj (the section's struct) as key k says; -1 with err. */
static int key_set(const struct config_key *k, void *obj, const char *v, char *err, size_t errlen)
{
	void *field = k->off == NOWHERE ? NULL : (char *)obj + k->off;
	unsigned long long n;
	unsigned ms = 0;

	switch (k->type) {
	case KEY_STR:
		set_str(field, *v ? v : NULL);
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

/* The section's defaults into obj, from the table. */
static void section_defaults(enum key_section sec, void *obj)
{
	char err[256];
	for (size_t i = 0; i < NKEYS; i++) {
		const struct config_key *k = &config_keys[i];
		if (k->section == sec && k->def && key_set(k, obj, k->def, err, sizeof err) < 0) {
			fprintf(stderr, "config: the default of %s is wrong: %s\n", k->name, err);
			abort();
		}
	}
}

static void profile_init(struct engine_profile *p, const char *name, const char *kind)
{
	memset(p, 0, sizeof *p);
	p->name = xstrdup(name);
	p->kind = xstrdup(kind);
	section_defaults(SEC_ENGINE, p);
}

static void profile_clear(struct engine_profile *p)
{
	free(p->name);
	free(p->kind);
	argv_free(p->argv);
	free(p->workdir);
	free(p->host);
	for (size_t i = 0; i < p->noptions; i++) {
		free(p->options[i][0]);
		free(p->options[i][1]);
	}
	memset(p, 0, sizeof *p);
}

static struct engine_profile *profile_add(struct config *c, const char *name, const char *kind)
{
	c->profiles = xreallocarray(c->profiles, c->nprofiles + 1, sizeof *c->profiles);
	struct engine_profile *p = &c->profiles[c->nprofiles++];
	profile_init(p, name, kind);
	return p;
}

static struct listener_conf *listener_find(struct config *c, const char *name)
{
	for (size_t i = 0; i < c->nlisteners; i++)
		if (!strcmp(c->listeners[i].name, name))
			return &c->listeners[i];
	return NULL;
}

static void listener_clear(struct listener_conf *l)
{
	free(l->name);
	free(l->protocol);
	free(l->address);
	free(l->engine);
	lobby_conf_clear(&l->lobby);
}

/* A listener of protocol pr (the default protocol if NULL), on its default port. */
static struct listener_conf *listener_add(struct config *c, const char *name,
					  const struct protocol *pr)
{
	if (!pr)
		pr = protocol_default();
	c->listeners = xreallocarray(c->listeners, c->nlisteners + 1, sizeof *c->listeners);
	struct listener_conf *l = &c->listeners[c->nlisteners++];
	memset(l, 0, sizeof *l);
	l->name = xstrdup(name);
	l->protocol = xstrdup(pr->name);
	l->port = pr->default_port;
	section_defaults(SEC_LISTEN, l);
	return l;
}

void config_defaults(struct config *c)
{
	memset(c, 0, sizeof *c);
	section_defaults(SEC_DAEMON, c);
	profile_add(c, "builtin", "builtin");
	/* One listener per protocol, so that a client of any of them can connect. */
	const struct protocol *pr;
	for (size_t i = 0; (pr = protocol_at(i)) != NULL; i++)
		if (pr->front.session_new && pr->default_port)
			listener_add(c, pr->name, pr);
	c->listeners_default = 1;
}

const struct engine_profile *config_profile(const struct config *c, const char *name)
{
	for (size_t i = 0; i < c->nprofiles; i++)
		if (!strcmp(c->profiles[i].name, name))
			return &c->profiles[i];
	return NULL;
}

void config_free(struct config *c)
{
	for (size_t i = 0; i < c->nprofiles; i++)
		profile_clear(&c->profiles[i]);
	free(c->profiles);
	for (size_t i = 0; i < c->nlisteners; i++)
		listener_clear(&c->listeners[i]);
	free(c->listeners);
	free(c->log_path);
	free(c->http);
	free(c->http_token_file);
	free(c->http_hosts);
	memset(c, 0, sizeof *c);
}

/* "engine NAME" → NAME, if section starts with the word kw; else NULL. */
static const char *section_name(const char *section, const char *kw)
{
	size_t n = strlen(kw);
	if (strncmp(section, kw, n) || (section[n] != ' ' && section[n] != '\t'))
		return NULL;
	section += n;
	section += strspn(section, " \t");
	if (!*section || strpbrk(section, " \t"))
		return NULL;
	return section;
}

/* One name = value of the file: the section's struct, then the key's row. */
static int config_key_read(struct config *c, const char *section, const char *k, const char *v,
			   char *err, size_t errlen)
{
	const struct config_key *key;
	const char *name;

	if (!*v && !key_empty_ok(k))
		return errbuf_set(err, errlen, "empty value for \"%s\"", k);
	if (!strcmp(section, "daemon")) {
		if (!(key = key_find(SEC_DAEMON, k)))
			return errbuf_set(err, errlen, "unknown key \"%s\" in [daemon]", k);
		return key_set(key, c, v, err, errlen);
	}
	if ((name = section_name(section, "engine")) != NULL) {
		struct engine_profile *p = (struct engine_profile *)config_profile(c, name);
		if (!p)
			p = profile_add(c, name, protocol_default()->kind);
		if (!(key = key_find(SEC_ENGINE, k)))
			return errbuf_set(err, errlen, "unknown key \"%s\" in [engine %s]", k, name);
		return key_set(key, p, v, err, errlen);
	}
	if ((name = section_name(section, "listen")) != NULL) {
		/* A file that names listeners gets exactly those: the defaults go. */
		if (c->listeners_default) {
			for (size_t i = 0; i < c->nlisteners; i++)
				listener_clear(&c->listeners[i]);
			c->nlisteners = 0;
			c->listeners_default = 0;
		}
		struct listener_conf *l = listener_find(c, name);
		if (!l)
			l = listener_add(c, name, NULL);
		if (!(key = key_find(SEC_LISTEN, k)))
			return errbuf_set(err, errlen, "unknown key \"%s\" in [listen %s]", k, name);
		return key_set(key, l, v, err, errlen);
	}
	if (!strcmp(section, "queue")) {
		if (!key_find(SEC_QUEUE, k))
			return errbuf_set(err, errlen, "unknown key \"%s\" in [queue] (password, user)", k);
		return 0;
	}
	if (!*section)
		return errbuf_set(err, errlen, "key \"%s\" outside any section", k);
	return errbuf_set(err, errlen, "unknown section [%s] ([engine NAME], [listen NAME], [daemon], [queue])",
			  section);
}

static int config_handler(void *user, const char *section, const char *k, const char *v)
{
	struct config_parse *cp = user;
	char why[400];

	if (cp->cause[0])
		return 0;     /* report only the first error */
	if (config_key_read(cp->c, section, k, v, why, sizeof why) < 0) {
		snprintf(cp->cause, sizeof cp->cause, "line %d: %s", cp->lineno, why);
		cp->cause_line = cp->lineno;
		return 0;
	}
	return 1;
}

static int config_line_error(struct config_parse *cp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int config_line_error(struct config_parse *cp, const char *fmt, ...)
{
	char why[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	snprintf(cp->cause, sizeof cp->cause, "line %d: %s", cp->lineno, why);
	cp->cause_line = cp->lineno;
	return -1;
}

/* What inih would read differently from what the line says is an error here, so
 * that the file means what it shows: a NUL (inih stops the line there), an
 * indented line (after a name = value line inih takes it as the next value of that
 * name: "address = 127.0.0.1" then "  0.0.0.0" listened on 0.0.0.0), " ;" (an
 * inline comment: inih drops the rest of the line), and a line longer than inih's
 * buffer. Full-line comments (";" or "#", indented or not) and blank lines are
 * fine. */
static int config_line_check(struct config_parse *cp, const char *line, size_t *lenp, int num)
{
	size_t len = *lenp;
	if (memchr(line, '\0', len))
		return config_line_error(cp, "a NUL byte (a configuration file is text)");
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	*lenp = len;
	/* Comments too: other readers of the file (the [queue] password) use inih's
	 * own reader, which cuts a long line into two. */
	if (len > (size_t)num - 2)
		return config_line_error(cp, "%zu bytes long, over the limit of %d bytes a line",
					 len, num - 2);
	/* inih takes any isspace() byte as a blank: a line that starts with \f, \v
	 * or \r continues the value above, and "\f;" starts a comment. Such bytes
	 * (and every other control byte but the tab) are refused outright. */
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)line[i] < 0x20 && line[i] != '\t')
			return config_line_error(cp, "a control byte (0x%02x): a configuration "
						 "file is text", (unsigned char)line[i]);
	size_t lead = 0;
	while (lead < len && (line[lead] == ' ' || line[lead] == '\t'))
		lead++;
	if (lead == len || line[lead] == ';' || line[lead] == '#')
		return 0;
	if (lead)
		return config_line_error(cp, "an indented line (INI would take it as the "
					 "continuation of a value above): write it without "
					 "indentation");
	for (size_t i = lead + 1; i < len; i++)
		if (line[i] == ';' && (line[i - 1] == ' ' || line[i - 1] == '\t'))
			return config_line_error(cp, "\" ;\" starts a comment within a line, which "
						 "INI drops: put comments on lines of their own");
	return 0;
}

/* Hands inih one whole line at a time, checked first (config_line_check). */
static char *config_reader(char *str, int num, void *stream)
{
	struct config_parse *cp = stream;
	if (cp->cause[0])
		return NULL;
	ssize_t n = getline(&cp->line, &cp->line_cap, cp->f);
	if (n < 0)
		return NULL;
	cp->lineno++;
	size_t len = (size_t)n;
	if (config_line_check(cp, cp->line, &len, num) < 0)
		return NULL;
	/* It fits (checked), without its line end. */
	memcpy(str, cp->line, len);
	str[len] = '\n';
	str[len + 1] = 0;
	return str;
}

/* Checks the cross references once the whole file is read. */
static int config_check(const struct config *c, char *err, size_t errlen)
{
	for (size_t i = 0; i < c->nprofiles; i++) {
		const struct engine_profile *p = &c->profiles[i];
		const struct protocol *pr = protocol_by_kind(p->kind);
		if (pr && pr->target == PROTOCOL_COMMAND && !p->argv)
			return errbuf_set(err, errlen, "[engine %s]: kind %s needs a command", p->name, p->kind);
		if (pr && pr->target == PROTOCOL_ADDRESS && (!p->host || !p->port))
			return errbuf_set(err, errlen, "[engine %s]: kind %s needs host and port", p->name,
					  p->kind);
	}
	for (size_t i = 0; i < c->nlisteners; i++) {
		const struct listener_conf *l = &c->listeners[i];
		if (!config_profile(c, l->engine))
			return errbuf_set(err, errlen, "[listen %s]: no [engine %s]", l->name, l->engine);
		if (l->lobby.house_engine && !config_profile(c, l->lobby.house_engine))
			return errbuf_set(err, errlen, "[listen %s]: house_engine: no [engine %s]", l->name,
					  l->lobby.house_engine);
		for (size_t j = 0; j < i; j++) {
			const struct listener_conf *o = &c->listeners[j];
			if (l->port && o->port == l->port && !strcmp(o->address, l->address))
				return errbuf_set(err, errlen, "[listen %s] and [listen %s] both use %s port %u",
						  o->name, l->name, l->address, l->port);
		}
	}
	return 0;
}

int config_load(struct config *c, const char *path, char *err, size_t errlen)
{
	struct config_parse cp = { .c = c, .lineno = 0 };
	char why[400];
	struct stat st;

	cp.f = fopen(path, "r");
	if (!cp.f)
		return errbuf_set(err, errlen, "%s: cannot open: %s", path, strerror(errno));
	/* fopen takes a directory, and reading it then looks like an empty file. */
	if (fstat(fileno(cp.f), &st) < 0 || S_ISDIR(st.st_mode)) {
		fclose(cp.f);
		return errbuf_set(err, errlen, "%s: cannot open: %s", path, strerror(EISDIR));
	}
	int rc = ini_parse_stream(config_reader, &cp, config_handler, &cp);
	if (!cp.cause[0] && ferror(cp.f))
		snprintf(cp.cause, sizeof cp.cause, "cannot read: %s", strerror(errno));
	fclose(cp.f);
	free(cp.line);
	/* inih goes on after a malformed line: that line is the first error */
	if (rc > 0 && (!cp.cause[0] || rc < cp.cause_line))
		snprintf(cp.cause, sizeof cp.cause, "line %d: syntax error", rc);
	if (!cp.cause[0] && rc < 0)
		snprintf(cp.cause, sizeof cp.cause, "cannot parse (error %d)", rc);
	if (cp.cause[0])
		return errbuf_set(err, errlen, "%s: %s", path, cp.cause);
	if (config_check(c, why, sizeof why) < 0)
		return errbuf_set(err, errlen, "%s: %s", path, why);
	return 0;
}

/* An ENGINE argument's profile. Its name has a blank, which section_name refuses in
 * [engine NAME]: a profile of the config file can never take it (nor the other way
 * round, whichever is read first), and it is unique among the ad-hoc ones. */
static struct engine_profile *profile_add_adhoc(struct config *c, const char *kind)
{
	char name[48];
	size_t n = c->nprofiles;

	do
		snprintf(name, sizeof name, "command %zu", n++);
	while (config_profile(c, name));
	struct engine_profile *p = profile_add(c, name, kind);
	p->adhoc = 1;
	return p;
}

const struct engine_profile *config_add_command(struct config *c, const char *kind,
						const char *command, char *err, size_t errlen)
{
	const struct protocol *pr = NULL;
	if (!kind && command) {
		/* "builtin", a protocol's "PREFIX..." (uhp:CMD, trylobot:HOST:PORT, ...), or a
		 * bare command of the default protocol. */
		const char *rest;
		if (!strcmp(command, "builtin")) {
			kind = "builtin";
		} else if ((pr = protocol_for_engine(command, &rest)) != NULL) {
			kind = pr->kind;
			command = rest;
		}
	}
	if (!kind)
		kind = protocol_default()->kind;
	if (!kind_known(kind)) {
		errbuf_set(err, errlen, "unknown engine kind \"%s\"", kind);
		return NULL;
	}
	pr = protocol_by_kind(kind);
	if (pr && pr->target == PROTOCOL_ADDRESS) {
		/* A server's address, HOST:PORT. */
		const char *colon = command ? strrchr(command, ':') : NULL;
		unsigned long long port;
		if (!colon || colon == command || parse_uint(colon + 1, 1, 65535, &port) < 0) {
			errbuf_set(err, errlen, "a %s engine is HOST:PORT, not \"%s\"", kind, command ? command : "");
			return NULL;
		}
		struct engine_profile *p = profile_add_adhoc(c, kind);
		free(p->host);
		p->host = strndup(command, (size_t)(colon - command));
		p->port = (uint16_t)port;
		return p;
	}
	char **argv = NULL;
	if (strcmp(kind, "builtin") != 0) {
		if (!command) {
			errbuf_set(err, errlen, "engine kind %s needs a command", kind);
			return NULL;
		}
		argv = command_split(command, err, errlen);
		if (!argv)
			return NULL;
	}
	struct engine_profile *p = profile_add_adhoc(c, kind);
	p->argv = argv;
	return p;
}

const struct engine_profile *config_engine_parse(struct config *c, const char *spec, int *depth,
						 char *err, size_t errlen)
{
	const struct engine_profile *p;
	unsigned long long v;

	*depth = 0;
	if (!spec || !*spec) {
		errbuf_set(err, errlen, "empty engine");
		return NULL;
	}
	/* A NAME is a profile of the config: never one made from an earlier argument. */
	if ((p = config_profile(c, spec)) != NULL && !p->adhoc)
		return p;
	if (!strncmp(spec, "builtin:", 8)) {
		if (strncmp(spec + 8, "depth=", 6) || parse_uint(spec + 14, 1, CONFIG_MAX_DEPTH, &v) < 0) {
			errbuf_set(err, errlen, "want builtin or builtin:depth=N (N 1..%d)", CONFIG_MAX_DEPTH);
			return NULL;
		}
		*depth = (int)v;
		p = config_profile(c, "builtin");
		if (p && !strcmp(p->kind, "builtin"))
			return p;
		return config_add_command(c, "builtin", NULL, err, errlen);
	}
	return config_add_command(c, NULL, spec, err, errlen);
}

int config_engine_configured(const struct config *c, const char *spec, char *err, size_t errlen)
{
	unsigned long long v;

	const struct engine_profile *p = spec && *spec ? config_profile(c, spec) : NULL;
	/* The same rule as config_engine_parse: an ad-hoc profile is no name to take. */
	if (p && !p->adhoc)
		return 0;
	if (spec && !strncmp(spec, "builtin:depth=", 14) && parse_uint(spec + 14, 1, CONFIG_MAX_DEPTH, &v) == 0)
		return 0;
	if (spec && *spec && strncmp(spec, "builtin:", 8)) {
		const char *s = spec;
		while (*s && *s != '/' && *s != ':' && (unsigned char)*s > ' ' && *s != 0x7f)
			s++;
		if (!*s) {
			errbuf_set(err, errlen, "no [engine %s] profile in this worker's --config", spec);
			return 1;
		}
	}
	errbuf_set(err, errlen, "not a profile of this worker nor builtin[:depth=N]: commands from jobs are "
			   "refused (the worker's --allow-engine-commands would run them)");
	return -1;
}

/* Whether the child, once in workdir, can exec cmd the way execvp would. */
static int command_runnable(const char *cmd, const char *workdir, char *err, size_t errlen)
{
	struct stat st;
	char *path = NULL;

	if (strchr(cmd, '/')) {
		path = cmd[0] == '/' || !workdir ? xstrdup(cmd) : xasprintf("%s/%s", workdir, cmd);
	} else {
		const char *dirs = getenv("PATH");
		if (!dirs || !*dirs)
			dirs = "/usr/local/bin:/usr/bin:/bin";
		while (*dirs) {
			size_t n = strcspn(dirs, ":");
			/* An empty entry is the current directory, the child's workdir. */
			const char *base = n ? NULL : (workdir ? workdir : ".");
			char *cand = base ? xasprintf("%s/%s", base, cmd) :
				dirs[0] == '/' || !workdir ? xasprintf("%.*s/%s", (int)n, dirs, cmd) :
				xasprintf("%s/%.*s/%s", workdir, (int)n, dirs, cmd);
			if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0) {
				free(cand);
				return 0;
			}
			free(cand);
			dirs += n + (dirs[n] == ':');
		}
		errbuf_set(err, errlen, "%s: not found on PATH", cmd);
		return -1;
	}
	if (stat(path, &st) < 0)
		errbuf_set(err, errlen, "%s: %s", path, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		errbuf_set(err, errlen, "%s: not a regular file", path);
	else if (access(path, X_OK) < 0)
		errbuf_set(err, errlen, "%s: not executable: %s", path, strerror(errno));
	else {
		free(path);
		return 0;
	}
	free(path);
	return -1;
}

int config_engine_check(struct config *c, const struct engine_profile *cp, char *err, size_t errlen)
{
	struct engine_profile *p = &c->profiles[cp - c->profiles];
	const struct protocol *pr = protocol_by_kind(p->kind);
	struct stat st;
	char *cause = NULL;
	int checked = pr && pr->back_check ? pr->back_check(p, &cause) : 0;

	if (checked < 0)
		errbuf_set(err, errlen, "%s", cause ? cause : "cannot work");
	free(cause);
	if (checked != 0)
		return checked < 0 ? -1 : 0;
	if (pr && pr->target == PROTOCOL_COMMAND) {
		if (p->workdir && stat(p->workdir, &st) < 0) {
			errbuf_set(err, errlen, "workdir %s: %s", p->workdir, strerror(errno));
			return -1;
		}
		if (p->workdir && !S_ISDIR(st.st_mode)) {
			errbuf_set(err, errlen, "workdir %s: %s", p->workdir, strerror(ENOTDIR));
			return -1;
		}
		if (!p->argv || !p->argv[0]) {
			errbuf_set(err, errlen, "no command");
			return -1;
		}
		return command_runnable(p->argv[0], p->workdir, err, errlen);
	}
	if (pr && pr->target == PROTOCOL_ADDRESS) {
		/* Resolved once, here: a name never blocks the event loop later. */
		struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_ADDRCONFIG };
		struct addrinfo *res = NULL;
		char host[INET6_ADDRSTRLEN];
		int rc = p->host ? getaddrinfo(p->host, NULL, &hints, &res) : EAI_NONAME;
		if (rc != 0 || !res) {
			errbuf_set(err, errlen, "host %s: cannot resolve: %s", p->host ? p->host : "(none)",
					   rc ? gai_strerror(rc) : "no address");
			if (res)
				freeaddrinfo(res);
			return -1;
		}
		const void *a = res->ai_family == AF_INET6 ?
			(const void *)&((struct sockaddr_in6 *)res->ai_addr)->sin6_addr :
			(const void *)&((struct sockaddr_in *)res->ai_addr)->sin_addr;
		if (inet_ntop(res->ai_family, a, host, sizeof host))
			set_str(&p->host, host);
		freeaddrinfo(res);
	}
	return 0;
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
			n += (size_t)snprintf(buf + n, sizeof buf - n, " `%s`,",
					      k->names == NAMES_KINDS ? pr->kind : pr->name);
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
