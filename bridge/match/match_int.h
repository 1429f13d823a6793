/*
 * match_int.h: what the files of `hivebridge match` and `hivebridge tournament`
 * share (a tournament is a match of N engines: its pairings' games in one numbered
 * list, tournament.c; match.c the slots and game loop, match_setup.c the options, engines and openings, match_results.c the
 * results file, resume and score, match_viewer.c the TCP viewers). Not for use
 * outside bridge/match/.
 */
#ifndef BRIDGE_MATCH_INT_H
#define BRIDGE_MATCH_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include "bridge/config.h"
#include "bridge/match/sprt.h"
#include "core/game.h"

struct engine;
struct event;
struct event_base;
struct spectate;
struct bufferevent;
struct cJSON;
struct http_server;
struct live_game;
struct referee;

#define MATCH_DEFAULT_MOVETIME_MS 1000
#define MATCH_MAX_MOVE_MS         60000     /* worker --max-move-ms's default */
#define MATCH_CLAIM_MS            60000     /* worker --claim-after's default */
#define MATCH_WORKER_NAME_MAX     96        /* worker --name: shorter than this */
/* Under a worker's cap a move, the engine is asked to answer this much before it. */
#define MATCH_MOVE_MARGIN(cap)    ((cap) / 10 < 1000 ? (cap) / 10 : 1000)
#define MATCH_MAX_CONCURRENCY     64
#define MATCH_MAX_GAMES           1000000
#define MATCH_MAX_DEPTH           64
/* The most --max-plies may be (the defaults: REFEREE_MAX_PLIES, REFEREE_REPETITION). */
#define MATCH_PLY_CAP             60000
#define MATCH_REPETITION_CAP      1000
/* The rules a game may have, from the command line or a job: a ply cap (0 would be
 * none) and a repetition count that is off (0) or 2 and more (1 ends every game). */
#define MATCH_PLIES_OK(n)         ((n) >= 1 && (n) <= MATCH_PLY_CAP)
#define MATCH_REPETITION_OK(n)    ((n) == 0 || ((n) >= 2 && (n) <= MATCH_REPETITION_CAP))
/* The bounds of a result's per-move [score, depth] (match --queue: from a worker). */
#define MATCH_SCORE_MAX           1000000000
#define MATCH_MAX_DEPTH_REPORTED  1000
/* The longest result line a worker may send: a GameString of 1 MiB, one time and
 * one [score, depth] per ply of MATCH_PLY_CAP, and room to spare. */
#define MATCH_RESULT_MAX          (4 << 20)
/* A tournament's engines, and so its pairings. */
#define MATCH_MAX_PLAYERS         32
#define MATCH_MAX_PAIRS           (MATCH_MAX_PLAYERS * (MATCH_MAX_PLAYERS - 1) / 2)

enum player_id { PLAYER_A = 0, PLAYER_B = 1 };

struct match_opts {
	const char           *cmd;           /* "match" or "tournament", for messages */
	int                   tournament;    /* `hivebridge tournament` */
	int                   gauntlet;      /* --gauntlet: the first engine against the others */
	const char           *anchor;        /* --anchor ENGINE: the rating list's 0 */
	unsigned              type;
	int                   type_set;
	unsigned              games;
	int                   games_set;
	unsigned              concurrency;
	const char           *openings_path;
	unsigned              opening_plies;  /* --opening-plies: of a record's game; 0 all */
	int                   depth;
	uint64_t              movetime_ms;
	uint64_t              clock_ms;
	uint64_t              inc_ms;
	unsigned              max_plies;
	unsigned              repetition;
	const char           *results_path;
	const char           *pgnout_path;   /* --pgnout: every finished game as PGN */
	int                   resume;
	int                   sprt_set;
	struct sprt_test      sprt;
	int                   sprt_trinomial; /* --sprt-model trinomial (default pentanomial) */
	unsigned              sprt_min_games; /* no verdict before this many games */
	const char           *viewer;
	const char           *http;          /* --http ADDR:PORT */
	const char           *config_path;
	const char           *log_path;
	const char           *queue;         /* --queue redis://HOST:PORT/NAME */
	int                   keep;          /* --keep: the streams stay once it is over */
	uint64_t              live_expiry_ms; /* --live-expiry: a worker's game shown on the
					       * page without progress this long is dropped */
	uint64_t              max_move_ms;   /* worker --max-move-ms: a move's hard wall-clock
					      * cap, every seat's (0 = none) */
	unsigned              claim_ms;      /* worker --claim-after */
	const char           *worker_name;   /* worker --name, NULL for HOST-PID */
	int                   allow_commands; /* worker --allow-engine-commands */
	const char           *spec[MATCH_MAX_PLAYERS];   /* the ENGINE arguments */
	unsigned              nspec;
};

