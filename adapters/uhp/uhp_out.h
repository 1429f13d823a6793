/*
 * uhp_out.h: writing UHP answers to a front end's client (struct session_io), shared
 * by every UHP front (uhp_front.c, uhp_remote.c, uhp_player.c, uhp_spectate.c), and
 * the command loop of the sessions that answer UHP commands (uhp_front.c,
 * uhp_remote.c).
 */
#ifndef ADAPTERS_UHP_OUT_H
#define ADAPTERS_UHP_OUT_H

#include <stddef.h>
#include "adapters/uhp/uhp_codec.h"

struct session_io;

#define UHP_ERR_INVALID "err Invalid command. Try 'help' to see a list of valid commands."

/* One line to the client and the trace log; an answer is sent at once at its "ok". */
void   uhp_out_line(struct session_io *io, const char *line, size_t len);
void   uhp_out_str(struct session_io *io, const char *line);
void   uhp_out_printf(struct session_io *io, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* One command of a session's table (tmux's cmd_entry): the table drives both the
 * dispatch and help's answer, in its order. */
struct uhp_cmd_entry {
	/* A UHP command, or UHP_CMD_UNKNOWN for a word of this server's own: the first
	 * word of usage ("resign"), matched without regard to case. */
	enum uhp_cmd cmd;
	/* Its lines in help's answer ('\n' between two), NULL: not listed. */
	const char  *usage;
	/* Answers it: session is the session, arg what follows the word (blanks trimmed,
	 * NUL-terminated). 0: the caller ends the answer with "ok"; 1: the answer ends
	 * later (the session's ready hook holds the input meanwhile). NULL for help (the
	 * table's usages) and exit (the session ends, with no "ok", like Mzinga). */
	int        (*run)(void *session, const char *arg, size_t arg_len);
};

/* A UHP session's line hook: traces the client's line and runs it through the n
 * entries of table, help's answer headed by title ("Available commands:"). A line
 * with a NUL byte or a command not in the table is an invalid command; a blank line
 * is ignored. */
void   uhp_out_command(struct session_io *io, void *session, const char *title,
		       const struct uhp_cmd_entry *table, size_t n, char *line, size_t len);
/* The too_long hook of struct session_io_ops for a session whose first member is its
 * struct session_io: "err Line too long (max N bytes)." and "ok". */
void   uhp_out_too_long(void *session);
/* "err WHY" and "ok": the answer to a client refused before any session (the
 * refusal of struct front); 0 when buf is too small. */
size_t uhp_out_refusal(char *buf, size_t len, const char *why);

#endif
