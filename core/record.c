/*
 * record.c: game records in PGN (Mzinga's and hivegame.com's dialects) and GameString
 * lines read into canonical games, PGN written, and the reading every format shares
 * (see record.h; BoardSpace SGF is read in record_sgf.c).
 *
 * Every reader replays the record's moves on the core, so a record is only ever used
 * whole and legal.
 */
#include "record.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "record_int.h"

#define TAG_NAME_MAX 64
#define MOVE_TEXT_MAX 64

static const char *const month_names[12] = {
	"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"
};
static const char *const month_caps[12] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
};

int record_word_is(const char *s, size_t len, const char *word)
{
	size_t i;
	for (i = 0; i < len && word[i]; i++)
		if (record_lower(s[i]) != record_lower(word[i]))
			return 0;
	return i == len && word[i] == '\0';
}

static char *dup_span(const char *s, size_t len)
{
	char *d = malloc(len + 1);
	if (d) {
		memcpy(d, s, len);
		d[len] = '\0';
	}
	return d;
}

/*
 * Records.
 */

void hive_record_init(struct hive_record *r, unsigned type)
{
	memset(r, 0, sizeof *r);
	hive_game_init(&r->game, type);
	r->result = HIVE_IN_PROGRESS;
}

void hive_record_free(struct hive_record *r)
{
	hive_game_free(&r->game);
	for (size_t i = 0; i < r->ntags; i++) {
		free(r->tags[i].name);
		free(r->tags[i].value);
	}
	free(r->tags);
	for (size_t i = 0; r->comments && i < r->ccap; i++)
		free(r->comments[i]);
	free(r->comments);
	r->tags = NULL;
	r->ntags = 0;
	r->comments = NULL;
	r->ccap = 0;
}

int hive_record_set_tag(struct hive_record *r, const char *name, const char *value)
{
	size_t nlen = strlen(name), vlen = strlen(value);
	if (nlen == 0 || nlen >= TAG_NAME_MAX || vlen >= HIVE_RECORD_MAX_TEXT)
		return -1;
	char *v = dup_span(value, vlen);
	if (!v)
		return -1;
	for (size_t i = 0; i < r->ntags; i++)
		if (strcmp(r->tags[i].name, name) == 0) {
			free(r->tags[i].value);
			r->tags[i].value = v;
			return 0;
		}
	char *n = dup_span(name, nlen);
	struct hive_record_tag *tags = NULL;
	if (n && r->ntags < HIVE_RECORD_MAX_TAGS)
		tags = realloc(r->tags, (r->ntags + 1) * sizeof *tags);
	if (!tags) {
		free(n);
		free(v);
		return -1;
	}
	r->tags = tags;
	r->tags[r->ntags++] = (struct hive_record_tag){ n, v };
	return 0;
}

const char *hive_record_tag(const struct hive_record *r, const char *name)
{
	for (size_t i = 0; i < r->ntags; i++)
		if (strcmp(r->tags[i].name, name) == 0)
			return r->tags[i].value;
	return NULL;
}

/* Sets ply i's comment (len bytes of text; NULL clears it). */
static int comment_set(struct hive_record *r, size_t i, const char *text, size_t len)
{
	if (!text && !r->comments)
		return 0;
	if (i >= r->ccap) {
		size_t cap = r->ccap ? r->ccap * 2 : 64;
		while (cap <= i)
			cap *= 2;
		char **c = realloc(r->comments, cap * sizeof *c);
		if (!c)
			return -1;
		memset(c + r->ccap, 0, (cap - r->ccap) * sizeof *c);
		r->comments = c;
		r->ccap = cap;
	}
	char *d = NULL;
	if (text && !(d = dup_span(text, len < HIVE_RECORD_MAX_TEXT ? len : HIVE_RECORD_MAX_TEXT - 1)))
		return -1;
	free(r->comments[i]);
	r->comments[i] = d;
	return 0;
}

int hive_record_play(struct hive_record *r, struct hive_move m, const char *comment)
{
	int rc = hive_game_play(&r->game, m);
	if (rc != HIVE_OK)
		return rc;
	if (comment_set(r, r->game.len - 1, comment, comment ? strlen(comment) : 0) != 0) {
		hive_game_undo(&r->game, 1);
		return HIVE_ERR_NOMEM;
	}
	return HIVE_OK;
}

