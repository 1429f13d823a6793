/*
 * hub_codec.c: tokenizer and writer of Hub lines, and the typed Hive helpers.
 *
 * A line is bytes, not text: anything above 0x20 except '=' and '"' may appear in a
 * bare token (UTF-8 passes through untouched); quoted values may also hold spaces,
 * tabs and other control bytes, but never NUL, CR or LF, so every line the writer
 * makes is one line on the wire and reads back as the same message.
 */
#include "adapters/hub/hub_codec.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/errbuf.h"

/* Separators outside quotes. LF never gets here (rejected up front). */
static int is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* A byte of a bare (unquoted) command, name or value. */
static int is_bare(unsigned char c)
{
	return c > 0x20 && c != '=' && c != '"';
}

/* Explains why the byte at p cannot continue or start a token. */
static int fail_byte(const char *line, size_t p, const char *what, char *err, size_t errlen)
{
	unsigned char c = (unsigned char)line[p];
	if (c == '"')
		return errbuf_set(err, errlen, "unexpected '\"' at column %zu %s "
				  "(quotes must enclose a whole value)", p + 1, what);
	if (c == '=')
		return errbuf_set(err, errlen, "unexpected '=' at column %zu %s "
				  "(quote values that contain '=')", p + 1, what);
	return errbuf_set(err, errlen, "control byte 0x%02x at column %zu %s "
			  "(only quoted values may hold control bytes)",
			  (unsigned)c, p + 1, what);
}

/*
 * Tokenizes into out->buf. Each token is copied (unescaped) to the output cursor and
 * NUL-terminated; a token never grows when unescaped and is always followed by a
 * separator byte or the end, so len + 1 bytes always suffice.
 */
static int parse_tokens(const char *line, size_t len, struct hub_msg *out, char *err,
			size_t errlen)
{
	char  *o = out->buf;
	size_t p = 0;

	while (p < len && is_space((unsigned char)line[p]))
		p++;
	if (p == len)
		return 0;   /* blank line: cmd stays "" */
	if (!is_bare((unsigned char)line[p]))
		return fail_byte(line, p, "where a command was expected", err, errlen);
	out->cmd = o;
	while (p < len && is_bare((unsigned char)line[p]))
		*o++ = line[p++];
	*o++ = '\0';
	if (p < len && !is_space((unsigned char)line[p]))
		return fail_byte(line, p, "after the command", err, errlen);

	for (;;) {
		while (p < len && is_space((unsigned char)line[p]))
			p++;
		if (p == len)
			return 0;
		if (line[p] == '=')
			return errbuf_set(err, errlen, "missing argument name before '=' at column %zu",
					  p + 1);
		if (line[p] == '"')
			return errbuf_set(err, errlen, "argument names cannot be quoted (column %zu)",
					  p + 1);
		if (!is_bare((unsigned char)line[p]))
			return fail_byte(line, p, "where an argument was expected", err, errlen);
		if (out->nargs == HUB_MAX_ARGS)
			return errbuf_set(err, errlen, "too many arguments (limit %d)", HUB_MAX_ARGS);
		struct hub_arg *a = &out->args[out->nargs++];
		a->name = o;
		while (p < len && is_bare((unsigned char)line[p]))
			*o++ = line[p++];
		*o++ = '\0';
		a->value = "";
		a->has_value = 0;
		if (p == len)
			return 0;
		if (is_space((unsigned char)line[p]))
			continue;   /* a flag */
		if (line[p] != '=')
			return fail_byte(line, p, "after an argument name", err, errlen);
		p++;
		a->has_value = 1;
		a->value = o;
		if (p == len || is_space((unsigned char)line[p]))
			return errbuf_set(err, errlen, "missing value after '=' at column %zu "
					  "(write %.32s=\"\" for an empty value)", p, a->name);
		if (line[p] == '"') {
			size_t open = p++;
			for (;;) {
				if (p == len)
					return errbuf_set(err, errlen, "unbalanced quote: the value of "
							  "'%.32s' opened at column %zu is not closed",
							  a->name, open + 1);
				char c = line[p];
				if (c == '"' && p + 1 < len && line[p + 1] == '"') {
					*o++ = '"';   /* a doubled quote stands for one */
					p += 2;
				} else if (c == '"') {
					p++;
					break;
				} else if (c == '\r') {
					return errbuf_set(err, errlen, "line break (CR) inside quotes at "
							  "column %zu", p + 1);
				} else {
					*o++ = c;
					p++;
				}
			}
			*o++ = '\0';
			if (p < len && !is_space((unsigned char)line[p]))
				return errbuf_set(err, errlen, "missing space after the closing quote "
						  "at column %zu", p + 1);
		} else {
			if (!is_bare((unsigned char)line[p]))
				return fail_byte(line, p, "at the start of a value", err, errlen);
			while (p < len && is_bare((unsigned char)line[p]))
				*o++ = line[p++];
			*o++ = '\0';
			if (p < len && !is_space((unsigned char)line[p]))
				return fail_byte(line, p, "inside an unquoted value", err, errlen);
		}
	}
}

