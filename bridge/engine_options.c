/*
 * engine_options.c: the engine interface's option lines. Pure parse and format on
 * (pointer, length), never reading past it (the UHP codec's fuzz target feeds it
 * arbitrary bytes).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/engine_options.h"
#include "bridge/span.h"

static const char *const opt_type_names[] = {
	[ENGINE_OPT_BOOL] = "bool", [ENGINE_OPT_INT] = "int",
	[ENGINE_OPT_DOUBLE] = "double", [ENGINE_OPT_ENUM] = "enum",
};

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

const char *engine_opt_type_name(enum engine_opt_type t)
{
	return (unsigned)t < sizeof opt_type_names / sizeof opt_type_names[0] ? opt_type_names[t] : "?";
}

int engine_opt_type_parse(const char *s, size_t len)
{
	for (size_t i = 0; i < sizeof opt_type_names / sizeof opt_type_names[0]; i++)
		if (span_is((struct span){ s, len }, opt_type_names[i]))
			return (int)i;
	return -1;
}

/* Copies a field into a fixed buffer; -1 if it does not fit or holds control bytes. */
static int field_copy(struct span f, char *dst, size_t cap)
{
	if (f.n >= cap)
		return -1;
	for (size_t i = 0; i < f.n; i++)
		if ((unsigned char)f.p[i] < 0x20 || f.p[i] == 0x7f)
			return -1;
	memcpy(dst, f.p, f.n);
	dst[f.n] = 0;
	return 0;
}

static int valid_bool(const char *s)
{
	return strcmp(s, "True") == 0 || strcmp(s, "False") == 0;
}

static int valid_int(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	if (!*s || strlen(s) > 18)
		return 0;
	for (; *s; s++)
		if (!is_digit(*s))
			return 0;
	return 1;
}

static int valid_double(const char *s)
{
	char *end;
	if (!*s || span_blank(*s))
		return 0;
	double d = strtod(s, &end);
	return *end == 0 && isfinite(d);
}

static int option_fail(char *err, size_t errlen, const char *why)
{
	if (errlen)
		snprintf(err, errlen, "%s", why);
	return -1;
}

int engine_option_parse(const char *line, size_t len, struct engine_option *o, char *err, size_t errlen)
{
	struct span s = { line, len };
	struct span f[6 + ENGINE_OPT_MAX_VALUES];
	size_t nf = 0;
	int more = 1;

	while (s.n && (s.p[s.n - 1] == '\r' || s.p[s.n - 1] == ' '))
		s.n--;
	memset(o, 0, sizeof *o);
	while (more) {
		if (nf == sizeof f / sizeof f[0])
			return option_fail(err, errlen, "too many fields");
		f[nf++] = span_field(&s, ';', &more);
	}
	if (nf < 4)
		return option_fail(err, errlen, "fewer than 4 fields");
	if (f[0].n == 0 || memchr(f[0].p, ' ', f[0].n) || field_copy(f[0], o->name, sizeof o->name) < 0)
		return option_fail(err, errlen, "bad option name");
	int t = engine_opt_type_parse(f[1].p, f[1].n);
	if (t < 0)
		return option_fail(err, errlen, "unknown option type");
	o->type = (enum engine_opt_type)t;
	if (field_copy(f[2], o->value, sizeof o->value) < 0 || field_copy(f[3], o->def, sizeof o->def) < 0)
		return option_fail(err, errlen, "bad value field");

	switch (o->type) {
	case ENGINE_OPT_BOOL:
		if (nf != 4)
			return option_fail(err, errlen, "extra fields after a bool");
		if (!valid_bool(o->value) || !valid_bool(o->def))
			return option_fail(err, errlen, "bool value is not True or False");
		break;
	case ENGINE_OPT_INT:
	case ENGINE_OPT_DOUBLE: {
		int (*valid)(const char *) = o->type == ENGINE_OPT_INT ? valid_int : valid_double;
		if (nf != 4 && nf != 6)
			return option_fail(err, errlen, "a number takes no fields or min and max");
		if (nf == 6 && (field_copy(f[4], o->min, sizeof o->min) < 0 ||
				field_copy(f[5], o->max, sizeof o->max) < 0))
			return option_fail(err, errlen, "bad range field");
		if (!valid(o->value) || !valid(o->def) || (nf == 6 && (!valid(o->min) || !valid(o->max))))
			return option_fail(err, errlen, "not a number");
		break;
	}
	case ENGINE_OPT_ENUM:
		if (nf - 4 > ENGINE_OPT_MAX_VALUES)
			return option_fail(err, errlen, "too many enum values");
		for (size_t i = 4; i < nf; i++)
			if (f[i].n == 0 || field_copy(f[i], o->values[i - 4], sizeof o->values[0]) < 0)
				return option_fail(err, errlen, "bad enum value");
		o->nvalues = nf - 4;
		break;
	}
	return 0;
}

size_t engine_option_format(const struct engine_option *o, char *buf, size_t len)
{
	size_t need = 0;
	int n;

#define APPEND(...) do { \
		n = snprintf(need < len ? buf + need : NULL, need < len ? len - need : 0, __VA_ARGS__); \
		if (n > 0) \
			need += (size_t)n; \
	} while (0)
	if (len)
		buf[0] = 0;
	APPEND("%s;%s;%s;%s", o->name, engine_opt_type_name(o->type), o->value, o->def);
	if ((o->type == ENGINE_OPT_INT || o->type == ENGINE_OPT_DOUBLE) && o->min[0] && o->max[0])
		APPEND(";%s;%s", o->min, o->max);
	if (o->type == ENGINE_OPT_ENUM)
		for (size_t i = 0; i < o->nvalues && i < ENGINE_OPT_MAX_VALUES; i++)
			APPEND(";%s", o->values[i]);
#undef APPEND
	return need;
}
