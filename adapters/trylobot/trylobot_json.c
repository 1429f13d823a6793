/*
 * trylobot_json.c: the Trylobot codec's JSON reader (trylobot_json.h). One pass,
 * no recursion: a stack of the open containers' tokens bounds the nesting.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trylobot_json.h"
#include "core/errbuf.h"

/* What cJSON skips, and so the readers before this one: every byte up to ' '. After
 * the text's value only JSON's four may follow. */
static int is_ws(char c)
{
	return (unsigned char)c <= ' ';
}

static int is_json_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Four hex digits at s[0, 4), or -1. */
static long hex4(const char *s)
{
	long v = 0;
	for (int i = 0; i < 4; i++) {
		int h = hexval(s[i]);
		if (h < 0)
			return -1;
		v = v << 4 | h;
	}
	return v;
}

/* A new token at p; -1 when memory runs out. */
static long tok_new(struct tb_json *j, int type, size_t p)
{
	if (j->n == j->cap) {
		/* Real messages hold a token every 8 bytes or more: one allocation, mostly. */
		size_t cap = j->cap ? j->cap * 2 : j->len / 8 + 64;
		struct tb_jtok *t = realloc(j->tok, cap * sizeof *t);
		if (!t)
			return -1;
		j->tok = t;
		j->cap = cap;
	}
	struct tb_jtok *t = &j->tok[j->n];
	t->start = (uint32_t)p;
	t->end = (uint32_t)p;
	t->skip = (uint32_t)(j->n + 1);
	t->type = (uint8_t)type;
	t->escaped = 0;
	t->known = 0;
	return (long)j->n++;
}

/* The bytes a string cannot hold as they are: the quote, the backslash, controls. */
static const uint8_t special[256] = {
	[0x00] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	['"'] = 1, ['\\'] = 1,
};

/* The string at s[p] == '"': its end (past the quote), or 0 with *at where it fails. */
static size_t scan_string(const char *s, size_t len, size_t p, int *escaped, size_t *at)
{
	for (p++; p < len; p++) {
		while (p < len && !special[(unsigned char)s[p]])
			p++;
		if (p == len)
			break;
		unsigned char c = (unsigned char)s[p];
		if (c == '"')
			return p + 1;
		if (c < 0x20)
			break;
		*escaped = 1;
		if (++p == len)
			break;
		switch (s[p]) {
		case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
			continue;
		case 'u':
			break;
		default:
			*at = p;
			return 0;
		}
		long u = len - p > 4 ? hex4(s + p + 1) : -1;
		if (u < 0 || (u >= 0xDC00 && u <= 0xDFFF))
			break;
		p += 4;
		if (u >= 0xD800 && u <= 0xDBFF) {
			/* A high surrogate: its low half must follow. */
			long lo = len - p > 6 && s[p + 1] == '\\' && s[p + 2] == 'u' ? hex4(s + p + 3) : -1;
			if (lo < 0xDC00 || lo > 0xDFFF)
				break;
			p += 6;
		}
	}
	*at = p < len ? p : len;
	return 0;
}

/* The number at s[p] (JSON's grammar): its end, or 0. */
static size_t scan_number(const char *s, size_t len, size_t p)
{
	if (p < len && s[p] == '-')
		p++;
	if (p == len || s[p] < '0' || s[p] > '9')
		return 0;
	if (s[p] == '0')
		p++;
	else
		while (p < len && s[p] >= '0' && s[p] <= '9')
			p++;
	if (p < len && s[p] == '.') {
		if (++p == len || s[p] < '0' || s[p] > '9')
			return 0;
		while (p < len && s[p] >= '0' && s[p] <= '9')
			p++;
	}
	if (p < len && (s[p] == 'e' || s[p] == 'E')) {
		if (++p < len && (s[p] == '+' || s[p] == '-'))
			p++;
		if (p == len || s[p] < '0' || s[p] > '9')
			return 0;
		while (p < len && s[p] >= '0' && s[p] <= '9')
			p++;
	}
	return p;
}

/* Whether key token k spells key. */
static int key_is(const struct tb_json *j, size_t k, const char *key);

/* The string at *p (a value or a member key) as a new token: its index, with *p
 * past it; -1 with *p where it is not valid, -2 when memory runs out. */
static long tok_string(struct tb_json *j, size_t *p)
{
	long t = tok_new(j, TB_JSTRING, *p);
	int esc = 0;
	size_t end;
	if (t < 0)
		return -2;
	if (!(end = scan_string(j->text, j->len, *p, &esc, p)))
		return -1;
	j->tok[t].escaped = (uint8_t)esc;
	j->tok[t].end = (uint32_t)end;
	*p = end;
	return t;
}

