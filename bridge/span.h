/*
 * span.h: a view of part of a line, (pointer, length), and the ways the line
 * protocols cut one (UHP commands, engine option lines, OTEP tokens); the writer
 * the Hub and OTEP codecs build their lines with. Pure; never reads past the
 * length, so the codecs' fuzz targets may feed it any bytes.
 */
#ifndef BRIDGE_SPAN_H
#define BRIDGE_SPAN_H

#include <stddef.h>
#include <stdint.h>

struct span {
	const char *p;
	size_t      n;
};

/* The blanks between tokens: space, tab, CR, VT, FF (not LF: it ends a line). */
int span_blank(char c);
/* s without blanks at either end. */
struct span span_trim(struct span s);
/* Takes the next blank-separated token off *s; an empty token means none is left. */
struct span span_token(struct span *s);
/* Takes the next field up to sep (or the end) off *s; *more says whether a separator
 * followed it. */
struct span span_field(struct span *s, char sep, int *more);
/* Case-insensitive comparison with a lower-case NUL-terminated word. */
int span_is(struct span s, const char *word);
/* Decimal digits only (at least one) with a value of at most max: 0, or -1. */
int span_uint(struct span s, uint64_t max, uint64_t *v);

/* The other way: a line written into a caller's buffer of cap bytes, kept
 * NUL-terminated; the first failure sticks in error (a static reason) and later
 * writes add nothing. */
struct span_writer {
	char       *buf;
	size_t      cap;
	size_t      len;
	const char *error;
};
/* n bytes of s; "the line does not fit the buffer" without room for them and the NUL. */
void span_put(struct span_writer *w, const char *s, size_t n);

#endif
