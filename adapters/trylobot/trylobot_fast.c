/*
 * trylobot_fast.c: the fast path of tb_request_parse_next, a Choose Turn read
 * straight from the text, without a cJSON tree (building and freeing one was most
 * of a request's cost).
 * It is stricter than cJSON (no escapes, plain integers, JSON's four whitespace
 * bytes, the possible_turns sections in the order Trylobot sends them, no repeated
 * key it reads) and says -1 whenever it is not sure: the caller then parses the
 * text the usual way, for the result and the errors. So it only ever accepts what
 * tb_request_parse accepts, with the same result.
 */

#include <stdlib.h>
#include <string.h>
#include "trylobot_fast.h"

#define FAST_DEPTH 32        /* deeper values: not a request the fast path takes */

struct fast {
	const char *p, *e;
	int         depth;
	size_t      listed;
};

static void fast_ws(struct fast *f)
{
	while (f->p < f->e && (*f->p == ' ' || *f->p == '\t' || *f->p == '\n' || *f->p == '\r'))
		f->p++;
}

/* c after whitespace, consumed. */
static int fast_char(struct fast *f, char c)
{
	fast_ws(f);
	if (f->p == f->e || *f->p != c)
		return 0;
	f->p++;
	return 1;
}

/* A string without escapes or control bytes: its contents [*s, *s + *n). */
static int fast_str(struct fast *f, const char **s, size_t *n)
{
	if (!fast_char(f, '"'))
		return -1;
	const char *b = f->p;
	while (f->p < f->e && *f->p != '"') {
		if (*f->p == '\\' || (unsigned char)*f->p < 0x20)
			return -1;
		f->p++;
	}
	if (f->p == f->e)
		return -1;
	*s = b;
	*n = (size_t)(f->p++ - b);
	return 0;
}

/* A string as a C string in buf (short ones only). */
static int fast_cstr(struct fast *f, char *buf, size_t cap)
{
	const char *s;
	size_t n;
	if (fast_str(f, &s, &n) || n >= cap)
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	return 0;
}

static int fast_is(const char *s, size_t n, const char *lit)
{
	return n == strlen(lit) && !memcmp(s, lit, n);
}

static int fast_lit(struct fast *f, const char *lit)
{
	size_t n = strlen(lit);
	fast_ws(f);
	if ((size_t)(f->e - f->p) < n || memcmp(f->p, lit, n))
		return 0;
	f->p += n;
	return 1;
}

/* A plain non-negative integer (digits, no leading zero) up to max. */
static int fast_uint(struct fast *f, double max, double *v)
{
	double x = 0;
	fast_ws(f);
	const char *b = f->p;
	while (f->p < f->e && *f->p >= '0' && *f->p <= '9' && f->p - b < 17)
		x = x * 10 + (*f->p++ - '0');
	if (f->p == b || (*b == '0' && f->p - b > 1) || x > max ||
	    (f->p < f->e && ((*f->p >= '0' && *f->p <= '9') || *f->p == '.' || *f->p == 'e' || *f->p == 'E')))
		return -1;
	*v = x;
	return 0;
}

/* A span as a C string in buf (short ones only). */
static int span_cstr(const char *s, size_t n, char *buf, size_t cap)
{
	if (!s || n >= cap)
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	return 0;
}

static int span_pos(const char *s, size_t n, struct tb_pos *p)
{
	char buf[32];
	return span_cstr(s, n, buf, sizeof buf) || tb_pos_parse(buf, p) ? -1 : 0;
}

static int span_bug(const char *s, size_t n, int *bug)
{
	char buf[32];
	return span_cstr(s, n, buf, sizeof buf) || (*bug = tb_bug_parse(buf)) < 0 ? -1 : 0;
}

/* A position string. */
static int fast_pos(struct fast *f, struct tb_pos *p)
{
	const char *s;
	size_t n;
	return fast_str(f, &s, &n) || span_pos(s, n, p) ? -1 : 0;
}

static int fast_bug(struct fast *f, int *bug)
{
	const char *s;
	size_t n;
	return fast_str(f, &s, &n) || span_bug(s, n, bug) ? -1 : 0;
}

static int fast_skip(struct fast *f);

/* Object and array walking: fast_open then fast_next before each member / element. */
static int fast_open(struct fast *f, char c)
{
	if (++f->depth > FAST_DEPTH || !fast_char(f, c))
		return -1;
	return 0;
}