size_t hive_record_name(const struct hive_record *r, size_t index, char *buf, size_t len)
{
	const char *w = hive_record_tag(r, "White"), *b = hive_record_tag(r, "Black");
	int n;
	if ((w && *w) || (b && *b))
		n = snprintf(buf, len, "game %zu (%.40s vs %.40s, line %zu)", index, w && *w ? w : "?",
			     b && *b ? b : "?", r->line);
	else
		n = snprintf(buf, len, "game %zu (line %zu)", index, r->line);
	return n < 0 ? 0 : (size_t)n;
}

/*
 * Dates.
 */

static int month_parse(const char *s, size_t len)
{
	if (len < 3)
		return -1;
	for (int m = 0; m < 12; m++)
		if (record_word_is(s, 3, month_names[m]))
			return m + 1;
	return -1;
}

int hive_record_date(const char *s, char out[11])
{
	int year = -1, month = -1, day = -1;
	size_t i = 0, n = strlen(s);

	/* "2018.10.28" (PGN), "2018-10-28". */
	if (n >= 8 && record_is_digit(s[0]) && record_is_digit(s[1]) && record_is_digit(s[2]) && record_is_digit(s[3]) &&
	    (s[4] == '.' || s[4] == '-' || s[4] == '/')) {
		char *end;
		year = (int)strtol(s, &end, 10);
		month = (int)strtol(s + 5, &end, 10);
		if (*end == s[4])
			day = (int)strtol(end + 1, &end, 10);
	} else {
		/* Words in any order: "28 October 2018", "October 2, 2019", "Fri Apr 19
		 * 19:54:39 CDT 2013", hivegame.com's "28-Oct-2018_20:07:00": the month's name,
		 * the first number of one or two digits, the first of four. */
		while (i < n) {
			size_t j = i;
			if (record_is_digit(s[i])) {
				while (j < n && record_is_digit(s[j]))
					j++;
				if (j - i == 4 && year < 0)
					year = atoi(s + i);
				else if (j - i <= 2 && day < 0)
					day = atoi(s + i);
			} else if ((s[i] | 32) >= 'a' && (s[i] | 32) <= 'z') {
				while (j < n && (s[j] | 32) >= 'a' && (s[j] | 32) <= 'z')
					j++;
				if (month < 0)
					month = month_parse(s + i, j - i);
			} else {
				j++;
			}
			i = j;
		}
	}
	if (year < 1000 || year > 9999 || month < 1 || month > 12 || day < 1 || day > 31)
		return -1;
	snprintf(out, 11, "%04d.%02d.%02d", year, month, day);
	return 0;
}

/*
 * Reading: the text, the games read so far, and how failures are named.
 */

/* "game 2 (A vs B, line 14), ply 20 at line 35: reason" into the caller's buffer. */
int record_fail(struct record_rd *rd, const struct hive_record *r, size_t ply, size_t line,
		   const char *fmt, ...)
{
	char name[160], why[320];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	hive_record_name(r, rd->n + 1, name, sizeof name);
	if (ply > 0)
		return errbuf_set(rd->err, rd->errlen, "%s, ply %zu at line %zu: %s", name, ply, line, why);
	return errbuf_set(rd->err, rd->errlen, "%s, line %zu: %s", name, line, why);
}

/* Takes r into the results (which then own it). */
int record_push(struct record_rd *rd, struct hive_record *r)
{
	if (rd->n == rd->cap) {
		size_t cap = rd->cap ? rd->cap * 2 : 8;
		struct hive_record *v = realloc(rd->v, cap * sizeof *v);
		if (!v)
			return record_fail(rd, r, 0, r->line, "out of memory.");
		rd->v = v;
		rd->cap = cap;
	}
	rd->v[rd->n++] = *r;
	return 0;
}

