/*
 * trylobot_codec.c: framing and messages of Trylobot's remote AI protocol.
 * See /work/shared/notes/trylobot-protocol.md for what the real core sends and reads.
 * (Over 800 lines: the framing and every message of the protocol in both
 * directions, each JSON reader beside its writer.)
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trylobot_codec.h"
#include "trylobot_fast.h"
#include "core/errbuf.h"

enum { RD_HEADER, RD_PAYLOAD, RD_FAILED };

#define HEADER_MAX 20     /* digits; leading zeros must not make an endless header */

/*
 * Names.
 */

static const char *const bug_names[HIVE_BUGS] = {
	[HIVE_QUEEN] = "Queen Bee", [HIVE_SPIDER] = "Spider", [HIVE_BEETLE] = "Beetle",
	[HIVE_GRASSHOPPER] = "Grasshopper", [HIVE_ANT] = "Soldier Ant",
	[HIVE_MOSQUITO] = "Mosquito", [HIVE_LADYBUG] = "Ladybug", [HIVE_PILLBUG] = "Pillbug"
};

/* Trylobot's enum order, which its hands and piece_types lists follow. */
static const uint8_t tb_bug_order[HIVE_BUGS] = {
	HIVE_QUEEN, HIVE_BEETLE, HIVE_GRASSHOPPER, HIVE_SPIDER, HIVE_ANT,
	HIVE_MOSQUITO, HIVE_LADYBUG, HIVE_PILLBUG
};

/* Pieces of each bug per colour. */
const uint8_t tb_bug_count[HIVE_BUGS] = {
	[HIVE_QUEEN] = 1, [HIVE_SPIDER] = 2, [HIVE_BEETLE] = 2, [HIVE_GRASSHOPPER] = 3,
	[HIVE_ANT] = 3, [HIVE_MOSQUITO] = 1, [HIVE_LADYBUG] = 1, [HIVE_PILLBUG] = 1
};

const char *const tb_color_names[2] = { "White", "Black" };

static const char *const turn_names[] = {
	[TB_PLACEMENT] = "Placement", [TB_MOVEMENT] = "Movement",
	[TB_ABILITY] = "Special Ability", [TB_FORFEIT] = "Forfeit"
};

const char *tb_bug_name(int bug)
{
	return bug >= 0 && bug < HIVE_BUGS ? bug_names[bug] : NULL;
}

int tb_bug_parse(const char *s)
{
	for (int b = 0; b < HIVE_BUGS; b++)
		if (!strcmp(s, bug_names[b]))
			return b;
	return -1;
}

int tb_color_parse(const char *s)
{
	return !strcmp(s, "White") ? HIVE_WHITE : !strcmp(s, "Black") ? HIVE_BLACK : -1;
}

/* Whether the game type has the bug at all. */
int tb_bug_enabled(unsigned type, int bug)
{
	return bug < HIVE_MOSQUITO || (type >> (bug - HIVE_MOSQUITO) & 1);
}

char *tb_pos_format(struct tb_pos p, char *buf, size_t len)
{
	snprintf(buf, len, "%" PRId32 ",%" PRId32, p.row, p.col);
	return buf;
}

/* Canonical decimal integer: optional '-', no '+', no leading zeros, no "-0". */
static const char *parse_coord(const char *s, int32_t *v)
{
	int neg = *s == '-';
	long x = 0;
	const char *d = s + neg;
	if (*d < '0' || *d > '9' || (*d == '0' && d[1] >= '0' && d[1] <= '9'))
		return NULL;
	for (; *d >= '0' && *d <= '9'; d++) {
		x = x * 10 + (*d - '0');
		if (x > 1000000)         /* far beyond any real hive; keeps arithmetic safe */
			return NULL;
	}
	if (neg && x == 0)
		return NULL;
	*v = (int32_t)(neg ? -x : x);
	return d;
}

int tb_pos_parse(const char *s, struct tb_pos *p)
{
	struct tb_pos q;
	s = parse_coord(s, &q.row);
	if (!s || *s != ',')
		return -1;
	s = parse_coord(s + 1, &q.col);
	if (!s || *s || ((q.row + q.col) & 1))
		return -1;
	*p = q;
	return 0;
}

int tb_turn_eq(const struct tb_turn *a, const struct tb_turn *b)
{
	if (a->type != b->type)
		return 0;
	switch (a->type) {
	case TB_PLACEMENT: return a->bug == b->bug && tb_pos_eq(a->dst, b->dst);
	case TB_MOVEMENT:  return tb_pos_eq(a->src, b->src) && tb_pos_eq(a->dst, b->dst);
	case TB_ABILITY:   return tb_pos_eq(a->user, b->user) && tb_pos_eq(a->src, b->src) &&
	                          tb_pos_eq(a->dst, b->dst);
	default:           return 1;
	}
}

int tb_turns_add(struct tb_turns *l, const struct tb_turn *t)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct tb_turn *v = realloc(l->v, cap * sizeof *v);
		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = *t;
	return 0;
}

int tb_turns_has(const struct tb_turns *l, const struct tb_turn *t)
{
	for (size_t i = 0; i < l->n; i++)
		if (tb_turn_eq(&l->v[i], t))
			return 1;
	return 0;
}

int tb_turns_add_unique(struct tb_turns *l, const struct tb_turn *t)
{
	return tb_turns_has(l, t) ? 0 : tb_turns_add(l, t);
}

void tb_turns_free(struct tb_turns *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

void tb_state_init(struct tb_state *st)
{
	memset(st, 0, sizeof *st);
}

void tb_state_free(struct tb_state *st)
{
	tb_turns_free(&st->history);
	tb_turns_free(&st->possible);
	tb_state_init(st);
}

/*
 * UTF-8 and UTF-16 lengths.
 */

/* Checks the byte after a lead byte (RFC 3629 table): no overlongs, no surrogates,
 * nothing above U+10FFFF. */
static int second_ok(uint8_t lead, uint8_t c)
{
	switch (lead) {
	case 0xE0: return c >= 0xA0 && c <= 0xBF;
	case 0xED: return c >= 0x80 && c <= 0x9F;
	case 0xF0: return c >= 0x90 && c <= 0xBF;
	case 0xF4: return c >= 0x80 && c <= 0x8F;
	default:   return c >= 0x80 && c <= 0xBF;
	}
}

/* Continuation bytes after a lead byte, or -1 if it cannot start a sequence. */
static int utf8_extra(uint8_t c)
{
	if (c < 0x80)
		return 0;
	if (c >= 0xC2 && c <= 0xDF)
		return 1;
	if (c >= 0xE0 && c <= 0xEF)
		return 2;
	if (c >= 0xF0 && c <= 0xF4)
		return 3;
	return -1;
}

/* Decodes one code point at s[0..len); returns its byte length, or -1. */
static int utf8_decode(const uint8_t *s, size_t len, uint32_t *cp)
{
	int extra = utf8_extra(s[0]);
	if (extra < 0 || (size_t)extra + 1 > len)
		return -1;
	if (extra == 0) {
		*cp = s[0];
		return 1;
	}
	if (!second_ok(s[0], s[1]))
		return -1;
	uint32_t v = s[0] & (0x3F >> extra);
	for (int i = 1; i <= extra; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return -1;
		v = v << 6 | (s[i] & 0x3F);
	}
	*cp = v;
	return extra + 1;
}

size_t tb_utf16_length(const char *s, size_t len)
{
	const uint8_t *p = (const uint8_t *)s;
	size_t units = 0;
	while (len) {
		uint32_t cp;
		int n = utf8_decode(p, len, &cp);
		if (n < 0)
			return (size_t)-1;
		units += cp >= 0x10000 ? 2 : 1;
		p += n;
		len -= (size_t)n;
	}
	return units;
}

char *tb_frame_encode(const char *json, size_t len, size_t *outlen)
{
	const uint8_t *p = (const uint8_t *)json;
	size_t n = 0, ascii = 0;
	while (ascii < len && p[ascii] < 0x80)
		ascii++;
	if (ascii == len) {
		/* Nothing to escape (the usual answer): the text as it is. */
		char head[24];
		int hl = snprintf(head, sizeof head, "%zu#", len);
		char *out = malloc((size_t)hl + len + 1);
		if (!out)
			return NULL;
		memcpy(out, head, (size_t)hl);
		memcpy(out + hl, json, len);
		out[hl + len] = 0;
		if (outlen)
			*outlen = (size_t)hl + len;
		return out;
	}
	/* First pass: the escaped length. */
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		int k = utf8_decode(p + i, len - i, &cp);
		if (k < 0)
			return NULL;
		n += cp < 0x80 ? 1 : cp < 0x10000 ? 6 : 12;
		i += (size_t)k;
	}
	char head[24];
	int hl = snprintf(head, sizeof head, "%zu#", n);
	char *out = malloc((size_t)hl + n + 1);
	if (!out)
		return NULL;
	memcpy(out, head, (size_t)hl);
	char *o = out + hl;
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		int k = utf8_decode(p + i, len - i, &cp);
		i += (size_t)k;
		if (cp < 0x80) {
			*o++ = (char)cp;
		} else if (cp < 0x10000) {
			o += sprintf(o, "\\u%04x", (unsigned)cp);
		} else {
			cp -= 0x10000;
			o += sprintf(o, "\\u%04x\\u%04x", (unsigned)(0xD800 + (cp >> 10)),
				     (unsigned)(0xDC00 + (cp & 0x3FF)));
		}
	}
	*o = 0;
	if (outlen)
		*outlen = (size_t)(o - out);
	return out;
}