struct player {
	const char                  *label;     /* the ENGINE argument */
	const struct engine_profile *profile;   /* in match.conf */
	int                          depth;     /* builtin:depth=N, 0 = none */
	unsigned                     movetime_ms;   /* builtin:movetime=MS, 0 = none */
	int                          started;   /* it started once in this match */
};

struct match;

/* One game at a time, with its own two engines, refereed by bridge/referee.h. The
 * game's two players are its sides: side 0 is the pairing's first engine (ENGINE_A
 * of a match), side 1 the second; what is "by side" below is indexed so. */
struct slot {
	struct match     *m;
	unsigned          id;
	int               side[2];       /* the players (indexes of m->pl) of the game */
	int               eng_of[2];     /* the player whose engine eng[k] is */
	struct engine    *eng[2];        /* by side; NULL until created (or dropped) */
	int               ready[2];      /* started */
	char              engine_id[2][128]; /* their "id" lines, for the results */
	int               starting;      /* side whose start is outstanding, -1 */
	int               playing;       /* the referee started the game */
	unsigned          game_no;       /* 0 = idle */
	int               white;         /* side with white */
	int               opening;       /* index, -1 = none */
	const char       *opening_gs;    /* its GameString (m->openings' or a job's), NULL = none */
	void             *job;           /* a worker's job, owned by the worker */
	struct referee   *ref;           /* the game, its clock and record; NULL when idle */
	char              log_prefix[32]; /* "match: game N" */
	struct event     *kick;          /* next step, from the loop */
};

struct match {
	struct match_opts     o;
	struct config         conf;
	struct event_base    *base;
	struct player         pl[MATCH_MAX_PLAYERS];
	unsigned              npl;
	/* The pairings (players' indexes; a match has the one, {0, 1}). Game g (from 1)
	 * is of pairing ((g - 1) / 2) % npairs, its first player white when g is odd, so
	 * games 2k-1 and 2k are one opening with colours swapped: a game pair. */
	unsigned char         pairs[MATCH_MAX_PAIRS][2];
	unsigned              npairs;
	unsigned              per_pair;      /* a tournament's --games: games of each pairing */
	struct sprt_counts   *prec;          /* by pairing, from its first player's view */
	struct sprt_penta    *ppenta;        /* by pairing: its game pairs */
	char                **openings;      /* GameStrings, owned */
	size_t                nopenings;
	/* done[g]: 0 no result, else 1 + 2 x the score of game g's side 0 (1, 2, 3). */
	unsigned char        *done;
	unsigned              next_game;
	unsigned              played;        /* games finished in this run */
	unsigned              total;         /* games with a result (resumed included) */
	struct sprt_counts    rec;           /* pairing 0's, from ENGINE_A's view */
	FILE                 *results;
	struct slot          *slots;
	unsigned              nslots;
	int                   stopping;      /* start no new game */
	int                   interrupted;
	int                   failed;        /* a fatal error stopped the match */
	int                   finishing;     /* the loop ends once viewers have their data */
	int                   viewers_done;  /* finishing: the viewers have it */
	struct event         *flush_ev;      /* finishing: polls the page's event streams */
	enum sprt_verdict     verdict;
	struct event         *sig_int, *sig_term;
	struct spectate      *spectate;      /* --viewer's (bridge/spectate.h), or NULL */
	/* Games from elsewhere (a worker of --queue, match_queue.c): when slot_idle is
	 * set, an idle slot asks it for a game (match_slot_begin), a finished game goes
	 * to game_ended and an engine that never starts to engine_dead, instead of the
	 * local numbering, results file, score and abort. */
	void                (*slot_idle)(struct slot *s);
	void                (*game_ended)(struct slot *s, int state, const char *reason);
	void                (*engine_dead)(struct match *m, int p, const char *reason);
	/* A worker's slot s began a game or a move was played (after the referee's check). */
	void                (*game_moved)(struct slot *s);
	void                 *hook_arg;
	struct http_server   *http;          /* --http, NULL if none */
	int                   web_lingering; /* played out: the page stays up until a signal */
	struct cJSON         *web_finished;  /* the dashboard's finished games, owned */
	/* --queue: the workers as the coordinator hears them (match_queue.c), for the
	 * dashboard; NULL in a local match. */
	struct cJSON       *(*web_workers)(void *arg);
	void                 *web_workers_arg;
	/* --queue: adds the workers' games in progress to GET /api/match's "running". */
	void                (*web_running)(void *arg, struct cJSON *running);
	double               *llr_hist;      /* the LLR after each game of this run */
	size_t                nllr, capllr;
};