/* The line of the first byte that is not UTF-8 (or is NUL), 0 when all are. */
static size_t utf8_bad_line(const unsigned char *s, size_t len)
{
	size_t line = 1;
	for (size_t i = 0; i < len;) {
		unsigned c = s[i];
		size_t need;
		unsigned min;
		if (c == '\n')
			line++;
		if (c == 0)
			return line;
		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF) {
			need = 1;
			min = 0x80;
		} else if (c >= 0xE0 && c <= 0xEF) {
			need = 2;
			min = 0x800;
		} else if (c >= 0xF0 && c <= 0xF4) {
			need = 3;
			min = 0x10000;
		} else {
			return line;
		}
		if (len - i <= need)
			return line;
		unsigned cp = c & (0x3F >> need);
		for (size_t k = 1; k <= need; k++) {
			if ((s[i + k] & 0xC0) != 0x80)
				return line;
			cp = (cp << 6) | (s[i + k] & 0x3F);
		}
		if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return line;
		i += need + 1;
	}
	return 0;
}

void record_skip_blank(struct record_rd *rd)
{
	while (rd->pos < rd->len && record_is_blank(rd->s[rd->pos])) {
		if (rd->s[rd->pos] == '\n')
			rd->line++;
		rd->pos++;
	}
}

/* A result as a PGN writes it (tag or movetext), or -1. */
static int result_parse(const char *s, size_t len)
{
	static const struct {
		const char *word;
		int state;
	} words[] = {
		{ "WhiteWins", HIVE_WHITE_WINS }, { "BlackWins", HIVE_BLACK_WINS }, { "Draw", HIVE_DRAW },
		{ "1-0", HIVE_WHITE_WINS }, { "0-1", HIVE_BLACK_WINS }, { "1/2-1/2", HIVE_DRAW },
		{ "InProgress", HIVE_IN_PROGRESS }, { "NotStarted", HIVE_IN_PROGRESS }, { "*", HIVE_IN_PROGRESS },
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (record_word_is(s, len, words[i].word))
			return words[i].state;
	return -1;
}

/* The result of a game read: the board's when it has ended (a record may not say
 * otherwise), else what the record said. */
int record_settle(struct record_rd *rd, struct hive_record *r, int said, size_t line)
{
	int board = r->game.board.state;
	if (board >= HIVE_DRAW) {
		if (said >= HIVE_DRAW && said != board)
			return record_fail(rd, r, 0, line, "the record says %s but the moves give %s.",
				       hive_state_name(said), hive_state_name(board));
		r->result = board;
	} else {
		r->result = said >= HIVE_DRAW ? said : HIVE_IN_PROGRESS;
	}
	return 0;
}

/*
 * PGN.
 */

/* [Name "value"] at rd->pos, to the end of its line. */
static int pgn_tag(struct record_rd *rd, struct hive_record *r)
{
	char name[TAG_NAME_MAX], value[HIVE_RECORD_MAX_TEXT];
	size_t nl = 0, vl = 0, line = rd->line;
	const char *s = rd->s;

	rd->pos++;
	while (rd->pos < rd->len && (s[rd->pos] == ' ' || s[rd->pos] == '\t'))
		rd->pos++;
	while (rd->pos < rd->len && nl + 1 < sizeof name &&
	       (record_is_digit(s[rd->pos]) || s[rd->pos] == '_' || ((s[rd->pos] | 32) >= 'a' && (s[rd->pos] | 32) <= 'z')))
		name[nl++] = s[rd->pos++];
	name[nl] = '\0';
	while (rd->pos < rd->len && (s[rd->pos] == ' ' || s[rd->pos] == '\t'))
		rd->pos++;
	if (nl == 0 || rd->pos >= rd->len || s[rd->pos] != '"')
		return record_fail(rd, r, 0, line, "a tag is not [Name \"value\"].");
	for (rd->pos++; rd->pos < rd->len && s[rd->pos] != '"'; rd->pos++) {
		char c = s[rd->pos];
		if (c == '\\' && rd->pos + 1 < rd->len)
			c = s[++rd->pos];
		if (c == '\n' || vl + 1 >= sizeof value)
			return record_fail(rd, r, 0, line, "the tag %s is not closed on its line or is too long.", name);
		value[vl++] = c;
	}
	value[vl] = '\0';
	if (rd->pos < rd->len)
		rd->pos++;
	while (rd->pos < rd->len && (s[rd->pos] == ' ' || s[rd->pos] == '\t' || s[rd->pos] == '\r'))
		rd->pos++;
	if (rd->pos >= rd->len || s[rd->pos] != ']')
		return record_fail(rd, r, 0, line, "the tag %s does not end with \"]\".", name);
	rd->pos++;
	if (hive_record_set_tag(r, name, value) != 0)
		return record_fail(rd, r, 0, line, "too many tags (at most %d).", HIVE_RECORD_MAX_TAGS);
	return 0;
}

enum { TK_END, TK_WORD, TK_COMMENT };

struct tok {
	const char *s;
	size_t      len;
	size_t      line;
};

/* The next token of a movetext: a word, a {comment} (without braces), or its end (the
 * end of the text, or a '[' that opens the next game's tags). */
static int pgn_token(struct record_rd *rd, const struct hive_record *r, struct tok *t, int *kind)
{
	const char *s = rd->s;
	for (;;) {
		record_skip_blank(rd);
		t->line = rd->line;
		if (rd->pos >= rd->len || s[rd->pos] == '[') {
			*kind = TK_END;
			return 0;
		}
		if (s[rd->pos] == ';' || (s[rd->pos] == '%' && (rd->pos == 0 || s[rd->pos - 1] == '\n'))) {
			while (rd->pos < rd->len && s[rd->pos] != '\n')
				rd->pos++;
			continue;
		}
		break;
	}
	if (s[rd->pos] == '{') {
		size_t start = ++rd->pos;
		while (rd->pos < rd->len && s[rd->pos] != '}') {
			if (s[rd->pos] == '\n')
				rd->line++;
			rd->pos++;
		}
		if (rd->pos >= rd->len)
			return record_fail(rd, r, 0, t->line, "a comment \"{\" is not closed (the record is cut short).");
		t->s = s + start;
		t->len = rd->pos - start;
		rd->pos++;
		if (t->len >= HIVE_RECORD_MAX_TEXT)
			return record_fail(rd, r, 0, t->line, "a comment is longer than %d bytes.", HIVE_RECORD_MAX_TEXT - 1);
		*kind = TK_COMMENT;
		return 0;
	}
	size_t start = rd->pos;
	while (rd->pos < rd->len && !record_is_blank(s[rd->pos]) && s[rd->pos] != '{' && s[rd->pos] != '}')
		rd->pos++;
	if (rd->pos == start) {
		rd->pos++;  /* a stray '}' */
		return record_fail(rd, r, 0, t->line, "a \"}\" closes no comment.");
	}
	t->s = s + start;
	t->len = rd->pos - start;
	*kind = TK_WORD;
	return 0;
}

/* Plays a MoveString of the movetext. */
static int pgn_play(struct record_rd *rd, struct hive_record *r, const char *text, size_t len, size_t line)
{
	char buf[MOVE_TEXT_MAX * 2 + 2], why[256];
	struct hive_move m;
	size_t ply = r->game.len + 1;

	if (len >= sizeof buf)
		return record_fail(rd, r, ply, line, "the move is too long.");
	memcpy(buf, text, len);
	buf[len] = '\0';
	int rc = hive_move_parse(&r->game.board, buf, &m, why, sizeof why);
	if (rc == HIVE_OK && (rc = hive_record_play(r, m, NULL)) != HIVE_OK)
		snprintf(why, sizeof why, "%s", rc == HIVE_ERR_NOMEM ? "out of memory." : "the game is over.");
	if (rc != HIVE_OK)
		return record_fail(rd, r, ply, line, "\"%s\": %s", buf, why);
	return 0;
}

/* The movetext: move numbers ("12." "12..." glued or not) are skipped, so one ply per line
 * (Mzinga) and move pairs (hivegame.com) read alike; a move is one word on an empty board
 * or "pass", else a piece and its position; a comment belongs to the ply before it. */
static int pgn_moves(struct record_rd *rd, struct hive_record *r, int *said)
{
	struct tok t = { NULL, 0, 0 }, piece = { NULL, 0, 0 };
	int kind = TK_END;

	for (;;) {
		if (pgn_token(rd, r, &t, &kind) != 0)
			return -1;
		if (kind == TK_COMMENT) {
			if (piece.s)
				return record_fail(rd, r, r->game.len + 1, t.line, "a comment between a piece and its position.");
			if (r->game.len > 0 && comment_set(r, r->game.len - 1, t.s, t.len) != 0)
				return record_fail(rd, r, 0, t.line, "out of memory.");
			continue;
		}
		int res = kind == TK_WORD ? result_parse(t.s, t.len) : -1;
		if (kind == TK_END || res >= 0) {
			if (piece.s)
				return record_fail(rd, r, r->game.len + 1, piece.line,
					       "\"%.*s\" has no position (the record is cut short).", (int)(piece.len > 20 ? 20 : piece.len), piece.s);
			if (res >= HIVE_DRAW && *said >= HIVE_DRAW && res != *said)
				return record_fail(rd, r, 0, t.line, "the Result tag says %s but the movetext %s.",
					       hive_state_name(*said), hive_state_name(res));
			if (res >= 0)
				*said = res;
			return 0;
		}
		if (record_is_digit(t.s[0])) {
			size_t i = 0;
			while (i < t.len && record_is_digit(t.s[i]))
				i++;
			if (i == t.len || t.s[i] != '.')
				return record_fail(rd, r, r->game.len + 1, t.line, "\"%.*s\" is neither a move number nor a move.",
					       (int)(t.len > 20 ? 20 : t.len), t.s);
			while (i < t.len && t.s[i] == '.')
				i++;
			if (i == t.len)
				continue;
			t.s += i;
			t.len -= i;
		}
		if (piece.s) {
			/* Both words, as the source wrote them with one space between. */
			char two[MOVE_TEXT_MAX * 2 + 2];
			if (piece.len >= MOVE_TEXT_MAX || t.len >= MOVE_TEXT_MAX)
				return record_fail(rd, r, r->game.len + 1, piece.line, "the move is too long.");
			memcpy(two, piece.s, piece.len);
			two[piece.len] = ' ';
			memcpy(two + piece.len + 1, t.s, t.len);
			if (pgn_play(rd, r, two, piece.len + 1 + t.len, piece.line) != 0)
				return -1;
			piece.s = NULL;
		} else if (r->game.board.in_play == 0 || record_word_is(t.s, t.len, "pass")) {
			if (pgn_play(rd, r, t.s, t.len, t.line) != 0)
				return -1;
		} else {
			piece = t;
		}
	}
}

static int pgn_read(struct record_rd *rd)
{
	for (;;) {
		struct hive_record r;
		int said = -1;

		record_skip_blank(rd);
		if (rd->pos >= rd->len)
			return 0;
		hive_record_init(&r, 0);
		r.line = rd->line;
		if (rd->n >= HIVE_RECORD_MAX_GAMES) {
			record_fail(rd, &r, 0, rd->line, "more than %d games in one file.", HIVE_RECORD_MAX_GAMES);
			goto fail;
		}
		while (rd->pos < rd->len && rd->s[rd->pos] == '[') {
			if (pgn_tag(rd, &r) != 0)
				goto fail;
			record_skip_blank(rd);
		}
		const char *gt = hive_record_tag(&r, "GameType");
		unsigned type = 0;
		if (gt && hive_gametype_parse(gt, &type) != 0) {
			record_fail(rd, &r, 0, r.line, "unknown GameType \"%.40s\".", gt);
			goto fail;
		}
		hive_game_free(&r.game);
		hive_game_init(&r.game, type);
		const char *res = hive_record_tag(&r, "Result");
		if (res)
			said = result_parse(res, strlen(res));
		size_t end_line = rd->line;
		if (pgn_moves(rd, &r, &said) != 0 || record_settle(rd, &r, said, end_line) != 0 ||
		    record_push(rd, &r) != 0)
			goto fail;
		continue;
fail:
		hive_record_free(&r);
		return -1;
	}
}

/*
 * GameString lines ('#' starts a comment line).
 */

static int gamestring_read(struct record_rd *rd)
{
	while (rd->pos < rd->len) {
		const char *s = rd->s + rd->pos, *nl = memchr(s, '\n', rd->len - rd->pos);
		size_t len = nl ? (size_t)(nl - s) : rd->len - rd->pos, line = rd->line;
		rd->pos += len + (nl != NULL);
		rd->line++;
		while (len > 0 && record_is_blank(*s)) {
			s++;
			len--;
		}
		while (len > 0 && record_is_blank(s[len - 1]))
			len--;
		if (len == 0 || *s == '#')
			continue;

		struct hive_record r;
		char why[256];
		hive_record_init(&r, 0);
		r.line = line;
		char *text = dup_span(s, len);
		int rc = -1;
		if (rd->n >= HIVE_RECORD_MAX_GAMES)
			record_fail(rd, &r, 0, line, "more than %d games in one file.", HIVE_RECORD_MAX_GAMES);
		else if (!text)
			record_fail(rd, &r, 0, line, "out of memory.");
		else if (hive_game_parse(&r.game, text, why, sizeof why) != HIVE_OK)
			record_fail(rd, &r, 0, line, "%s", why);
		else if (record_settle(rd, &r, -1, line) == 0 && record_push(rd, &r) == 0)
			rc = 0;
		free(text);
		if (rc != 0) {
			hive_record_free(&r);
			return -1;
		}
	}
	return 0;
}

/*
 * The three formats.
 */

enum hive_record_format hive_record_detect(const char *buf, size_t len)
{
	size_t i = 0;
	if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3))
		i = 3;
	/* Blank lines and the '#' comments of a GameString file. */
	for (;;) {
		while (i < len && record_is_blank(buf[i]))
			i++;
		if (i < len && buf[i] == '#') {
			while (i < len && buf[i] != '\n')
				i++;
			continue;
		}
		break;
	}
	if (i >= len)
		return HIVE_RECORD_UNKNOWN;
	if (buf[i] == '(') {
		for (i++; i < len && record_is_blank(buf[i]); i++)
			;
		return i < len && buf[i] == ';' ? HIVE_RECORD_SGF : HIVE_RECORD_UNKNOWN;
	}
	if (buf[i] == '[' || buf[i] == '{' || record_is_digit(buf[i]))
		return HIVE_RECORD_PGN;
	char type[32];
	size_t n = 0;
	while (i < len && buf[i] != ';' && buf[i] != '\n' && n + 1 < sizeof type)
		type[n++] = buf[i++];
	while (n > 0 && record_is_blank(type[n - 1]))
		n--;
	type[n] = '\0';
	unsigned t;
	return hive_gametype_parse(type, &t) == 0 ? HIVE_RECORD_GAMESTRING : HIVE_RECORD_UNKNOWN;
}

