/*
 * uhp_codec.c: the Universal Hive Protocol as text. Pure parse and format: every
 * function works on (pointer, length) and never reads past it, so the fuzzer can feed
 * it arbitrary bytes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/uhp/uhp_codec.h"
#include "bridge/span.h"
#include "core/board.h"

static const char *const command_names[UHP_CMD_COUNT] = {
#define UHP_X_NAME(id, name) [UHP_CMD_##id] = name,
	UHP_COMMANDS(UHP_X_NAME)
#undef UHP_X_NAME
};

void uhp_command_parse(const char *line, size_t len, struct uhp_command *c)
{
	struct span s = { line, len };
	struct span kw = span_token(&s);

	c->arg = s.p;
	c->arg_len = s.n;
	if (kw.n == 0) {
		c->cmd = UHP_CMD_BLANK;
		return;
	}
	if (kw.n == 1 && kw.p[0] == '?') {
		c->cmd = UHP_CMD_HELP;
		return;
	}
	for (int i = 0; i < UHP_CMD_COUNT; i++) {
		if (command_names[i] && span_is(kw, command_names[i])) {
			c->cmd = (enum uhp_cmd)i;
			return;
		}
	}
	c->cmd = UHP_CMD_UNKNOWN;
}

const char *uhp_command_name(enum uhp_cmd cmd)
{
	return (unsigned)cmd < UHP_CMD_COUNT ? command_names[cmd] : NULL;
}

/* One field of hh:mm:ss: one or two digits, at most max. */
static int time_field(struct span f, uint64_t max, uint64_t *v)
{
	if (f.n < 1 || f.n > 2)
		return -1;
	return span_uint(f, max, v);
}

int uhp_bestmove_parse(const char *arg, size_t len, struct uhp_bestmove *b)
{
	struct span s = { arg, len };
	struct span kind = span_token(&s);
	struct span value = span_token(&s);

	if (value.n == 0 || s.n != 0)
		return -1;
	if (span_is(kind, "depth")) {
		uint64_t d;
		if (span_uint(value, UHP_MAX_DEPTH, &d) < 0)
			return -1;
		b->kind = UHP_BEST_DEPTH;
		b->depth = (int)d;
		b->time_ms = 0;
		return 0;
	}
	if (span_is(kind, "time")) {
		uint64_t h, m, sec;
		int more;
		struct span fh = span_field(&value, ':', &more);
		if (!more || time_field(fh, 99, &h) < 0)
			return -1;
		struct span fm = span_field(&value, ':', &more);
		if (!more || time_field(fm, 59, &m) < 0)
			return -1;
		struct span fs = span_field(&value, ':', &more);
		if (more || time_field(fs, 59, &sec) < 0)
			return -1;
		b->kind = UHP_BEST_TIME;
		b->time_ms = ((h * 60 + m) * 60 + sec) * 1000;
		b->depth = 0;
		return 0;
	}
	return -1;
}

size_t uhp_bestmove_format(const struct uhp_bestmove *b, char *buf, size_t len)
{
	int n;
	if (b->kind == UHP_BEST_DEPTH) {
		n = snprintf(buf, len, "depth %d", b->depth);
	} else {
		uint64_t sec = (b->time_ms + 999) / 1000;
		if (sec > UHP_MAX_TIME_MS / 1000)
			sec = UHP_MAX_TIME_MS / 1000;
		n = snprintf(buf, len, "time %02u:%02u:%02u", (unsigned)(sec / 3600),
			     (unsigned)(sec / 60 % 60), (unsigned)(sec % 60));
	}
	return n < 0 ? 0 : (size_t)n;
}

int uhp_undo_parse(const char *arg, size_t len, uint64_t *n)
{
	struct span s = span_trim((struct span){ arg, len });
	if (s.n == 0) {
		*n = 1;
		return 0;
	}
	return span_uint(s, UINT64_MAX, n);
}

int uhp_perft_parse(const char *arg, size_t len, int max, int *depth)
{
	uint64_t d;
	if (max < 0 || span_uint(span_trim((struct span){ arg, len }), (uint64_t)max, &d) < 0)
		return -1;
	*depth = (int)d;
	return 0;
}

int uhp_options_parse(const char *arg, size_t len, struct uhp_options_req *o)
{
	struct span s = { arg, len };
	struct span verb = span_token(&s);

	memset(o, 0, sizeof *o);
	if (verb.n == 0) {
		o->kind = UHP_OPTIONS_LIST;
		return 0;
	}
	struct span name = span_token(&s);
	if (name.n == 0 || memchr(name.p, ';', name.n))
		return -1;
	o->name = name.p;
	o->name_len = name.n;
	if (span_is(verb, "get")) {
		o->kind = UHP_OPTIONS_GET;
		return s.n == 0 ? 0 : -1;
	}
	if (span_is(verb, "set")) {
		if (s.n == 0)
			return -1;
		o->kind = UHP_OPTIONS_SET;
		o->value = s.p;
		o->value_len = s.n;
		return 0;
	}
	return -1;
}

/* Whether s starts with the keyword followed by the end or a blank; *rest gets the
 * trimmed remainder. */
static int reply_keyword(struct span s, const char *kw, struct span *rest)
{
	size_t n = strlen(kw);
	if (s.n < n || memcmp(s.p, kw, n) != 0 || (s.n > n && !span_blank(s.p[n])))
		return 0;
	*rest = span_trim((struct span){ s.p + n, s.n - n });
	return 1;
}

enum uhp_reply uhp_reply_parse(const char *line, size_t len, const char **rest, size_t *rest_len)
{
	struct span s = { line, len };
	struct span r;
	enum uhp_reply kind;

	while (s.n && span_blank(s.p[s.n - 1]))
		s.n--;
	r = s;
	if (s.n == 2 && memcmp(s.p, "ok", 2) == 0) {
		r.n = 0;
		r.p = s.p + 2;
		kind = UHP_REPLY_OK;
	} else if (reply_keyword(s, "err", &r)) {
		kind = UHP_REPLY_ERR;
	} else if (reply_keyword(s, "invalidmove", &r)) {
		kind = UHP_REPLY_INVALIDMOVE;
	} else if (reply_keyword(s, "id", &r)) {
		kind = UHP_REPLY_ID;
	} else {
		kind = UHP_REPLY_LINE;
	}
	*rest = r.p;
	*rest_len = r.n;
	return kind;
}

int uhp_caps_parse(const char *line, size_t len, unsigned *exp)
{
	static const struct { const char *name; unsigned bit; } flags[] = {
		{ "mosquito", HIVE_EXP_M }, { "ladybug", HIVE_EXP_L }, { "pillbug", HIVE_EXP_P },
	};
	struct span s = span_trim((struct span){ line, len });
	unsigned bits = 0;
	int known = 0, more = 1;

	*exp = 0;
	if (s.n == 0)
		return 0;
	while (more) {
		struct span f = span_trim(span_field(&s, ';', &more));
		for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
			if (span_is(f, flags[i].name)) {
				bits |= flags[i].bit;
				known = 1;
			}
		}
	}
	if (!known)
		return -1;
	*exp = bits;
	return 0;
}