char *tb_frame_build(const cJSON *msg, size_t *outlen)
{
	char *text = cJSON_PrintUnformatted(msg);
	if (!text)
		return NULL;
	char *frame = tb_frame_encode(text, strlen(text), outlen);
	cJSON_free(text);
	return frame;
}

/*
 * The frame reader.
 */

void tb_reader_init(struct tb_reader *r, size_t max)
{
	memset(r, 0, sizeof *r);
	r->max = max ? max : TB_FRAME_MAX_DEFAULT;
	r->state = RD_HEADER;
}

void tb_reader_free(struct tb_reader *r)
{
	free(r->buf);
	r->buf = NULL;
	r->len = r->cap = 0;
}

void tb_reader_reset(struct tb_reader *r)
{
	r->state = RD_HEADER;
	r->want = r->units = r->hlen = r->len = 0;
	r->need = 0;
	r->err[0] = 0;
}

int tb_reader_idle(const struct tb_reader *r)
{
	return r->state == RD_HEADER && r->hlen == 0;
}

const char *tb_reader_error(const struct tb_reader *r)
{
	return r->state == RD_FAILED ? r->err : NULL;
}

const char *tb_reader_frame(const struct tb_reader *r, size_t *len)
{
	if (r->state != RD_HEADER || r->hlen || !r->want)
		return NULL;
	if (len)
		*len = r->len;
	return r->buf;
}

static int fail(struct tb_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct tb_reader *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->err, sizeof r->err, fmt, ap);
	va_end(ap);
	r->state = RD_FAILED;
	return -1;
}

/* A byte as text for an error message. */
static const char *show_byte(uint8_t c, char *buf, size_t len)
{
	if (c >= 0x20 && c < 0x7F && c != '\'')
		snprintf(buf, len, "'%c' (0x%02x)", c, c);
	else
		snprintf(buf, len, "0x%02x", c);
	return buf;
}

static int reserve(struct tb_reader *r, size_t need)
{
	if (need <= r->cap)
		return 0;
	size_t cap = r->cap ? r->cap : 256;
	while (cap < need)
		cap *= 2;
	/* Doubling stops at the largest payload (and its NUL). */
	if (cap > r->max + 2 && need <= r->max + 2)
		cap = r->max + 2;
	char *b = realloc(r->buf, cap);
	if (!b)
		return -1;
	r->buf = b;
	r->cap = cap;
	return 0;
}

static int header_byte(struct tb_reader *r, uint8_t c)
{
	char shown[16];
	if (c >= '0' && c <= '9') {
		if (r->hlen == HEADER_MAX)
			return fail(r, "frame header: more than %d digits before '#'", HEADER_MAX);
		if (r->hlen == 0)
			r->want = 0;
		r->want = r->want * 10 + (c - '0');
		r->hlen++;
		if (r->want > r->max)
			return fail(r, "frame header: length exceeds the maximum of %zu", r->max);
		return 0;
	}
	if (c == '#') {
		if (!r->hlen)
			return fail(r, "frame header: '#' without a length before it");
		if (!r->want)
			return fail(r, "frame header: length 0 (a frame holds a JSON text)");
		r->hlen = 0;
		r->units = r->len = 0;
		r->need = 0;
		r->state = RD_PAYLOAD;
		/* Three bytes per unit at most; grow as bytes arrive, not up front. */
		return reserve(r, r->want < 256 ? r->want * 3 + 1 : 1024) ? fail(r, "out of memory") : 0;
	}
	return fail(r, "frame header: unexpected byte %s where a decimal length or '#' was expected"
		    " (frames are <length>#<json>)", show_byte(c, shown, sizeof shown));
}

/* One payload byte; returns 1 when it completes the frame. */
static int payload_byte(struct tb_reader *r, uint8_t c)
{
	char shown[16];
	/* N counts UTF-16 units, up to three bytes each: bound the bytes held too. */
	if (r->len >= r->max)
		return fail(r, "frame payload exceeds the maximum of %zu bytes", r->max);
	if (reserve(r, r->len + 2))
		return fail(r, "out of memory");
	if (r->need) {
		/* The byte right after the lead has tighter bounds. */
		int first = r->need == (unsigned)utf8_extra(r->lead);
		if (first ? !second_ok(r->lead, c) : (c & 0xC0) != 0x80)
			return fail(r, "invalid UTF-8 in frame: byte %s after lead byte 0x%02x, at payload byte %zu",
				    show_byte(c, shown, sizeof shown), r->lead, r->len);
		r->cp = r->cp << 6 | (c & 0x3F);
		r->buf[r->len++] = (char)c;
		if (--r->need)
			return 0;
	} else {
		int extra = utf8_extra(c);
		/* No JSON text holds a raw NUL; refusing it keeps frames C strings. */
		if (c == 0)
			return fail(r, "NUL byte in frame at payload byte %zu", r->len);
		if (extra < 0)
			return fail(r, "invalid UTF-8 in frame: byte %s cannot start a character, at payload byte %zu",
				    show_byte(c, shown, sizeof shown), r->len);
		r->buf[r->len++] = (char)c;
		if (extra) {
			r->need = (unsigned)extra;
			r->lead = c;
			r->cp = c & (0x3F >> extra);
			return 0;
		}
		r->cp = c;
	}
	r->units += r->cp >= 0x10000 ? 2 : 1;
	if (r->units > r->want)
		return fail(r, "frame length %zu ends inside a surrogate pair", r->want);
	if (r->units < r->want)
		return 0;
	r->buf[r->len] = 0;
	r->state = RD_HEADER;
	return 1;
}

/* A run of plain ASCII payload bytes (no NUL, no sequence under way) copied at once,
 * up to the frame's end and the byte bound: what payload_byte does to each of them,
 * without a call per byte. Returns how many bytes it took (0: the next byte needs
 * payload_byte); *done when they complete the frame. */
static size_t payload_ascii(struct tb_reader *r, const uint8_t *p, size_t n, int *done)
{
	size_t k = 0, most = r->want - r->units;

	*done = 0;
	if (r->need)
		return 0;
	if (most > r->max - r->len)
		most = r->max - r->len;
	if (most > n)
		most = n;
	/* Eight bytes at a time while none is 0 or non-ASCII. */
	for (uint64_t w; k + 8 <= most; k += 8) {
		memcpy(&w, p + k, 8);
		if ((w | ((w - 0x0101010101010101ULL) & ~w)) & 0x8080808080808080ULL)
			break;
	}
	while (k < most && p[k] >= 0x01 && p[k] < 0x80)
		k++;
	if (k < 2 || reserve(r, r->len + k + 1))
		return 0;
	memcpy(r->buf + r->len, p, k);
	r->len += k;
	r->units += k;
	r->cp = p[k - 1];
	if (r->units == r->want) {
		r->buf[r->len] = 0;
		r->state = RD_HEADER;
		*done = 1;
	}
	return k;
}