/* The command a message names: "match", "tournament", or "worker" (whose match is
 * built without a command line). */
static inline const char *match_cmd(const struct match *m)
{
	return m->o.cmd ? m->o.cmd : "worker";
}

/* The label of the player on side k of slot s's game. */
static inline const char *slot_label(const struct slot *s, int k)
{
	return s->m->pl[s->side[k]].label;
}

/* match.c: the canonical GameString of g; the caller frees it. NULL on no memory. */
char *match_game_string(const struct hive_game *g);
/* Game g's pairing (index of m->pairs), players by side, side with white and opening
 * index (-1 when there are no openings). */
unsigned match_schedule(const struct match *m, unsigned g, int side[2], int *white, int *opening);
/* Runs a match or a tournament whose options are parsed (the shared body of
 * match_main and tournament_main); returns the exit status. */
int  match_run(struct match *m);
/* The command line of `match` (tournament 0) or `tournament`, then match_run.
 * Returns the exit status. */
int  match_command(int argc, char **argv, int tournament);

/* Creates m->nslots (--concurrency, at most --games) slots on m->base; -1 on no memory. */
int  match_slots_create(struct match *m);
/* Starts game g on the idle slot s between the players side[0] and side[1] (indexes
 * of m->pl; an engine of either that the slot holds is kept): white is the side with
 * white (PLAYER_A: side 0), opening a GameString (NULL = none; the caller keeps it
 * alive until the game ends) and opening_index its index in m->openings (-1 if
 * none). -1 if the opening does not parse or on no memory (the slot stays idle). */
int  match_slot_begin(struct slot *s, unsigned g, const int side[2], int white, int opening_index,
		      const char *opening);
/* Drops the slot's game without a result (its busy engine is freed). */
void match_slot_abandon(struct slot *s);
/* Frees the engines an idle slot keeps for its next game. */
void match_slot_release(struct slot *s);
/* Frees everything of m (engines drained, the loop, files, config, log). */
void match_free(struct match *m);

/* match_queue.c: the coordinator of --queue, after the options, config and openings
 * are read; returns the exit status. */
int  match_queue_run(struct match *m);

/* match_opts.c: the options of the three commands, one table. */
enum { MATCH_CMD_MATCH = 1, MATCH_CMD_TOURNAMENT = 2, MATCH_CMD_WORKER = 4 };
/* The options of command cmd (a MATCH_CMD_*) into o, zeroed first, then the table's
 * defaults; the ENGINE arguments into o->spec: 0, 1 for --help, -1 after saying
 * what is wrong on stderr. Each option is "--opt value" or "--opt=value", a flag
 * "--opt". */
