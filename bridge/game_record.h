/*
 * game_record.h: a game the bridge refereed (bridge/referee.h) or shows (the live
 * registry) as a game record (core/record.h) with its tags and, per move the referee
 * timed, a comment with the time used and the engine's last score and depth; and a
 * PGN archive such games are appended to, one whole game per write (match's
 * --pgnout, the daemon's [daemon] games).
 */
#ifndef BRIDGE_GAME_RECORD_H
#define BRIDGE_GAME_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "core/record.h"

struct referee;
struct referee_eval;
struct referee_seat;

/* The tags of a game (NULL: not written, except Mzinga's seven, written empty). */
struct game_record_tags {
	const char *white, *black;   /* [White], [Black]: the players (engines' ids) */
	const char *event;           /* [Event] */
	const char *site;            /* [Site] */
	const char *round;           /* [Round]: match's game number */
	const char *opening;         /* [Opening]: the start's GameString, when not empty */
	const char *termination;     /* [Termination]: the result's reason */
	const char *time_control;    /* [TimeControl]: game_record_time_control's */
	int         result;          /* HIVE_WHITE_WINS, ...; below HIVE_DRAW: none ("*") */
	time_t      date;            /* [Date] (UTC); 0: now */
};

/* The moves the referee timed: ply first + i took times[i] ms, and evals[i] is what
 * its engine last reported (depth 0: nothing). n may be 0 (no comments). */
struct game_record_plies {
	size_t                      first;
	const uint64_t             *times;
	const struct referee_eval  *evals;
	size_t                      n;
};

/* rec (uninitialised) as g with tags t and plies' comments ("+35/2 0.123s": score
 * from the mover's view / depth, then the time; "0.123s" without a search info).
 * 0, or -1 with err (no memory); rec is freed then. */
int  game_record_build(struct hive_record *rec, const struct hive_game *g, const struct game_record_tags *t,
		       const struct game_record_plies *plies, char *err, size_t errlen);
/* The same from a referee's game, times and search infos. */
int  game_record_from_referee(struct hive_record *rec, const struct referee *r, const struct game_record_tags *t,
			      char *err, size_t errlen);
/* A seat's time control as PGN's TimeControl: "60+1" (a clock, seconds), "1/2"
 * (a time a move: one move in 2 s); 0 when it has none (a fixed depth), else the
 * length written. */
size_t game_record_time_control(const struct referee_seat *s, char *buf, size_t len);
/* The record as Mzinga's PGN, followed by a blank line (what an archive holds of one
 * game): a new string, *len its length; NULL on no memory. */
char *game_record_pgn(const struct hive_record *rec, size_t *len);
/* Appends the game to the PGN file at path (created 0644 if missing) in one write
 * with O_APPEND, then fsync: a crash leaves at most a torn last game, never a game
 * interleaved with another; after a torn game (the file ends mid-line) the game
 * starts after a blank line, whole. 0, or -1 with err naming the file. */
int  game_record_append(const char *path, const struct hive_record *rec, char *err, size_t errlen);
/* game_record_from_referee, then game_record_append. */
int  game_record_append_referee(const char *path, const struct referee *r, const struct game_record_tags *t,
				char *err, size_t errlen);
/* Whether the text of one archived game (as game_record_pgn writes it) is whole:
 * it ends with its result word and the blank line after it. */
int  game_record_whole(const char *text, size_t len);

#endif