int tb_reader_push(struct tb_reader *r, const void *data, size_t len, size_t *used)
{
	const uint8_t *p = data;
	size_t i = 0;
	int rc = 0;
	if (r->state == RD_FAILED) {
		*used = 0;
		return -1;
	}
	/* The previous frame is released by this push. */
	if (r->state == RD_HEADER && !r->hlen)
		r->want = 0;
	while (i < len && rc == 0) {
		if (r->state == RD_PAYLOAD) {
			int done;
			size_t k = payload_ascii(r, p + i, len - i, &done);
			i += k;
			if (done) {
				rc = 1;
				break;
			}
			if (k && i == len)
				break;
		}
		uint8_t c = p[i++];
		rc = r->state == RD_HEADER ? header_byte(r, c) : payload_byte(r, c);
	}
	*used = i;
	return rc;
}

/*
 * JSON access with paths in the error messages.
 */

struct ctx {
	char  *err;
	size_t errlen;
	size_t listed;      /* possible_turns entries read, duplicates included */
};

static const char *type_name(const cJSON *j)
{
	if (!j)
		return "nothing";
	if (cJSON_IsObject(j)) return "an object";
	if (cJSON_IsArray(j))  return "an array";
	if (cJSON_IsString(j)) return "a string";
	if (cJSON_IsNumber(j)) return "a number";
	if (cJSON_IsBool(j))   return "a boolean";
	if (cJSON_IsNull(j))   return "null";
	return "something else";
}

/* Case-sensitive member lookup (cJSON's plain GetObjectItem ignores case). */
static const cJSON *member(const cJSON *obj, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(obj, key);
}

static int expect(struct ctx *x, const cJSON *j, cJSON_bool ok, const char *path, const char *what)
{
	if (ok)
		return 0;
	errbuf_set(x->err, x->errlen, "%s: expected %s, got %s", path, what, type_name(j));
	return -1;
}

static const cJSON *need_member(struct ctx *x, const cJSON *obj, const char *key, const char *path)
{
	const cJSON *j = member(obj, key);
	if (!j)
		errbuf_set(x->err, x->errlen, "%s: missing key \"%s\"", path, key);
	return j;
}

static int get_pos(struct ctx *x, const cJSON *obj, const char *key, const char *path, struct tb_pos *p)
{
	const cJSON *j = need_member(x, obj, key, path);
	if (!j)
		return -1;
	if (expect(x, j, cJSON_IsString(j), key, "a position string"))
		return -1;
	if (tb_pos_parse(j->valuestring, p)) {
		errbuf_set(x->err, x->errlen, "%s.%s: \"%.40s\" is not a position \"row,col\" with row+col even",
			   path, key, j->valuestring);
		return -1;
	}
	return 0;
}

static int pos_of_key(struct ctx *x, const char *key, const char *path, struct tb_pos *p)
{
	if (tb_pos_parse(key, p)) {
		errbuf_set(x->err, x->errlen, "%s: key \"%.40s\" is not a position \"row,col\" with row+col even",
			   path, key);
		return -1;
	}
	return 0;
}

static int get_bug(struct ctx *x, const cJSON *j, const char *path, int *bug)
{
	if (expect(x, j, cJSON_IsString(j), path, "a piece type name"))
		return -1;
	*bug = tb_bug_parse(j->valuestring);
	if (*bug < 0) {
		errbuf_set(x->err, x->errlen, "%s: unknown piece type \"%.40s\"", path, j->valuestring);
		return -1;
	}
	return 0;
}

/* An integral number within [lo, hi]. */
static int get_int(struct ctx *x, const cJSON *j, const char *path, double lo, double hi, double *v)
{
	if (expect(x, j, cJSON_IsNumber(j), path, "a number"))
		return -1;
	double d = j->valuedouble;
	if (!(d >= lo && d <= hi) || d != floor(d)) {
		errbuf_set(x->err, x->errlen, "%s: %g is not an integer in [%.0f, %.0f]", path, d, lo, hi);
		return -1;
	}
	*v = d;
	return 0;
}

/* Copies an optional string member; -1 on a wrong type or no memory. */
static int opt_string(struct ctx *x, const cJSON *obj, const char *key, char **out)
{
	const cJSON *j = member(obj, key);
	*out = NULL;
	if (!j || cJSON_IsNull(j))
		return 0;
	if (expect(x, j, cJSON_IsString(j), key, "a string"))
		return -1;
	*out = strdup(j->valuestring);
	if (!*out) {
		errbuf_set(x->err, x->errlen, "out of memory");
		return -1;
	}
	return 0;
}