void hive_records_free(struct hive_record *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		hive_record_free(&v[i]);
	free(v);
}

int hive_records_read(const char *buf, size_t len, struct hive_record **out, size_t *n,
		      char *err, size_t errlen)
{
	struct record_rd rd = { .s = buf, .len = len, .line = 1, .err = err, .errlen = errlen };
	size_t bad;
	int rc;

	*out = NULL;
	*n = 0;
	if (len > HIVE_RECORD_MAX_BYTES)
		return errbuf_set(err, errlen, "the text is larger than %u bytes.", HIVE_RECORD_MAX_BYTES);
	if ((bad = utf8_bad_line((const unsigned char *)buf, len)) != 0)
		return errbuf_set(err, errlen, "line %zu is not UTF-8 text.", bad);
	if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3))
		rd.pos = 3;
	switch (hive_record_detect(buf, len)) {
	case HIVE_RECORD_SGF:
		rc = record_sgf_read(&rd);
		break;
	case HIVE_RECORD_PGN:
		rc = pgn_read(&rd);
		break;
	case HIVE_RECORD_GAMESTRING:
		rc = gamestring_read(&rd);
		break;
	default:
		rc = errbuf_set(err, errlen, "the text is neither PGN, BoardSpace SGF nor GameStrings.");
		break;
	}
	if (rc == 0 && rd.n == 0)
		rc = errbuf_set(err, errlen, "the text holds no game.");
	if (rc != 0) {
		hive_records_free(rd.v, rd.n);
		return -1;
	}
	*out = rd.v;
	*n = rd.n;
	return 0;
}