/* 1: another element follows (after its key and ':' for an object), 0: closed, -1: bad. */
static int fast_next(struct fast *f, char close, int first, const char **key, size_t *klen)
{
	if (fast_char(f, close)) {
		f->depth--;
		return 0;
	}
	if (!first && !fast_char(f, ','))
		return -1;
	if (key && (fast_str(f, key, klen) || !fast_char(f, ':')))
		return -1;
	return 1;
}

/* Any JSON value, checked and passed over (numbers by JSON's grammar, short). */
static int fast_skip(struct fast *f)
{
	const char *k;
	size_t kn;
	int rc, first = 1;
	fast_ws(f);
	if (f->p == f->e)
		return -1;
	switch (*f->p) {
	case '"':
		return fast_str(f, &k, &kn);
	case '{':
	case '[': {
		char close = *f->p == '{' ? '}' : ']';
		if (fast_open(f, *f->p))
			return -1;
		while ((rc = fast_next(f, close, first, close == '}' ? &k : NULL, &kn)) == 1) {
			first = 0;
			if (fast_skip(f))
				return -1;
		}
		return rc;
	}
	case 't': return fast_lit(f, "true") ? 0 : -1;
	case 'f': return fast_lit(f, "false") ? 0 : -1;
	case 'n': return fast_lit(f, "null") ? 0 : -1;
	default: {
		const char *b = f->p;
		if (*f->p == '-')
			f->p++;
		if (f->p == f->e || *f->p < '0' || *f->p > '9')
			return -1;
		if (*f->p == '0')
			f->p++;
		else
			while (f->p < f->e && *f->p >= '0' && *f->p <= '9')
				f->p++;
		if (f->p < f->e && *f->p == '.') {
			const char *d = ++f->p;
			while (f->p < f->e && *f->p >= '0' && *f->p <= '9')
				f->p++;
			if (f->p == d)
				return -1;
		}
		if (f->p < f->e && (*f->p == 'e' || *f->p == 'E')) {
			f->p++;
			if (f->p < f->e && (*f->p == '+' || *f->p == '-'))
				f->p++;
			const char *d = f->p;
			while (f->p < f->e && *f->p >= '0' && *f->p <= '9')
				f->p++;
			if (f->p == d)
				return -1;
		}
		/* cJSON reads at most 63 bytes of a number. */
		return f->p - b > 32 ? -1 : 0;
	}
	}
}

/*
 * One step of an object walk (after fast_open): passes over the members whose key is
 * not in keys and returns the index of the next one that is, its value next in line;
 * n at the object's end; -1 to fall back, on a bad shape or a key read twice (cJSON
 * keeps the first, a walk would keep the last). *first starts at 1, *seen at 0.
 */
static int fast_member(struct fast *f, int *first, const char *const *keys, int n, unsigned *seen)
{
	const char *k;
	size_t kn;
	int rc;
	while ((rc = fast_next(f, '}', *first, &k, &kn)) == 1) {
		int i;
		*first = 0;
		for (i = 0; i < n && !fast_is(k, kn, keys[i]); i++)
			;
		if (i < n) {
			if (*seen >> i & 1)
				return -1;
			*seen |= 1u << i;
			return i;
		}
		if (fast_skip(f))
			return -1;
	}
	return rc < 0 ? -1 : n;
}

/* A turn object as parse_turn reads it. */
static int fast_turn(struct fast *f, struct tb_turn *t)
{
	static const char *const keys[5] = { "turn_type", "piece_type", "destination", "source", "ability_user" };
	const char *v[5] = { 0 };
	size_t vn[5] = { 0 };
	unsigned seen = 0;
	int i, first = 1;
	if (fast_open(f, '{'))
		return -1;
	/* Each a string, even where parse_turn does not look at it (the slow path decides). */
	while ((i = fast_member(f, &first, keys, 5, &seen)) < 5)
		if (i < 0 || fast_str(f, &v[i], &vn[i]))
			return -1;
	if (!v[0])
		return -1;
	memset(t, 0, sizeof *t);
	if (fast_is(v[0], vn[0], "Placement")) {
		int bug;
		if (span_bug(v[1], vn[1], &bug) || span_pos(v[2], vn[2], &t->dst))
			return -1;
		t->type = TB_PLACEMENT;
		t->bug = (uint8_t)bug;
	} else if (fast_is(v[0], vn[0], "Movement")) {
		if (span_pos(v[3], vn[3], &t->src) || span_pos(v[2], vn[2], &t->dst))
			return -1;
		t->type = TB_MOVEMENT;
	} else if (fast_is(v[0], vn[0], "Special Ability")) {
		if (span_pos(v[4], vn[4], &t->user) || span_pos(v[3], vn[3], &t->src) ||
		    span_pos(v[2], vn[2], &t->dst))
			return -1;
		t->type = TB_ABILITY;
	} else if (fast_is(v[0], vn[0], "Forfeit")) {
		t->type = TB_FORFEIT;
	} else {
		return -1;
	}
	return 0;
}

