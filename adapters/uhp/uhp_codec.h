/*
 * uhp_codec.h: the Universal Hive Protocol as text: parse and format only, no I/O.
 *
 * Lines are given without their newline, as (pointer, length); they need not be
 * NUL-terminated and may hold any bytes. Results that point into the line (command
 * arguments, option names) are valid as long as the line is.
 */
#ifndef ADAPTERS_UHP_CODEC_H
#define ADAPTERS_UHP_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include "bridge/engine_options.h"

/* Client commands: one list drives both the enum and the name table. */
#define UHP_COMMANDS(X) \
	X(INFO, "info") \
	X(NEWGAME, "newgame") \
	X(PLAY, "play") \
	X(PASS, "pass") \
	X(VALIDMOVES, "validmoves") \
	X(BESTMOVE, "bestmove") \
	X(UNDO, "undo") \
	X(OPTIONS, "options") \
	X(EXIT, "exit") \
	X(PERFT, "perft") \
	X(HELP, "help")

enum uhp_cmd {
	UHP_CMD_BLANK,             /* empty or whitespace-only line (ignored) */
	UHP_CMD_UNKNOWN,           /* not a command we know */
#define UHP_X_ENUM(id, name) UHP_CMD_##id,
	UHP_COMMANDS(UHP_X_ENUM)
#undef UHP_X_ENUM
	UHP_CMD_COUNT
};

/* A command line split into keyword and arguments. */
struct uhp_command {
	enum uhp_cmd cmd;
	const char  *arg;          /* after the keyword, blanks trimmed; points into the line */
	size_t       arg_len;      /* 0 when there is none */
};

/* Longest hh:mm:ss a client may ask for (99:59:59), and deepest bestmove depth. */
#define UHP_MAX_TIME_MS  (100ull * 3600 * 1000 - 1000)
#define UHP_MAX_DEPTH    1000

enum uhp_bestmove_kind { UHP_BEST_TIME, UHP_BEST_DEPTH };

struct uhp_bestmove {
	enum uhp_bestmove_kind kind;
	uint64_t time_ms;          /* UHP_BEST_TIME */
	int      depth;            /* UHP_BEST_DEPTH */
};

enum uhp_options_kind { UHP_OPTIONS_LIST, UHP_OPTIONS_GET, UHP_OPTIONS_SET };

struct uhp_options_req {
	enum uhp_options_kind kind;
	const char *name;          /* GET/SET; points into the line */
	size_t      name_len;
	const char *value;         /* SET: the rest of the line, trimmed */
	size_t      value_len;
};

/* Engine output line kinds (what the external back end reads). */
enum uhp_reply {
	UHP_REPLY_OK,              /* "ok" */
	UHP_REPLY_ERR,             /* "err ...": rest = message */
	UHP_REPLY_INVALIDMOVE,     /* "invalidmove ...": rest = message */
	UHP_REPLY_ID,              /* "id ...": rest = the engine's name */
	UHP_REPLY_LINE             /* anything else: a result line; rest = whole line */
};

/* UHP's option lines (the answers to "options") are the engine interface's own
 * format, bridge/engine_options.h; these are its names on UHP's side. */
#define uhp_option          engine_option
#define uhp_opt_type        engine_opt_type
#define UHP_OPT_BOOL        ENGINE_OPT_BOOL
#define UHP_OPT_INT         ENGINE_OPT_INT
#define UHP_OPT_DOUBLE      ENGINE_OPT_DOUBLE
#define UHP_OPT_ENUM        ENGINE_OPT_ENUM
#define UHP_OPT_NAME_MAX    ENGINE_OPT_NAME_MAX
#define UHP_OPT_VALUE_MAX   ENGINE_OPT_VALUE_MAX
#define UHP_OPT_MAX_VALUES  ENGINE_OPT_MAX_VALUES
#define uhp_option_parse    engine_option_parse
#define uhp_option_format   engine_option_format
#define uhp_opt_type_name   engine_opt_type_name
#define uhp_opt_type_parse  engine_opt_type_parse

/* Splits a client line into a command and its argument; never fails (junk is
 * UHP_CMD_UNKNOWN). Keywords are matched case-insensitively; "?" is help. */
void uhp_command_parse(const char *line, size_t len, struct uhp_command *c);
/* Keyword of a command ("play"), or NULL for BLANK/UNKNOWN. Static storage. */
const char *uhp_command_name(enum uhp_cmd cmd);

/* "time hh:mm:ss" or "depth N" (the argument of bestmove); -1 on anything else,
 * including out-of-range fields and numbers over the limits above. */
int uhp_bestmove_parse(const char *arg, size_t len, struct uhp_bestmove *b);
/* "time hh:mm:ss" / "depth N" for a limit (rounded up to whole seconds); returns
 * the length it needs, like snprintf. */
size_t uhp_bestmove_format(const struct uhp_bestmove *b, char *buf, size_t len);

/* Argument of undo: empty = 1, else decimal digits only; -1 on junk or overflow.
 * 0 parses (the session then refuses it with Mzinga's message). */
int uhp_undo_parse(const char *arg, size_t len, uint64_t *n);

/* Argument of perft: decimal digits, at most max; -1 otherwise. */
int uhp_perft_parse(const char *arg, size_t len, int max, int *depth);

/* "", "get NAME" or "set NAME VALUE"; -1 on anything else. */
int uhp_options_parse(const char *arg, size_t len, struct uhp_options_req *o);

/* Classifies one engine output line; rest and rest_len get the part after the keyword
 * (or the whole line for UHP_REPLY_LINE). Trailing blanks and '\r' are ignored. */
enum uhp_reply uhp_reply_parse(const char *line, size_t len, const char **rest, size_t *rest_len);

/* Capability line ("Mosquito;Ladybug;Pillbug", any case, any order) to expansion
 * bits (HIVE_EXP_*); unknown flags are ignored. -1 if the line has no flag at all
 * and is not empty (it is then not a capability line). */
int uhp_caps_parse(const char *line, size_t len, unsigned *exp);

#endif