/* Whether array token t, just opened at depth 2, is where kn's prefix may be, and the
 * text goes on with it: then the position after it. */
static size_t known_end(const struct tb_json *j, const struct tb_json_known *kn, const uint32_t *open,
			size_t t, size_t p)
{
	const char *s = j->text;
	if (!kn || !kn->len || j->len - p <= kn->len || memcmp(s + p, kn->text, kn->len) ||
	    j->tok[open[0]].type != TB_JOBJECT || j->tok[open[1]].type != TB_JOBJECT ||
	    !key_is(j, open[1] - 1, kn->key1) || !key_is(j, t - 1, kn->key2))
		return 0;
	size_t e = p + kn->len;
	while (e < j->len && is_ws(s[e]))
		e++;
	/* Whole elements only: what follows is the next one or the end. */
	return e < j->len && (s[e] == ',' || s[e] == ']') ? p + kn->len : 0;
}

int tb_json_parse(struct tb_json *j, const char *s, size_t len, const struct tb_json_known *kn,
		  char *err, size_t errlen)
{
	uint32_t open[TB_JSON_DEPTH];
	int depth = 0;
	size_t p = 0, end;
	long t;

	j->text = s;
	j->len = len;
	j->n = 0;
	if (len >= UINT32_MAX) {
		errbuf_set(err, errlen, "not valid JSON: longer than 4 GiB");
		return -1;
	}
	if (len >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3))
		p = 3;                 /* a byte order mark, as cJSON allows */
value:
	while (p < len && is_ws(s[p]))
		p++;
	if (p == len)
		goto bad;
	switch (s[p]) {
	case '{':
	case '[':
		if (depth == TB_JSON_DEPTH)
			goto bad;
		if ((t = tok_new(j, s[p] == '{' ? TB_JOBJECT : TB_JARRAY, p)) < 0)
			goto nomem;
		if (depth == 2 && j->tok[t].type == TB_JARRAY && (end = known_end(j, kn, open, (size_t)t, p))) {
			j->tok[t].known = 1;
			open[depth++] = (uint32_t)t;
			p = end;
			goto after;
		}
		open[depth++] = (uint32_t)t;
		for (p++; p < len && is_ws(s[p]); p++)
			;
		if (p < len && s[p] == (s[j->tok[t].start] == '{' ? '}' : ']'))
			goto close;
		if (j->tok[t].type == TB_JARRAY)
			goto value;
		goto key;
	case '"':
		if ((t = tok_string(j, &p)) < 0)
			goto fail;
		end = j->tok[t].end;
		break;
	case 't': case 'f': case 'n': {
		const char *lit = s[p] == 't' ? "true" : s[p] == 'f' ? "false" : "null";
		size_t n = strlen(lit);
		if (len - p < n || memcmp(s + p, lit, n))
			goto bad;
		if ((t = tok_new(j, s[p] == 't' ? TB_JTRUE : s[p] == 'f' ? TB_JFALSE : TB_JNULL, p)) < 0)
			goto nomem;
		end = p + n;
		break;
	}
	default:
		if (!(end = scan_number(s, len, p)))
			goto bad;
		if ((t = tok_new(j, TB_JNUMBER, p)) < 0)
			goto nomem;
		break;
	}
	j->tok[t].end = (uint32_t)end;
	p = end;
after:
	if (!depth) {
		while (p < len && is_json_ws(s[p]))
			p++;
		if (p < len) {
			errbuf_set(err, errlen, "not valid JSON: extra data at byte %zu", p);
			return -1;
		}
		return 0;
	}
	while (p < len && is_ws(s[p]))
		p++;
	t = open[depth - 1];
	if (p < len && s[p] == ',') {
		p++;
		if (j->tok[t].type == TB_JARRAY)
			goto value;
		goto key;
	}
	if (p < len && s[p] == (j->tok[t].type == TB_JOBJECT ? '}' : ']'))
		goto close;
	goto bad;
close:
	j->tok[t].end = (uint32_t)++p;
	j->tok[t].skip = (uint32_t)j->n;
	depth--;
	goto after;
key:
	while (p < len && is_ws(s[p]))
		p++;
	if (p == len || s[p] != '"')
		goto bad;
	if ((t = tok_string(j, &p)) < 0)
		goto fail;
	for (p = j->tok[t].end; p < len && is_ws(s[p]); p++)
		;
	if (p == len || s[p] != ':')
		goto bad;
	p++;
	goto value;
fail:
	if (t == -2)
		goto nomem;