int hub_line_parse_max(const char *line, size_t len, size_t max_len, struct hub_msg *out,
		       char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	out->cmd = "";
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	if (len > max_len)
		return errbuf_set(err, errlen, "line too long: %zu bytes (limit %zu)", len, max_len);
	for (size_t i = 0; i < len; i++) {
		if (line[i] == '\0')
			return errbuf_set(err, errlen, "NUL byte at column %zu", i + 1);
		if (line[i] == '\n')
			return errbuf_set(err, errlen, "line break (LF) at column %zu", i + 1);
	}
	out->buf = malloc(len + 1);
	if (out->buf == NULL)
		return errbuf_set(err, errlen, "out of memory for a %zu-byte line", len);
	if (parse_tokens(line, len, out, err, errlen) == -1) {
		hub_msg_free(out);
		return -1;
	}
	return 0;
}

int hub_line_parse(const char *line, size_t len, struct hub_msg *out, char *err, size_t errlen)
{
	return hub_line_parse_max(line, len, HUB_LINE_MAX, out, err, errlen);
}

void hub_msg_free(struct hub_msg *m)
{
	free(m->buf);
	m->buf = NULL;
	m->cmd = "";
	m->nargs = 0;
}

const struct hub_arg *hub_msg_arg(const struct hub_msg *m, const char *name)
{
	for (size_t i = 0; i < m->nargs; i++)
		if (strcmp(m->args[i].name, name) == 0)
			return &m->args[i];
	return NULL;
}

const char *hub_msg_get(const struct hub_msg *m, const char *name)
{
	const struct hub_arg *a = hub_msg_arg(m, name);
	return a != NULL ? a->value : NULL;
}

int hub_msg_has(const struct hub_msg *m, const char *name)
{
	return hub_msg_arg(m, name) != NULL;
}

/* ---- writer ---- */

static void put_name(struct span_writer *w, const char *name)
{
	if (w->error != NULL)
		return;
	if (name == NULL || name[0] == '\0') {
		w->error = "empty command or argument name";
		return;
	}
	for (const char *s = name; *s != '\0'; s++) {
		if (!is_bare((unsigned char)*s)) {
			w->error = "command or argument name with a space, control byte, '=' or '\"'";
			return;
		}
	}
	span_put(w, name, strlen(name));
}

/* 1 if the value has to be quoted, -1 if it cannot be written at all. */
static int value_needs_quotes(const char *v, size_t n)
{
	int quote = n == 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)v[i];
		if (c == '\r' || c == '\n')
			return -1;
		if (!is_bare(c))
			quote = 1;
	}
	return quote;
}

/* Appends v (n bytes) inside quotes, doubling each '"'. */
static void put_escaped(struct span_writer *w, const char *v, size_t n)
{
	size_t run = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i] == '"') {
			span_put(w, v + run, i - run);
			span_put(w, "\"", 1);
			run = i;   /* the quote itself starts the next run */
		}
	}
	span_put(w, v + run, n - run);
}

void hub_writer_begin(struct span_writer *w, char *buf, size_t cap, const char *cmd)
{
	w->buf = buf;
	w->cap = cap;
	w->len = 0;
	w->error = NULL;
	if (cap == 0) {
		w->error = "the line does not fit the buffer";
		return;
	}
	buf[0] = '\0';
	put_name(w, cmd);
}

void hub_writer_add_flag(struct span_writer *w, const char *name)
{
	span_put(w, " ", 1);
	put_name(w, name);
}