static int fast_piece(struct fast *f, struct tb_piece *pc)
{
	static const char *const keys[2] = { "color", "type" };
	const char *v[2] = { 0 };
	size_t vn[2] = { 0 };
	char buf[16];
	unsigned seen = 0;
	int i, first = 1, bug, color;
	if (fast_open(f, '{'))
		return -1;
	while ((i = fast_member(f, &first, keys, 2, &seen)) < 2)
		if (i < 0 || fast_str(f, &v[i], &vn[i]))
			return -1;
	if (span_cstr(v[0], vn[0], buf, sizeof buf) || (color = tb_color_parse(buf)) < 0 ||
	    span_bug(v[1], vn[1], &bug))
		return -1;
	pc->color = (uint8_t)color;
	pc->bug = (uint8_t)bug;
	return 0;
}

static int fast_pieces(struct fast *f, struct tb_state *st)
{
	const char *k;
	size_t kn;
	int rc, first = 1;
	if (fast_open(f, '{'))
		return -1;
	while ((rc = fast_next(f, '}', first, &k, &kn)) == 1) {
		struct tb_stack s = { .height = 0 };
		int r, first2 = 1;
		first = 0;
		if (st->nstacks == HIVE_PIECES || span_pos(k, kn, &s.pos) || fast_open(f, '['))
			return -1;
		for (size_t i = 0; i < st->nstacks; i++)
			if (tb_pos_eq(st->stack[i].pos, s.pos))
				return -1;
		while ((r = fast_next(f, ']', first2, NULL, NULL)) == 1) {
			first2 = 0;
			if (s.height == HIVE_MAX_STACK || fast_piece(f, &s.piece[s.height]))
				return -1;
			s.height++;
		}
		if (r < 0 || !s.height)
			return -1;
		st->stack[st->nstacks++] = s;
	}
	return rc;
}

static int fast_board(struct fast *f, struct tb_state *st)
{
	static const char *const keys[1] = { "pieces" };
	unsigned seen = 0;
	int i, first = 1;
	if (fast_open(f, '{'))
		return -1;
	while ((i = fast_member(f, &first, keys, 1, &seen)) < 1)
		if (i < 0 || fast_pieces(f, st))
			return -1;
	return seen ? 0 : -1;
}

static int fast_hands(struct fast *f, struct tb_state *st)
{
	unsigned seen = 0;
	int color, first = 1;
	if (fast_open(f, '{'))
		return -1;
	while ((color = fast_member(f, &first, tb_color_names, 2, &seen)) < 2) {
		const char *k;
		size_t kn;
		int r, first2 = 1;
		if (color < 0 || fast_open(f, '{'))
			return -1;
		while ((r = fast_next(f, '}', first2, &k, &kn)) == 1) {
			int bug;
			double n;
			first2 = 0;
			if (span_bug(k, kn, &bug) || fast_uint(f, tb_bug_count[bug], &n))
				return -1;
			st->hand[color][bug] = (uint8_t)n;
		}
		if (r < 0)
			return -1;
	}
	return 0;
}

static int fast_creation(struct fast *f, unsigned *type)
{
	static const char *const keys[3] = { "use_mosquito", "use_ladybug", "use_pillbug" };
	unsigned seen = 0;
	int i, first = 1;
	*type = 0;
	if (fast_lit(f, "null"))
		return 0;
	if (fast_open(f, '{'))
		return -1;
	while ((i = fast_member(f, &first, keys, 3, &seen)) < 3) {
		if (i < 0)
			return -1;
		if (fast_lit(f, "true"))
			*type |= 1u << i;
		else if (!fast_lit(f, "false") && !fast_lit(f, "null"))
			return -1;
	}
	return 0;
}

static int turns_reserve(struct tb_turns *l, size_t n)
{
	if (n <= l->cap)
		return 0;
	struct tb_turn *v = realloc(l->v, n * sizeof *v);
	if (!v)
		return -1;
	l->v = v;
	l->cap = n;
	return 0;
}

