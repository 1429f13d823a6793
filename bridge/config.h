/*
 * config.h: the daemon's configuration (INI file via inih, then command-line flags).
 *
 *   [engine NAME]            an engine profile
 *   kind = builtin|PROTOCOL   builtin, or a protocol's kind (bridge/protocol.h); default
 *                             the default protocol's (uhp)
 *   command = ./engine --flag a command line, split on spaces (quotes allowed)
 *   host = HOST, port = PORT   a protocol reached at an address (trylobot)
 *   workdir = /path
 *   start_timeout = 10        seconds until the info block / ready must arrive
 *   command_timeout = 10      seconds until a command's "ok" must arrive (a timed bestmove:
 *                             its time, from when the engine has it, + this grace)
 *   stop_timeout = 2          seconds after SIGINT/stop before the engine is killed
 *   option = Name Value       (repeatable) set at start
 *   hash_mb = 16              builtin: transposition table size per session, MB
 *   hash_mb_max = 256         builtin: the most a client may ask for
 *   threads = 1               builtin: search threads per go (Lazy SMP; the Threads
 *                             option), capped at [daemon] search_threads
 *   expansions = MLP          trylobot: the expansions the module plays (letters of
 *                             MLP, or none); default none: Base only is announced
 *
 *   [listen NAME]            a listener
 *   protocol = NAME           a protocol of the table with a front end (default uhp)
 *   address = 127.0.0.1
 *   port = 5000
 *   engine = NAME             the profile each session of this listener uses
 *   think_time = 1            seconds a move may take when the protocol sets no limit
 *   depth = 0                 fixed search depth instead (0 = use think_time)
 *   idle_timeout = 300        seconds without input before a session with no game in
 *                             progress is closed (0 = never)
 *   game_idle_timeout = 3600  the same for a session with a game in progress
 *   max_depth = 32            deepest search a client may ask for
 *   max_think_time = 60       longest search (or perft) a client may ask for, seconds
 *   (remote play: the keys of bridge/lobby/lobby_conf.h)
 *
 *   [daemon]
 *   log = /path|-             protocol trace log ("-" = stderr)
 *   http = ADDR:PORT          the web page and its JSON endpoints (docs/web.md); none if unset
 *   http_token_file = /path   its access token (first line): changes need it; required
 *                             when http is beyond loopback (or HIVEBRIDGE_HTTP_TOKEN)
 *   http_hosts = NAME ...     more names a request's Host may give (besides the address)
 *   max_sessions = 1000
 *   max_sessions_per_peer = 32  concurrent sessions from one IP address, all listeners
 *   http_max_connections = 256  open HTTP connections (at accept; at most half the
 *                             descriptors beyond 64)
 *   http_max_connections_per_address = 64  of them from one address (at most half)
 *   http_head_timeout = 10    seconds from a request's first byte to its last
 *   http_play_move_time = 1800  seconds a person playing on the page has for a move
 *   http_play_max_plies = 1000  a longer game on the page is adjudicated a draw (0 = never)
 *   http_max_head = 32768     bytes of request line and headers
 *   max_line = 65536          bytes per protocol line
 *   max_buffer = 1048576      bytes buffered per direction per session
 *   hash_budget_mb = 512      all built-in hash tables together
 *   hash_idle_timeout = 60    seconds a built-in table unused is kept (0 = until newgame)
 *   search_threads = 0        built-in search pool (0 = one per online CPU)
 */
#ifndef BRIDGE_CONFIG_H
#define BRIDGE_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include "bridge/lobby/lobby_conf.h"

#define CONFIG_MAX_OPTIONS 32
#define CONFIG_MAX_DEPTH   64

struct engine_profile {
	char    *name;
	char    *kind;                 /* "builtin" or a protocol's kind */
	char   **argv;                 /* NULL-terminated; NULL for builtin */
	char    *workdir;              /* NULL = inherit */
	char    *host;                 /* a protocol reached at an address: HOST */
	uint16_t port;
	unsigned start_timeout_ms;
	unsigned command_timeout_ms;
	unsigned stop_timeout_ms;
	size_t   hash_mb;
	size_t   hash_mb_max;          /* the most a client may set (HashMB, Hub hash) */
	unsigned threads;              /* builtin: Threads at start, 0 = 1 */
	unsigned expansions;           /* trylobot: HIVE_EXP_* bits the module plays */
	size_t   noptions;
	char    *options[CONFIG_MAX_OPTIONS][2];   /* name, value */
	int      adhoc;                /* made from an ENGINE argument, named by config.c */
};

