/*
 * record_int.h: what the readers of core/record.c (PGN, GameStrings) and
 * core/record_sgf.c (BoardSpace SGF) share: the text being read, the games read so
 * far, and how a failure names the game, the ply and the line.
 *
 * Pure library: no I/O, no globals.
 */
#ifndef HIVE_RECORD_INT_H
#define HIVE_RECORD_INT_H

#include <stddef.h>
#include "record.h"

struct record_rd {
	const char         *s;
	size_t              len;
	size_t              pos;
	size_t              line;
	struct hive_record *v;
	size_t              n;
	size_t              cap;
	char               *err;
	size_t              errlen;
};

static inline int record_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

static inline char record_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static inline int record_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Whether the len bytes at s are word, in any case. */
int  record_word_is(const char *s, size_t len, const char *word);
/* "game 2 (A vs B, line 14), ply 20 at line 35: reason" (no ply when 0) into the
 * caller's buffer; returns -1. */
int  record_fail(struct record_rd *rd, const struct hive_record *r, size_t ply, size_t line,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Takes r into the games read (which then own it); -1 when out of memory. */
int  record_push(struct record_rd *rd, struct hive_record *r);
/* Past white space, counting lines. */
void record_skip_blank(struct record_rd *rd);
/* The result of a game read: the board's when it has ended (said, a state or -1, may
 * not contradict it), else said. -1 on a contradiction. */
int  record_settle(struct record_rd *rd, struct hive_record *r, int said, size_t line);
/* What a writer writes into: like snprintf, n counts what it needs past len. */
struct record_out {
	char  *buf;
	size_t len;
	size_t n;
};
void record_out_mem(struct record_out *o, const char *s, size_t l);
void record_out_str(struct record_out *o, const char *s);

/* Every game of a BoardSpace SGF text (record_sgf.c). */
int  record_sgf_read(struct record_rd *rd);

#endif
