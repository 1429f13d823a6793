/*
 * record.c: game records in PGN (Mzinga's and hivegame.com's dialects) and BoardSpace
 * SGF, read into canonical games; PGN written (see record.h).
 *
 * Every reader replays the record's moves on the core, so a record is only ever used
 * whole and legal. BoardSpace's actions name cells by its own letter-number grid; the
 * relative notation it appends is not trusted: a cell is mapped onto ours by its offset
 * from the first piece's cell (BoardSpace's E is letter + 1, its NW is number + 1), and
 * the move is then looked up among the core's legal moves.
 */
#include "record.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"

#define TAG_NAME_MAX 64
#define MOVE_TEXT_MAX 64
#define SGF_VALUE_MAX 4096

static const char *const month_names[12] = {
	"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"
};
static const char *const month_caps[12] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

static char ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int word_is(const char *s, size_t len, const char *word)
{
	size_t i;
	for (i = 0; i < len && word[i]; i++)
		if (ascii_lower(s[i]) != ascii_lower(word[i]))
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
		if (word_is(s, 3, month_names[m]))
			return m + 1;
	return -1;
}

int hive_record_date(const char *s, char out[11])
{
	int year = -1, month = -1, day = -1;
	size_t i = 0, n = strlen(s);

	/* "2018.10.28" (PGN), "2018-10-28". */
	if (n >= 8 && is_digit(s[0]) && is_digit(s[1]) && is_digit(s[2]) && is_digit(s[3]) &&
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
			if (is_digit(s[i])) {
				while (j < n && is_digit(s[j]))
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

struct rd {
	const char         *s;
	size_t              len;
	size_t              pos;
	size_t              line;
	struct hive_record *v;
	size_t              n;
	size_t              cap;
	char               *err;
	size_t              errlen;
};

/* "game 2 (A vs B, line 14), ply 20 at line 35: reason" into the caller's buffer. */
static int fail_at(struct rd *rd, const struct hive_record *r, size_t ply, size_t line,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int fail_at(struct rd *rd, const struct hive_record *r, size_t ply, size_t line,
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
static int push(struct rd *rd, struct hive_record *r)
{
	if (rd->n == rd->cap) {
		size_t cap = rd->cap ? rd->cap * 2 : 8;
		struct hive_record *v = realloc(rd->v, cap * sizeof *v);
		if (!v)
			return fail_at(rd, r, 0, r->line, "out of memory.");
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

static void skip_blank(struct rd *rd)
{
	while (rd->pos < rd->len && is_blank(rd->s[rd->pos])) {
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
		if (word_is(s, len, words[i].word))
			return words[i].state;
	return -1;
}

/* The result of a game read: the board's when it has ended (a record may not say
 * otherwise), else what the record said. */
static int settle_result(struct rd *rd, struct hive_record *r, int said, size_t line)
{
	int board = r->game.board.state;
	if (board >= HIVE_DRAW) {
		if (said >= HIVE_DRAW && said != board)
			return fail_at(rd, r, 0, line, "the record says %s but the moves give %s.",
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
static int pgn_tag(struct rd *rd, struct hive_record *r)
{
	char name[TAG_NAME_MAX], value[HIVE_RECORD_MAX_TEXT];
	size_t nl = 0, vl = 0, line = rd->line;
	const char *s = rd->s;

	rd->pos++;
	while (rd->pos < rd->len && (s[rd->pos] == ' ' || s[rd->pos] == '\t'))
		rd->pos++;
	while (rd->pos < rd->len && nl + 1 < sizeof name &&
	       (is_digit(s[rd->pos]) || s[rd->pos] == '_' || ((s[rd->pos] | 32) >= 'a' && (s[rd->pos] | 32) <= 'z')))
		name[nl++] = s[rd->pos++];
	name[nl] = '\0';
	while (rd->pos < rd->len && (s[rd->pos] == ' ' || s[rd->pos] == '\t'))
		rd->pos++;
	if (nl == 0 || rd->pos >= rd->len || s[rd->pos] != '"')
		return fail_at(rd, r, 0, line, "a tag is not [Name \"value\"].");
	for (rd->pos++; rd->pos < rd->len && s[rd->pos] != '"'; rd->pos++) {
		char c = s[rd->pos];
		if (c == '\\' && rd->pos + 1 < rd->len)
			c = s[++rd->pos];
		if (c == '\n' || vl + 1 >= sizeof value)
			return fail_at(rd, r, 0, line, "the tag %s is not closed on its line or is too long.", name);
		value[vl++] = c;
	}
	value[vl] = '\0';
	if (rd->pos < rd->len)
		rd->pos++;
	while (rd->pos < rd->len && (s[rd->pos] == ' ' || s[rd->pos] == '\t' || s[rd->pos] == '\r'))
		rd->pos++;
	if (rd->pos >= rd->len || s[rd->pos] != ']')
		return fail_at(rd, r, 0, line, "the tag %s does not end with \"]\".", name);
	rd->pos++;
	if (hive_record_set_tag(r, name, value) != 0)
		return fail_at(rd, r, 0, line, "too many tags (at most %d).", HIVE_RECORD_MAX_TAGS);
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
static int pgn_token(struct rd *rd, const struct hive_record *r, struct tok *t, int *kind)
{
	const char *s = rd->s;
	for (;;) {
		skip_blank(rd);
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
			return fail_at(rd, r, 0, t->line, "a comment \"{\" is not closed (the record is cut short).");
		t->s = s + start;
		t->len = rd->pos - start;
		rd->pos++;
		if (t->len >= HIVE_RECORD_MAX_TEXT)
			return fail_at(rd, r, 0, t->line, "a comment is longer than %d bytes.", HIVE_RECORD_MAX_TEXT - 1);
		*kind = TK_COMMENT;
		return 0;
	}
	size_t start = rd->pos;
	while (rd->pos < rd->len && !is_blank(s[rd->pos]) && s[rd->pos] != '{' && s[rd->pos] != '}')
		rd->pos++;
	if (rd->pos == start) {
		rd->pos++;  /* a stray '}' */
		return fail_at(rd, r, 0, t->line, "a \"}\" closes no comment.");
	}
	t->s = s + start;
	t->len = rd->pos - start;
	*kind = TK_WORD;
	return 0;
}

/* Plays a MoveString of the movetext. */
static int pgn_play(struct rd *rd, struct hive_record *r, const char *text, size_t len, size_t line)
{
	char buf[MOVE_TEXT_MAX * 2 + 2], why[256];
	struct hive_move m;
	size_t ply = r->game.len + 1;

	if (len >= sizeof buf)
		return fail_at(rd, r, ply, line, "the move is too long.");
	memcpy(buf, text, len);
	buf[len] = '\0';
	int rc = hive_move_parse(&r->game.board, buf, &m, why, sizeof why);
	if (rc == HIVE_OK && (rc = hive_record_play(r, m, NULL)) != HIVE_OK)
		snprintf(why, sizeof why, "%s", rc == HIVE_ERR_NOMEM ? "out of memory." : "the game is over.");
	if (rc != HIVE_OK)
		return fail_at(rd, r, ply, line, "\"%s\": %s", buf, why);
	return 0;
}

/* The movetext: move numbers ("12." "12..." glued or not) are skipped, so one ply per line
 * (Mzinga) and move pairs (hivegame.com) read alike; a move is one word on an empty board
 * or "pass", else a piece and its position; a comment belongs to the ply before it. */
static int pgn_moves(struct rd *rd, struct hive_record *r, int *said)
{
	struct tok t = { NULL, 0, 0 }, piece = { NULL, 0, 0 };
	int kind = TK_END;

	for (;;) {
		if (pgn_token(rd, r, &t, &kind) != 0)
			return -1;
		if (kind == TK_COMMENT) {
			if (piece.s)
				return fail_at(rd, r, r->game.len + 1, t.line, "a comment between a piece and its position.");
			if (r->game.len > 0 && comment_set(r, r->game.len - 1, t.s, t.len) != 0)
				return fail_at(rd, r, 0, t.line, "out of memory.");
			continue;
		}
		int res = kind == TK_WORD ? result_parse(t.s, t.len) : -1;
		if (kind == TK_END || res >= 0) {
			if (piece.s)
				return fail_at(rd, r, r->game.len + 1, piece.line,
					       "\"%.*s\" has no position (the record is cut short).", (int)(piece.len > 20 ? 20 : piece.len), piece.s);
			if (res >= HIVE_DRAW && *said >= HIVE_DRAW && res != *said)
				return fail_at(rd, r, 0, t.line, "the Result tag says %s but the movetext %s.",
					       hive_state_name(*said), hive_state_name(res));
			if (res >= 0)
				*said = res;
			return 0;
		}
		if (is_digit(t.s[0])) {
			size_t i = 0;
			while (i < t.len && is_digit(t.s[i]))
				i++;
			if (i == t.len || t.s[i] != '.')
				return fail_at(rd, r, r->game.len + 1, t.line, "\"%.*s\" is neither a move number nor a move.",
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
				return fail_at(rd, r, r->game.len + 1, piece.line, "the move is too long.");
			memcpy(two, piece.s, piece.len);
			two[piece.len] = ' ';
			memcpy(two + piece.len + 1, t.s, t.len);
			if (pgn_play(rd, r, two, piece.len + 1 + t.len, piece.line) != 0)
				return -1;
			piece.s = NULL;
		} else if (r->game.board.in_play == 0 || word_is(t.s, t.len, "pass")) {
			if (pgn_play(rd, r, t.s, t.len, t.line) != 0)
				return -1;
		} else {
			piece = t;
		}
	}
}

static int pgn_read(struct rd *rd)
{
	for (;;) {
		struct hive_record r;
		int said = -1;

		skip_blank(rd);
		if (rd->pos >= rd->len)
			return 0;
		hive_record_init(&r, 0);
		r.line = rd->line;
		if (rd->n >= HIVE_RECORD_MAX_GAMES) {
			fail_at(rd, &r, 0, rd->line, "more than %d games in one file.", HIVE_RECORD_MAX_GAMES);
			goto fail;
		}
		while (rd->pos < rd->len && rd->s[rd->pos] == '[') {
			if (pgn_tag(rd, &r) != 0)
				goto fail;
			skip_blank(rd);
		}
		const char *gt = hive_record_tag(&r, "GameType");
		unsigned type = 0;
		if (gt && hive_gametype_parse(gt, &type) != 0) {
			fail_at(rd, &r, 0, r.line, "unknown GameType \"%.40s\".", gt);
			goto fail;
		}
		hive_game_free(&r.game);
		hive_game_init(&r.game, type);
		const char *res = hive_record_tag(&r, "Result");
		if (res)
			said = result_parse(res, strlen(res));
		size_t end_line = rd->line;
		if (pgn_moves(rd, &r, &said) != 0 || settle_result(rd, &r, said, end_line) != 0 ||
		    push(rd, &r) != 0)
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

static int gamestring_read(struct rd *rd)
{
	while (rd->pos < rd->len) {
		const char *s = rd->s + rd->pos, *nl = memchr(s, '\n', rd->len - rd->pos);
		size_t len = nl ? (size_t)(nl - s) : rd->len - rd->pos, line = rd->line;
		rd->pos += len + (nl != NULL);
		rd->line++;
		while (len > 0 && is_blank(*s)) {
			s++;
			len--;
		}
		while (len > 0 && is_blank(s[len - 1]))
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
			fail_at(rd, &r, 0, line, "more than %d games in one file.", HIVE_RECORD_MAX_GAMES);
		else if (!text)
			fail_at(rd, &r, 0, line, "out of memory.");
		else if (hive_game_parse(&r.game, text, why, sizeof why) != HIVE_OK)
			fail_at(rd, &r, 0, line, "%s", why);
		else if (settle_result(rd, &r, -1, line) == 0 && push(rd, &r) == 0)
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
 * BoardSpace SGF.
 */

struct sgf {
	struct hive_record r;
	int      have_gm;
	int      have_origin;      /* BoardSpace's cell of the first piece */
	int      col0, row0;
	int      pend;             /* a move under way: piece picked or moved, not yet Done */
	int      pend_piece;
	uint16_t pend_from;
	uint16_t pend_to;
	int      pend_has_to;
	int      pend_pass;
	size_t   pend_line;
	char     pend_text[80];    /* the action that made it, for an error */
	int      white;            /* the player (0, 1) who made ply 1 */
	int      resigned;         /* the player who resigned, -1 */
	int      drawn;
	char     names[2][HIVE_RECORD_MAX_TEXT];
};

/* BoardSpace's "SU[hive-plm]" (any case, "Hive-PLM 2 0 101"): its expansions. */
static int sgf_type(const char *v, unsigned *type)
{
	size_t n = 0;
	while (v[n] && !is_blank(v[n]))
		n++;
	if (n < 4 || !word_is(v, 4, "hive"))
		return -1;
	*type = 0;
	if (n == 4)
		return 0;
	if (v[4] != '-')
		return -1;
	for (size_t i = 5; i < n; i++) {
		char c = ascii_lower(v[i]);
		unsigned bit = c == 'm' ? HIVE_EXP_M : c == 'l' ? HIVE_EXP_L : c == 'p' ? HIVE_EXP_P : 0;
		if (!bit)
			return -1;  /* Hive-Ultimate and other variants the core does not play */
		*type |= bit;
	}
	return 0;
}

/* A piece as BoardSpace names it: "wS1", "bP1", "wQ", or (its older files) "g1", "Q",
 * "a1" with the colour apart ('W', 'b'; -1: none given); -1 if it names none. */
static int sgf_piece(const char *name, int color)
{
	char buf[8];
	size_t n = strlen(name);
	const char *p = name;

	if (n >= 2 && (p[0] == 'w' || p[0] == 'b') && p[1] >= 'A' && p[1] <= 'Z') {
		color = p[0] == 'b';
		p++;
		n--;
	}
	if (color < 0 || n < 1 || n > 2 || (n == 2 && !is_digit(p[1])))
		return -1;
	char bug = (char)(ascii_lower(p[0]) - 'a' + 'A');
	/* The bugs of one piece per colour carry a 1 at BoardSpace, none in UHP. */
	if (n == 2 && p[1] == '1' && strchr("QMLP", bug))
		n = 1;
	snprintf(buf, sizeof buf, "%c%c%.*s", color ? 'b' : 'w', bug, (int)(n - 1), p + 1);
	return hive_piece_parse(buf, strlen(buf));
}

static int sgf_color(const char *s)
{
	if (s[0] && !s[1] && (s[0] == 'w' || s[0] == 'W'))
		return HIVE_WHITE;
	if (s[0] && !s[1] && (s[0] == 'b' || s[0] == 'B'))
		return HIVE_BLACK;
	return -1;
}

/* BoardSpace's cell (letter, number) on our ring: offset from the first piece's cell,
 * letter + 1 is our E (q + 1), number + 1 our NW (r - 1). The first call places the origin. */
static int sgf_cell(struct sgf *g, const char *col, const char *row, uint16_t *cell)
{
	char *end;
	if (strlen(col) != 1 || (col[0] | 32) < 'a' || (col[0] | 32) > 'z' || !is_digit(row[0]))
		return -1;
	int c = (col[0] | 32) - 'a';
	long r = strtol(row, &end, 10);
	if (*end || r < 1 || r > 99)
		return -1;
	if (!g->have_origin) {
		g->have_origin = 1;
		g->col0 = c;
		g->row0 = (int)r;
	}
	int v = HIVE_ORIGIN + (c - g->col0) - 32 * ((int)r - g->row0);
	*cell = (uint16_t)(((v % HIVE_CELLS) + HIVE_CELLS) % HIVE_CELLS);
	return 0;
}

/* Whether the side to move can only pass, which BoardSpace records as a Done alone. */
static int forced_pass(const struct hive_board *b)
{
	struct hive_move pass = { HIVE_PASS_PIECE, HIVE_NOWHERE, HIVE_NOWHERE };
	return !hive_game_over(b) && hive_board_find_move(b, pass, NULL);
}

/* The move under way, played: BoardSpace's Done. */
static int sgf_commit(struct rd *rd, struct sgf *g, int player)
{
	struct hive_move m;
	size_t ply = g->r.game.len + 1;

	if (g->pend_pass)
		m = (struct hive_move){ HIVE_PASS_PIECE, HIVE_NOWHERE, HIVE_NOWHERE };
	else if (g->pend && g->pend_has_to)
		m = (struct hive_move){ (uint8_t)g->pend_piece, g->pend_from, g->pend_to };
	else if (forced_pass(&g->r.game.board))
		m = (struct hive_move){ HIVE_PASS_PIECE, HIVE_NOWHERE, HIVE_NOWHERE };  /* a bare Done */
	else
		return 0;
	int rc = hive_record_play(&g->r, m, NULL);
	if (rc != HIVE_OK)
		return fail_at(rd, &g->r, ply, g->pend_line, "BoardSpace's \"%s\" is not a legal move%s.", g->pend_text,
			       rc == HIVE_ERR_GAMEOVER ? " (the game is over)" : rc == HIVE_ERR_NOMEM ? " (out of memory)" : "");
	if (ply == 1)
		g->white = player;
	g->pend = g->pend_pass = g->pend_has_to = 0;
	return 0;
}

/* One P0[...]/P1[...] action: "12 Pickb N 14 wA1" and the like. */
static int sgf_action(struct rd *rd, struct sgf *g, int player, char *val, size_t line)
{
	char text[sizeof g->pend_text], *tok[8], *p = val;
	int nt = 0;
	size_t ply = g->r.game.len + 1;
	const struct hive_board *b = &g->r.game.board;

	snprintf(text, sizeof text, "%s", val);
	while (nt < 8) {
		while (*p && is_blank(*p))
			p++;
		if (!*p)
			break;
		tok[nt++] = p;
		while (*p && !is_blank(*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
	if (!g->have_gm)
		return fail_at(rd, &g->r, 0, line, "not a Hive record: no GM[27] before the moves.");
	if (nt < 2)
		return fail_at(rd, &g->r, ply, line, "BoardSpace's \"%s\" has no action.", text);
	const char *verb = tok[1];
	char **a = tok + 2;
	int na = nt - 2, piece;
	uint16_t cell;

#define UNREADABLE() fail_at(rd, &g->r, ply, line, "BoardSpace's \"%s\" is unreadable.", text)
	if (word_is(verb, strlen(verb), "start") || word_is(verb, strlen(verb), "offerdraw") ||
	    word_is(verb, strlen(verb), "declinedraw") || word_is(verb, strlen(verb), "refusedraw"))
		return 0;
	if (word_is(verb, strlen(verb), "done"))
		return sgf_commit(rd, g, player);
	if (word_is(verb, strlen(verb), "resign")) {
		g->resigned = player;
		return 0;
	}
	if (word_is(verb, strlen(verb), "acceptdraw")) {
		g->drawn = 1;
		return 0;
	}
	if (word_is(verb, strlen(verb), "drop")) {
		g->pend = 0;  /* back into the rack */
		return 0;
	}
	snprintf(g->pend_text, sizeof g->pend_text, "%s", text);
	g->pend_line = line;
	if (word_is(verb, strlen(verb), "pass")) {
		g->pend = 0;
		g->pend_pass = 1;
		return 0;
	}
	if (word_is(verb, strlen(verb), "pick")) {
		if (na < 3 || (piece = sgf_piece(a[2], sgf_color(a[0]))) < 0)
			return UNREADABLE();
		g->pend = 1;
		g->pend_piece = piece;
		g->pend_from = b->pos[piece];
		g->pend_has_to = 0;
		return 0;
	}
	if (word_is(verb, strlen(verb), "pickb")) {
		if (na < 2 || sgf_cell(g, a[0], a[1], &cell) != 0)
			return UNREADABLE();
		if (g->pend && g->pend_has_to && g->pend_to == cell) {
			g->pend_has_to = 0;  /* picked up again before Done: the drop is taken back */
			return 0;
		}
		if (b->top[cell] == HIVE_NO_PIECE)
			return fail_at(rd, &g->r, ply, line, "BoardSpace's \"%s\" picks up no piece.", text);
		g->pend = 1;
		g->pend_piece = b->top[cell];
		g->pend_from = cell;
		g->pend_has_to = 0;
		return 0;
	}
	if (word_is(verb, strlen(verb), "dropb") || word_is(verb, strlen(verb), "pdropb")) {
		if (na < 3 || sgf_cell(g, a[1], a[2], &cell) != 0)
			return UNREADABLE();
		if (!g->pend) {
			if ((piece = sgf_piece(a[0], hive_side_to_move(b))) < 0)
				return UNREADABLE();
			g->pend = 1;
			g->pend_piece = piece;
			g->pend_from = b->pos[piece];
		}
		if (g->pend_from == cell) {
			g->pend = 0;  /* put back where it was */
			return 0;
		}
		g->pend_to = cell;
		g->pend_has_to = 1;
		return 0;
	}
	if (word_is(verb, strlen(verb), "move") || word_is(verb, strlen(verb), "pmove") ||
	    word_is(verb, strlen(verb), "movedone") || word_is(verb, strlen(verb), "pmovedone")) {
		if (na < 4 || (piece = sgf_piece(a[1], sgf_color(a[0]))) < 0 ||
		    sgf_cell(g, a[2], a[3], &cell) != 0)
			return UNREADABLE();
		g->pend = 1;
		g->pend_pass = 0;
		g->pend_piece = piece;
		g->pend_from = b->pos[piece];
		g->pend_to = cell;
		g->pend_has_to = 1;
		size_t vl = strlen(verb);
		return vl > 4 && word_is(verb + vl - 4, 4, "done") ? sgf_commit(rd, g, player) : 0;
	}
#undef UNREADABLE
	return fail_at(rd, &g->r, ply, line, "BoardSpace's action \"%s\" is not one this reader knows.", text);
}

static int sgf_prop(struct rd *rd, struct sgf *g, const char *name, char *val, size_t line)
{
	int bad = 0;
	if (!strcmp(name, "GM")) {
		if (strcmp(val, "27") != 0)
			return fail_at(rd, &g->r, 0, line, "not a Hive record: GM[%.20s].", val);
		g->have_gm = 1;
	} else if (!strcmp(name, "SU")) {
		unsigned type;
		if (g->r.game.len > 0 || g->pend)
			return fail_at(rd, &g->r, 0, line, "SU[...] comes after the moves.");
		if (sgf_type(val, &type) != 0)
			return fail_at(rd, &g->r, 0, line, "the game type SU[%.40s] is not one the core plays.", val);
		hive_game_free(&g->r.game);
		hive_game_init(&g->r.game, type);
	} else if (!strcmp(name, "DT")) {
		char date[11];
		bad = hive_record_set_tag(&g->r, "SgfDate", val) != 0 ||
		      (hive_record_date(val, date) == 0 && hive_record_set_tag(&g->r, "Date", date) != 0);
	} else if (!strcmp(name, "GN")) {
		bad = *val && hive_record_set_tag(&g->r, "SgfGameName", val) != 0;
	} else if (!strcmp(name, "RE")) {
		bad = hive_record_set_tag(&g->r, "SgfResult", val) != 0;
	} else if (!strcmp(name, "TC")) {
		bad = hive_record_set_tag(&g->r, "TimeControl", val) != 0;
	} else if ((!strcmp(name, "P0") || !strcmp(name, "P1"))) {
		int player = name[1] - '0';
		if (is_digit(val[0]))
			return sgf_action(rd, g, player, val, line);
		if (!strncmp(val, "id ", 3)) {
			const char *s = val + 3;
			size_t n;
			while (*s == ' ' || *s == '"')
				s++;
			n = strlen(s);
			while (n > 0 && (s[n - 1] == '"' || s[n - 1] == ' '))
				n--;
			snprintf(g->names[player], sizeof g->names[player], "%.*s", (int)n, s);
		}
	}
	if (bad)
		return fail_at(rd, &g->r, 0, line, "a property is too long, or too many.");
	return 0;
}

/* The end of a game's SGF: a move left without Done (the game ended on it) is played,
 * the players named, the result taken from the moves, a resignation, a draw, or RE. */
static int sgf_finish(struct rd *rd, struct sgf *g, size_t line)
{
	int said = -1, w = g->white, bl = !g->white;
	if (sgf_commit(rd, g, g->r.game.len & 1) != 0)
		return -1;
	if ((g->names[w][0] && hive_record_set_tag(&g->r, "White", g->names[w]) != 0) ||
	    (g->names[bl][0] && hive_record_set_tag(&g->r, "Black", g->names[bl]) != 0) ||
	    hive_record_set_tag(&g->r, "Site", "boardspace.net") != 0)
		return fail_at(rd, &g->r, 0, line, "too many tags.");
	const char *re = hive_record_tag(&g->r, "SgfResult");
	if (g->resigned >= 0)
		said = g->resigned == w ? HIVE_BLACK_WINS : HIVE_WHITE_WINS;
	else if (g->drawn)
		said = HIVE_DRAW;
	else if (re && g->r.game.board.state < HIVE_DRAW) {
		int hw = g->names[w][0] && strstr(re, g->names[w]), hb = g->names[bl][0] && strstr(re, g->names[bl]);
		if (hw != hb)
			said = hw ? HIVE_WHITE_WINS : HIVE_BLACK_WINS;
		else if (strstr(re, "draw") || strstr(re, "Draw"))
			said = HIVE_DRAW;
	}
	return settle_result(rd, &g->r, said, line);
}

/* One SGF value after its '[', unescaped into buf, up to its ']'. */
static int sgf_value(struct rd *rd, struct sgf *g, char *buf, size_t size)
{
	size_t n = 0, line = rd->line;
	for (;;) {
		if (rd->pos >= rd->len)
			return fail_at(rd, &g->r, 0, line, "a value \"[\" is not closed (the record is cut short).");
		char c = rd->s[rd->pos++];
		if (c == ']')
			break;
		if (c == '\\' && rd->pos < rd->len)
			c = rd->s[rd->pos++];
		if (c == '\n')
			rd->line++;
		if (n + 1 >= size)
			return fail_at(rd, &g->r, 0, line, "a value is longer than %zu bytes.", size - 1);
		buf[n++] = c;
	}
	buf[n] = '\0';
	return 0;
}

static int sgf_game(struct rd *rd, struct sgf *g, char *val)
{
	for (;;) {
		skip_blank(rd);
		if (rd->pos >= rd->len)
			return fail_at(rd, &g->r, 0, rd->line, "the record ends before its \")\" (it is cut short).");
		char c = rd->s[rd->pos];
		if (c == ';') {
			rd->pos++;
		} else if (c == ')') {
			rd->pos++;
			return sgf_finish(rd, g, rd->line);
		} else if (c == '(') {
			return fail_at(rd, &g->r, 0, rd->line, "SGF variations are not supported.");
		} else if ((c | 32) >= 'a' && (c | 32) <= 'z') {
			char name[16];
			size_t n = 0;
			while (rd->pos < rd->len && (((rd->s[rd->pos] | 32) >= 'a' && (rd->s[rd->pos] | 32) <= 'z') ||
						     is_digit(rd->s[rd->pos]))) {
				if (n + 1 >= sizeof name)
					return fail_at(rd, &g->r, 0, rd->line, "a property name is too long.");
				name[n++] = rd->s[rd->pos++];
			}
			name[n] = '\0';
			skip_blank(rd);
			if (rd->pos >= rd->len || rd->s[rd->pos] != '[')
				return fail_at(rd, &g->r, 0, rd->line, "the property %s has no value.", name);
			while (rd->pos < rd->len && rd->s[rd->pos] == '[') {
				size_t line = rd->line;
				rd->pos++;
				if (sgf_value(rd, g, val, SGF_VALUE_MAX) != 0 || sgf_prop(rd, g, name, val, line) != 0)
					return -1;
				skip_blank(rd);
			}
		} else {
			return fail_at(rd, &g->r, 0, rd->line, "\"%c\" where SGF has a node or a property.", c);
		}
	}
}

static int sgf_read(struct rd *rd)
{
	struct sgf *g = malloc(sizeof *g);
	char *val = malloc(SGF_VALUE_MAX);
	int rc = 0;

	if (!g || !val) {
		free(g);
		free(val);
		return errbuf_set(rd->err, rd->errlen, "out of memory.");
	}
	for (;;) {
		skip_blank(rd);
		if (rd->pos >= rd->len)
			break;
		memset(g, 0, sizeof *g);
		hive_record_init(&g->r, 0);
		g->r.line = rd->line;
		g->resigned = -1;
		if (rd->n >= HIVE_RECORD_MAX_GAMES)
			rc = fail_at(rd, &g->r, 0, rd->line, "more than %d games in one file.", HIVE_RECORD_MAX_GAMES);
		else if (rd->s[rd->pos] != '(')
			rc = fail_at(rd, &g->r, 0, rd->line, "text outside a game, where SGF has \"(\".");
		if (rc == 0) {
			rd->pos++;
			rc = sgf_game(rd, g, val);
		}
		if (rc == 0)
			rc = push(rd, &g->r);
		if (rc != 0) {
			hive_record_free(&g->r);
			break;
		}
	}
	free(g);
	free(val);
	return rc;
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
		while (i < len && is_blank(buf[i]))
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
		for (i++; i < len && is_blank(buf[i]); i++)
			;
		return i < len && buf[i] == ';' ? HIVE_RECORD_SGF : HIVE_RECORD_UNKNOWN;
	}
	if (buf[i] == '[' || buf[i] == '{' || is_digit(buf[i]))
		return HIVE_RECORD_PGN;
	char type[32];
	size_t n = 0;
	while (i < len && buf[i] != ';' && buf[i] != '\n' && n + 1 < sizeof type)
		type[n++] = buf[i++];
	while (n > 0 && is_blank(type[n - 1]))
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
	struct rd rd = { .s = buf, .len = len, .line = 1, .err = err, .errlen = errlen };
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
		rc = sgf_read(&rd);
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

struct out {
	char  *buf;
	size_t len;
	size_t n;
};

static void out_mem(struct out *o, const char *s, size_t l)
{
	if (o->n < o->len)
		memcpy(o->buf + o->n, s, o->n + l < o->len ? l : o->len - o->n);
	o->n += l;
}

static void out_str(struct out *o, const char *s)
{
	out_mem(o, s, strlen(s));
}

/* Text inside "..." or {...}: quotes and backslashes escaped in a tag, a '}' turned
 * into ')' in a comment, control bytes into spaces: one line, always readable back. */
static void out_text(struct out *o, const char *s, int in_comment)
{
	for (; *s; s++) {
		char c = *s;
		if ((unsigned char)c < 0x20 || c == 0x7F)
			c = ' ';
		if (in_comment && c == '}')
			c = ')';
		if (!in_comment && (c == '"' || c == '\\'))
			out_mem(o, "\\", 1);
		out_mem(o, &c, 1);
	}
}

static void out_tag(struct out *o, const char *name, const char *value)
{
	out_str(o, "[");
	out_str(o, name);
	out_str(o, " \"");
	out_text(o, value ? value : "", 0);
	out_str(o, "\"]\n");
}

/* The Date tag as the dialect writes it: "2018.10.28", or hivegame.com's
 * "28-Oct-2018_00:00:00" (a time of day is kept when the source had one of its own). */
static void out_date(struct out *o, const char *date, enum hive_pgn_dialect dialect)
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
	struct out o = { buf, len, 0 };
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
	out_str(&o, "\n");

	hive_board_init(&b, r->game.type);
	for (size_t i = 0; i < r->game.len; i++) {
		struct hive_undo u;
		int pair = dialect == HIVE_PGN_HIVEGAME;
		if (!pair || i % 2 == 0) {
			snprintf(num, sizeof num, "%zu. ", pair ? i / 2 + 1 : i + 1);
			out_str(&o, num);
		} else {
			out_str(&o, " ");
		}
		hive_move_format(&b, r->game.hist[i].move, move, sizeof move);
		out_str(&o, move);
		if (r->comments && r->comments[i]) {
			out_str(&o, " {");
			out_text(&o, r->comments[i], 1);
			out_str(&o, "}");
		}
		if (!pair || i % 2 == 1 || i + 1 == r->game.len)
			out_str(&o, "\n");
		hive_board_do(&b, r->game.hist[i].move, &u);
	}
	out_str(&o, "\n");
	out_str(&o, result_text(r->result, dialect));
	out_str(&o, "\n");
	if (len > 0)
		buf[o.n < len ? o.n : len - 1] = '\0';
	return o.n;
}