static cJSON *parse_text(struct ctx *x, const char *json, size_t len)
{
	const char *end = NULL;
	cJSON *root = cJSON_ParseWithLengthOpts(json, len, &end, 0);
	if (!root) {
		size_t at = end && end >= json ? (size_t)(end - json) : 0;
		errbuf_set(x->err, x->errlen, "not valid JSON (at byte %zu)", at);
		return NULL;
	}
	/* Only whitespace may follow the value. */
	for (const char *e = end; e < json + len; e++) {
		if (*e != ' ' && *e != '\t' && *e != '\n' && *e != '\r') {
			errbuf_set(x->err, x->errlen, "not valid JSON: extra data at byte %zu", (size_t)(e - json));
			cJSON_Delete(root);
			return NULL;
		}
	}
	if (!cJSON_IsObject(root)) {
		errbuf_set(x->err, x->errlen, "message: expected an object, got %s", type_name(root));
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

/*
 * Turns.
 */

static int parse_turn(struct ctx *x, const cJSON *j, const char *path, struct tb_turn *t)
{
	if (expect(x, j, cJSON_IsObject(j), path, "a turn object"))
		return -1;
	const cJSON *tt = need_member(x, j, "turn_type", path);
	if (!tt || expect(x, tt, cJSON_IsString(tt), "turn_type", "a string"))
		return -1;
	memset(t, 0, sizeof *t);
	const char *s = tt->valuestring;
	if (!strcmp(s, "Placement")) {
		int bug;
		const cJSON *pt = need_member(x, j, "piece_type", path);
		t->type = TB_PLACEMENT;
		if (!pt || get_bug(x, pt, "piece_type", &bug))
			return -1;
		t->bug = (uint8_t)bug;
		return get_pos(x, j, "destination", path, &t->dst);
	}
	if (!strcmp(s, "Movement")) {
		t->type = TB_MOVEMENT;
		return get_pos(x, j, "source", path, &t->src) || get_pos(x, j, "destination", path, &t->dst)
		       ? -1 : 0;
	}
	if (!strcmp(s, "Special Ability")) {
		t->type = TB_ABILITY;
		return get_pos(x, j, "ability_user", path, &t->user) ||
		       get_pos(x, j, "source", path, &t->src) ||
		       get_pos(x, j, "destination", path, &t->dst) ? -1 : 0;
	}
	if (!strcmp(s, "Forfeit")) {
		t->type = TB_FORFEIT;
		return 0;
	}
	errbuf_set(x->err, x->errlen, "%s.turn_type: unknown turn type \"%.40s\"", path, s);
	return -1;
}

static int add_or_nomem(struct ctx *x, struct tb_turns *l, const struct tb_turn *t)
{
	if (++x->listed > TB_POSSIBLE_MAX) {
		errbuf_set(x->err, x->errlen, "possible_turns: more than %d entries", TB_POSSIBLE_MAX);
		return -1;
	}
	if (tb_turns_add(l, t)) {
		errbuf_set(x->err, x->errlen, "out of memory");
		return -1;
	}
	return 0;
}

static int parse_placements(struct ctx *x, const cJSON *pl, struct tb_turns *out)
{
	const cJSON *types = need_member(x, pl, "piece_types", "possible_turns.Placement");
	const cJSON *poss = need_member(x, pl, "positions", "possible_turns.Placement");
	if (!types || !poss ||
	    expect(x, types, cJSON_IsArray(types), "possible_turns.Placement.piece_types", "an array") ||
	    expect(x, poss, cJSON_IsArray(poss), "possible_turns.Placement.positions", "an array"))
		return -1;
	const cJSON *tj, *pj;
	unsigned seen = 0;
	cJSON_ArrayForEach(tj, types) {
		int bug;
		if (get_bug(x, tj, "possible_turns.Placement.piece_types[]", &bug))
			return -1;
		if (seen >> bug & 1)
			continue;
		seen |= 1u << bug;
		cJSON_ArrayForEach(pj, poss) {
			struct tb_turn t = { .type = TB_PLACEMENT, .bug = (uint8_t)bug };
			if (expect(x, pj, cJSON_IsString(pj), "possible_turns.Placement.positions[]", "a string"))
				return -1;
			if (pos_of_key(x, pj->valuestring, "possible_turns.Placement.positions[]", &t.dst) ||
			    add_or_nomem(x, out, &t))
				return -1;
		}
	}
	return 0;
}

/* An array of destination strings, each added as base + dst. */
static int parse_dsts(struct ctx *x, const cJSON *arr, const char *path, struct tb_turn base,
		      struct tb_turns *out)
{
	const cJSON *d;
	if (expect(x, arr, cJSON_IsArray(arr), path, "an array of positions"))
		return -1;
	cJSON_ArrayForEach(d, arr) {
		if (expect(x, d, cJSON_IsString(d), path, "a position string") ||
		    pos_of_key(x, d->valuestring, path, &base.dst) || add_or_nomem(x, out, &base))
			return -1;
	}
	return 0;
}

/* A turn with the fields its type does not use cleared, so that equal turns
 * (tb_turn_eq) compare equal field by field. */
static struct tb_turn turn_key(const struct tb_turn *t)
{
	struct tb_turn k;
	memset(&k, 0, sizeof k);
	k.type = t->type;
	if (t->type == TB_PLACEMENT)
		k.bug = t->bug;
	if (t->type == TB_ABILITY)
		k.user = t->user;
	if (t->type == TB_MOVEMENT || t->type == TB_ABILITY)
		k.src = t->src;
	if (t->type != TB_FORFEIT)
		k.dst = t->dst;
	return k;
}

static uint32_t key_hash(const struct tb_turn *k)
{
	uint32_t h = (uint32_t)k->type * 0x9e3779b1u ^ k->bug;
	const int32_t f[6] = { k->user.row, k->user.col, k->src.row, k->src.col, k->dst.row, k->dst.col };
	for (int i = 0; i < 6; i++)
		h = (h ^ (uint32_t)f[i]) * 0x01000193u;
	return h ^ h >> 15;
}

/* Slots of the de-duplication table kept on the stack (real lists are far shorter). */
#define DEDUP_STACK 1024
_Static_assert(TB_POSSIBLE_MAX < 65535, "possible_turns indices fit the table's slots");

/* Drops repeated turns, keeping the first of each in its place: a hash table of the
 * kept ones (indices + 1, 0 = empty), so a long list costs n, not n^2, and a usual
 * one no malloc. -1 when memory runs out. */
int tb_turns_dedup(struct tb_turns *l)
{
	uint16_t local[DEDUP_STACK], *slot = local;
	size_t size = 16, n = 0;
	if (l->n < 2)
		return 0;
	while (size < 2 * l->n)
		size *= 2;
	if (size > DEDUP_STACK && !(slot = malloc(size * sizeof *slot)))
		return -1;
	memset(slot, 0, size * sizeof *slot);
	for (size_t i = 0; i < l->n; i++) {
		struct tb_turn k = turn_key(&l->v[i]);
		size_t at = key_hash(&k) & (size - 1);
		for (; slot[at]; at = (at + 1) & (size - 1)) {
			struct tb_turn kept = turn_key(&l->v[slot[at] - 1]);
			if (tb_turn_eq(&kept, &k))
				break;
		}
		if (slot[at])
			continue;                    /* a repeat */
		l->v[n] = l->v[i];
		slot[at] = (uint16_t)++n;
	}
	l->n = n;
	if (slot != local)
		free(slot);
	return 0;
}

static int parse_possible_all(struct ctx *x, const cJSON *pt, struct tb_turns *out);

static int parse_possible(struct ctx *x, const cJSON *pt, struct tb_turns *out)
{
	if (parse_possible_all(x, pt, out))
		return -1;
	if (tb_turns_dedup(out)) {
		errbuf_set(x->err, x->errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* Every listed turn, repeats included (parse_possible drops them). */
static int parse_possible_all(struct ctx *x, const cJSON *pt, struct tb_turns *out)
{
	const cJSON *j;
	if (!pt || cJSON_IsNull(pt))
		return 0;
	if (expect(x, pt, cJSON_IsObject(pt), "possible_turns", "an object or null"))
		return -1;
	if ((j = member(pt, "Placement")) && !cJSON_IsNull(j)) {
		if (expect(x, j, cJSON_IsObject(j), "possible_turns.Placement", "an object") ||
		    parse_placements(x, j, out))
			return -1;
	}
	if ((j = member(pt, "Movement")) && !cJSON_IsNull(j)) {
		const cJSON *src;
		if (expect(x, j, cJSON_IsObject(j), "possible_turns.Movement", "an object"))
			return -1;
		cJSON_ArrayForEach(src, j) {
			struct tb_turn t = { .type = TB_MOVEMENT };
			if (pos_of_key(x, src->string, "possible_turns.Movement", &t.src) ||
			    parse_dsts(x, src, "possible_turns.Movement[]", t, out))
				return -1;
		}
	}
	if ((j = member(pt, "Special Ability")) && !cJSON_IsNull(j)) {
		const cJSON *user, *src;
		if (expect(x, j, cJSON_IsObject(j), "possible_turns.Special Ability", "an object"))
			return -1;
		cJSON_ArrayForEach(user, j) {
			struct tb_turn t = { .type = TB_ABILITY };
			if (pos_of_key(x, user->string, "possible_turns.Special Ability", &t.user) ||
			    expect(x, user, cJSON_IsObject(user), "possible_turns.Special Ability[]", "an object"))
				return -1;
			cJSON_ArrayForEach(src, user) {
				if (pos_of_key(x, src->string, "possible_turns.Special Ability[][]", &t.src) ||
				    parse_dsts(x, src, "possible_turns.Special Ability[][]", t, out))
					return -1;
			}
		}
	}
	if ((j = member(pt, "Forfeit")) && cJSON_IsTrue(j)) {
		struct tb_turn t = { .type = TB_FORFEIT };
		if (add_or_nomem(x, out, &t))
			return -1;
	}
	return 0;
}

/*
 * game_state.
 */

static int parse_board(struct ctx *x, const cJSON *board, struct tb_state *st)
{
	const cJSON *pieces, *cell, *pj;
	if (expect(x, board, cJSON_IsObject(board), "game_state.board", "an object"))
		return -1;
	pieces = need_member(x, board, "pieces", "game_state.board");
	if (!pieces || expect(x, pieces, cJSON_IsObject(pieces), "game_state.board.pieces", "an object"))
		return -1;
	cJSON_ArrayForEach(cell, pieces) {
		struct tb_stack s = { .height = 0 };
		if (st->nstacks == HIVE_PIECES) {
			errbuf_set(x->err, x->errlen, "game_state.board.pieces: more than %d cells", HIVE_PIECES);
			return -1;
		}
		if (pos_of_key(x, cell->string, "game_state.board.pieces", &s.pos) ||
		    expect(x, cell, cJSON_IsArray(cell), "game_state.board.pieces[]", "an array"))
			return -1;
		for (size_t i = 0; i < st->nstacks; i++)
			if (tb_pos_eq(st->stack[i].pos, s.pos)) {
				errbuf_set(x->err, x->errlen, "game_state.board.pieces: cell \"%.40s\" twice", cell->string);
				return -1;
			}
		cJSON_ArrayForEach(pj, cell) {
			const cJSON *c, *t;
			int color, bug;
			if (s.height == HIVE_MAX_STACK) {
				errbuf_set(x->err, x->errlen, "game_state.board.pieces[\"%.40s\"]: stack higher than %d",
					   cell->string, HIVE_MAX_STACK);
				return -1;
			}
			if (expect(x, pj, cJSON_IsObject(pj), "game_state.board.pieces[][]", "a piece object"))
				return -1;
			c = need_member(x, pj, "color", "game_state.board.pieces[][]");
			t = need_member(x, pj, "type", "game_state.board.pieces[][]");
			if (!c || !t || expect(x, c, cJSON_IsString(c), "color", "a string") ||
			    get_bug(x, t, "game_state.board.pieces[][].type", &bug))
				return -1;
			if ((color = tb_color_parse(c->valuestring)) < 0) {
				errbuf_set(x->err, x->errlen, "game_state.board.pieces[][].color: unknown colour \"%.40s\"",
					   c->valuestring);
				return -1;
			}
			s.piece[s.height].color = (uint8_t)color;
			s.piece[s.height].bug = (uint8_t)bug;
			s.height++;
		}
		if (!s.height) {
			errbuf_set(x->err, x->errlen, "game_state.board.pieces[\"%.40s\"]: empty stack", cell->string);
			return -1;
		}
		st->stack[st->nstacks++] = s;
	}
	return 0;
}

static int parse_hands(struct ctx *x, const cJSON *hands, struct tb_state *st)
{
	if (expect(x, hands, cJSON_IsObject(hands), "game_state.hands", "an object"))
		return -1;
	for (int color = 0; color < 2; color++) {
		const cJSON *h = member(hands, tb_color_names[color]), *e;
		if (!h)
			continue;
		if (expect(x, h, cJSON_IsObject(h), tb_color_names[color], "an object of counts"))
			return -1;
		cJSON_ArrayForEach(e, h) {
			int bug = tb_bug_parse(e->string);
			double n;
			if (bug < 0) {
				errbuf_set(x->err, x->errlen, "game_state.hands.%s: unknown piece type \"%.40s\"",
					   tb_color_names[color], e->string);
				return -1;
			}
			if (get_int(x, e, "game_state.hands[][]", 0, tb_bug_count[bug], &n))
				return -1;
			st->hand[color][bug] = (uint8_t)n;
		}
	}
	return 0;
}

static int parse_creation(struct ctx *x, const cJSON *cp, unsigned *type)
{
	static const char *const keys[3] = { "use_mosquito", "use_ladybug", "use_pillbug" };
	*type = 0;
	if (!cp || cJSON_IsNull(cp))
		return 0;
	if (expect(x, cp, cJSON_IsObject(cp), "game_state.creation_parameters", "an object"))
		return -1;
	for (int i = 0; i < 3; i++) {
		const cJSON *j = member(cp, keys[i]);
		if (!j || cJSON_IsNull(j))
			continue;
		if (expect(x, j, cJSON_IsBool(j), keys[i], "a boolean"))
			return -1;
		if (cJSON_IsTrue(j))
			*type |= 1u << i;
	}
	return 0;
}

/* The turns a request's turn_history starts with when its JSON lists only the rest
 * (tb_request_parse_next); more: it must list at least one. */
struct history_pre {
	const struct tb_turns *turns;
	int                    more;
};

static int parse_state(struct ctx *x, const cJSON *gs, struct tb_state *st, const struct history_pre *pre)
{
	const cJSON *j;
	double n;
	int color;
	if (expect(x, gs, cJSON_IsObject(gs), "game_state", "an object"))
		return -1;
	if (parse_creation(x, member(gs, "creation_parameters"), &st->type))
		return -1;
	if (!(j = need_member(x, gs, "board", "game_state")) || parse_board(x, j, st))
		return -1;
	if (!(j = need_member(x, gs, "hands", "game_state")) || parse_hands(x, j, st))
		return -1;
	for (int c = 0; c < 2; c++)
		for (int b = 0; b < HIVE_BUGS; b++)
			if (st->hand[c][b] && !tb_bug_enabled(st->type, b)) {
				errbuf_set(x->err, x->errlen, "game_state.hands.%s: %s is not in this game",
					   tb_color_names[c], bug_names[b]);
				return -1;
			}
	if (!(j = need_member(x, gs, "player_turn", "game_state")) ||
	    expect(x, j, cJSON_IsString(j), "game_state.player_turn", "a colour"))
		return -1;
	if ((color = tb_color_parse(j->valuestring)) < 0) {
		errbuf_set(x->err, x->errlen, "game_state.player_turn: unknown colour \"%.40s\"", j->valuestring);
		return -1;
	}
	st->player = color;
	if (!(j = need_member(x, gs, "turn_number", "game_state")) ||
	    get_int(x, j, "game_state.turn_number", 0, 1e9, &n))
		return -1;
	st->turn_number = (long)n;
	j = member(gs, "turn_history");
	if (pre) {
		/* What the cache says the text started with (the caller redoes it all on
		 * any failure, for the errors). */
		if (!cJSON_IsArray(j) || (pre->more && !j->child))
			return -1;
		for (size_t i = 0; i < pre->turns->n; i++)
			if (tb_turns_add(&st->history, &pre->turns->v[i]))
				return -1;
	}
	if (j && !cJSON_IsNull(j)) {
		const cJSON *t;
		if (expect(x, j, cJSON_IsArray(j), "game_state.turn_history", "an array"))
			return -1;
		cJSON_ArrayForEach(t, j) {
			struct tb_turn turn;
			char path[48];
			if (parse_turn(x, t, "game_state.turn_history[]", &turn)) {
				/* The path with the index only for the error: no printf per turn. */
				snprintf(path, sizeof path, "game_state.turn_history[%zu]", st->history.n);
				parse_turn(x, t, path, &turn);
				return -1;
			}
			if (tb_turns_add(&st->history, &turn)) {
				errbuf_set(x->err, x->errlen, "out of memory");
				return -1;
			}
		}
	}
	return parse_possible(x, member(gs, "possible_turns"), &st->possible);
}

/* A millisecond timestamp; null and absent are 0. */
static int opt_ms(struct ctx *x, const cJSON *obj, const char *key, int64_t *v)
{
	const cJSON *j = member(obj, key);
	double d;
	*v = 0;
	if (!j || cJSON_IsNull(j))
		return 0;
	if (get_int(x, j, key, 0, 9007199254740992.0, &d))
		return -1;
	*v = (int64_t)d;
	return 0;
}

/* The raw token of the top-level member key of a JSON object text that cJSON has
 * accepted (so the scan needs no error checks beyond staying in bounds). The first
 * member named key wins, as in cJSON_GetObjectItemCaseSensitive. Malloc'd, or NULL. */
static const char *skip_ws(const char *p, const char *e)
{
	/* What cJSON skips: every byte up to ' ', not only JSON's four. */
	while (p < e && (unsigned char)*p <= ' ')
		p++;
	return p;
}

static const char *string_end(const char *p, const char *e)
{
	for (p++; p < e; p++) {
		if (*p == '\\')
			p++;
		else if (*p == '"')
			return p + 1;
	}
	return e;
}

static const char *value_end(const char *p, const char *e)
{
	int depth = 0;
	while (p < e) {
		char c = *p;
		if (c == '"') {
			p = string_end(p, e);
			if (!depth)
				return p;
			continue;
		}
		if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			if (!depth)
				return p;
			if (!--depth)
				return p + 1;
		} else if (!depth && (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
			return p;
		}
		p++;
	}
	return p;
}

static int key_is(const char *tok, size_t n, const char *key)
{
	if (!memchr(tok, '\\', n))
		return n == strlen(key) + 2 && !memcmp(tok + 1, key, n - 2);
	cJSON *k = cJSON_ParseWithLength(tok, n);
	int eq = cJSON_IsString(k) && !strcmp(k->valuestring, key);
	cJSON_Delete(k);
	return eq;
}

/* The span [*v, *vend) of the first member key of the object text at [p, e); -1 if
 * there is none. vend may be NULL: its value is not scanned then. */
static int member_span(const char *p, const char *e, const char *key, const char **v, const char **vend)
{
	const char *end;
	p = skip_ws(p, e);
	if (p == e || *p != '{')
		return -1;
	for (p = skip_ws(p + 1, e); p < e && *p == '"';) {
		const char *k = p, *kend = string_end(p, e);
		p = skip_ws(kend, e);
		if (p == e || *p != ':')
			return -1;
		*v = skip_ws(p + 1, e);
		if (key_is(k, (size_t)(kend - k), key)) {
			if (vend)
				*vend = value_end(*v, e);
			return 0;
		}
		end = value_end(*v, e);
		p = skip_ws(end, e);
		if (p == e || *p != ',')
			return -1;
		p = skip_ws(p + 1, e);
	}
	return -1;
}

static char *raw_member(const char *json, size_t len, const char *key)
{
	const char *v, *vend;
	return member_span(json, json + len, key, &v, &vend) ? NULL : strndup(v, (size_t)(vend - v));
}

void tb_request_free(struct tb_request *rq)
{
	free(rq->request_id);
	free(rq->game_id);
	free(rq->request_id_json);
	free(rq->game_id_json);
	free(rq->system_version);
	tb_state_free(&rq->state);
	memset(rq, 0, sizeof *rq);
}

static int request_parse(const char *json, size_t len, struct tb_request *rq, const struct history_pre *pre,
			 char *err, size_t errlen)
{
	struct ctx x = { err, errlen, 0 };
	const cJSON *j;
	memset(rq, 0, sizeof *rq);
	cJSON *root = parse_text(&x, json, len);
	if (!root)
		return -1;
	j = member(root, "request_type");
	if (!j) {
		errbuf_set(err, errlen, "message: no \"request_type\" (not a Trylobot request)");
		goto fail;
	}
	if (expect(&x, j, cJSON_IsString(j), "request_type", "a string"))
		goto fail;
	if (!strcmp(j->valuestring, "Greetings")) {
		rq->type = TB_REQ_GREETINGS;
	} else if (!strcmp(j->valuestring, "Choose Turn")) {
		rq->type = TB_REQ_CHOOSE_TURN;
	} else {
		errbuf_set(err, errlen, "request_type: unknown request \"%.40s\"", j->valuestring);
		goto fail;
	}
	if (opt_string(&x, root, "request_id", &rq->request_id) ||
	    opt_string(&x, root, "game_id", &rq->game_id) ||
	    opt_string(&x, root, "system_version", &rq->system_version) ||
	    opt_ms(&x, root, "request_timestamp", &rq->request_timestamp) ||
	    opt_ms(&x, root, "response_deadline", &rq->response_deadline))
		goto fail;
	if ((rq->request_id && !(rq->request_id_json = raw_member(json, len, "request_id"))) ||
	    (rq->game_id && !(rq->game_id_json = raw_member(json, len, "game_id")))) {
		errbuf_set(err, errlen, "out of memory");
		goto fail;
	}
	if (rq->type == TB_REQ_CHOOSE_TURN) {
		j = need_member(&x, root, "game_state", "Choose Turn request");
		if (!j || parse_state(&x, j, &rq->state, pre))
			goto fail;
	} else if (pre) {
		goto fail;
	}
	cJSON_Delete(root);
	return 0;
fail:
	cJSON_Delete(root);
	tb_request_free(rq);
	return -1;
}

int tb_request_parse(const char *json, size_t len, struct tb_request *rq, char *err, size_t errlen)
{
	return request_parse(json, len, rq, NULL, err, errlen);
}

void tb_parse_cache_free(struct tb_parse_cache *c)
{
	free(c->text);
	free(c->buf);
	tb_turns_free(&c->turns);
	memset(c, 0, sizeof *c);
}

/* The span of game_state.turn_history in a request text; -1 if there is none. */
static int history_span(const char *json, size_t len, const char **h, const char **hend)
{
	const char *g;
	/* game_state's end is not needed: turn_history is found inside it first. */
	if (member_span(json, json + len, "game_state", &g, NULL) ||
	    member_span(g, json + len, "turn_history", h, hend) || *h == *hend || **h != '[')
		return -1;
	return 0;
}

/*
 * The request without the turns the cache has (in c->buf): when turn_history's text starts with
 * the cached text (every cached turn, byte for byte: they parse the same) and goes on
 * with ',' or ']', it is json with "[" + the rest of the history in its place. cJSON
 * then checks the rest where it stands (same nesting), and the whole text is valid
 * exactly when that one is (the cached part was checked in the same place before),
 * given that the rest lists a turn after a ','. Malloc'd, or NULL to parse it all.
 */
static char *history_skip(const char *json, size_t len, struct tb_parse_cache *c,
			  const char *h, const char *hend, size_t *outlen, int *more)
{
	if (!c->turns.n || (size_t)(hend - h) <= c->len || memcmp(h, c->text, c->len))
		return NULL;
	const char *r = skip_ws(h + c->len, hend);
	if (r == hend || (*r != ',' && *r != ']'))
		return NULL;
	*more = *r == ',';
	r += *more;
	size_t head = (size_t)(h - json) + 1, tail = len - (size_t)(r - json);
	if (head + tail + 1 > c->bufcap) {
		char *b = realloc(c->buf, head + tail + 1);
		if (!b)
			return NULL;
		c->buf = b;
		c->bufcap = head + tail + 1;
	}
	char *out = c->buf;
	memcpy(out, json, head);
	memcpy(out + head, r, tail);
	out[head + tail] = 0;
	*outlen = head + tail;
	return out;
}

/* The longest turn_history text a connection keeps: a real game's is a few tens of KB
 * (some 60 bytes a turn); a longer one is parsed whole each time, so that a peer's
 * largest frames do not stay with every connection it opens. */
#define CACHE_TEXT_MAX (128u << 10)

/* Keeps a parsed request's turn_history, its text up to the last turn's end. */
static void history_keep(struct tb_parse_cache *c, const char *h, const char *hend,
			 const struct tb_turns *turns)
{
	const char *e = hend - 1;           /* the ']' */
	c->turns.n = 0;
	if (!turns->n || hend - h < 2 || *e != ']' || (size_t)(hend - h) > CACHE_TEXT_MAX)
		return;
	while (e > h && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		e--;
	size_t n = (size_t)(e - h);
	if (n + 1 > c->cap) {
		char *t = realloc(c->text, n + 1);
		if (!t)
			return;
		c->text = t;
		c->cap = n + 1;
	}
	for (size_t i = 0; i < turns->n; i++)
		if (tb_turns_add(&c->turns, &turns->v[i])) {
			c->turns.n = 0;
			return;
		}
	memcpy(c->text, h, n);
	c->len = n;
}

/* Plain requests take the fast reader (trylobot_fast.c); whatever it is not sure of,
 * this file's cJSON reader, past the cached turns when it can. */
int tb_request_parse_next(const char *json, size_t len, struct tb_request *rq, struct tb_parse_cache *c,
			  char *err, size_t errlen)
{
	const char *h = NULL, *hend = NULL;
	if (!tb_fast_request(json, len, rq, c, &h, &hend)) {
		if (h)
			history_keep(c, h, hend, &rq->state.history);
		else
			c->turns.n = 0;
		return 0;
	}
	tb_request_free(rq);
	int rc = -1, found = !history_span(json, len, &h, &hend);
	if (found) {
		struct history_pre pre = { &c->turns, 0 };
		size_t mlen;
		char *mod = history_skip(json, len, c, h, hend, &mlen, &pre.more);
		if (mod)
			rc = request_parse(mod, mlen, rq, &pre, err, errlen);
		/* Rare now (the fast path takes plain requests): no need to keep its room. */
		free(c->buf);
		c->buf = NULL;
		c->bufcap = 0;
	}
	/* No cache, or anything amiss: all of it, for the result and the errors. */
	if (rc < 0)
		rc = request_parse(json, len, rq, NULL, err, errlen);
	if (rc == 0 && found)
		history_keep(c, h, hend, &rq->state.history);
	else
		c->turns.n = 0;
	return rc;
}

void tb_response_free(struct tb_response *rs)
{
	free(rs->name);
	free(rs->long_name);
	free(rs->version);
	free(rs->description);
	free(rs->error);
	memset(rs, 0, sizeof *rs);
}

int tb_response_parse(const char *json, size_t len, struct tb_response *rs, char *err, size_t errlen)
{
	struct ctx x = { err, errlen, 0 };
	const cJSON *j;
	memset(rs, 0, sizeof *rs);
	cJSON *root = parse_text(&x, json, len);
	if (!root)
		return -1;
	/* json-socket's error frame, and any answer with an error: the core treats a
	 * truthy "error" as a failed turn, so do we. */
	j = member(root, "error");
	if ((j && !cJSON_IsNull(j) && !cJSON_IsFalse(j)) || cJSON_IsFalse(member(root, "success"))) {
		rs->type = TB_RESP_ERROR;
		rs->error = strdup(cJSON_IsString(j) ? j->valuestring : "(no message)");
		if (!rs->error) {
			errbuf_set(err, errlen, "out of memory");
			goto fail;
		}
	} else if (member(root, "turn_type")) {
		rs->type = TB_RESP_TURN;
		if (parse_turn(&x, root, "answer", &rs->turn))
			goto fail;
	} else if ((j = member(root, "response_type")) && cJSON_IsString(j) &&
		   !strcmp(j->valuestring, "Greetings")) {
		rs->type = TB_RESP_GREETINGS;
		j = member(root, "active");
		/* The core only asks for a truthy "active". */
		rs->active = j && !cJSON_IsFalse(j) && !cJSON_IsNull(j) &&
			     !(cJSON_IsNumber(j) && j->valuedouble == 0) &&
			     !(cJSON_IsString(j) && !*j->valuestring);
		if (opt_string(&x, root, "name", &rs->name) ||
		    opt_string(&x, root, "long_name", &rs->long_name) ||
		    opt_string(&x, root, "version", &rs->version) ||
		    opt_string(&x, root, "description", &rs->description))
			goto fail;
	} else {
		errbuf_set(err, errlen, "message: neither a turn, a Greetings answer nor an error frame");
		goto fail;
	}
	cJSON_Delete(root);
	return 0;
fail:
	cJSON_Delete(root);
	tb_response_free(rs);
	return -1;
}

/*
 * Builders. cJSON_Add* return NULL on failure; one check at the end of each builder
 * would miss a failed nested add, so each helper checks as it goes.
 */

static int add_str(cJSON *obj, const char *key, const char *s)
{
	return cJSON_AddStringToObject(obj, key, s) ? 0 : -1;
}

static int add_pos(cJSON *obj, const char *key, struct tb_pos p)
{
	char buf[24];
	return add_str(obj, key, tb_pos_format(p, buf, sizeof buf));
}

/* Appends a position string to an array. */
static int push_pos(cJSON *arr, struct tb_pos p)
{
	char buf[24];
	cJSON *s = cJSON_CreateString(tb_pos_format(p, buf, sizeof buf));
	return s && cJSON_AddItemToArray(arr, s) ? 0 : -1;
}

static int fill_turn(cJSON *o, const struct tb_turn *t)
{
	if (t->type > TB_FORFEIT || add_str(o, "turn_type", turn_names[t->type]))
		return -1;
	switch (t->type) {
	case TB_PLACEMENT:
		if (!tb_bug_name(t->bug))
			return -1;
		return add_str(o, "piece_type", bug_names[t->bug]) || add_pos(o, "destination", t->dst);
	case TB_MOVEMENT:
		return add_pos(o, "source", t->src) || add_pos(o, "destination", t->dst);
	case TB_ABILITY:
		return add_pos(o, "ability_user", t->user) || add_pos(o, "source", t->src) ||
		       add_pos(o, "destination", t->dst);
	default:
		return 0;
	}
}

cJSON *tb_turn_json(const struct tb_turn *t)
{
	cJSON *o = cJSON_CreateObject();
	if (o && fill_turn(o, t)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

cJSON *tb_turn_answer_json(const struct tb_turn *t, const char *response_id, const char *game_id)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || fill_turn(o, t) || add_str(o, "response_type", "Choose Turn") ||
	    (response_id && add_str(o, "response_id", response_id)) ||
	    (game_id && add_str(o, "game_id", game_id))) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

cJSON *tb_greetings_answer_json(const struct tb_identity *id, const char *response_id)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || add_str(o, "response_type", "Greetings") ||
	    (response_id && add_str(o, "response_id", response_id)) ||
	    (id->name && add_str(o, "name", id->name)) ||
	    !cJSON_AddTrueToObject(o, "active") ||
	    (id->version && add_str(o, "version", id->version)) ||
	    (id->long_name && add_str(o, "long_name", id->long_name)) ||
	    (id->description && add_str(o, "description", id->description)) ||
	    (id->author && add_str(o, "author", id->author)) ||
	    (id->project_url && add_str(o, "project_url", id->project_url)) ||
	    add_str(o, "language", "C")) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

cJSON *tb_greetings_request_json(const char *request_id, const char *system_version)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || add_str(o, "request_type", "Greetings") ||
	    (request_id && add_str(o, "request_id", request_id)) ||
	    (system_version && add_str(o, "system_version", system_version))) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

cJSON *tb_error_json(const char *msg)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_AddFalseToObject(o, "success") || add_str(o, "error", msg)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

static int echo_id(cJSON *msg, const char *key, const char *raw)
{
	if (!raw || !cJSON_GetObjectItemCaseSensitive(msg, key))
		return 0;
	cJSON *r = cJSON_CreateRaw(raw);
	if (!r)
		return -1;
	if (!cJSON_ReplaceItemInObjectCaseSensitive(msg, key, r)) {
		cJSON_Delete(r);
		return -1;
	}
	return 0;
}

int tb_echo_ids(cJSON *msg, const struct tb_request *rq)
{
	return echo_id(msg, "response_id", rq->request_id_json) ||
	       echo_id(msg, "game_id", rq->game_id_json) ? -1 : 0;
}

/* Appends n bytes at *o if they fit before e. */
static int put(char **o, const char *e, const char *s, size_t n)
{
	if ((size_t)(e - *o) < n)
		return -1;
	memcpy(*o, s, n);
	*o += n;
	return 0;
}

#define PUT(o, e, lit) put(o, e, lit, sizeof lit - 1)

/* "key":"r,c" after a ','. */
static int put_pos(char **o, const char *e, const char *key, struct tb_pos p)
{
	char buf[24];
	tb_pos_format(p, buf, sizeof buf);
	return PUT(o, e, ",\"") || put(o, e, key, strlen(key)) || PUT(o, e, "\":\"") ||
	       put(o, e, buf, strlen(buf)) || PUT(o, e, "\"");
}

char *tb_turn_answer_frame(const struct tb_turn *t, const struct tb_request *rq, size_t *outlen)
{
	const char *rid = rq->request_id ? rq->request_id_json : NULL;
	const char *gid = rq->game_id ? rq->game_id_json : NULL;
	if ((rq->request_id && !rid) || (rq->game_id && !gid) || t->type > TB_FORFEIT ||
	    (t->type == TB_PLACEMENT && !tb_bug_name(t->bug))) {
		/* Ids without their tokens (not from a parse): cJSON prints them. */
		size_t len;
		cJSON *msg = tb_turn_answer_json(t, rq->request_id, rq->game_id);
		char *frame = msg && !tb_echo_ids(msg, rq) ? tb_frame_build(msg, &len) : NULL;
		cJSON_Delete(msg);
		if (frame && outlen)
			*outlen = len;
		return frame;
	}
	/* cJSON's order: the turn's keys, response_type, response_id, game_id. */
	size_t cap = 256 + (rid ? strlen(rid) : 0) + (gid ? strlen(gid) : 0);
	char *buf = malloc(cap), *o = buf, *e = buf + cap;
	if (!buf)
		return NULL;
	const char *type = turn_names[t->type];
	int bad = PUT(&o, e, "{\"turn_type\":\"") || put(&o, e, type, strlen(type)) || PUT(&o, e, "\"");
	switch (t->type) {
	case TB_PLACEMENT:
		bad = bad || PUT(&o, e, ",\"piece_type\":\"") || put(&o, e, bug_names[t->bug], strlen(bug_names[t->bug])) ||
		      PUT(&o, e, "\"") || put_pos(&o, e, "destination", t->dst);
		break;
	case TB_MOVEMENT:
		bad = bad || put_pos(&o, e, "source", t->src) || put_pos(&o, e, "destination", t->dst);
		break;
	case TB_ABILITY:
		bad = bad || put_pos(&o, e, "ability_user", t->user) || put_pos(&o, e, "source", t->src) ||
		      put_pos(&o, e, "destination", t->dst);
		break;
	default:
		break;
	}
	bad = bad || PUT(&o, e, ",\"response_type\":\"Choose Turn\"") ||
	      (rid && (PUT(&o, e, ",\"response_id\":") || put(&o, e, rid, strlen(rid)))) ||
	      (gid && (PUT(&o, e, ",\"game_id\":") || put(&o, e, gid, strlen(gid)))) || PUT(&o, e, "}");
	char *frame = bad ? NULL : tb_frame_encode(buf, (size_t)(o - buf), outlen);
	free(buf);
	return frame;
}

/* The object member for a position key, created as an empty array/object if new. */
static cJSON *keyed(cJSON *obj, struct tb_pos p, int array)
{
	char buf[24];
	tb_pos_format(p, buf, sizeof buf);
	cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, buf);
	if (j)
		return j;
	j = array ? cJSON_CreateArray() : cJSON_CreateObject();
	if (j && !cJSON_AddItemToObject(obj, buf, j)) {
		cJSON_Delete(j);
		return NULL;
	}
	return j;
}

static int build_placements(cJSON *pt, const struct tb_turns *l)
{
	unsigned bugs = 0;
	size_t nplace = 0, npos = 0, nbugs = 0;
	cJSON *pl = cJSON_AddObjectToObject(pt, "Placement");
	cJSON *types = pl ? cJSON_AddArrayToObject(pl, "piece_types") : NULL;
	cJSON *poss = pl ? cJSON_AddArrayToObject(pl, "positions") : NULL;
	if (!types || !poss)
		return -1;
	for (size_t i = 0; i < l->n; i++) {
		const struct tb_turn *t = &l->v[i];
		if (t->type != TB_PLACEMENT)
			continue;
		nplace++;
		bugs |= 1u << t->bug;
		int seen = 0;
		for (size_t k = 0; k < i && !seen; k++)
			seen = l->v[k].type == TB_PLACEMENT && tb_pos_eq(l->v[k].dst, t->dst);
		if (!seen) {
			npos++;
			if (push_pos(poss, t->dst))
				return -1;
		}
	}
	for (int k = 0; k < HIVE_BUGS; k++) {
		int b = tb_bug_order[k];
		if (!(bugs >> b & 1))
			continue;
		nbugs++;
		cJSON *s = cJSON_CreateString(bug_names[b]);
		if (!s || !cJSON_AddItemToArray(types, s))
			return -1;
	}
	/* Trylobot can only say "every type to every position". */
	return nplace == nbugs * npos ? 0 : -1;
}

cJSON *tb_possible_json(const struct tb_turns *l)
{
	if (!l->n)
		return cJSON_CreateNull();
	cJSON *pt = cJSON_CreateObject(), *mv = NULL, *sa = NULL;
	if (!pt)
		return NULL;
	/* Trylobot's key order: Placement, Movement, Special Ability, Forfeit. */
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].type == TB_PLACEMENT) {
			if (build_placements(pt, l))
				goto fail;
			break;
		}
	for (size_t i = 0; i < l->n; i++) {
		const struct tb_turn *t = &l->v[i];
		cJSON *a;
		switch (t->type) {
		case TB_PLACEMENT:
			break;
		case TB_MOVEMENT:
			if (!mv && !(mv = cJSON_AddObjectToObject(pt, "Movement")))
				goto fail;
			if (!(a = keyed(mv, t->src, 1)) || push_pos(a, t->dst))
				goto fail;
			break;
		case TB_ABILITY:
			if (!sa && !(sa = cJSON_AddObjectToObject(pt, "Special Ability")))
				goto fail;
			if (!(a = keyed(sa, t->user, 0)) || !(a = keyed(a, t->src, 1)) || push_pos(a, t->dst))
				goto fail;
			break;
		case TB_FORFEIT:
			/* Trylobot offers it only when nothing else is; built from the
			 * core it is alone, and a parsed list is written back as it was. */
			if (!cJSON_AddTrueToObject(pt, "Forfeit"))
				goto fail;
			break;
		default:
			goto fail;
		}
	}
	return pt;
fail:
	cJSON_Delete(pt);
	return NULL;
}

static cJSON *state_json(const struct tb_state *st)
{
	cJSON *gs = cJSON_CreateObject(), *j, *k;
	if (!gs)
		return NULL;
	/* board.pieces: stacks bottom to top. */
	if (!(j = cJSON_AddObjectToObject(gs, "board")) || !(j = cJSON_AddObjectToObject(j, "pieces")))
		goto fail;
	for (size_t i = 0; i < st->nstacks; i++) {
		const struct tb_stack *s = &st->stack[i];
		cJSON *arr = keyed(j, s->pos, 1);
		if (!arr)
			goto fail;
		for (int h = 0; h < s->height; h++) {
			cJSON *pc = cJSON_CreateObject();
			if (!pc || !cJSON_AddItemToArray(arr, pc) ||
			    s->piece[h].color > 1 || s->piece[h].bug >= HIVE_BUGS ||
			    add_str(pc, "color", tb_color_names[s->piece[h].color]) ||
			    add_str(pc, "type", bug_names[s->piece[h].bug]))
				goto fail;
		}
	}
	/* hands: Trylobot's type order, zero counts omitted. */
	if (!(j = cJSON_AddObjectToObject(gs, "hands")))
		goto fail;
	for (int c = 0; c < 2; c++) {
		if (!(k = cJSON_AddObjectToObject(j, tb_color_names[c])))
			goto fail;
		for (int i = 0; i < HIVE_BUGS; i++) {
			int b = tb_bug_order[i];
			if (st->hand[c][b] && !cJSON_AddNumberToObject(k, bug_names[b], st->hand[c][b]))
				goto fail;
		}
	}
	if (st->player < 0 || st->player > 1 || add_str(gs, "player_turn", tb_color_names[st->player]) ||
	    !cJSON_AddNumberToObject(gs, "turn_number", (double)st->turn_number) ||
	    !cJSON_AddFalseToObject(gs, "game_over") || !cJSON_AddNullToObject(gs, "winner") ||
	    !cJSON_AddFalseToObject(gs, "is_draw"))
		goto fail;
	if (!(j = cJSON_AddObjectToObject(gs, "creation_parameters")) ||
	    !cJSON_AddBoolToObject(j, "use_mosquito", (st->type & HIVE_EXP_M) != 0) ||
	    !cJSON_AddBoolToObject(j, "use_ladybug", (st->type & HIVE_EXP_L) != 0) ||
	    !cJSON_AddBoolToObject(j, "use_pillbug", (st->type & HIVE_EXP_P) != 0))
		goto fail;
	if (!(j = cJSON_AddArrayToObject(gs, "turn_history")))
		goto fail;
	for (size_t i = 0; i < st->history.n; i++) {
		k = tb_turn_json(&st->history.v[i]);
		if (!k || !cJSON_AddItemToArray(j, k)) {
			cJSON_Delete(k);
			goto fail;
		}
	}
	k = tb_possible_json(&st->possible);
	if (!k || !cJSON_AddItemToObject(gs, "possible_turns", k)) {
		cJSON_Delete(k);
		goto fail;
	}
	return gs;
fail:
	cJSON_Delete(gs);
	return NULL;
}

cJSON *tb_request_json(const struct tb_request *rq)
{
	cJSON *o = cJSON_CreateObject(), *gs;
	if (!o)
		return NULL;
	if (rq->type == TB_REQ_GREETINGS) {
		cJSON_Delete(o);
		return tb_greetings_request_json(rq->request_id, rq->system_version);
	}
	if (add_str(o, "request_type", "Choose Turn") ||
	    (rq->request_id && add_str(o, "request_id", rq->request_id)) ||
	    (rq->game_id && add_str(o, "game_id", rq->game_id)) ||
	    !cJSON_AddNumberToObject(o, "request_timestamp", (double)rq->request_timestamp) ||
	    !(rq->response_deadline ? cJSON_AddNumberToObject(o, "response_deadline",
							      (double)rq->response_deadline)
				    : cJSON_AddNullToObject(o, "response_deadline")))
		goto fail;
	gs = state_json(&rq->state);
	if (!gs || !cJSON_AddItemToObject(o, "game_state", gs)) {
		cJSON_Delete(gs);
		goto fail;
	}
	return o;
fail:
	cJSON_Delete(o);
	return NULL;
}