/*
 * Writing PGN.
 */

void record_out_mem(struct record_out *o, const char *s, size_t l)
{
	if (o->n < o->len)
		memcpy(o->buf + o->n, s, o->n + l < o->len ? l : o->len - o->n);
	o->n += l;
}

void record_out_str(struct record_out *o, const char *s)
{
	record_out_mem(o, s, strlen(s));
}

/* Text inside "..." or {...}: quotes and backslashes escaped in a tag, a '}' turned
 * into ')' in a comment, control bytes into spaces: one line, always readable back. */
static void out_text(struct record_out *o, const char *s, int in_comment)
{
	for (; *s; s++) {
		char c = *s;
		if ((unsigned char)c < 0x20 || c == 0x7F)
			c = ' ';
		if (in_comment && c == '}')
			c = ')';
		if (!in_comment && (c == '"' || c == '\\'))
			record_out_mem(o, "\\", 1);
		record_out_mem(o, &c, 1);
	}
}

static void out_tag(struct record_out *o, const char *name, const char *value)
{
	record_out_str(o, "[");
	record_out_str(o, name);
	record_out_str(o, " \"");
	out_text(o, value ? value : "", 0);
	record_out_str(o, "\"]\n");
}

/* The Date tag as the dialect writes it: "2018.10.28", or hivegame.com's
 * "28-Oct-2018_00:00:00" (a time of day is kept when the source had one of its own). */
