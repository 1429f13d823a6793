/*
 * uhp_out.c: writing UHP answers to a front end's client (see uhp_out.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int uhp_out_take_line(struct session_io *io, const char *line, size_t len)
{
	log_proto(io->id, LOG_CLIENT_IN, line, len);
	if (memchr(line, 0, len)) {
		uhp_out_str(io, UHP_ERR_INVALID);
		uhp_out_str(io, "ok");
		return 0;
	}
	return 1;
}

void uhp_out_lines(struct session_io *io, const char *const *lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		uhp_out_str(io, lines[i]);
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