int  match_options_parse(int argc, char **argv, unsigned cmd, struct match_opts *o);
/* The --help text of command cmd. */
void match_help(FILE *f, unsigned cmd);
/* The name of the table's row i and, in *cmds, the commands that take it; NULL past
 * the last row. */
const char *match_option_name(size_t i, unsigned *cmds);

/* match_setup.c */
/* The command line into o, of `match` or (tournament) `tournament`: 0, 1 for
 * --help, -1 after saying what is wrong. */
int  match_parse_args(int argc, char **argv, struct match_opts *o, int tournament);
/* Every ENGINE to a profile of m->conf (m->pl, m->npl): 0, 2 for a bad ENGINE, -1
 * for one that cannot work. */
int  match_players_resolve(struct match *m);
/* --openings into m->openings (owned by m); -1 after saying what is wrong. */
int  match_openings_load(struct match *m);

/* match_parse.c: the input files' line parsers (pure; fuzzed) */
/* One line of an openings file (edited in place: its blanks at both ends cut off):
 * 1 with *opening pointing into line at a GameString that parses, whose game is not
 * over and (type not -1) is of that type; 0 for a blank or '#' comment line; -1 with
 * err on anything else. */
int  match_opening_parse(char *line, int type, char **opening, char *err, size_t errlen);
/* One line (len bytes, its newline included or not) of a results file: 0 with the
 * game number (1 to MATCH_MAX_GAMES) and ENGINE_A's score (0 to 1); -1 if it is not
 * a result. */
int  match_result_parse(const char *line, size_t len, unsigned *game, double *a_score);
/* Its "white" and "black" labels (each at most n - 1 bytes); -1 if it has none. */
int  match_result_players(const char *line, size_t len, char *white, char *black, size_t n);
/* Whether that line is a game aborted by a signal (result "*"): no result. */
int  match_result_aborted(const char *line, size_t len);
/* Game g's place in the one numbered list of npairs pairings (0: a match, one) and
 * nopenings openings: returns its pairing ((g - 1) / 2 mod npairs); *white the side
 * with white (0, the pairing's first engine, when g is odd: games 2k-1 and 2k are
 * one opening with colours swapped), *opening its round's opening index
 * ((g - 1) / 2 / npairs mod nopenings, -1 without openings). Pure. */
unsigned match_game_place(unsigned npairs, size_t nopenings, unsigned g, int *white, int *opening);
/* What a worker's result line must agree with (match or tournament --queue): game
 * g's job, as match_schedule numbers them. */
struct match_result_rules {
	unsigned     games;
	const char  *label[2];       /* a match's ENGINE_A, ENGINE_B as the jobs name them */
	/* A tournament's engines as its jobs name them, and its pairings (npairs 0: a
	 * match, label above): game g is of pairing k % npairs (k = (g - 1) / 2), round
	 * k / npairs; its first engine (the job's engine_a) has white when g is odd. */
	const char  *const *labels;
	const unsigned char (*pairs)[2];
	unsigned     npairs;
	char *const *openings;       /* game g's start: openings[round % n], */
	size_t       nopenings;      /* else an empty board of type */
	unsigned     type;
	const char  *worker;         /* added as "worker" if not NULL */
};
/* A worker's result line, checked: exactly one JSON object, a game number from 1 to
 * games, that game's engines with its engine_a white in odd games, a result and an
 * a_score that agree (with each other and with a finished gamestring), integer
 * plies >= 0 equal to the gamestring's, which parses and starts with the game's own
 * opening, short strings, at most MATCH_RESULT_MAX bytes, one integer time per move and at most one [score, depth]
 * of integers (|score| <= MATCH_SCORE_MAX) per time. Returns the line rebuilt from
 * those fields alone (the caller frees it with cJSON_Delete), with the game number
 * and ENGINE_A's score; NULL with why. Pure (fuzzed). */
struct cJSON *match_result_check(const char *line, const struct match_result_rules *rr, unsigned *game,
				 double *a_score, char *why, size_t whylen);

