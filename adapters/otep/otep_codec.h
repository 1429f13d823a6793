/*
 * otep_codec.h: OTEP, the OpenTafl Engine Protocol, with Hive contents (see
 * docs/otep-hive.md). Lines are "<command> <token> <token> ...", tokens separated by
 * blanks; the free text of status and error runs to the end of the line.
 *
 * Parse and format only: bytes in, structs out. No I/O, no globals, no clocks, no
 * floating point.
 *
 * Hive notation has spaces ("wQ -wS1", and GameStrings made of such moves) but an
 * OTEP move, move list or position is one blank-free token. On the wire every space
 * of a MoveString or GameString is written '_' (a byte UHP notation never uses), and
 * a reader turns each '_' back into a space: "wQ_-wS1", "Base;InProgress;White[2];
 * wS1;bS1_wS1-". The mapping is one-to-one, so every line round-trips byte for byte.
 * Move lists join moves with '|'; the empty list (no move yet) is written "-".
 *
 * In the structs all texts are in Hive notation (spaces, not '_').
 */
#ifndef OTEP_CODEC_H
#define OTEP_CODEC_H

#include <stddef.h>
#include <stdint.h>

#define OTEP_LINE_MAX     65536   /* default bound on a line, newline excluded */
#define OTEP_LIST_MAX     1024    /* moves in one move list */
#define OTEP_ANALYSIS_MAX 64      /* move lists in one analysis (and analyze's number) */
#define OTEP_EVAL_MAX     100000000LL  /* |evaluation| in centi-pawns */
#define OTEP_MS_MAX       (1000LL * 3600 * 24 * 365)  /* a year of clock */

/* Who sent the line: the direction is part of the grammar ("move" carries a
 * MoveString from the engine and a GameString from the host). */
enum otep_from { OTEP_FROM_HOST, OTEP_FROM_ENGINE };

/* Every command, with the directions it may travel (H: host->engine, E: engine->host).
 * One list drives the enum and the table of names. */
#define OTEP_COMMANDS(X)                         \
	X(HELLO,         "hello",         1, 1)  \
	X(SIMPLE_MOVES,  "simple-moves",  0, 1)  \
	X(RULES,         "rules",         1, 1)  \
	X(POSITION,      "position",      1, 1)  \
	X(SIDE,          "side",          1, 1)  \
	X(CLOCK,         "clock",         1, 1)  \
	X(ANALYZE,       "analyze",       1, 0)  \
	X(ANALYSIS,      "analysis",      0, 1)  \
	X(PLAY,          "play",          1, 0)  \
	X(MOVE,          "move",          1, 1)  \
	X(ERROR,         "error",         1, 1)  \
	X(OPPONENT_MOVE, "opponent-move", 1, 0)  \
	X(FINISH,        "finish",        1, 0)  \
	X(GOODBYE,       "goodbye",       1, 0)  \
	X(STATUS,        "status",        0, 1)

enum otep_cmd {
#define OTEP_ENUM(id, name, h, e) OTEP_##id,
	OTEP_COMMANDS(OTEP_ENUM)
#undef OTEP_ENUM
	OTEP_NCMDS
};

/* The command's name ("opponent-move"), static; NULL outside the enum. */
const char *otep_cmd_name(enum otep_cmd cmd);

/* Sides: Hive's colours in place of OTEP's attackers (who move first) and defenders. */
enum otep_side { OTEP_WHITE = 0, OTEP_BLACK = 1 };

/* "error" codes. The engine sends CRITICAL or NONCRITICAL; the host sends the others
 * (the berserk codes exist in OTEP but never happen in Hive; they still parse). */
enum otep_error {
	OTEP_ERR_CRITICAL = -1, OTEP_ERR_NONCRITICAL = 0, OTEP_ERR_WRONG_SIDE = 1,
	OTEP_ERR_ILLEGAL = 2, OTEP_ERR_BERSERK_SIDE = 3, OTEP_ERR_BERSERK_ILLEGAL = 4
};

/* "finish" codes: OTEP's attackers are White (they move first). */
enum otep_finish {
	OTEP_FINISH_ABORTED = 0, OTEP_FINISH_DRAW = 1, OTEP_FINISH_WHITE = 2, OTEP_FINISH_BLACK = 3
};

/* clock <white-ms>[*] <black-ms>[*] [<overtime-s> <white-overtimes> <black-overtimes>] */
struct otep_clock {
	int64_t ms[2];           /* main time left, or of the current overtime period */
	int     in_overtime[2];  /* the '*' after the milliseconds */
	int     has_overtime;    /* the three overtime fields are present */
	int64_t overtime_s;      /* length of one overtime period, seconds */
	int64_t overtimes[2];    /* overtime periods left */
};

/* One move list: moves[0..n) (MoveStrings, oldest first), and for analysis the
 * evaluation of its first move in centi-pawns, from the side to move's view. */
struct otep_moves {
	const char *const *moves;
	size_t             n;
	int64_t            eval_cp;
};