void hub_writer_add(struct span_writer *w, const char *name, const char *value)
{
	if (value == NULL) {
		hub_writer_add_flag(w, name);
		return;
	}
	size_t n = strlen(value);
	int quote = value_needs_quotes(value, n);
	if (quote < 0 && w->error == NULL)
		w->error = "a value cannot contain CR or LF";
	span_put(w, " ", 1);
	put_name(w, name);
	span_put(w, "=", 1);
	if (quote) {
		span_put(w, "\"", 1);
		put_escaped(w, value, n);
		span_put(w, "\"", 1);
	} else {
		span_put(w, value, n);
	}
}

void hub_writer_addf(struct span_writer *w, const char *name, const char *fmt, ...)
{
	char    tmp[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof tmp) {
		if (w->error == NULL)
			w->error = "formatted value longer than 255 bytes";
		return;
	}
	hub_writer_add(w, name, tmp);
}

void hub_writer_add_list(struct span_writer *w, const char *name, const char *const *items,
			 size_t n)
{
	int quote = n == 0;
	for (size_t i = 0; i < n && w->error == NULL; i++) {
		size_t k = strlen(items[i]);
		int q = value_needs_quotes(items[i], k);
		if (q < 0)
			w->error = "a list item cannot contain CR or LF";
		else if (k == 0)
			w->error = "empty list item";
		else if (memchr(items[i], ';', k) != NULL)
			w->error = "a list item cannot contain ';'";
		else if (items[i][0] == ' ' || items[i][k - 1] == ' ' ||
			 items[i][0] == '\t' || items[i][k - 1] == '\t')
			w->error = "a list item cannot start or end with a space";
		quote |= q;
	}
	span_put(w, " ", 1);
	put_name(w, name);
	span_put(w, "=", 1);
	if (quote)
		span_put(w, "\"", 1);
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			span_put(w, ";", 1);
		if (quote)
			put_escaped(w, items[i], strlen(items[i]));
		else
			span_put(w, items[i], strlen(items[i]));
	}
	if (quote)
		span_put(w, "\"", 1);
}

int hub_writer_end(struct span_writer *w)
{
	if (w->error != NULL) {
		if (w->cap > 0)
			w->buf[0] = '\0';
		return -1;
	}
	if (w->len > INT_MAX) {
		w->error = "line longer than INT_MAX";
		return -1;
	}
	return (int)w->len;
}

/* Ends w and passes its reason on. */
static int writer_finish(struct span_writer *w, char *err, size_t errlen)
{
	int n = hub_writer_end(w);
	if (n < 0)
		errbuf_set(err, errlen, "%s", w->error);
	return n;
}

int hub_msg_write(const struct hub_msg *m, char *buf, size_t len, char *err, size_t errlen)
{
	struct span_writer w;
	if (m->cmd[0] == '\0' && m->nargs == 0) {
		/* a blank line */
		if (len == 0)
			return errbuf_set(err, errlen, "the line does not fit the buffer");
		buf[0] = '\0';
		return 0;
	}
	hub_writer_begin(&w, buf, len, m->cmd);
	for (size_t i = 0; i < m->nargs; i++)
		hub_writer_add(&w, m->args[i].name, m->args[i].has_value ? m->args[i].value : NULL);
	return writer_finish(&w, err, errlen);
}

/* Length of the complete UTF-8 prefix of s[0..n): drops a cut multi-byte sequence. */
static size_t utf8_whole(const char *s, size_t n)
{
	size_t i = n, back = 0;
	while (i > 0 && back < 4 && ((unsigned char)s[i - 1] & 0xC0) == 0x80) {
		i--;
		back++;
	}
	if (i == 0)
		return n;
	unsigned char lead = (unsigned char)s[i - 1];
	size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
	if (need > 1 && back + 1 < need)
		return i - 1;
	return n;
}

