/*
 * check.h: `hivebridge check`, a conformance suite run against one engine, and
 * what the protocols' suites (adapters/<p>/<p>_check.c) share.
 *
 *   hivebridge check [OPTIONS] -- CMD [ARGS...]      a UHP engine
 *   hivebridge check [OPTIONS] "CMD ARGS" | uhp:CMD [ARGS...]
 *   hivebridge check [OPTIONS] hub:CMD [ARGS...]     a Hub engine
 *   hivebridge check [OPTIONS] trylobot:HOST:PORT    a Trylobot AI module
 *   hivebridge check [OPTIONS] builtin               this binary's own `uhp` front end
 *   hivebridge check [OPTIONS] [--config FILE] --profile NAME
 *   OPTIONS: --json --timeout-ms N --time-margin-ms N --positions N --seed S
 *            --data DIR --log FILE --verbose
 *
 * One runner (bridge/check/check.c: checks and results, reference data, random
 * positions; report.c: the text and JSON reports; cli.c: the command line) runs
 * the suite of the engine's protocol. A suite is one function; it talks to the
 * engine either line by line through bridge/check/child.c (a child process driven
 * by bridge/engine_child.c, every wait under a deadline), or through the engine
 * interface with the checks every protocol shares (bridge/check/engine_checks.c).
 * Every check is reported as PASS, FAIL or SKIP; the exit status is 0 only when
 * every required check passes (1 otherwise, 2 on a usage error).
 */
#ifndef BRIDGE_CHECK_CHECK_H
#define BRIDGE_CHECK_CHECK_H

#include <stdint.h>
#include <stdio.h>

#include "bridge/config.h"
#include "bridge/engine.h"
#include "core/record.h"
#include "bridge/util.h"
#include "core/game.h"

#define CHECK_SHOW_SENT     160         /* bytes of each command shown in a report */
#define CHECK_SHOW_GOT      480         /* bytes of a reply shown in a report */
#define CHECK_SHOW_MOVES    40          /* moves listed per side of a diff */
#define CHECK_LOG_ID        1           /* the engine's session number in --log */

/* Facts from the shared reference notes (nokamute's and Mzinga's test data). */
#define POS_FORCED_PASS "Base;InProgress;White[7];wA1;bS1 wA1-;wQ -wA1;bQ bS1/;wQ \\wA1;bA1 bS1\\;" \
	"wQ -wA1;bA2 bQ\\;wQ \\wA1;bA1 \\wQ;wG1 /wQ;bA2 /wG1"
#define POS_BEETLE_GATE "Base;InProgress;White[12];wB1;bS1 wB1-;wQ \\wB1;bQ bS1/;wB2 -wQ;bB1 bQ\\;" \
	"wS1 /wB2;bB1 bS1;wG1 /wS1;bQ \\bB1;wG2 wG1\\;bB2 bQ/;wG3 wG2\\;bB2 \\bQ;wA1 wG3-;bB2 wQ;" \
	"wA2 wA1-;bA1 bQ/;wS2 wA2-;bA1 bB1/;wA3 wS2/;bA1 wA3/"
/* Found by a random search with the core: Black has exactly one move. */
#define POS_SINGLE_MOVE "Base;InProgress;Black[15];wB1;bA1 wB1/;wG1 /wB1;bG1 bA1-;wA1 /wG1;bQ bG1-;" \
	"wQ wB1\\;bS1 bQ-;wA1 \\bG1;bA2 bS1-;wS1 -wG1;bA3 bQ\\;wA2 /wS1;bA3 bA2\\;wG2 -wS1;bB1 bA3\\;" \
	"wA2 wG1\\;bB1 bA3-;wA1 \\bA2;bG2 \\bB1;wA2 -bA1;bG3 /bA3;wA1 wG2\\;bB2 /bG3;wA2 bB1/;bS2 \\bQ;" \
	"wB2 \\wG2;bG2 /bB2;wA1 \\bS2"

enum check_status { ST_RUN, ST_PASS, ST_FAIL, ST_SKIP };

/* One check's outcome, owned by the checker. */
struct result {
	char          *name;
	int            required;
	enum check_status st;
	char          *reason;       /* why it failed or was skipped, or NULL */
	struct sbuf    sent;         /* the commands sent, escaped, " | " between them */
	struct sbuf    got;          /* the reply to the last one, escaped */
	char          *expected;
	struct strlist only_engine;  /* move-set diff, engine's strings */
	struct strlist only_core;    /* move-set diff, the core's canonical strings */
};

struct event_base;
struct event;
struct engine;
struct check_child;
struct check_engine_spec;
struct protocol;