struct listener_conf {
	char    *name;
	char    *protocol;             /* a protocol's name (bridge/protocol.h) */
	char    *address;              /* default 127.0.0.1 */
	uint16_t port;
	char    *engine;               /* profile name */
	unsigned think_ms;             /* search time when the protocol gives none */
	int      depth;                /* fixed search depth instead, 0 = none */
	unsigned idle_timeout_ms;      /* no game in progress: close after this long silent, 0 = never */
	unsigned game_idle_timeout_ms; /* the same with a game in progress */
	int      max_depth;            /* the deepest search a client may ask for */
	unsigned max_think_ms;         /* the longest search (and perft) a client may ask for */
	struct lobby_conf lobby;       /* remote play (protocol uhp-remote) */
};

struct config {
	char   *log_path;              /* NULL = no trace log, "-" = stderr */
	char   *http;                  /* web page ADDR:PORT, NULL = none */
	char   *http_token_file;       /* its access token, NULL = none */
	char   *http_hosts;            /* more names for its Host header, NULL = none */
	size_t  max_sessions;
	size_t  max_sessions_per_peer; /* per client IP address, over all listeners */
	unsigned http_max_connections;  /* HTTP connections open at once, all addresses */
	unsigned http_max_connections_per_address;
	unsigned http_head_timeout_ms; /* a request's first byte to its last */
	size_t  http_max_head;         /* request line and headers */
	size_t  max_line;
	size_t  max_buffer;
	size_t  hash_budget_mb;        /* all built-in hash tables together */
	unsigned hash_idle_timeout;    /* s; an unused built-in table is given back (0: never) */
	unsigned search_threads;       /* built-in search pool, 0 = online CPUs */
	unsigned busy_poll_us;         /* spin this long after activity before sleeping (0: never) */
	unsigned http_play_move_ms;    /* a person's time a move in a game on the page */
	unsigned http_play_max_plies;  /* its ply cap, 0 = none */
	size_t  nprofiles;
	struct engine_profile *profiles;
	size_t  nlisteners;
	struct listener_conf *listeners;
	int     listeners_default;     /* the embedded ones: a file's [listen] replaces them all */
};

/* Fills c with the embedded defaults: the built-in profile "builtin" and, on
 * 127.0.0.1 with it, a listener per protocol with a front end and a default port
 * (uhp on 5000, hub on 5002, trylobot on 51337). A file with any [listen] section
 * replaces them all. */
void config_defaults(struct config *c);
/* Reads an INI file over the current values; -1 with *cause (caller frees) on error. */
int  config_load(struct config *c, const char *path, char **cause);
/* Profile by name, or NULL. */
const struct engine_profile *config_profile(const struct config *c, const char *name);
/* A profile built from a command line, owned by c: kind "builtin", kind K with
 * K's command or HOST:PORT, or (kind NULL) "builtin", "PREFIX..." of a protocol or a
 * bare command of the default protocol. NULL with *cause on error. Its name
 * ("command N") has a blank, which no [engine NAME] can have: a config read before
 * or after cannot take it, and no ENGINE argument names it. */
const struct engine_profile *config_add_command(struct config *c, const char *kind, const char *command, char **cause);
/* An ENGINE argument, the one syntax of every subcommand: a profile NAME (of the
 * config, "builtin" included), builtin:depth=N (N into *depth, else 0), a
 * protocol's "PREFIX..." (uhp:CMD, hub:CMD, trylobot:HOST:PORT) or a bare CMD (the
 * default protocol's). NULL with *cause on error. */
const struct engine_profile *config_engine_parse(struct config *c, const char *spec, int *depth,
						 char **cause);
/* Whether an ENGINE from someone else (a Redis job) names only what the operator
 * configured: 0 for the NAME of a profile of c ("builtin" included) or
 * builtin:depth=N (N 1..CONFIG_MAX_DEPTH); 1 for a NAME that c lacks (one word
 * with no '/', ':', blank or control byte: another machine may have it); -1 for
 * anything else (a command, PREFIX...), with *cause (caller frees). Never adds a
 * profile; config_engine_parse then resolves what it allowed. */
int  config_engine_configured(const struct config *c, const char *spec, char **cause);
/* Whether p can work, checked before use: an external command exists and is
 * executable (on PATH if bare, from its workdir), a server's host (trylobot)
 * resolves (its address is then kept numeric, so no later connect blocks on a
 * name). -1 with *cause (caller frees) if not. */
int  config_engine_check(struct config *c, const struct engine_profile *p, char **cause);
void config_free(struct config *c);

#endif