int hub_error_write(char *buf, size_t len, const char *message)
{
	static const char head[] = "error message=\"";
	if (message == NULL)
		message = "";
	size_t o = sizeof head - 1;
	if (len < o + 2)   /* closing quote and NUL */
		return -1;
	memcpy(buf, head, o);
	size_t limit = len - 2, i;
	for (i = 0; message[i] != '\0'; i++) {
		char c = message[i];
		if (c == '\r' || c == '\n')
			c = ' ';
		size_t k = c == '"' ? 2 : 1;
		if (o + k > limit)
			break;
		if (k == 2)
			buf[o++] = '"';
		buf[o++] = c;
	}
	if (message[i] != '\0') {
		/* truncated: do not end in half a UTF-8 character */
		size_t start = sizeof head - 1;
		o = start + utf8_whole(buf + start, o - start);
	}
	buf[o++] = '"';
	buf[o] = '\0';
	return o > INT_MAX ? -1 : (int)o;
}

int hub_list_next(const char **cursor, const char **item, size_t *len)
{
	const char *p = *cursor;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0') {
			*cursor = p;
			return 0;
		}
		const char *start = p;
		while (*p != '\0' && *p != ';')
			p++;
		const char *end = p;
		while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		if (*p == ';')
			p++;
		if (end > start) {
			*item = start;
			*len = (size_t)(end - start);
			*cursor = p;
			return 1;
		}
	}
}

/* ---- numbers ---- */

int hub_decimal_parse(const char *s, int decimals, int64_t *out)
{
	const uint64_t limit = (uint64_t)INT64_MAX;
	uint64_t acc = 0;
	int neg = 0, digits = 0, frac = 0, round_up = 0;

	if (decimals < 0 || decimals > 9)
		return -1;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		if (acc > (limit - 9) / 10)
			return -1;
		acc = acc * 10 + (uint64_t)(*s - '0');
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++, digits++) {
			if (frac < decimals) {
				if (acc > (limit - 9) / 10)
					return -1;
				acc = acc * 10 + (uint64_t)(*s - '0');
				frac++;
			} else if (frac == decimals) {
				round_up = *s >= '5';
				frac++;   /* later digits do not matter */
			}
		}
	}
	if (digits == 0 || *s != '\0')
		return -1;
	for (; frac < decimals; frac++) {
		if (acc > limit / 10)
			return -1;
		acc *= 10;
	}
	if (round_up) {
		if (acc == limit)
			return -1;
		acc++;
	}
	*out = neg ? -(int64_t)acc : (int64_t)acc;
	return 0;
}

int hub_decimal_format(char *buf, size_t len, int64_t v, int decimals)
{
	uint64_t mag = v < 0 ? (uint64_t)(-(v + 1)) + 1 : (uint64_t)v;
	uint64_t scale = 1;
	for (int i = 0; i < decimals; i++)
		scale *= 10;
	uint64_t ip = mag / scale, fp = mag % scale;
	if (fp == 0)
		return snprintf(buf, len, "%s%" PRIu64, v < 0 ? "-" : "", ip);
	int width = decimals;
	while (fp % 10 == 0) {
		fp /= 10;
		width--;
	}
	return snprintf(buf, len, "%s%" PRIu64 ".%0*" PRIu64, v < 0 ? "-" : "", ip, width, fp);
}

/* Strict unsigned decimal integer in [min, max]. */
static int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t acc = 0;
	if (*s == '\0')
		return -1;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		unsigned d = (unsigned)(*s - '0');
		if (acc > (UINT64_MAX - d) / 10)
			return -1;
		acc = acc * 10 + d;
	}
	if (acc < min || acc > max)
		return -1;
	*out = acc;
	return 0;
}

/* The value of a numeric argument; a flag or empty value is an error. */
static const char *need_value(const struct hub_arg *a, char *err, size_t errlen)
{
	if (!a->has_value || a->value[0] == '\0') {
		errbuf_set(err, errlen, "'%.32s' needs a value", a->name);
		return NULL;
	}
	return a->value;
}

static int arg_uint(const struct hub_msg *m, const char *name, uint64_t min, uint64_t max,
		    uint64_t *out, int *seen, char *err, size_t errlen)
{
	const struct hub_arg *a = hub_msg_arg(m, name);
	if (a == NULL)
		return 0;
	const char *v = need_value(a, err, errlen);
	if (v == NULL)
		return -1;
	if (parse_uint(v, min, max, out) == -1)
		return errbuf_set(err, errlen, "bad %s '%.32s': expected an integer from %" PRIu64
				  " to %" PRIu64, name, v, min, max);
	*seen = 1;
	return 0;
}

