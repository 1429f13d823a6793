/*
 * span.c: cutting lines (see span.h).
 */
#include <string.h>

#include "bridge/span.h"

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int span_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

struct span span_trim(struct span s)
{
	while (s.n && span_blank(s.p[0])) {
		s.p++;
		s.n--;
	}
	while (s.n && span_blank(s.p[s.n - 1]))
		s.n--;
	return s;
}

struct span span_token(struct span *s)
{
	*s = span_trim(*s);
	struct span t = { s->p, 0 };
	while (t.n < s->n && !span_blank(s->p[t.n]))
		t.n++;
	s->p += t.n;
	s->n -= t.n;
	*s = span_trim(*s);
	return t;
}

struct span span_field(struct span *s, char sep, int *more)
{
	struct span f = { s->p, 0 };
	while (f.n < s->n && s->p[f.n] != sep)
		f.n++;
	*more = f.n < s->n;
	s->p += f.n + (size_t)*more;
	s->n -= f.n + (size_t)*more;
	return f;
}

int span_is(struct span s, const char *word)
{
	size_t n = strlen(word);
	if (s.n != n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (lower(s.p[i]) != word[i])
			return 0;
	return 1;
}

int span_uint(struct span s, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;
	if (s.n == 0)
		return -1;
	for (size_t i = 0; i < s.n; i++) {
		if (!is_digit(s.p[i]))
			return -1;
		unsigned d = (unsigned)(s.p[i] - '0');
		if (d > max || x > (max - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

void span_put(struct span_writer *w, const char *s, size_t n)
{
	if (w->error != NULL)
		return;
	if (w->cap == 0 || n >= w->cap - w->len) {
		w->error = "the line does not fit the buffer";
		return;
	}
	memcpy(w->buf + w->len, s, n);
	w->len += n;
	w->buf[w->len] = '\0';
}
