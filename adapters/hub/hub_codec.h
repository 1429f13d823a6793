/*
 * hub_codec.h: the Hub protocol's line syntax, "<command> <name>=<value> <flag> ...",
 * and the Hive contents of level, go, info and done (see docs/hub-hive.md).
 *
 * Parse and format only: bytes in, structs out. No I/O, no globals, no clocks, no
 * floating point (times and scores are fixed-point decimals, so no locale can bite).
 *
 * Quoting: a value must be quoted when it is empty or holds a space, a control byte,
 * '=' or '"'. Inside quotes a doubled quote "" stands for one '"'; nothing else is
 * special. In particular '\' is an ordinary byte everywhere, because Hive MoveStrings
 * use it ("wA1 \wS1", "bQ bS1\"). A value can never hold NUL, CR or LF: the writer
 * refuses them.
 */
#ifndef HUB_CODEC_H
#define HUB_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "bridge/span.h"

#define HUB_LINE_MAX 65536   /* default bound on a line, newline excluded */
#define HUB_MAX_ARGS 32      /* arguments per line; more is a syntax error */

/* One argument. A flag ("go think") has has_value 0 and value "". */
struct hub_arg {
	const char *name;
	const char *value;
	int         has_value;
};

/* A parsed line. All strings point into buf, which the message owns. A blank line
 * parses to cmd "" with no arguments. */
struct hub_msg {
	const char    *cmd;
	size_t         nargs;
	struct hub_arg args[HUB_MAX_ARGS];
	char          *buf;
};

/* Parses one line (a trailing CR/LF is ignored) of at most HUB_LINE_MAX bytes.
 * Returns 0, or -1 with a one-line reason in err; either way out must later be
 * released with hub_msg_free() (out is overwritten, not freed, by a parse). */
int hub_line_parse(const char *line, size_t len, struct hub_msg *out, char *err, size_t errlen);
/* The same with a caller-chosen bound on the line length. */
int hub_line_parse_max(const char *line, size_t len, size_t max_len, struct hub_msg *out,
		       char *err, size_t errlen);
/* Frees what a parse allocated; safe on a failed parse and twice in a row. */
void hub_msg_free(struct hub_msg *m);

/* The first argument called name, or NULL. Names are case-sensitive. */
const struct hub_arg *hub_msg_arg(const struct hub_msg *m, const char *name);
/* Its value ("" for a flag), or NULL when absent. Points into m. */
const char *hub_msg_get(const struct hub_msg *m, const char *name);
/* 1 when name is present, as a flag or with a value (even an empty one). */
int hub_msg_has(const struct hub_msg *m, const char *name);

/* Builds one line into a caller buffer (a span_writer), NUL-terminated, without the
 * newline. The first failure sticks: later calls do nothing and hub_writer_end()
 * reports it. */

void hub_writer_begin(struct span_writer *w, char *buf, size_t cap, const char *cmd);
/* name=value, quoted and escaped as needed. value NULL adds a flag. */
void hub_writer_add(struct span_writer *w, const char *name, const char *value);
void hub_writer_add_flag(struct span_writer *w, const char *name);
/* name=<printf-formatted value>, at most 255 bytes. */
void hub_writer_addf(struct span_writer *w, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* name="a;b;c": items must not contain ';'. An empty list gives name="". */
void hub_writer_add_list(struct span_writer *w, const char *name, const char *const *items,
			 size_t n);
/* Length of the line, or -1 (w->error says why: bad name, bad value, no room). */
int hub_writer_end(struct span_writer *w);

/* Re-writes a parsed message in canonical form; parsing the result gives the same
 * message. Returns the length or -1 with the reason in err (err may be NULL); so do
 * the other writers below. */
int hub_msg_write(const struct hub_msg *m, char *buf, size_t len, char *err, size_t errlen);

/* error message="...": CR, LF and NUL-free by construction (line breaks become
 * spaces). Truncates the message to fit; returns the length, or -1 if even
 * 'error message=""' does not fit. */
int hub_error_write(char *buf, size_t len, const char *message);

/* Iterates a ';'-separated list (moves, pv): sets [*item, *item + *len) to the next
 * item with surrounding spaces trimmed, skipping empty items; returns 0 at the end.
 * *cursor starts at the list and moves on. */
int hub_list_next(const char **cursor, const char **item, size_t *len);

/* Fixed-point decimal "[-]digits[.digits]" scaled by 10^decimals (3: seconds to ms,
 * 2: pawns to centi-pawns), rounded half away from zero. -1 on syntax or overflow. */
int hub_decimal_parse(const char *s, int decimals, int64_t *out);
/* The reverse: shortest form, trailing zeros dropped (1500, 3 -> "1.5"). Returns
 * the length it needs, like snprintf. */
int hub_decimal_format(char *buf, size_t len, int64_t v, int decimals);

/* "level" forms; unset fields are zero. Several limits may be combined (the search
 * stops at the first reached), except that infinite stands alone and moves/inc need
 * time. A negative time (a GUI whose clock overran) reads as 0. */
struct hub_level {
	int      depth;          /* depth=N, N >= 1 */
	uint64_t nodes;          /* nodes=N, N >= 1 */
	int      has_move_time;
	uint64_t move_time_ms;   /* move-time=seconds */
	int      has_time;
	uint64_t time_ms;        /* time=seconds remaining */
	uint64_t inc_ms;         /* inc=seconds per move */
	int      moves;          /* moves=N remaining to the next control, N >= 1 */
	int      infinite;       /* flag */
};

int hub_level_parse(const struct hub_msg *m, struct hub_level *lv, char *err, size_t errlen);
int hub_level_write(char *buf, size_t len, const struct hub_level *lv, char *err, size_t errlen);

enum hub_go_mode { HUB_GO_THINK, HUB_GO_PONDER, HUB_GO_ANALYZE };

/* "go think|ponder|analyze": exactly one of the three flags. */
int hub_go_parse(const struct hub_msg *m, enum hub_go_mode *mode, char *err, size_t errlen);
/* "think", "ponder", "analyze" (static), or NULL for a value outside the enum. */
const char *hub_go_name(enum hub_go_mode mode);

/* Search information for "info". Zero depth/nodes and pvlen are left out. */
struct hub_info {
	int                depth;
	int                has_score;
	int                score_cp;    /* side to move's view; written in pawns (35 -> 0.35) */
	uint64_t           nodes;
	int                has_time;
	uint64_t           time_ms;     /* written in seconds; with nodes also gives nps */
	const char *const *pv;          /* UHP MoveStrings, written as a ';'-separated list */
	size_t             pvlen;
};

/* info depth=.. score=.. nodes=.. time=.. nps=(millions per second) pv="..". */
int hub_info_write(char *buf, size_t len, const struct hub_info *in, char *err, size_t errlen);
/* Reads an engine's info back; pv items are left to hub_list_next() on *pv (NULL if
 * absent). Unknown fields are ignored; a malformed known field is an error. */
int hub_info_parse(const struct hub_msg *m, struct hub_info *in, const char **pv,
		   char *err, size_t errlen);
/* done move="wQ -wS1" [ponder="bA1 wQ-"]; ponder may be NULL. */
int hub_done_write(char *buf, size_t len, const char *move, const char *ponder, char *err, size_t errlen);

#endif