/* Seconds as a decimal into milliseconds; negative values clamp to 0 if allowed. */
static int arg_seconds(const struct hub_msg *m, const char *name, int negative_ok,
		       uint64_t *out_ms, int *seen, char *err, size_t errlen)
{
	const struct hub_arg *a = hub_msg_arg(m, name);
	int64_t ms;
	if (a == NULL)
		return 0;
	const char *v = need_value(a, err, errlen);
	if (v == NULL)
		return -1;
	if (hub_decimal_parse(v, 3, &ms) == -1)
		return errbuf_set(err, errlen, "bad %s '%.32s': expected seconds such as 1.5", name, v);
	if (ms < 0 && !negative_ok)
		return errbuf_set(err, errlen, "bad %s '%.32s': must not be negative", name, v);
	*out_ms = ms < 0 ? 0 : (uint64_t)ms;
	*seen = 1;
	return 0;
}

int hub_level_parse(const struct hub_msg *m, struct hub_level *lv, char *err, size_t errlen)
{
	int seen_depth = 0, seen_nodes = 0, seen_inc = 0, seen_moves = 0;
	uint64_t depth = 0, moves = 0;

	memset(lv, 0, sizeof *lv);
	if (arg_uint(m, "depth", 1, INT_MAX, &depth, &seen_depth, err, errlen) == -1 ||
	    arg_uint(m, "nodes", 1, UINT64_MAX, &lv->nodes, &seen_nodes, err, errlen) == -1 ||
	    arg_seconds(m, "move-time", 0, &lv->move_time_ms, &lv->has_move_time, err, errlen) == -1 ||
	    arg_seconds(m, "time", 1, &lv->time_ms, &lv->has_time, err, errlen) == -1 ||
	    arg_seconds(m, "inc", 0, &lv->inc_ms, &seen_inc, err, errlen) == -1 ||
	    arg_uint(m, "moves", 1, INT_MAX, &moves, &seen_moves, err, errlen) == -1) {
		memset(lv, 0, sizeof *lv);
		return -1;
	}
	lv->depth = (int)depth;
	lv->moves = (int)moves;
	lv->infinite = hub_msg_has(m, "infinite");
	int limits = seen_depth + seen_nodes + lv->has_move_time + lv->has_time;
	int rc = 0;
	if (lv->infinite && (limits > 0 || seen_inc || seen_moves))
		rc = errbuf_set(err, errlen, "level infinite cannot be combined with other limits");
	else if ((seen_inc || seen_moves) && !lv->has_time)
		rc = errbuf_set(err, errlen, "level %s needs time=", seen_moves ? "moves=" : "inc=");
	else if (limits == 0 && !lv->infinite)
		rc = errbuf_set(err, errlen, "level needs depth, nodes, move-time, time or infinite");
	if (rc == -1)
		memset(lv, 0, sizeof *lv);
	return rc;
}

/* Adds name=seconds from milliseconds. */
static void add_seconds(struct span_writer *w, const char *name, uint64_t ms)
{
	char tmp[32];
	hub_decimal_format(tmp, sizeof tmp, ms > INT64_MAX ? INT64_MAX : (int64_t)ms, 3);
	hub_writer_add(w, name, tmp);
}

int hub_level_write(char *buf, size_t len, const struct hub_level *lv, char *err, size_t errlen)
{
	struct span_writer w;
	int limits = (lv->depth > 0) + (lv->nodes > 0) + (lv->has_move_time != 0) +
		     (lv->has_time != 0);

	hub_writer_begin(&w, buf, len, "level");
	if (lv->depth < 0 || lv->moves < 0)
		w.error = "negative depth or moves";
	else if (lv->infinite && (limits > 0 || lv->moves > 0 || lv->inc_ms > 0))
		w.error = "level infinite cannot be combined with other limits";
	else if ((lv->moves > 0 || lv->inc_ms > 0) && !lv->has_time)
		w.error = "level moves= or inc= needs time=";
	else if (limits == 0 && !lv->infinite)
		w.error = "level needs depth, nodes, move-time, time or infinite";
	if (lv->depth > 0)
		hub_writer_addf(&w, "depth", "%d", lv->depth);
	if (lv->nodes > 0)
		hub_writer_addf(&w, "nodes", "%" PRIu64, lv->nodes);
	if (lv->has_move_time)
		add_seconds(&w, "move-time", lv->move_time_ms);
	if (lv->moves > 0)
		hub_writer_addf(&w, "moves", "%d", lv->moves);
	if (lv->has_time)
		add_seconds(&w, "time", lv->time_ms);
	if (lv->inc_ms > 0)
		add_seconds(&w, "inc", lv->inc_ms);
	if (lv->infinite)
		hub_writer_add_flag(&w, "infinite");
	return writer_finish(&w, err, errlen);
}

