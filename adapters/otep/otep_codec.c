/*
 * otep_codec.c: the tokenizer and parser of OTEP lines with Hive contents, and the
 * checks of the Hive notation inside them that the writer (otep_write.c) shares.
 *
 * A line is bytes: tokens are runs of bytes above 0x20 separated by blanks (space,
 * tab, CR, VT, FF); only status and error carry free text, which runs to the end of
 * the line. Hive notation inside tokens has '_' for each space.
 */
#include "adapters/otep/otep_codec.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "bridge/span.h"
#include "core/errbuf.h"

static const struct {
	const char *name;
	int         from_host;
	int         from_engine;
} cmd_table[OTEP_NCMDS] = {
#define OTEP_ROW(id, nm, h, e) [OTEP_##id] = { nm, h, e },
	OTEP_COMMANDS(OTEP_ROW)
#undef OTEP_ROW
};

const char *otep_cmd_name(enum otep_cmd cmd)
{
	return (unsigned)cmd < OTEP_NCMDS ? cmd_table[cmd].name : NULL;
}

int otep_cmd_sent_by(enum otep_cmd cmd, enum otep_from from)
{
	return (unsigned)cmd < OTEP_NCMDS &&
	       (from == OTEP_FROM_HOST ? cmd_table[cmd].from_host : cmd_table[cmd].from_engine);
}

const char *otep_side_name(enum otep_side side)
{
	return side == OTEP_BLACK ? "black" : "white";
}

static const char *from_name(enum otep_from from)
{
	return from == OTEP_FROM_HOST ? "the host" : "the engine";
}

/* ---- pieces of Hive notation ---------------------------------------------------- */

/* A piece name with an optional direction mark before or after it. */
static int check_reference(const char *r, size_t len)
{
	if (len > 0 && strchr("-/\\", r[0]) != NULL) {
		r++;
		len--;
	} else if (len > 0 && strchr("-/\\", r[len - 1]) != NULL) {
		len--;
	}
	return hive_piece_parse(r, len) >= 0 ? 0 : -1;
}

int otep_movestring_check(const char *s, char *err, size_t errlen)
{
	const char *word[3];
	size_t wlen[3];
	int n = 0;

	for (const char *p = s; *p;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		if (n == 2)
			return errbuf_set(err, errlen, "more than a piece and a reference");
		word[n] = p;
		while (*p && *p != ' ')
			p++;
		wlen[n] = (size_t)(p - word[n]);
		n++;
	}
	if (n == 0)
		return errbuf_set(err, errlen, "empty");
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p <= 0x20 && *p != ' ')
			return errbuf_set(err, errlen, "control byte 0x%02x", (unsigned)(unsigned char)*p);
	if (n == 1 && wlen[0] == 4 && strncasecmp(word[0], "pass", 4) == 0)
		return 0;
	if (hive_piece_parse(word[0], wlen[0]) < 0)
		return errbuf_set(err, errlen, "'%.*s' is not a piece (wQ, bS1, wA3, ...)",
				  (int)(wlen[0] > 16 ? 16 : wlen[0]), word[0]);
	if (n == 2 && check_reference(word[1], wlen[1]) < 0)
		return errbuf_set(err, errlen, "'%.*s' is not a reference (a piece with at most one of - / \\)",
				  (int)(wlen[1] > 16 ? 16 : wlen[1]), word[1]);
	return 0;
}

/* A GameString by its first field: the rest is the core's to judge. */
int otep_gamestring_check(const char *s, char *err, size_t errlen)
{
	char type[16];
	size_t n = strcspn(s, ";");
	unsigned t;

	if (n == 0 || n >= sizeof type)
		return errbuf_set(err, errlen, "does not start with a GameTypeString (Base, Base+M, ..., Base+MLP)");
	memcpy(type, s, n);
	type[n] = '\0';
	if (hive_gametype_parse(type, &t) != 0)
		return errbuf_set(err, errlen, "'%s' is not a GameTypeString (Base, Base+M, ..., Base+MLP)", type);
	for (const char *p = s; *p; p++) {
		if ((unsigned char)*p < 0x20)
			return errbuf_set(err, errlen, "control byte 0x%02x", (unsigned)(unsigned char)*p);
		if (*p == '|')
			return errbuf_set(err, errlen, "'|' joins moves of a list, it has no place in a GameString");
	}
	return 0;
}

