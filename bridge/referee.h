/*
 * referee.h: one game between two seats, refereed by the bridge: match's slots,
 * remote play's lobby games and the web page's games are its clients (cutechess's
 * ChessGame, its player kinds, GameAdjudicator and TimeControl being the model).
 *
 * A seat is an engine (struct engine, with its budget) that the referee asks for
 * its moves, or a remote player (a person, a client) whose moves its client hands
 * over with referee_play(). The referee keeps the canonical game and the clock:
 * every move is checked with the core before it is played, recorded with its time,
 * reported to the live registry (bridge/live.h), and after each move the one
 * adjudication policy runs: the rules' end (queen surrounded), the ply cap, the
 * repetition count. A game ends once, with one result given to the client's ended
 * callback; nothing of the game fires after that.
 *
 * Engines stay the client's (they may outlive the game: match plays the next game
 * with them); the referee frees one only when it fails or when the game ends (or is
 * freed) while its command is outstanding, and then sets the client's pointer to
 * NULL. The client starts its engines before referee_start.
 */
#ifndef BRIDGE_REFEREE_H
#define BRIDGE_REFEREE_H

#include <stddef.h>
#include <stdint.h>
#include "core/game.h"

struct engine;
struct event_base;
struct live_game;
struct referee;

/* One seat: who plays a colour and with what time. */
struct referee_seat {
	const char     *name;          /* for the live record and the log ("remote#5", a label) */
	struct engine **engine;        /* an engine seat: the client's pointer to its started
	                                  engine (NULL: a remote seat) */
	/* An engine's budget (0 = unset): a fixed depth, a time a move that is not
	 * flagged (the back end keeps it), a hard cap. */
	int             depth;
	uint64_t        movetime_ms;
	uint64_t        max_ms;
	/* The time control (0 = none): a clock and its increment, or a fixed time a move;
	 * the flag falls when either runs out, slack_ms later. */
	uint64_t        clock_ms, inc_ms;
	uint64_t        move_ms;
	uint64_t        slack_ms;
	/* A hard wall-clock cap a move, whatever the above (0 = none): the flag falls
	 * then even for a seat with no time limit (a depth), so no game is unbounded. */
	uint64_t        stall_ms;
};

/* The policy's defaults, match's since its first games: two deterministic engines can
 * shuffle forever. The ply cap also keeps a game far below the board's 16-bit ply
 * counter. */
#define REFEREE_MAX_PLIES   1000
#define REFEREE_REPETITION  3

/* The adjudication policy; 0 = never. */
struct referee_rules {
	unsigned        max_plies;     /* a draw once this many plies are played */
	unsigned        repetition;    /* a draw once a position occurs this many times, the
	                                  start's positions included */
	int             side_names;    /* the referee's reasons name the side ("white lost on
	                                  time", "black engine crashed: ..."): remote play's
	                                  words; else match's ("time forfeit") */
};

/* The end: state HIVE_WHITE_WINS, HIVE_BLACK_WINS or HIVE_DRAW, or below HIVE_DRAW
 * (the board's NotStarted or InProgress) for a game aborted without a result. */
struct referee_result {
	int             state;
	const char     *reason;
	int             loser;         /* the colour that lost by forfeit, else -1 */
};

/* The client's hooks (arg: referee_conf.arg). Only ended is required. */
struct referee_ops {
	/* A remote seat's turn began (its clock runs). */
	void (*to_move)(void *arg, int colour);
	/* colour played move (its canonical MoveString); the game holds the new position,
	 * the adjudication has not run yet. */
	void (*moved)(void *arg, int colour, const char *move);
	/* The game is over; the referee's last act: ended may free it. */
	void (*ended)(void *arg, const struct referee_result *res);
};

struct referee_conf {
	struct event_base          *base;
	struct referee_seat         seat[2];      /* by colour */
	struct referee_rules        rules;
	const char                 *live_kind;    /* reported to the live registry as this
	                                             ("match", "web", ...); NULL = not */
	void                       *live_owner;   /* its owner tag (live_owned) */
	const char                 *log_prefix;   /* trace log lines start so ("match: game 3") */
	const char                 *archive;      /* a finished game is appended to this PGN
	                                             file (bridge/game_record.h); NULL = not */
	const struct referee_ops   *ops;
	void                       *arg;
};

/* Outcome of a remote seat's move. */
enum referee_rc {
	REFEREE_OK = 0,
	REFEREE_INVALID,    /* illegal or unreadable: nothing changed, err says why */
	REFEREE_NOT_TURN,   /* not started, or the other side is to move */
	REFEREE_OVER        /* the game is over (now: the mover's time ran out) */
};

/* A game from start (a GameString's game, not over; NULL = an empty board of type),
 * copied, with c copied too (its strings must outlive the referee). NULL with err
 * on no memory. Nothing runs until referee_start. */
struct referee *referee_new(const struct referee_conf *c, unsigned type, const struct hive_game *start,
			    char *err, size_t errlen);
/* The clock starts and the side to move is asked for its move (the game may end at
 * once, through ended, inside this call). */
void referee_start(struct referee *r);
/* A remote seat of colour plays move (MoveString). ended may fire inside. */
enum referee_rc referee_play(struct referee *r, int colour, const char *move, char *err, size_t errlen);
/* colour loses at once for reason (resigned, disconnected): nothing if over. */
void referee_forfeit(struct referee *r, int colour, const char *reason);
/* Ends the game without a result (the daemon or the match stops): nothing if over. */
void referee_abort(struct referee *r, const char *reason);
/* Frees r at once (ended does not fire): an engine with a command outstanding is
 * freed with it. The live record is closed. r may be NULL. */
void referee_free(struct referee *r);

/* The canonical game. */
const struct hive_game *referee_game(const struct referee *r);
/* Whether colour is to move now (started, not over, its turn). */
int  referee_to_move(const struct referee *r, int colour);
int  referee_over(const struct referee *r);
/* colour's clock in ms (0 when it ran out; its full time before the start). */
int64_t referee_clock_ms(const struct referee *r, int colour);
/* The time each move took, in ms, by ply from the start: *n entries. */
const uint64_t *referee_times(const struct referee *r, size_t *n);
/* What an engine reported of each move's search (its last info): by ply from the
 * start, as referee_times; depth 0 when it reported none (a remote seat). */
struct referee_eval {
	int             depth;
	int             score;        /* the mover's view */
};
const struct referee_eval *referee_evals(const struct referee *r, size_t *n);
/* The plies the game had at its start (an opening): times[0] is ply start's. */
size_t referee_start_plies(const struct referee *r);
/* colour's seat name (referee_seat.name). */
const char *referee_seat_name(const struct referee *r, int colour);
/* The game's live record (bridge/live.h), NULL if none. */
struct live_game *referee_live(const struct referee *r);

#endif