/* match_results.c */
/* "1-0", "0-1" or "1/2-1/2" for a finished game's state. */
const char *results_text(int state);
/* ENGINE_A's score of a finished game (state HIVE_WHITE_WINS, ...). */
double results_a_score(int state, int white);
/* One more game of ENGINE_A's score into rec. */
void results_record(struct sprt_counts *rec, double score);
/* Game g has a result, side 0 scoring a_score: marked done and counted (total, its
 * pairing's record and, with its pair complete, pentanomial). A game done already
 * is not counted again. */
void results_count(struct match *m, unsigned g, double a_score);
/* Opens --results (reading an earlier run's first with --resume); -1 after saying why. */
int  results_open(struct match *m);
/* The game's JSON line (no newline), with "worker" if not NULL; the caller frees it
 * with free(). NULL on no memory. */
char *results_line(const struct match *m, const struct slot *s, int state, const char *reason,
		   const char *worker);
/* Writes the game's JSON line and flushes it; -1 if the file cannot take it. */
int  results_write(struct match *m, const struct slot *s, int state, const char *reason);
/* The match's LLR and the model's name, NULL if none is defined yet (*llr = 0). */
const char *results_llr(const struct match *m, double *llr);
/* The SPRT's verdict on the record so far (CONTINUE before --sprt-min-games). */
enum sprt_verdict results_verdict(const struct match *m, double *llr);
/* The score line, the Elo line and the SPRT line on stdout. */
void results_print_score(const struct match *m);
/* The end of a run (local or --queue): "Match/Tournament finished", the games set
 * aside (NDEAD, on DEAD_STREAM), the score or standings, the SPRT's verdict. */
void match_report_end(struct match *m, unsigned ndead, const char *dead_stream);
/* Pairing i's score line and its two Elo lines (trinomial, pentanomial). */
void results_print_pair(const struct match *m, unsigned i);

/* tournament.c */
/* The pairings of m->npl players: every two (round-robin) or the first against each
 * of the others (--gauntlet). */
void tournament_pairings(struct match *m);
/* Every pairing's score and the rating list of every engine, on stdout. */
void tournament_print_standings(const struct match *m);
/* The dashboard's "tournament": null for a match, else the kind, each pairing's
 * score and pentanomial, and the rating list (null before a game ends). */
struct cJSON *tournament_web(const struct match *m);

/* match_pgn.c: --pgnout */
/* Readies --pgnout (after results_open): empties it (always with --queue), or with --resume keeps its whole
 * games that the results file has and cuts the rest (a game torn by a kill, a game
 * written just before the kill and so not in the results: both are played again);
 * -1 after saying why. */
int  pgnout_open(struct match *m);
/* Appends slot s's finished game; -1 after saying why. */
int  pgnout_write(struct match *m, const struct slot *s, int state, const char *reason);
/* --queue: appends the game of a worker's result o as match_result_check rebuilt it
 * (the same tags and comments as pgnout_write's); -1 after saying why. */
int  pgnout_write_result(struct match *m, const struct cJSON *o);

/* match_web.c: the dashboard of --http */
/* A JSON number, or null for inf/NaN (JSON has neither). */
void match_json_num(struct cJSON *o, const char *key, double v);
/* Starts the web page on --http; -1 after saying why. */
int  match_web_start(struct match *m);
/* A game ended (after results_record): its row and the LLR for the dashboard. */
void match_web_record(struct match *m, const struct slot *s, int state, const char *reason);
/* Stops the page and frees what the dashboard kept. */
/* A worker's result line (schemas/match-result.json) as a finished game (--queue). */
void match_web_result(struct match *m, const struct cJSON *line);
void match_web_free(struct match *m);

/* match_viewer.c */
/* Listens for viewers on --viewer ADDR:PORT; -1 after saying why. */
int  viewer_listen(struct match *m, const char *spec);
/* Every viewer attached to game (or to all) gets its GameString. */
void viewer_broadcast(struct match *m, unsigned game, const struct hive_game *g);
/* Ends the loop once every viewer has its last lines (or after a bound). */
void match_exit(struct match *m);
/* Drops every viewer and the listener at once. */
void viewer_free_all(struct match *m);

#endif