bad:
	errbuf_set(err, errlen, "not valid JSON (at byte %zu)", p);
	return -1;
nomem:
	errbuf_set(err, errlen, "out of memory");
	return -1;
}

void tb_json_free(struct tb_json *j)
{
	free(j->tok);
	memset(j, 0, sizeof *j);
}

/* Appends code point cp as UTF-8 at o. */
static size_t utf8_put(char *o, unsigned long cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xC0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xE0 | cp >> 12);
		o[1] = (char)(0x80 | (cp >> 6 & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | cp >> 18);
	o[1] = (char)(0x80 | (cp >> 12 & 0x3F));
	o[2] = (char)(0x80 | (cp >> 6 & 0x3F));
	o[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* Decodes a checked string's contents [p, e) into o (room for e - p bytes: no
 * escape decodes longer than it is written); returns the length, up to a \u0000. */
static size_t decode(const char *p, const char *e, char *o)
{
	char *o0 = o;
	while (p < e) {
		if (*p != '\\') {
			*o++ = *p++;
			continue;
		}
		char c = p[1];
		p += 2;
		switch (c) {
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u': {
			unsigned long cp = (unsigned long)hex4(p);
			p += 4;
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				cp = 0x10000 + ((cp - 0xD800) << 10) + ((unsigned long)hex4(p + 2) - 0xDC00);
				p += 6;
			}
			if (!cp)
				return (size_t)(o - o0);
			o += utf8_put(o, cp);
			break;
		}
		default: *o++ = c; break;     /* " \ / */
		}
	}
	return (size_t)(o - o0);
}

int tb_json_str(const struct tb_json *j, size_t i, char *buf, size_t cap)
{
	const struct tb_jtok *t = &j->tok[i];
	const char *p = j->text + t->start + 1, *e = j->text + t->end - 1;
	size_t n = (size_t)(e - p);

	if (!t->escaped) {
		if (n >= cap) {
			memcpy(buf, p, cap - 1);
			buf[cap - 1] = 0;
			return -1;
		}
		memcpy(buf, p, n);
		buf[n] = 0;
		return 0;
	}
	char local[256], *tmp = n <= sizeof local ? local : malloc(n);
	if (!tmp) {
		buf[0] = 0;
		return -1;
	}
	size_t m = decode(p, e, tmp);
	int rc = m < cap ? 0 : -1;
	if (m >= cap)
		m = cap - 1;
	memcpy(buf, tmp, m);
	buf[m] = 0;
	if (tmp != local)
		free(tmp);
	return rc;
}

char *tb_json_strdup(const struct tb_json *j, size_t i)
{
	const struct tb_jtok *t = &j->tok[i];
	size_t n = t->end - t->start - 2;
	char *out = malloc(n + 1);
	if (!out)
		return NULL;
	if (tb_json_str(j, i, out, n + 1) < 0) {
		free(out);
		return NULL;
	}
	return out;
}

static int key_is_n(const struct tb_json *j, size_t k, const char *key, size_t klen)
{
	const struct tb_jtok *t = &j->tok[k];
	size_t n = t->end - t->start - 2;
	if (!t->escaped)
		return n == klen && !memcmp(j->text + t->start + 1, key, n);
	char buf[64];
	return tb_json_str(j, k, buf, sizeof buf) == 0 && !strcmp(buf, key);
}

static int key_is(const struct tb_json *j, size_t k, const char *key)
{
	return key_is_n(j, k, key, strlen(key));
}

size_t tb_json_member(const struct tb_json *j, size_t obj, const char *key)
{
	size_t klen = strlen(key);
	if (j->tok[obj].type != TB_JOBJECT)
		return 0;
	TB_JSON_MEMBERS(j, obj, k)
		if (key_is_n(j, k, key, klen))
			return k + 1;
	return 0;
}

double tb_json_number(const struct tb_json *j, size_t i)
{
	const struct tb_jtok *t = &j->tok[i];
	size_t n = t->end - t->start;
	const char *s = j->text + t->start;
	/* A plain integer that a double holds exactly (what the codec reads): no strtod. */
	if (n <= 15 && s[0] != '-') {
		double v = 0;
		size_t k = 0;
		while (k < n && s[k] >= '0' && s[k] <= '9')
			v = v * 10 + (s[k++] - '0');
		if (k == n)
			return v;
	}
	char local[64], *buf = n < sizeof local ? local : malloc(n + 1);
	if (!buf)
		return 0;
	memcpy(buf, j->text + t->start, n);
	buf[n] = 0;
	double d = strtod(buf, NULL);
	if (buf != local)
		free(buf);
	return d;
}