/*
 * turn_history, [*h, *hend) its text (*h NULL if null). When it starts with the
 * cached text (every cached turn, byte for byte, checked in the same place by an
 * earlier parse) followed by ',' or ']', those turns are taken as they are and the
 * walk goes on after them: the text is valid exactly when the rest is.
 */
static int fast_history(struct fast *f, struct tb_turns *out, const struct tb_parse_cache *c,
			const char **h, const char **hend)
{
	int rc, first = 1;
	*h = NULL;
	if (fast_lit(f, "null"))
		return 0;
	fast_ws(f);
	*h = f->p;
	if (c->turns.n && (size_t)(f->e - f->p) > c->len && !memcmp(f->p, c->text, c->len)) {
		const char *q = f->p + c->len;
		while (q < f->e && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
			q++;
		if (q < f->e && (*q == ',' || *q == ']')) {
			if (turns_reserve(out, c->turns.n + 8))
				return -1;
			memcpy(out->v, c->turns.v, c->turns.n * sizeof *out->v);
			out->n = c->turns.n;
			f->p = q;
			f->depth++;
			first = 0;
		}
	}
	if (first && fast_open(f, '['))
		return -1;
	while ((rc = fast_next(f, ']', first, NULL, NULL)) == 1) {
		struct tb_turn t;
		first = 0;
		if (fast_turn(f, &t) || tb_turns_add(out, &t))
			return -1;
	}
	*hend = f->p;
	return rc;
}

static int fast_add(struct fast *f, struct tb_turns *out, const struct tb_turn *t)
{
	return ++f->listed > TB_POSSIBLE_MAX || tb_turns_add(out, t) ? -1 : 0;
}

/* An array of destination strings, each added as base + dst. */
static int fast_dsts(struct fast *f, struct tb_turn base, struct tb_turns *out)
{
	int rc, first = 1;
	if (fast_open(f, '['))
		return -1;
	while ((rc = fast_next(f, ']', first, NULL, NULL)) == 1) {
		first = 0;
		if (fast_pos(f, &base.dst) || fast_add(f, out, &base))
			return -1;
	}
	return rc;
}

#define FAST_POSITIONS 256

static int fast_placement(struct fast *f, struct tb_turns *out)
{
	static const char *const keys[2] = { "piece_types", "positions" };
	size_t npos = 0;
	struct tb_pos pos[FAST_POSITIONS];
	uint8_t bugs[HIVE_BUGS];
	unsigned seen = 0, have = 0;
	int i, first = 1, nbugs = 0;
	if (fast_open(f, '{'))
		return -1;
	while ((i = fast_member(f, &first, keys, 2, &have)) < 2) {
		int r, first2 = 1;
		if (i < 0 || fast_open(f, '['))
			return -1;
		while ((r = fast_next(f, ']', first2, NULL, NULL)) == 1) {
			int bug;
			first2 = 0;
			if (i == 1) {
				if (npos == FAST_POSITIONS || fast_pos(f, &pos[npos++]))
					return -1;
			} else if (fast_bug(f, &bug)) {
				return -1;
			} else if (!(seen >> bug & 1)) {
				seen |= 1u << bug;
				bugs[nbugs++] = (uint8_t)bug;
			}
		}
		if (r < 0)
			return -1;
	}
	if (have != 3)
		return -1;
	for (int b = 0; b < nbugs; b++)
		for (size_t p = 0; p < npos; p++) {
			struct tb_turn t = { .type = TB_PLACEMENT, .bug = bugs[b], .dst = pos[p] };
			if (fast_add(f, out, &t))
				return -1;
		}
	return 0;
}

/* Movement (users 0) or Special Ability (users 1): {src: [dst]} or {user: {src: [dst]}}. */
static int fast_moves(struct fast *f, int users, struct tb_turn t, struct tb_turns *out)
{
	const char *k;
	size_t kn;
	int rc, first = 1;
	if (fast_open(f, '{'))
		return -1;
	while ((rc = fast_next(f, '}', first, &k, &kn)) == 1) {
		first = 0;
		if (span_pos(k, kn, users ? &t.user : &t.src) ||
		    (users ? fast_moves(f, 0, t, out) : fast_dsts(f, t, out)))
			return -1;
	}
	return rc;
}

static int fast_possible(struct fast *f, struct tb_turns *out)
{
	static const char *const keys[4] = { "Placement", "Movement", "Special Ability", "Forfeit" };
	unsigned seen = 0;
	int i, first = 1, last = -1;
	if (fast_lit(f, "null"))
		return 0;
	if (fast_open(f, '{'))
		return -1;
	while ((i = fast_member(f, &first, keys, 4, &seen)) < 4) {
		/* parse_possible's order (each once: fast_member sees to that). */
		if (i < 0 || i < last)
			return -1;
		last = i;
		if (i == 3) {
			struct tb_turn t = { .type = TB_FORFEIT };
			if (fast_lit(f, "true") ? fast_add(f, out, &t) : fast_skip(f))
				return -1;
		} else if (fast_lit(f, "null")) {
			continue;
		} else if (i == 0 ? fast_placement(f, out) :
			   fast_moves(f, i == 2, (struct tb_turn){ .type = i == 2 ? TB_ABILITY : TB_MOVEMENT }, out)) {
			return -1;
		}
	}
	return 0;
}

static int fast_state(struct fast *f, struct tb_state *st, const struct tb_parse_cache *c,
		      const char **h, const char **hend)
{
	static const char *const keys[7] = { "creation_parameters", "board", "hands", "player_turn",
					     "turn_number", "turn_history", "possible_turns" };
	char buf[16];
	double n;
	unsigned seen = 0;
	int i, rc, first = 1;
	if (fast_open(f, '{'))
		return -1;
	while ((i = fast_member(f, &first, keys, 7, &seen)) < 7) {
		switch (i) {
		case 0: rc = fast_creation(f, &st->type); break;
		case 1: rc = fast_board(f, st); break;
		case 2: rc = fast_hands(f, st); break;
		case 3: rc = fast_cstr(f, buf, sizeof buf) || (st->player = tb_color_parse(buf)) < 0 ? -1 : 0; break;
		case 4: rc = fast_uint(f, 1e9, &n); st->turn_number = rc ? 0 : (long)n; break;
		case 5: rc = fast_history(f, &st->history, c, h, hend); break;
		case 6: rc = fast_possible(f, &st->possible); break;
		default: rc = -1;
		}
		if (rc)
			return -1;
	}
	if ((seen & 0x1e) != 0x1e)
		return -1;
	for (int col = 0; col < 2; col++)
		for (int b = 0; b < HIVE_BUGS; b++)
			if (st->hand[col][b] && !tb_bug_enabled(st->type, b))
				return -1;
	return tb_turns_dedup(&st->possible);
}

static int fast_id(struct fast *f, char **v, char **raw)
{
	const char *s;
	size_t n;
	if (fast_lit(f, "null"))
		return 0;
	if (fast_str(f, &s, &n) || !(*v = strndup(s, n)) || (raw && !(*raw = strndup(s - 1, n + 2))))
		return -1;
	return 0;
}

int tb_fast_request(const char *json, size_t len, struct tb_request *rq, const struct tb_parse_cache *c,
		    const char **h, const char **hend)
{
	static const char *const keys[7] = { "request_type", "request_id", "game_id", "system_version",
					     "request_timestamp", "response_deadline", "game_state" };
	struct fast f = { json, json + len, 0, 0 };
	const char *s;
	size_t n;
	double ms;
	unsigned seen = 0;
	int i, rc, first = 1;
	memset(rq, 0, sizeof *rq);
	*h = NULL;
	if (fast_open(&f, '{'))
		return -1;
	while ((i = fast_member(&f, &first, keys, 7, &seen)) < 7) {
		switch (i) {
		case 0: rc = fast_str(&f, &s, &n) || !fast_is(s, n, "Choose Turn") ? -1 : 0; break;
		case 1: rc = fast_id(&f, &rq->request_id, &rq->request_id_json); break;
		case 2: rc = fast_id(&f, &rq->game_id, &rq->game_id_json); break;
		case 3: rc = fast_id(&f, &rq->system_version, NULL); break;
		case 4:
		case 5:
			ms = 0;
			rc = fast_lit(&f, "null") ? 0 : fast_uint(&f, 9007199254740992.0, &ms);
			*(i == 4 ? &rq->request_timestamp : &rq->response_deadline) = (int64_t)ms;
			break;
		case 6: rc = fast_state(&f, &rq->state, c, h, hend); break;
		default: rc = -1;
		}
		if (rc)
			return -1;
	}
	fast_ws(&f);
	if (f.p != f.e || (seen & 0x41) != 0x41)
		return -1;
	rq->type = TB_REQ_CHOOSE_TURN;
	return 0;
}