/*
 * A parsed line. Which fields mean something depends on cmd:
 *   text      rules: GameTypeString; position, move from the host, opponent-move:
 *             GameString; move from the engine: MoveString; status: the text ("" when
 *             none); error: the message or NULL. rules and position from the engine
 *             may be bare (a request): text NULL.
 *   side      side, play (side from the engine may be bare: has_side 0)
 *   flag      simple-moves (1 on, 0 off)
 *   code      error (enum otep_error), finish (enum otep_finish)
 *   clock     clock (has_clock 0 for a bare clock from the engine)
 *   number, seconds   analyze
 *   lines, nlines     analysis (nlines pairs); opponent-move (one list, no eval)
 * A parsed message owns its strings and arrays: release it with otep_msg_free().
 * A message built by hand for otep_msg_format() may point anywhere (buf NULL).
 */
struct otep_msg {
	enum otep_cmd      cmd;
	enum otep_from     from;
	const char        *text;
	int                has_side;
	enum otep_side     side;
	int                flag;
	int                code;
	int                has_clock;
	struct otep_clock  clock;
	int                number;
	int                seconds;
	struct otep_moves *lines;
	size_t             nlines;
	/* Owned by a parsed message. */
	char              *buf;
	const char       **items;
};

/* Parses one line (a trailing CR/LF is ignored) of at most OTEP_LINE_MAX bytes sent
 * by from. Returns 0, or -1 with a one-line reason in err that says what was
 * expected. Either way out must later be released with otep_msg_free(). */
int otep_msg_parse(const char *line, size_t len, enum otep_from from, struct otep_msg *out,
		   char *err, size_t errlen);
/* The same with a caller-chosen bound on the line length. */
int otep_msg_parse_max(const char *line, size_t len, size_t max_len, enum otep_from from,
		       struct otep_msg *out, char *err, size_t errlen);
/* Frees what a parse allocated; safe on a failed parse and twice in a row. */
void otep_msg_free(struct otep_msg *m);

/* Writes m as one line into buf, NUL-terminated, without the newline (otep_write.c).
 * Checks what the parser checks, so that what is written parses back to the same
 * message. Returns the length, or -1 with the reason in err (err may be NULL). */
int otep_msg_format(const struct otep_msg *m, char *buf, size_t len, char *err, size_t errlen);

/* Writers of each line; all return the length or -1 like otep_msg_format().
 * Strings are Hive notation (spaces); the writer puts the '_'. */
int otep_format_hello(char *buf, size_t len);
int otep_format_simple_moves(char *buf, size_t len, int on);
/* rules and position; type or gamestring NULL writes the engine's bare request. */
int otep_format_rules(char *buf, size_t len, const char *type);
int otep_format_position(char *buf, size_t len, const char *gamestring);
int otep_format_side(char *buf, size_t len, enum otep_side side);
int otep_format_play(char *buf, size_t len, enum otep_side side);
int otep_format_clock(char *buf, size_t len, const struct otep_clock *c);
int otep_format_analyze(char *buf, size_t len, int number, int seconds);
int otep_format_analysis(char *buf, size_t len, const struct otep_moves *lines, size_t n);
/* move from the engine: its MoveString. */
int otep_format_move(char *buf, size_t len, const char *movestring);
/* move from the host: the GameString after the engine's move. */
int otep_format_move_result(char *buf, size_t len, const char *gamestring);
/* error: message NULL or "" writes none (the host's errors carry none). CR, LF and
 * NUL in the message become spaces; it is truncated to fit. */
int otep_format_error(char *buf, size_t len, enum otep_from from, int code, const char *message);
/* opponent-move: moves[0..n) (n 0 writes "-") and the GameString at their end. */
int otep_format_opponent_move(char *buf, size_t len, const char *const *moves, size_t n,
			      const char *gamestring);
int otep_format_finish(char *buf, size_t len, enum otep_finish code);
int otep_format_goodbye(char *buf, size_t len);
/* status: line breaks become spaces; truncated to fit. */
int otep_format_status(char *buf, size_t len, const char *text);

/* "white"/"black", static. */
const char *otep_side_name(enum otep_side side);

/* Whether s is a MoveString by its syntax alone ("pass", a piece, or a piece and a
 * reference with at most one direction mark); 0, or -1 with the reason. */
int otep_movestring_check(const char *s, char *err, size_t errlen);
/* Whether s is a GameString by its first field (the rest is the core's to judge) and
 * holds no control byte or '|'; 0, or -1 with the reason. */
int otep_gamestring_check(const char *s, char *err, size_t errlen);
/* Whether s is a GameTypeString (Base, Base+M, ..., Base+MLP); 0, or -1 with the reason. */
int otep_gametype_check(const char *s, char *err, size_t errlen);
/* Whether cmd is sent by from (the host or the engine). */
int otep_cmd_sent_by(enum otep_cmd cmd, enum otep_from from);

/* Evaluation in pawns, "[-]digits[.digits]", to centi-pawns (rounded half away from
 * zero; |v| <= OTEP_EVAL_MAX), and back in its shortest form ("-1.5"). */
int otep_eval_parse(const char *s, size_t len, int64_t *cp);
int otep_eval_format(char *buf, size_t len, int64_t cp);

#endif
