/*
 * config.h: the daemon's configuration (INI file via inih, then command-line flags):
 * [daemon], [engine NAME] (an engine profile), [listen NAME] (a listener), [site NAME]
 * (a bot on a game web site) and [queue].
 * Every key, its range, default and meaning is a row of config.c's table:
 * `hivebridge help config` prints them (the README's Configuration table and the man
 * page's CONFIGURATION are its output). Failures are -1 (or NULL) with one sentence in
 * the caller's err buffer (core/errbuf.h).
 */
#ifndef BRIDGE_CONFIG_H
#define BRIDGE_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "bridge/bot.h"
#include "bridge/lobby/lobby_conf.h"

#define CONFIG_MAX_OPTIONS 32
#define CONFIG_MAX_DEPTH   64
#define CONFIG_MAX_MOVETIME_MS 3600000   /* builtin:movetime=MS: an hour a move */

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
	char   *games_path;            /* the finished games' PGN archive, NULL = none */
	size_t  max_sessions;
	size_t  max_sessions_per_peer; /* per client IP address, over all listeners */
	unsigned http_max_connections;  /* HTTP connections open at once, all addresses */
	unsigned http_max_connections_per_address;
	unsigned http_head_timeout_ms; /* a request's first byte to its last */
	size_t  http_max_head;         /* request line and headers */
	size_t  http_max_record;       /* the body of POST /api/records (a record opened) */
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
	size_t  nsites;
	struct bot_conf *sites;        /* [site NAME]: bots on game web sites (bridge/bot.h) */
};

/* Fills c with the embedded defaults: the built-in profile "builtin" and, on
 * 127.0.0.1 with it, a listener per protocol with a front end and a default port
 * (uhp on 5000, hub on 5002, trylobot on 51337). A file with any [listen] section
 * replaces them all. */
void config_defaults(struct config *c);
/* Reads an INI file over the current values; -1 with err (naming the file and the
 * line) on error. */
int  config_load(struct config *c, const char *path, char *err, size_t errlen);
/* Profile by name, or NULL. */
const struct engine_profile *config_profile(const struct config *c, const char *name);
/* A profile built from a command line, owned by c: kind "builtin", kind K with
 * K's command or HOST:PORT, or (kind NULL) "builtin", "PREFIX..." of a protocol or a
 * bare command of the default protocol. NULL with err on error. Its name
 * ("command N") has a blank, which no [engine NAME] can have: a config read before
 * or after cannot take it, and no ENGINE argument names it. */
const struct engine_profile *config_add_command(struct config *c, const char *kind, const char *command,
						char *err, size_t errlen);
/* An ENGINE argument, the one syntax of every subcommand: a profile NAME (of the
 * config, "builtin" included), builtin:depth=N (N into *depth, else 0),
 * builtin:movetime=MS (config_engine_movetime), a
 * protocol's "PREFIX..." (uhp:CMD, hub:CMD, trylobot:HOST:PORT) or a bare CMD (the
 * default protocol's). NULL with err on error. */
const struct engine_profile *config_engine_parse(struct config *c, const char *spec, int *depth,
						 char *err, size_t errlen);
/* MS of a spec builtin:movetime=MS (the built-in engine's own time a move, whatever
 * the match's limits: cutechess's per-engine st=), else 0. */
unsigned config_engine_movetime(const char *spec);
/* Whether an ENGINE from someone else (a Redis job) names only what the operator
 * configured: 0 for the NAME of a profile of c ("builtin" included) or
 * builtin:depth=N (N 1..CONFIG_MAX_DEPTH) or builtin:movetime=MS; 1 for a NAME that c lacks (one word
 * with no '/', ':', blank or control byte: another machine may have it); -1 for
 * anything else (a command, PREFIX...), with err (for 1 too: why it is not here).
 * Never adds a profile; config_engine_parse then resolves what it allowed. */
int  config_engine_configured(const struct config *c, const char *spec, char *err, size_t errlen);
/* Whether p can work, checked before use: an external command exists and is
 * executable (on PATH if bare, from its workdir), a server's host (trylobot)
 * resolves (its address is then kept numeric, so no later connect blocks on a
 * name). -1 with err if not. */
int  config_engine_check(struct config *c, const struct engine_profile *p, char *err, size_t errlen);
void config_free(struct config *c);
/* A [site NAME]'s defaults, from the key table, into b (zeroed). */
void config_site_defaults(struct bot_conf *b);

/* The keys of the table, as `hivebridge help config` prints them: CONFIG_DOC_TEXT
 * for people, CONFIG_DOC_MARKDOWN the README's Configuration table, CONFIG_DOC_MAN
 * the man page's keys (troff). */
enum config_doc { CONFIG_DOC_TEXT, CONFIG_DOC_MARKDOWN, CONFIG_DOC_MAN };
void config_describe(FILE *f, enum config_doc how);

#endif
