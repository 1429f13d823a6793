/*
 * uhp_out.h: writing UHP answers to a front end's client (struct session_io), shared
 * by every UHP front (uhp_front.c, uhp_remote.c, uhp_player.c, uhp_spectate.c).
 */
#ifndef ADAPTERS_UHP_OUT_H
#define ADAPTERS_UHP_OUT_H

#include <stddef.h>

struct session_io;

#define UHP_ERR_INVALID "err Invalid command. Try 'help' to see a list of valid commands."

/* One line to the client and the trace log; an answer is sent at once at its "ok". */
void   uhp_out_line(struct session_io *io, const char *line, size_t len);
void   uhp_out_str(struct session_io *io, const char *line);
void   uhp_out_printf(struct session_io *io, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The start of a UHP front's line hook: traces the client's line, and answers a
 * line with a NUL byte in it (invalid command, ok) here. 1: run the line, 0: done. */
int    uhp_out_take_line(struct session_io *io, const char *line, size_t len);
/* n lines, one after the other (a help text). */
void   uhp_out_lines(struct session_io *io, const char *const *lines, size_t n);
/* The too_long hook of struct session_io_ops for a session whose first member is its
 * struct session_io: "err Line too long (max N bytes)." and "ok". */
void   uhp_out_too_long(void *session);
/* "err WHY" and "ok": the answer to a client refused before any session (the
 * refusal of struct front); 0 when buf is too small. */
size_t uhp_out_refusal(char *buf, size_t len, const char *why);

#endif
