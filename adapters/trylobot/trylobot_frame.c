/*
 * trylobot_frame.c: Trylobot's framing, "<N>#<json>" with N in UTF-16 code units of
 * the JSON text (what JavaScript's .length says): writing a frame (ASCII only, so
 * that bytes and units agree) and the streaming reader, which checks the UTF-8 it
 * counts. Nothing here knows the messages (trylobot_parse.c reads them).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trylobot_codec.h"

enum { RD_HEADER, RD_PAYLOAD, RD_FAILED };

#define HEADER_MAX 20     /* digits; leading zeros must not make an endless header */

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
	size_t n, ascii = 0;
	while (ascii < len && p[ascii] < 0x80)
		ascii++;
	/* The escaped length: the text's own when there is nothing to escape (the usual
	 * answer). */
	n = ascii;
	for (size_t i = ascii; i < len;) {
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
	memcpy(out + hl, json, ascii);
	char *o = out + hl + ascii;
	for (size_t i = ascii; i < len;) {
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