static void out_date(struct record_out *o, const char *date, enum hive_pgn_dialect dialect)
{
	char ymd[11], buf[32];
	if (!date || hive_record_date(date, ymd) != 0) {
		if (date)
			out_tag(o, "Date", date);
		return;
	}
	if (dialect == HIVE_PGN_MZINGA) {
		out_tag(o, "Date", ymd);
		return;
	}
	const char *us = strchr(date, '_');
	int month = atoi(ymd + 5);
	snprintf(buf, sizeof buf, "%.2s-%s-%.4s_%s", ymd + 8, month_caps[month - 1], ymd,
		 us && strlen(us + 1) == 8 ? us + 1 : "00:00:00");
	out_tag(o, "Date", buf);
}

static const char *result_text(int result, enum hive_pgn_dialect dialect)
{
	if (dialect == HIVE_PGN_HIVEGAME)
		return result == HIVE_WHITE_WINS ? "1-0" : result == HIVE_BLACK_WINS ? "0-1" :
		       result == HIVE_DRAW ? "1/2-1/2" : "*";
	return hive_state_name(result >= HIVE_DRAW ? result : HIVE_IN_PROGRESS);
}

size_t hive_record_write_pgn(const struct hive_record *r, enum hive_pgn_dialect dialect,
			     char *buf, size_t len)
{
	static const char *const fixed[] = { "GameType", "Date", "Event", "Site", "Round", "White", "Black", "Result" };
	struct record_out o = { buf, len, 0 };
	struct hive_board b;
	char num[32], move[HIVE_MOVESTR_MAX];

	/* The seven tags Mzinga always writes, in its order, then the others as read. */
	out_tag(&o, "GameType", hive_gametype_name(r->game.type));
	out_date(&o, hive_record_tag(r, "Date"), dialect);
	for (size_t i = 2; i < 7; i++) {
		const char *v = hive_record_tag(r, fixed[i]);
		if (v || dialect == HIVE_PGN_MZINGA)
			out_tag(&o, fixed[i], v);
	}
	out_tag(&o, "Result", result_text(r->result, dialect));
	for (size_t i = 0; i < r->ntags; i++) {
		size_t k = 0;
		while (k < sizeof fixed / sizeof fixed[0] && strcmp(fixed[k], r->tags[i].name) != 0)
			k++;
		if (k == sizeof fixed / sizeof fixed[0])
			out_tag(&o, r->tags[i].name, r->tags[i].value);
	}
	record_out_str(&o, "\n");

	hive_board_init(&b, r->game.type);
	for (size_t i = 0; i < r->game.len; i++) {
		struct hive_undo u;
		int pair = dialect == HIVE_PGN_HIVEGAME;
		if (!pair || i % 2 == 0) {
			snprintf(num, sizeof num, "%zu. ", pair ? i / 2 + 1 : i + 1);
			record_out_str(&o, num);
		} else {
			record_out_str(&o, " ");
		}
		hive_move_format(&b, r->game.hist[i].move, move, sizeof move);
		record_out_str(&o, move);
		if (r->comments && r->comments[i]) {
			record_out_str(&o, " {");
			out_text(&o, r->comments[i], 1);
			record_out_str(&o, "}");
		}
		if (!pair || i % 2 == 1 || i + 1 == r->game.len)
			record_out_str(&o, "\n");
		hive_board_do(&b, r->game.hist[i].move, &u);
	}
	record_out_str(&o, "\n");
	record_out_str(&o, result_text(r->result, dialect));
	record_out_str(&o, "\n");
	if (len > 0)
		buf[o.n < len ? o.n : len - 1] = '\0';
	return o.n;
}