struct checker {
	/* options */
	int          json;
	int          verbose;
	int          timeout_ms;
	int          margin_ms;
	int          positions;
	uint64_t     seed;
	const char  *positions_from;    /* --positions-from FILE, or NULL */
	struct hive_record *from;       /* its games (owned), nfrom of them */
	size_t       nfrom;
	size_t       from_positions;    /* their positions after each ply, game not over */
	uint64_t     rng;
	const char  *data;
	const char  *config_path;       /* --config, or NULL */
	const char  *profile_name;      /* --profile, or NULL */
	const char  *log_path;          /* --log, or NULL */
	int          timeout_set;       /* --timeout-ms was given */
	char *const *argv;              /* the command (UHP, Hub), or the address (Trylobot) */
	const char  *workdir;           /* of the command, or NULL */
	const char  *protocol;          /* the protocol's name: "uhp", "hub", "trylobot" */
	struct engine_profile prof;     /* engine-interface suites: the profile, our time-outs */
	/* the loop every suite runs its engine on */
	struct event_base *base;
	struct event *deadline;         /* our own deadline on every engine-interface wait */
	int          expired;
	/* a line-protocol engine driven by the suite (child.c), or NULL */
	struct check_child *child;
	/* an engine through the engine interface (engine_checks.c) */
	const struct check_engine_spec *spec;
	const char  *title;             /* the protocol's name in the report: "Hub" */
	struct engine *engine;          /* NULL until first use, or after we gave one up */
	int          group_failures;    /* quick failures in this group */
	int          faults;            /* failures so far (robustness.restart needs one) */
	/* what it said */
	char         id[256];
	char         caps[256];
	unsigned     caps_type;         /* expansion bits the engine declares */
	char        *info_block;        /* the unprompted info block, lines joined by '\n' */
	const char  *sigint;            /* what SIGINT does to it (timing.sigint), or NULL */
	int          gave_up;           /* it does not start: skip everything */
	int          restart_failures;
	char        *lost;              /* why the rest of this group is skipped, or NULL */
	/* the report */
	struct result **res;
	size_t       nres;
	size_t       capres;
};

/* Entry point of the subcommand; argv[0] is "check". Prints the report on stdout. */
int check_main(int argc, char **argv);

/* --- checks and results (check.c) --- */

/* Runs the suite of ck->protocol on an event loop of its own; -1 if it cannot. */
int  check_run(struct checker *ck);

