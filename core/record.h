/*
 * record.h: game records as players keep them in files. PGN is read and written in
 * Mzinga's dialect (one numbered line per ply, results WhiteWins|BlackWins|Draw) and
 * hivegame.com's (one numbered line per move pair, results 1-0|0-1|1/2-1/2, its Date
 * "%d-%b-%Y_%H:%M:%S"); BoardSpace SGF (GM[27]) is read and written. A record is a canonical game,
 * every move checked by the core, with its tags (players, date, result, site, event,
 * time control where known) and a comment per ply for a writer (time used, score,
 * depth). GameString lines are records too, so a caller takes any of the three.
 *
 * Pure library: no I/O, no globals. A struct hive_record owns its game, tags and comments.
 */
#ifndef HIVE_RECORD_H
#define HIVE_RECORD_H

#include <stddef.h>
#include "game.h"

#define HIVE_RECORD_MAX_BYTES (4u << 20)  /* one file of records */
#define HIVE_RECORD_MAX_GAMES 10000       /* games in one file */
#define HIVE_RECORD_MAX_TAGS  64          /* tags of one game */
#define HIVE_RECORD_MAX_TEXT  1024        /* a tag's value, a comment */

enum hive_record_format {
	HIVE_RECORD_UNKNOWN, HIVE_RECORD_GAMESTRING, HIVE_RECORD_PGN, HIVE_RECORD_SGF
};

/* How a PGN is written: Mzinga's (the default of every reader of ours) or hivegame.com's. */
enum hive_pgn_dialect { HIVE_PGN_MZINGA, HIVE_PGN_HIVEGAME };

struct hive_record_tag {
	char *name;
	char *value;
};

struct hive_record {
	struct hive_game        game;
	struct hive_record_tag *tags;      /* in the order read or set; names unique */
	size_t                  ntags;
	char                  **comments;  /* comments[i]: ply i's, or NULL; game.len entries or NULL */
	size_t                  ccap;
	int                     result;    /* enum hive_state; HIVE_IN_PROGRESS when unknown */
	size_t                  line;      /* where the game starts in its text (1-based) */
};

void hive_record_init(struct hive_record *r, unsigned type);
void hive_record_free(struct hive_record *r);
/* Sets (or replaces) a tag; -1 when out of memory, past HIVE_RECORD_MAX_TAGS or too long. */
int  hive_record_set_tag(struct hive_record *r, const char *name, const char *value);
/* The tag's value, or NULL. */
const char *hive_record_tag(const struct hive_record *r, const char *name);
/* Plays a move (checked by the core) with its comment (NULL: none): enum hive_rc. */
int  hive_record_play(struct hive_record *r, struct hive_move m, const char *comment);

/* What a text holds, judged by its content: SGF's "(;", PGN's tags or numbered moves,
 * else a GameString's game type. */
enum hive_record_format hive_record_detect(const char *buf, size_t len);

/* Reads every game of a text in any of the three formats into a new array of *n records
 * (free with hive_records_free). On failure returns -1 with a sentence naming the game,
 * the ply and the line, and gives nothing back: nothing half-read is used. */
int  hive_records_read(const char *buf, size_t len, struct hive_record **out, size_t *n,
		       char *err, size_t errlen);
void hive_records_free(struct hive_record *v, size_t n);

/* The game named in an error: "game 2 (Abbo69 vs WeakBot, line 14)". */
size_t hive_record_name(const struct hive_record *r, size_t index, char *buf, size_t len);

/* "YYYY.MM.DD" from a date as the three formats write it; -1 if it names no date. */
int  hive_record_date(const char *s, char out[11]);

/* Writes one game as PGN in a dialect; returns the length it needs (like snprintf). */
size_t hive_record_write_pgn(const struct hive_record *r, enum hive_pgn_dialect dialect,
			     char *buf, size_t len);
/* Writes one game as BoardSpace SGF, the actions its robots write (a "Move" or, a
 * piece of the other colour thrown by a Pillbug, "PMove", then "Done", per ply; "Pass";
 * a result the board does not show as the loser's "Resign" or an accepted
 * "OfferDraw"), the first piece at N 13 unless the game would leave BoardSpace's 26
 * by 26 board (players' names without '"', as '\''); returns the length it needs
 * (like snprintf), 0 when the game spans more than that board. */
size_t hive_record_write_sgf(const struct hive_record *r, char *buf, size_t len);

#endif
