/*
 * uhp_out.c: writing UHP answers to a front end's client (see uhp_out.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "adapters/uhp/uhp_out.h"
#include "bridge/log.h"
#include "bridge/session_io.h"

void uhp_out_line(struct session_io *io, const char *line, size_t len)
{
	session_io_write_line(io, line, len);
	/* An answer is complete at its "ok": send it now, not a loop iteration later. */
	if (len == 2 && line[0] == 'o' && line[1] == 'k')
		session_io_flush(io);
}

void uhp_out_str(struct session_io *io, const char *line)
{
	uhp_out_line(io, line, strlen(line));
}

void uhp_out_printf(struct session_io *io, const char *fmt, ...)
{
	char buf[512], *big = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof buf) {
		va_start(ap, fmt);
		n = vasprintf(&big, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
	}
	uhp_out_line(io, big ? big : buf, (size_t)n);
	free(big);
}

/* Whether line's first word is the first word of usage, in any case. */
static int own_word(const char *line, const char *usage)
{
	size_t n = strcspn(usage, " \n");

	line += strspn(line, " \t");
	return !strncasecmp(line, usage, n) && (!line[n] || line[n] == ' ' || line[n] == '\t');
}

static void out_help(struct session_io *io, const char *title, const struct uhp_cmd_entry *t,
		     size_t n)
{
	uhp_out_str(io, title);
	for (size_t i = 0; i < n; i++) {
		for (const char *u = t[i].usage; u && *u; ) {
			size_t k = strcspn(u, "\n");
			uhp_out_line(io, u, k);
			u += k + (u[k] == '\n');
		}
	}
}

void uhp_out_command(struct session_io *io, void *session, const char *title,
		     const struct uhp_cmd_entry *table, size_t n, char *line, size_t len)
{
	const struct uhp_cmd_entry *e = NULL;
	struct uhp_command c;

	log_proto(io->id, LOG_CLIENT_IN, line, len);
	if (memchr(line, 0, len)) {
		uhp_out_str(io, UHP_ERR_INVALID);
		uhp_out_str(io, "ok");
		return;
	}
	uhp_command_parse(line, len, &c);
	if (c.cmd == UHP_CMD_BLANK)
		return;
	for (size_t i = 0; i < n && !e; i++)
		if (table[i].cmd == UHP_CMD_UNKNOWN ? c.cmd == UHP_CMD_UNKNOWN && table[i].usage &&
						      own_word(line, table[i].usage)
						    : table[i].cmd == c.cmd)
			e = &table[i];
	/* The argument is trimmed, so its end lies inside the line: terminate it there. */
	char *arg = (char *)c.arg;
	arg[c.arg_len] = 0;
	if (!e) {
		uhp_out_str(io, UHP_ERR_INVALID);
	} else if (e->cmd == UHP_CMD_EXIT) {
		session_io_finish(io, 1);
		return;
	} else if (e->cmd == UHP_CMD_HELP) {
		out_help(io, title, table, n);
	} else if (e->run(session, arg, c.arg_len)) {
		return;
	}
	uhp_out_str(io, "ok");
}

void uhp_out_too_long(void *session)
{
	struct session_io *io = session;     /* its first member */

	uhp_out_printf(io, "err Line too long (max %zu bytes).", io->lim.max_line);
	uhp_out_str(io, "ok");
}

size_t uhp_out_refusal(char *buf, size_t len, const char *why)
{
	int n = snprintf(buf, len, "err %s\nok\n", why);
	return n > 0 && (size_t)n < len ? (size_t)n : 0;
}