/* Frees what ck holds of the results. */
void check_free(struct checker *ck);
/* Records a check named name (taken over) as running; the result stays ck's. */
struct result *check_push(struct checker *ck, int required, char *name);
/* Starts a check; NULL (and a SKIP recorded) when the engine is lost for this group. */
struct result *check_begin(struct checker *ck, int required, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* End a running check with a reason (escaped); the first one given is reported. */
void check_fail(struct result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void check_skip(struct result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* What the check expected, for the report. */
void check_expect(struct result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A check still running passes; safe on NULL. */
void check_end(struct result *r);
/* Skips r (and returns -1) when the engine lacks an expansion of type. */
int  check_needs(struct checker *ck, struct result *r, unsigned type);
/* Replaces what r got with s, escaped. */
void check_note_got(struct result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Adds s, escaped, to what r sent. */
void check_note_sent(struct result *r, const char *s);

/* --- games, positions and reference data (check.c) --- */

/* Loads "GameType[;State;Turn[;Move]*]" by playing its moves (fields 1 and 2 are
 * ignored, like Mzinga does). g is inited here; on failure it is freed, why says. */
int   check_game_load(struct hive_game *g, const char *gs, char *why, size_t whylen);
/* The same for check r: 0, or -1 with r skipped ("the core cannot load it"). */
int   check_load_position(struct result *r, struct hive_game *g, const char *gs);
/* The canonical GameString; caller frees. */
char *check_game_text(const struct hive_game *g);
/* Field i of a ';'-separated string, copied into buf. */
void  check_field_copy(const char *s, int i, char *buf, size_t len);
/* Trims white space around (*s, *n) in place. */
void  check_trim(char **s, size_t *n);
int   check_starts_with(const char *s, const char *prefix);
/* The next number of the seeded generator (--seed replays the same positions). */
uint64_t check_random(struct checker *ck);
/* Up to plies random legal moves of type, stopping before the game would end. */
void  check_random_game(struct checker *ck, struct hive_game *g, unsigned type, int plies);
/* Position i (0-based) of the --positions loops into g (inited here): one of the
 * --positions-from games' positions, spread evenly over them, when given (-1 past
 * the last), else a random game of a random type the engine declares. */
int   check_position(struct checker *ck, int i, struct hive_game *g);
/* A game type the engine declares, at random. */
unsigned check_random_type(struct checker *ck);
/* The capability line: the expansions it names into ck; unknown flags listed. */
void  check_caps_parse(struct checker *ck, const char *line, struct sbuf *unknown);
/* The reference data file's lines (rel to --data), without BOM, CR or LF; -1
 * when it cannot be read, after recording a failed required check name. */
int   check_data_lines(struct checker *ck, const char *rel, const char *name, struct strlist *lines);

/* --- the reports (report.c) --- */

struct check_tally {
	size_t passed, failed, skipped, required_failures;
};
struct check_tally check_tally(const struct checker *ck);
void check_report_text(const struct checker *ck, FILE *f);
/* -1 if the JSON cannot be built. */
int  check_report_json(const struct checker *ck, FILE *f);

/* --- a line-protocol engine as a child process (child.c) --- */

/* How a reply ended: RD_LINE with its terminator line, or not. */
enum rd { RD_LINE, RD_TIMEOUT, RD_EOF, RD_TOOLONG, RD_WRITE };

/* One reply: the lines before the terminator, and how it ended. */
struct reply {
	struct strlist lines;
	enum rd        end;
	int64_t        ms;            /* from the command to the end */
	size_t         bytes;
};
void reply_free(struct reply *r);

/* The child slot on ck->base (lines up to max_line bytes); NULL when memory is out. */
struct check_child *check_child_new(struct event_base *base, size_t max_line);
void check_child_free(struct check_child *k);
/* Spawns argv in workdir (NULL = inherit); -1 with why if it does not run. */
int  check_child_spawn(struct check_child *k, char *const argv[], const char *workdir,
		       char *why, size_t whylen);
int  check_child_running(const struct check_child *k);
/* Sends line and a newline; -1 if the child is gone or its input closed. */
int  check_child_send(struct check_child *k, const char *line);
/* Reads lines up to the line term, until start + timeout_ms at the most; term NULL
 * reads the next line, which is then the reply's only line (OTEP has no terminator). */
void check_child_reply(struct check_child *k, const char *term, int64_t start, int timeout_ms,
		       struct reply *r);
/* Runs the loop until the child has read all that was sent to it, ms at the most:
 * 0 once it has, -1 if not (or it is gone). */
int  check_child_wait_read(struct check_child *k, int ms);
/* How the child ended, for a report ("exited with status 3", ...). */
void check_child_describe_end(struct check_child *k, char *buf, size_t len);
/* Ends its input and waits up to ms: 1 when it exited (*status), 0 if it runs on,
 * -1 if there is no child. */
int  check_child_close_input(struct check_child *k, unsigned ms, int *status);
/* Waits up to ms for the child to exit, its input left open (after a farewell
 * line): 1 when it exited (*status), 0 if it runs on, -1 if there is no child. */
int  check_child_wait_exit(struct check_child *k, unsigned ms, int *status);
/* Sends sig to the child's process group, as the bridge stops a search; -1 if
 * there is no child. */
int  check_child_signal(struct check_child *k, int sig);
/* Kills the child, if any; its unread lines are dropped. */
void check_child_kill(struct check_child *k);

/* --- the checks every protocol shares, through the engine interface --- */

/* What a protocol tells the shared checks (engine_checks.c). */
struct check_engine_spec {
	int         id_required;         /* startup.id is required */
	const char *started;             /* what start-up ended with: "ready" */
	const char *pass_name;           /* the forced pass in its words: "\"pass\"" */
	const char *pass_expect;         /* and as the report expects it */
	const char *no_stop;             /* why stop is not checked, or NULL */
	const char *no_caps;             /* why the capabilities are not checked (check_caps
	                                    NULL), or NULL */
	uint64_t    default_movetime_ms; /* the time the back end gives a go without one, or 0 */
	/* The protocol cannot send a move of an opponent's piece (a Pillbug throw): a
	 * self-play game ends where every legal move is one. */
	int         no_opponent_moves;
	/* What start-up sends and expects, noted in r. */
	void (*note_start)(struct checker *ck, struct result *r);
	/* What a search of gs with l sends, noted in r. */
	void (*note_go)(struct checker *ck, struct result *r, const char *gs,
			const struct engine_limits *l);
	/* startup.id and startup.capabilities (unless no_caps) once started. */
	void (*check_id)(struct checker *ck, struct result *r);
	void (*check_caps)(struct checker *ck, struct result *r);
	/* Checks of its own after those of start-up, or NULL. */
	void (*startup_more)(struct checker *ck);
};

/* The whole shared suite for protocol pr, described by its check_engine. */
void check_engine_suite(struct checker *ck, const struct protocol *pr);

/* One engine-interface result, copied out of the callback. */
struct ewait {
	struct event_base *base;
	int                finished;
	enum engine_status status;
	char              *message;
	struct hive_move   move;
	struct strlist     lines;     /* options: the lines */
};
void ewait_free(struct ewait *w);
/* The engine_done callback that fills an ewait (arg). */
void ewait_done(void *arg, const struct engine_result *r);
/* Runs the loop until w has its result or ms pass; 0 if the result came. */
int  ewait_run(struct checker *ck, struct ewait *w, int64_t ms);
/* Our deadline passed before the back end's own: the engine is given up. */
void check_engine_abandon(struct checker *ck, struct result *r, int64_t ms);

#endif