int otep_gametype_check(const char *s, char *err, size_t errlen)
{
	unsigned t;
	if (hive_gametype_parse(s, &t) != 0)
		return errbuf_set(err, errlen, "'%.32s' is not a GameTypeString (Base, Base+M, Base+L, Base+P, "
				  "Base+ML, Base+MP, Base+LP or Base+MLP)", s);
	return 0;
}

/* ---- numbers -------------------------------------------------------------------- */

/* Plain decimal integer within [min, max]; '-' only when min < 0. */
static int parse_int(const char *s, size_t len, int64_t min, int64_t max, int64_t *out)
{
	size_t i = 0;
	int neg = 0;
	int64_t v = 0;

	if (len > 0 && s[0] == '-' && min < 0) {
		neg = 1;
		i = 1;
	}
	if (i == len)
		return -1;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (v > (INT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	if (neg)
		v = -v;
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int otep_eval_parse(const char *s, size_t len, int64_t *cp)
{
	size_t i = 0, digits = 0;
	int neg = 0;
	int64_t v = 0;

	if (len > 0 && s[0] == '-') {
		neg = 1;
		i = 1;
	}
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
		if (v > OTEP_EVAL_MAX)
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	if (digits == 0)
		return -1;
	v *= 100;
	if (i < len && s[i] == '.') {
		size_t frac = 0;
		int round = 0;
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, frac++) {
			if (frac == 0)
				v += 10 * (s[i] - '0');
			else if (frac == 1)
				v += s[i] - '0';
			else if (frac == 2)
				round = s[i] >= '5';
		}
		if (frac == 0)
			return -1;
		v += round;
	}
	if (i != len || v > OTEP_EVAL_MAX)
		return -1;
	*cp = neg ? -v : v;
	return 0;
}

int otep_eval_format(char *buf, size_t len, int64_t cp)
{
	uint64_t a = cp < 0 ? (uint64_t)0 - (uint64_t)cp : (uint64_t)cp;
	unsigned frac = (unsigned)(a % 100);
	const char *sign = cp < 0 ? "-" : "";

	if (frac == 0)
		return snprintf(buf, len, "%s%" PRIu64, sign, a / 100);
	if (frac % 10 == 0)
		return snprintf(buf, len, "%s%" PRIu64 ".%u", sign, a / 100, frac / 10);
	return snprintf(buf, len, "%s%" PRIu64 ".%02u", sign, a / 100, frac);
}

/* ---- parsing -------------------------------------------------------------------- */

struct lex {
	const char *s;
	size_t      len;
	size_t      pos;
	/* The token just read. */
	const char *tok;
	size_t      toklen;
	size_t      col;     /* 1-based */
};

static int lex_next(struct lex *lx)
{
	while (lx->pos < lx->len && span_blank(lx->s[lx->pos]))
		lx->pos++;
	if (lx->pos == lx->len)
		return 0;
	lx->tok = lx->s + lx->pos;
	lx->col = lx->pos + 1;
	while (lx->pos < lx->len && !span_blank(lx->s[lx->pos]))
		lx->pos++;
	lx->toklen = (size_t)(lx->s + lx->pos - lx->tok);
	return 1;
}

/* The rest of the line after the blanks that follow the last token. */
static const char *lex_rest(struct lex *lx, size_t *len)
{
	while (lx->pos < lx->len && span_blank(lx->s[lx->pos]))
		lx->pos++;
	*len = lx->len - lx->pos;
	return lx->s + lx->pos;
}

struct parse {
	struct lex       lx;
	struct otep_msg *m;
	char            *cur;     /* next free byte of m->buf */
	size_t           nitems;  /* used entries of m->items */
	size_t           maxitems;
	char            *err;
	size_t           errlen;
	const char      *cmd;     /* name, for messages */
};

/* Copies the current token to the message's buffer, '_' turned into ' '. */
static const char *take_token(struct parse *p)
{
	char *out = p->cur;
	for (size_t i = 0; i < p->lx.toklen; i++)
		*p->cur++ = p->lx.tok[i] == '_' ? ' ' : p->lx.tok[i];
	*p->cur++ = '\0';
	return out;
}

/* Copies free text; a CR inside it becomes a space, as the writer would make it. */
static const char *take_text(struct parse *p, const char *s, size_t len)
{
	char *out = p->cur;
	for (size_t i = 0; i < len; i++)
		*p->cur++ = s[i] == '\r' ? ' ' : s[i];
	*p->cur++ = '\0';
	return out;
}

/* Reads the next token or says what was expected instead. */
static int need(struct parse *p, const char *what)
{
	if (lex_next(&p->lx))
		return 0;
	return errbuf_set(p->err, p->errlen, "%s: missing %s at column %zu", p->cmd, what, p->lx.len + 1);
}

static int bad_token(struct parse *p, const char *what, const char *why)
{
	return errbuf_set(p->err, p->errlen, "%s: expected %s at column %zu, got '%.*s'%s%s", p->cmd, what,
			  p->lx.col, (int)(p->lx.toklen > 40 ? 40 : p->lx.toklen), p->lx.tok,
			  why ? ": " : "", why ? why : "");
}

static int need_int(struct parse *p, const char *what, int64_t min, int64_t max, int64_t *v)
{
	if (need(p, what) < 0)
		return -1;
	if (parse_int(p->lx.tok, p->lx.toklen, min, max, v) < 0) {
		char range[96];
		snprintf(range, sizeof range, "%s (an integer from %" PRId64 " to %" PRId64 ")",
			 what, min, max);
		return bad_token(p, range, NULL);
	}
	return 0;
}

static int need_end(struct parse *p)
{
	if (!lex_next(&p->lx))
		return 0;
	return errbuf_set(p->err, p->errlen, "%s: unexpected '%.*s' at column %zu (nothing follows)", p->cmd,
			  (int)(p->lx.toklen > 40 ? 40 : p->lx.toklen), p->lx.tok, p->lx.col);
}

static int side_of(const char *s, size_t len, enum otep_side *side)
{
	if (len == 5 && memcmp(s, "white", 5) == 0)
		*side = OTEP_WHITE;
	else if (len == 5 && memcmp(s, "black", 5) == 0)
		*side = OTEP_BLACK;
	else
		return -1;
	return 0;
}

static int need_side(struct parse *p)
{
	if (need(p, "a side (white or black)") < 0)
		return -1;
	if (side_of(p->lx.tok, p->lx.toklen, &p->m->side) < 0)
		return bad_token(p, "a side (white or black)", NULL);
	p->m->has_side = 1;
	return 0;
}

/* The next token as the message's Hive text (a GameString, a GameTypeString or a
 * MoveString, what), checked by check. */
static int need_hive(struct parse *p, const char *what, int (*check)(const char *, char *, size_t))
{
	char why[160];
	if (need(p, what) < 0)
		return -1;
	const char *s = take_token(p);
	if (check(s, why, sizeof why) < 0)
		return bad_token(p, what, why);
	p->m->text = s;
	return 0;
}

static int need_gamestring(struct parse *p)
{
	return need_hive(p, "a GameString", otep_gamestring_check);
}

/* A move list: MoveStrings joined by '|', or "-" for none when allow_empty. */
static int need_moves(struct parse *p, struct otep_moves *out, int allow_empty)
{
	const char *what = allow_empty ? "a move list (MoveStrings joined by '|', or '-')"
				       : "a move list (MoveStrings joined by '|')";
	char why[160];

	if (need(p, what) < 0)
		return -1;
	out->moves = p->m->items + p->nitems;
	out->n = 0;
	if (p->lx.toklen == 1 && p->lx.tok[0] == '-') {
		if (!allow_empty)
			return bad_token(p, what, "an empty list is not allowed here");
		return 0;
	}
	char *s = (char *)take_token(p);
	for (;;) {
		char *bar = strchr(s, '|');
		if (bar != NULL)
			*bar = '\0';
		if (otep_movestring_check(s, why, sizeof why) < 0) {
			char item[320];
			snprintf(item, sizeof item, "move %zu '%.40s' is not a MoveString: %s",
				 out->n + 1, s, why);
			return bad_token(p, what, item);
		}
		if (out->n == OTEP_LIST_MAX || p->nitems == p->maxitems)
			return bad_token(p, what, "too many moves");
		p->m->items[p->nitems++] = s;
		out->n++;
		if (bar == NULL)
			break;
		s = bar + 1;
	}
	return 0;
}

static int need_clock_ms(struct parse *p, const char *what, int side)
{
	struct otep_clock *c = &p->m->clock;
	if (need(p, what) < 0)
		return -1;
	size_t n = p->lx.toklen;
	if (n > 0 && p->lx.tok[n - 1] == '*') {
		c->in_overtime[side] = 1;
		n--;
	}
	if (parse_int(p->lx.tok, n, 0, OTEP_MS_MAX, &c->ms[side]) < 0)
		return bad_token(p, what, NULL);
	return 0;
}

static int parse_clock(struct parse *p)
{
	struct otep_clock *c = &p->m->clock;
	size_t save = p->lx.pos;

	if (p->m->from == OTEP_FROM_ENGINE && !lex_next(&p->lx))
		return 0;    /* a bare clock from the engine */
	p->lx.pos = save;
	p->m->has_clock = 1;
	if (need_clock_ms(p, "White's milliseconds (digits, '*' when in overtime)", 0) < 0 ||
	    need_clock_ms(p, "Black's milliseconds (digits, '*' when in overtime)", 1) < 0)
		return -1;
	save = p->lx.pos;
	if (!lex_next(&p->lx)) {
		if (c->in_overtime[0] || c->in_overtime[1])
			return errbuf_set(p->err, p->errlen, "clock: '*' (in overtime) needs the three overtime "
					  "fields, missing at column %zu", p->lx.len + 1);
		return 0;
	}
	p->lx.pos = save;
	c->has_overtime = 1;
	if (need_int(p, "the overtime period in seconds", 0, OTEP_MS_MAX / 1000, &c->overtime_s) < 0 ||
	    need_int(p, "White's overtime periods left", 0, 1000000, &c->overtimes[0]) < 0 ||
	    need_int(p, "Black's overtime periods left", 0, 1000000, &c->overtimes[1]) < 0)
		return -1;
	return need_end(p);
}

static int parse_analysis(struct parse *p)
{
	int64_t n;
	if (need_int(p, "the number of move lists", 1, OTEP_ANALYSIS_MAX, &n) < 0)
		return -1;
	p->m->number = (int)n;
	p->m->lines = calloc((size_t)n, sizeof *p->m->lines);
	if (p->m->lines == NULL)
		return errbuf_set(p->err, p->errlen, "out of memory");
	for (size_t i = 0; i < (size_t)n; i++) {
		struct otep_moves *ln = &p->m->lines[i];
		if (need_moves(p, ln, 0) < 0)
			return -1;
		if (need(p, "an evaluation (pawns, e.g. 0.25 or -1.5)") < 0)
			return -1;
		if (otep_eval_parse(p->lx.tok, p->lx.toklen, &ln->eval_cp) < 0)
			return bad_token(p, "an evaluation (pawns: [-]digits[.digits], at most 1000000)", NULL);
		p->m->nlines = i + 1;
	}
	if (lex_next(&p->lx))
		return errbuf_set(p->err, p->errlen, "analysis: more than the %d move lists announced, "
				  "from column %zu", (int)n, p->lx.col);
	return 0;
}

/* Free text to the end of the line (status, error's message). */
static const char *parse_text(struct parse *p)
{
	size_t n;
	const char *s = lex_rest(&p->lx, &n);
	return take_text(p, s, n);
}

/* The engine sends rules, position and side bare to ask for them: 1 when this
 * line is such a request (nothing after the command). */
static int bare_request(struct parse *p, const struct otep_msg *m)
{
	size_t save = p->lx.pos;
	if (m->from == OTEP_FROM_ENGINE && !lex_next(&p->lx))
		return 1;
	p->lx.pos = save;
	return 0;
}

static int parse_args(struct parse *p)
{
	struct otep_msg *m = p->m;
	int64_t v;

	switch (m->cmd) {
	case OTEP_HELLO:
	case OTEP_GOODBYE:
		return need_end(p);
	case OTEP_SIMPLE_MOVES:
		if (need(p, "on or off") < 0)
			return -1;
		if (p->lx.toklen == 2 && memcmp(p->lx.tok, "on", 2) == 0)
			m->flag = 1;
		else if (p->lx.toklen == 3 && memcmp(p->lx.tok, "off", 3) == 0)
			m->flag = 0;
		else
			return bad_token(p, "on or off", NULL);
		return need_end(p);
	case OTEP_RULES:
		if (bare_request(p, m))
			return 0;
		if (need_hive(p, "a GameTypeString", otep_gametype_check) < 0)
			return -1;
		return need_end(p);
	case OTEP_POSITION:
		if (bare_request(p, m))
			return 0;
		if (need_gamestring(p) < 0)
			return -1;
		return need_end(p);
	case OTEP_SIDE:
		if (bare_request(p, m))
			return 0;
		/* fall through */
	case OTEP_PLAY:
		if (need_side(p) < 0)
			return -1;
		return need_end(p);
	case OTEP_CLOCK:
		return parse_clock(p);
	case OTEP_ANALYZE:
		if (need_int(p, "the number of moves", 1, OTEP_ANALYSIS_MAX, &v) < 0)
			return -1;
		m->number = (int)v;
		if (need_int(p, "the seconds", 0, 86400 * 365, &v) < 0)
			return -1;
		m->seconds = (int)v;
		return need_end(p);
	case OTEP_ANALYSIS:
		return parse_analysis(p);
	case OTEP_MOVE:
		if (m->from == OTEP_FROM_HOST) {
			if (need_gamestring(p) < 0)
				return -1;
		} else if (need_hive(p, "a MoveString (wQ_-wS1, wS1, pass, ...)", otep_movestring_check) < 0) {
			return -1;
		}
		return need_end(p);
	case OTEP_OPPONENT_MOVE:
		m->lines = calloc(1, sizeof *m->lines);
		if (m->lines == NULL)
			return errbuf_set(p->err, p->errlen, "out of memory");
		m->nlines = 1;
		if (need_moves(p, &m->lines[0], 1) < 0 || need_gamestring(p) < 0)
			return -1;
		return need_end(p);
	case OTEP_FINISH:
		if (need_int(p, "a finish code (0 aborted, 1 draw, 2 White wins, 3 Black wins)", 0, 3, &v) < 0)
			return -1;
		m->code = (int)v;
		return need_end(p);
	case OTEP_ERROR: {
		int lo = m->from == OTEP_FROM_HOST ? 1 : -1, hi = m->from == OTEP_FROM_HOST ? 4 : 0;
		const char *what = m->from == OTEP_FROM_HOST
			? "an error code (1 wrong side, 2 illegal move, 3 or 4 berserk)"
			: "an error code (-1 critical, 0 non-critical)";
		if (need_int(p, what, lo, hi, &v) < 0)
			return -1;
		m->code = (int)v;
		m->text = parse_text(p);
		if (m->text[0] == '\0')
			m->text = NULL;
		return 0;
	}
	case OTEP_STATUS:
		m->text = parse_text(p);
		return 0;
	case OTEP_NCMDS:
		break;
	}
	return errbuf_set(p->err, p->errlen, "internal: no parser for command %d", (int)m->cmd);
}

static void msg_clear(struct otep_msg *m, enum otep_from from)
{
	memset(m, 0, sizeof *m);
	m->from = from;
}

void otep_msg_free(struct otep_msg *m)
{
	free(m->buf);
	free(m->items);
	free(m->lines);
	m->buf = NULL;
	m->items = NULL;
	m->lines = NULL;
	m->nlines = 0;
	m->text = NULL;
}

int otep_msg_parse_max(const char *line, size_t len, size_t max_len, enum otep_from from,
		       struct otep_msg *out, char *err, size_t errlen)
{
	struct parse p = { .m = out, .err = err, .errlen = errlen };
	size_t bars = 0;

	msg_clear(out, from);
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (len > 0 && line[len - 1] == '\n')
		len--;
	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len > max_len)
		return errbuf_set(err, errlen, "line of %zu bytes is longer than the limit of %zu", len, max_len);
	for (size_t i = 0; i < len; i++) {
		if (line[i] == '\0' || line[i] == '\n')
			return errbuf_set(err, errlen, "%s byte at column %zu (a line holds neither NUL nor LF)",
					  line[i] ? "LF" : "NUL", i + 1);
		bars += line[i] == '|';
	}
	p.lx.s = line;
	p.lx.len = len;
	if (!lex_next(&p.lx))
		return errbuf_set(err, errlen, "empty line (expected a command)");
	size_t c;
	for (c = 0; c < OTEP_NCMDS; c++)
		if (strlen(cmd_table[c].name) == p.lx.toklen &&
		    memcmp(cmd_table[c].name, p.lx.tok, p.lx.toklen) == 0)
			break;
	if (c == OTEP_NCMDS) {
		char list[512] = "";
		for (size_t k = 0; k < OTEP_NCMDS; k++)
			if (otep_cmd_sent_by(k, from)) {
				strcat(list, k ? ", " : "");
				strcat(list, cmd_table[k].name);
			}
		return errbuf_set(err, errlen, "unknown command '%.*s' (%s sends %s)",
				  (int)(p.lx.toklen > 40 ? 40 : p.lx.toklen), p.lx.tok, from_name(from),
				  list + (list[0] == ',' ? 2 : 0));
	}
	if (!otep_cmd_sent_by(c, from))
		return errbuf_set(err, errlen, "'%s' is sent by %s, not by %s", cmd_table[c].name,
				  from_name(from == OTEP_FROM_HOST ? OTEP_FROM_ENGINE : OTEP_FROM_HOST),
				  from_name(from));
	out->cmd = (enum otep_cmd)c;
	p.cmd = cmd_table[c].name;
	/* Every token and text fits in twice the line (one NUL per token at most). */
	out->buf = malloc(2 * len + 2);
	/* Each move list holds one more move than it has bars. */
	p.maxitems = bars + OTEP_ANALYSIS_MAX + 1;
	out->items = malloc(p.maxitems * sizeof *out->items);
	if (out->buf == NULL || out->items == NULL) {
		otep_msg_free(out);
		msg_clear(out, from);
		return errbuf_set(err, errlen, "out of memory");
	}
	p.cur = out->buf;
	if (parse_args(&p) < 0) {
		otep_msg_free(out);
		msg_clear(out, from);
		if (err != NULL && errlen > 0 && err[0] == '\0')
			errbuf_set(err, errlen, "%s: cannot parse", cmd_table[c].name);
		return -1;
	}
	return 0;
}

int otep_msg_parse(const char *line, size_t len, enum otep_from from, struct otep_msg *out,
		   char *err, size_t errlen)
{
	return otep_msg_parse_max(line, len, OTEP_LINE_MAX, from, out, err, errlen);
}
