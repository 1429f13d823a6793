/*
 * live.h: the games in progress, as the daemon's sessions, the web games and the
 * match referee report them, for whoever watches (the web page, bridge/http/).
 *
 * One registry per process, on the event loop thread. An owner opens a game, reports
 * each change, and closes it when it lets go; the registry keeps its own copy of
 * everything, so a reader never touches the owner's state. Until live_enable(1)
 * (a --http listener), live_open returns NULL and every call takes NULL as a no-op:
 * reporting costs nothing when nobody watches.
 *
 * A closed game that had moves or a result stays readable among the last
 * LIVE_KEEP_FINISHED, so a finished game can be stepped through.
 */
#ifndef BRIDGE_LIVE_H
#define BRIDGE_LIVE_H

#include <stdint.h>
#include <sys/queue.h>

#include "core/game.h"
#include "core/search.h"

#define LIVE_KEEP_FINISHED 64
#define LIVE_NAME_MAX      64
#define LIVE_PV_MAX        256

struct live_game {
	unsigned          id;            /* 1, 2, ... in opening order */
	unsigned          version;       /* bumped on every change */
	char              kind[16];      /* "uhp", "match", "web", ... */
	char              white[LIVE_NAME_MAX];
	char              black[LIVE_NAME_MAX];
	struct hive_game  game;          /* the registry's copy */
	int               finished;      /* a result was reported */
	int               state;         /* HIVE_WHITE_WINS, ... once finished */
	char              reason[128];
	int               aborted;       /* ended without a result (live_abort) */
	int               closed;        /* the owner let go */
	int               clocks;        /* clock fields are set */
	int64_t           clock_ms[2];   /* by colour, at clock_at_us */
	int               clock_running; /* colour whose clock runs, -1 none */
	uint64_t          clock_at_us;   /* now_us() of the report */
	int               has_analysis;
	int               depth, score;  /* side to move's view, at analysis_ply */
	size_t            analysis_ply;  /* the position searched (the latest search's) */
	char              pv[LIVE_PV_MAX]; /* UHP MoveStrings, ';'-separated */
	unsigned          substitutions; /* moves the bridge sent for a failing engine */
	char              substitution[160]; /* why, the latest ("" none) */
	void             *owner;         /* for live_owned(): the owner's tag */
	TAILQ_ENTRY(live_game) link;     /* the registry's list (live_first, then TAILQ_NEXT) */
};

/* Called after every change to lg (lg stays valid during the call). */
typedef void live_watch_cb(void *arg, const struct live_game *lg);

/* Turns reporting on (a watcher exists) or off; off drops every record. */
void live_enable(int on);
int  live_enabled(void);
/* The one watcher, NULL for none. */
void live_watch(live_watch_cb *cb, void *arg);

/* A new game reported by its owner (g: its current position, copied); NULL when
 * reporting is off or out of memory. owner tags it for live_owned (may be NULL). */
struct live_game *live_open(const char *kind, const char *white, const char *black,
			    const struct hive_game *g, void *owner);
/* The owner's game changed (a move, an undo, a new position): copied again. */
void live_update(struct live_game *lg, const struct hive_game *g);
/* The clocks, in ms by colour, with the colour whose clock now runs (-1 none). */
void live_clocks(struct live_game *lg, int64_t white_ms, int64_t black_ms, int running);
/* The engine's latest search info for the current position; the PV is checked
 * with the core and cut at its first illegal move. */
void live_analysis(struct live_game *lg, const struct hive_search_info *info);
/* The bridge answered in place of the engine (why): counted and shown, never
 * silent (a Trylobot listener's fallback move). */
void live_substitution(struct live_game *lg, const char *why);
/* The result: state HIVE_WHITE_WINS, HIVE_BLACK_WINS or HIVE_DRAW, and why. */
void live_finish(struct live_game *lg, int state, const char *reason);
/* The game ends without a result (the daemon stops): finished stays 0, so a
 * reader shows no result, only reason. */
void live_abort(struct live_game *lg, const char *reason);
/* Where live_report appends each game a session plays to its end (the daemon's
 * [daemon] games), NULL for nowhere; path must outlive the registry's use of it.
 * Refereed games (lobby, web) are archived by their referee instead. */
void live_archive(const char *path);
/* The one call a session makes where its canonical game changed (a new game, a
 * move, an undo): opens *lgp on first use, copies g, and reports the board's own
 * result when the game is over (appended to the live_archive file then). Sessions that know a better reason (a resignation,
 * a flag) call live_finish themselves. */
void live_report(struct live_game **lgp, const char *kind, const char *white,
		 const char *black, const struct hive_game *g);
/* The owner lets go; lg is invalid for it afterwards. */
void live_close(struct live_game *lg);

/* Reading: games newest first, open ones and the kept finished ones alike. */
const struct live_game *live_first(void);
const struct live_game *live_find(unsigned id);
/* The record of id if owner opened it and has not closed it (for playing). */
struct live_game *live_owned(unsigned id, void *owner);

/* Something the match referee reports (its summary changed): the watcher is told
 * with lg == NULL. */
void live_notify_match(void);

#endif