static const char *const go_names[] = {
	[HUB_GO_THINK] = "think", [HUB_GO_PONDER] = "ponder", [HUB_GO_ANALYZE] = "analyze",
};

int hub_go_parse(const struct hub_msg *m, enum hub_go_mode *mode, char *err, size_t errlen)
{
	int found = 0;
	for (int i = 0; i < 3; i++) {
		if (hub_msg_has(m, go_names[i])) {
			*mode = (enum hub_go_mode)i;
			found++;
		}
	}
	if (found == 0)
		return errbuf_set(err, errlen, "go needs think, ponder or analyze");
	if (found > 1)
		return errbuf_set(err, errlen, "go takes only one of think, ponder and analyze");
	return 0;
}

const char *hub_go_name(enum hub_go_mode mode)
{
	return (unsigned)mode < 3 ? go_names[mode] : NULL;
}

int hub_info_write(char *buf, size_t len, const struct hub_info *in, char *err, size_t errlen)
{
	struct span_writer w;
	char tmp[32];

	hub_writer_begin(&w, buf, len, "info");
	if (in->depth > 0)
		hub_writer_addf(&w, "depth", "%d", in->depth);
	if (in->has_score) {
		hub_decimal_format(tmp, sizeof tmp, in->score_cp, 2);
		hub_writer_add(&w, "score", tmp);
	}
	if (in->nodes > 0)
		hub_writer_addf(&w, "nodes", "%" PRIu64, in->nodes);
	if (in->has_time) {
		add_seconds(&w, "time", in->time_ms);
		if (in->nodes > 0 && in->time_ms > 0) {
			/* nodes per millisecond = thousands per second; Hub wants millions */
			uint64_t knps = in->nodes / in->time_ms;
			hub_decimal_format(tmp, sizeof tmp, knps > INT64_MAX ? INT64_MAX : (int64_t)knps, 3);
			hub_writer_add(&w, "nps", tmp);
		}
	}
	if (in->pvlen > 0)
		hub_writer_add_list(&w, "pv", in->pv, in->pvlen);
	return writer_finish(&w, err, errlen);
}

int hub_info_parse(const struct hub_msg *m, struct hub_info *in, const char **pv,
		   char *err, size_t errlen)
{
	uint64_t depth = 0;
	int seen = 0;
	const char *v;
	int64_t cp;

	memset(in, 0, sizeof *in);
	*pv = hub_msg_get(m, "pv");
	if (arg_uint(m, "depth", 0, INT_MAX, &depth, &seen, err, errlen) == -1 ||
	    arg_uint(m, "nodes", 0, UINT64_MAX, &in->nodes, &seen, err, errlen) == -1 ||
	    arg_seconds(m, "time", 0, &in->time_ms, &in->has_time, err, errlen) == -1)
		goto bad;
	in->depth = (int)depth;
	if ((v = hub_msg_get(m, "score")) != NULL) {
		if (hub_decimal_parse(v, 2, &cp) == -1 || cp < -INT_MAX || cp > INT_MAX) {
			errbuf_set(err, errlen, "bad score '%.32s': expected pawns such as -0.35", v);
			goto bad;
		}
		in->score_cp = (int)cp;
		in->has_score = 1;
	}
	return 0;
bad:
	memset(in, 0, sizeof *in);
	*pv = NULL;
	return -1;
}

int hub_done_write(char *buf, size_t len, const char *move, const char *ponder, char *err, size_t errlen)
{
	struct span_writer w;
	hub_writer_begin(&w, buf, len, "done");
	if (move == NULL || move[0] == '\0')
		w.error = "done needs a move";
	else
		hub_writer_add(&w, "move", move);
	if (ponder != NULL && ponder[0] != '\0')
		hub_writer_add(&w, "ponder", ponder);
	return writer_finish(&w, err, errlen);
}
