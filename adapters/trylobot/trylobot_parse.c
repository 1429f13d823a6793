/*
 * trylobot_parse.c: reading Trylobot's messages (/work/shared/notes/trylobot-protocol.md):
 * a request (Greetings, Choose Turn with its game_state) and a module's answer, from
 * the JSON text of one frame to the structs of trylobot_codec.h, with the path of
 * what is wrong in every error. The text is read with trylobot_json.h; a connection's
 * Choose Turn requests take the turns of the history it has read before from its
 * cache (tb_request_parse_next), so that a request costs its new turns.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trylobot_codec.h"
#include "trylobot_json.h"
#include "core/errbuf.h"

/* Pieces of each bug per colour. */
static const uint8_t tb_bug_count[HIVE_BUGS] = {
	[HIVE_QUEEN] = 1, [HIVE_SPIDER] = 2, [HIVE_BEETLE] = 2, [HIVE_GRASSHOPPER] = 3,
	[HIVE_ANT] = 3, [HIVE_MOSQUITO] = 1, [HIVE_LADYBUG] = 1, [HIVE_PILLBUG] = 1
};

static int color_parse(const char *s)
{
	return !strcmp(s, "White") ? HIVE_WHITE : !strcmp(s, "Black") ? HIVE_BLACK : -1;
}

/* Whether the game type has the bug at all. */
static int bug_enabled(unsigned type, int bug)
{
	return bug < HIVE_MOSQUITO || (type >> (bug - HIVE_MOSQUITO) & 1);
}

/*
 * Reading, over trylobot_json.h's tokens, with paths in the error messages.
 */

/* Real positions list a few hundred turns; the bound keeps de-duplication cheap
 * whatever a peer sends. */
#define TB_POSSIBLE_MAX 8192

/* No token: an absent member. */
#define NONE SIZE_MAX

struct ctx {
	const struct tb_json *j;
	char  *err;
	size_t errlen;
	size_t listed;      /* possible_turns entries read, duplicates included */
	size_t history;     /* game_state.turn_history's array token, or NONE */
	char   s[256];      /* the string str() read last */
};

static int jt(const struct ctx *x, size_t i)
{
	return i == NONE ? -1 : x->j->tok[i].type;
}

static int is_obj(const struct ctx *x, size_t i)  { return jt(x, i) == TB_JOBJECT; }
static int is_arr(const struct ctx *x, size_t i)  { return jt(x, i) == TB_JARRAY; }
static int is_str(const struct ctx *x, size_t i)  { return jt(x, i) == TB_JSTRING; }
static int is_num(const struct ctx *x, size_t i)  { return jt(x, i) == TB_JNUMBER; }
static int is_null(const struct ctx *x, size_t i) { return jt(x, i) == TB_JNULL; }
static int is_true(const struct ctx *x, size_t i) { return jt(x, i) == TB_JTRUE; }
static int is_false(const struct ctx *x, size_t i) { return jt(x, i) == TB_JFALSE; }
static int is_bool(const struct ctx *x, size_t i) { return is_true(x, i) || is_false(x, i); }

/* The string of token i (a value or a member key) in x->s. One longer than x->s is
 * cut short there: no name, colour or position is that long, so it matches none. */
static const char *str(struct ctx *x, size_t i)
{
	tb_json_str(x->j, i, x->s, sizeof x->s);
	return x->s;
}

static const char *type_name(const struct ctx *x, size_t j)
{
	switch (jt(x, j)) {
	case TB_JOBJECT: return "an object";
	case TB_JARRAY:  return "an array";
	case TB_JSTRING: return "a string";
	case TB_JNUMBER: return "a number";
	case TB_JTRUE:
	case TB_JFALSE:  return "a boolean";
	case TB_JNULL:   return "null";
	default:         return "nothing";
	}
}

/* Case-sensitive member lookup, the first of that name. */
static size_t member(const struct ctx *x, size_t obj, const char *key)
{
	size_t j = obj == NONE ? 0 : tb_json_member(x->j, obj, key);
	return j ? j : NONE;
}

static int expect(struct ctx *x, size_t j, int ok, const char *path, const char *what)
{
	if (ok)
		return 0;
	errbuf_set(x->err, x->errlen, "%s: expected %s, got %s", path, what, type_name(x, j));
	return -1;
}

static size_t need_member(struct ctx *x, size_t obj, const char *key, const char *path)
{
	size_t j = member(x, obj, key);
	if (j == NONE)
		errbuf_set(x->err, x->errlen, "%s: missing key \"%s\"", path, key);
	return j;
}

static int get_pos(struct ctx *x, size_t obj, const char *key, const char *path, struct tb_pos *p)
{
	size_t j = need_member(x, obj, key, path);
	if (j == NONE)
		return -1;
	if (expect(x, j, is_str(x, j), key, "a position string"))
		return -1;
	if (tb_pos_parse(str(x, j), p)) {
		errbuf_set(x->err, x->errlen, "%s.%s: \"%.40s\" is not a position \"row,col\" with row+col even",
			   path, key, x->s);
		return -1;
	}
	return 0;
}

static int pos_of_key(struct ctx *x, size_t k, const char *path, struct tb_pos *p)
{
	if (tb_pos_parse(str(x, k), p)) {
		errbuf_set(x->err, x->errlen, "%s: key \"%.40s\" is not a position \"row,col\" with row+col even",
			   path, x->s);
		return -1;
	}
	return 0;
}

static int get_bug(struct ctx *x, size_t j, const char *path, int *bug)
{
	if (expect(x, j, is_str(x, j), path, "a piece type name"))
		return -1;
	*bug = tb_bug_parse(str(x, j));
	if (*bug < 0) {
		errbuf_set(x->err, x->errlen, "%s: unknown piece type \"%.40s\"", path, x->s);
		return -1;
	}
	return 0;
}

/* An integral number within [lo, hi]. */
static int get_int(struct ctx *x, size_t j, const char *path, double lo, double hi, double *v)
{
	if (expect(x, j, is_num(x, j), path, "a number"))
		return -1;
	double d = tb_json_number(x->j, j);
	if (!(d >= lo && d <= hi) || d != floor(d)) {
		errbuf_set(x->err, x->errlen, "%s: %g is not an integer in [%.0f, %.0f]", path, d, lo, hi);
		return -1;
	}
	*v = d;
	return 0;
}

/* Copies an optional string member; -1 on a wrong type or no memory. raw, if not
 * NULL, gets its JSON text as it stands (the ids are echoed byte for byte). */
static int opt_string(struct ctx *x, size_t obj, const char *key, char **out, char **raw)
{
	size_t j = member(x, obj, key);
	*out = NULL;
	if (j == NONE || is_null(x, j))
		return 0;
	if (expect(x, j, is_str(x, j), key, "a string"))
		return -1;
	const struct tb_jtok *t = &x->j->tok[j];
	if (!(*out = tb_json_strdup(x->j, j)) ||
	    (raw && !(*raw = strndup(x->j->text + t->start, t->end - t->start)))) {
		errbuf_set(x->err, x->errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* Reads the text into x->j; its value must be an object (token 0). */
static int parse_text(struct ctx *x, struct tb_json *j, const char *json, size_t len,
		      const struct tb_json_known *known)
{
	x->j = j;
	if (tb_json_parse(j, json, len, known, x->err, x->errlen) < 0)
		return -1;
	if (!is_obj(x, 0)) {
		errbuf_set(x->err, x->errlen, "message: expected an object, got %s", type_name(x, 0));
		return -1;
	}
	return 0;
}

/*
 * Turns.
 */

static int parse_turn(struct ctx *x, size_t j, const char *path, struct tb_turn *t)
{
	if (expect(x, j, is_obj(x, j), path, "a turn object"))
		return -1;
	size_t tt = need_member(x, j, "turn_type", path);
	if (tt == NONE || expect(x, tt, is_str(x, tt), "turn_type", "a string"))
		return -1;
	memset(t, 0, sizeof *t);
	const char *s = str(x, tt);
	if (!strcmp(s, "Placement")) {
		int bug;
		size_t pt = need_member(x, j, "piece_type", path);
		t->type = TB_PLACEMENT;
		if (pt == NONE || get_bug(x, pt, "piece_type", &bug))
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

static int parse_placements(struct ctx *x, size_t pl, struct tb_turns *out)
{
	size_t types = need_member(x, pl, "piece_types", "possible_turns.Placement");
	size_t poss = need_member(x, pl, "positions", "possible_turns.Placement");
	if (types == NONE || poss == NONE ||
	    expect(x, types, is_arr(x, types), "possible_turns.Placement.piece_types", "an array") ||
	    expect(x, poss, is_arr(x, poss), "possible_turns.Placement.positions", "an array"))
		return -1;
	unsigned seen = 0;
	TB_JSON_ELEMENTS(x->j, types, tj) {
		int bug;
		if (get_bug(x, tj, "possible_turns.Placement.piece_types[]", &bug))
			return -1;
		if (seen >> bug & 1)
			continue;
		seen |= 1u << bug;
		TB_JSON_ELEMENTS(x->j, poss, pj) {
			struct tb_turn t = { .type = TB_PLACEMENT, .bug = (uint8_t)bug };
			if (expect(x, pj, is_str(x, pj), "possible_turns.Placement.positions[]", "a string"))
				return -1;
			if (pos_of_key(x, pj, "possible_turns.Placement.positions[]", &t.dst) ||
			    add_or_nomem(x, out, &t))
				return -1;
		}
	}
	return 0;
}

/* An array of destination strings, each added as base + dst. */
static int parse_dsts(struct ctx *x, size_t arr, const char *path, struct tb_turn base,
		      struct tb_turns *out)
{
	if (expect(x, arr, is_arr(x, arr), path, "an array of positions"))
		return -1;
	TB_JSON_ELEMENTS(x->j, arr, d) {
		if (expect(x, d, is_str(x, d), path, "a position string") ||
		    pos_of_key(x, d, path, &base.dst) || add_or_nomem(x, out, &base))
			return -1;
	}
	return 0;
}

/* An object of source positions, each with its array of destinations: base with
 * each source and destination. */
static int parse_sources(struct ctx *x, size_t obj, const char *key_path, const char *dst_path,
			 struct tb_turn base, struct tb_turns *out)
{
	TB_JSON_MEMBERS(x->j, obj, src) {
		if (pos_of_key(x, src, key_path, &base.src) || parse_dsts(x, src + 1, dst_path, base, out))
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
static int turns_dedup(struct tb_turns *l)
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


static int parse_possible_all(struct ctx *x, size_t pt, struct tb_turns *out);

static int parse_possible(struct ctx *x, size_t pt, struct tb_turns *out)
{
	if (parse_possible_all(x, pt, out))
		return -1;
	if (turns_dedup(out)) {
		errbuf_set(x->err, x->errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* Every listed turn, repeats included (parse_possible drops them), the sections in
 * this order whatever the text's. */
static int parse_possible_all(struct ctx *x, size_t pt, struct tb_turns *out)
{
	size_t j;
	if (pt == NONE || is_null(x, pt))
		return 0;
	if (expect(x, pt, is_obj(x, pt), "possible_turns", "an object or null"))
		return -1;
	if ((j = member(x, pt, "Placement")) != NONE && !is_null(x, j)) {
		if (expect(x, j, is_obj(x, j), "possible_turns.Placement", "an object") ||
		    parse_placements(x, j, out))
			return -1;
	}
	if ((j = member(x, pt, "Movement")) != NONE && !is_null(x, j)) {
		struct tb_turn t = { .type = TB_MOVEMENT };
		if (expect(x, j, is_obj(x, j), "possible_turns.Movement", "an object") ||
		    parse_sources(x, j, "possible_turns.Movement", "possible_turns.Movement[]", t, out))
			return -1;
	}
	if ((j = member(x, pt, "Special Ability")) != NONE && !is_null(x, j)) {
		if (expect(x, j, is_obj(x, j), "possible_turns.Special Ability", "an object"))
			return -1;
		TB_JSON_MEMBERS(x->j, j, user) {
			struct tb_turn t = { .type = TB_ABILITY };
			if (pos_of_key(x, user, "possible_turns.Special Ability", &t.user) ||
			    expect(x, user + 1, is_obj(x, user + 1), "possible_turns.Special Ability[]", "an object") ||
			    parse_sources(x, user + 1, "possible_turns.Special Ability[][]",
					  "possible_turns.Special Ability[][]", t, out))
				return -1;
		}
	}
	if ((j = member(x, pt, "Forfeit")) != NONE && is_true(x, j)) {
		struct tb_turn t = { .type = TB_FORFEIT };
		if (add_or_nomem(x, out, &t))
			return -1;
	}
	return 0;
}

/*
 * game_state.
 */

static int parse_board(struct ctx *x, size_t board, struct tb_state *st)
{
	size_t pieces;
	if (expect(x, board, is_obj(x, board), "game_state.board", "an object"))
		return -1;
	pieces = need_member(x, board, "pieces", "game_state.board");
	if (pieces == NONE || expect(x, pieces, is_obj(x, pieces), "game_state.board.pieces", "an object"))
		return -1;
	TB_JSON_MEMBERS(x->j, pieces, cell) {
		struct tb_stack s = { .height = 0 };
		if (st->nstacks == HIVE_PIECES) {
			errbuf_set(x->err, x->errlen, "game_state.board.pieces: more than %d cells", HIVE_PIECES);
			return -1;
		}
		if (pos_of_key(x, cell, "game_state.board.pieces", &s.pos) ||
		    expect(x, cell + 1, is_arr(x, cell + 1), "game_state.board.pieces[]", "an array"))
			return -1;
		for (size_t i = 0; i < st->nstacks; i++)
			if (tb_pos_eq(st->stack[i].pos, s.pos)) {
				errbuf_set(x->err, x->errlen, "game_state.board.pieces: cell \"%.40s\" twice",
					   str(x, cell));
				return -1;
			}
		TB_JSON_ELEMENTS(x->j, cell + 1, pj) {
			size_t c, t;
			int color, bug;
			if (s.height == HIVE_MAX_STACK) {
				errbuf_set(x->err, x->errlen, "game_state.board.pieces[\"%.40s\"]: stack higher than %d",
					   str(x, cell), HIVE_MAX_STACK);
				return -1;
			}
			if (expect(x, pj, is_obj(x, pj), "game_state.board.pieces[][]", "a piece object"))
				return -1;
			c = need_member(x, pj, "color", "game_state.board.pieces[][]");
			t = need_member(x, pj, "type", "game_state.board.pieces[][]");
			if (c == NONE || t == NONE || expect(x, c, is_str(x, c), "color", "a string") ||
			    get_bug(x, t, "game_state.board.pieces[][].type", &bug))
				return -1;
			if ((color = color_parse(str(x, c))) < 0) {
				errbuf_set(x->err, x->errlen, "game_state.board.pieces[][].color: unknown colour \"%.40s\"",
					   x->s);
				return -1;
			}
			s.piece[s.height].color = (uint8_t)color;
			s.piece[s.height].bug = (uint8_t)bug;
			s.height++;
		}
		if (!s.height) {
			errbuf_set(x->err, x->errlen, "game_state.board.pieces[\"%.40s\"]: empty stack", str(x, cell));
			return -1;
		}
		st->stack[st->nstacks++] = s;
	}
	return 0;
}

static int parse_hands(struct ctx *x, size_t hands, struct tb_state *st)
{
	if (expect(x, hands, is_obj(x, hands), "game_state.hands", "an object"))
		return -1;
	for (int color = 0; color < 2; color++) {
		size_t h = member(x, hands, tb_color_name(color));
		if (h == NONE)
			continue;
		if (expect(x, h, is_obj(x, h), tb_color_name(color), "an object of counts"))
			return -1;
		TB_JSON_MEMBERS(x->j, h, e) {
			int bug = tb_bug_parse(str(x, e));
			double n;
			if (bug < 0) {
				errbuf_set(x->err, x->errlen, "game_state.hands.%s: unknown piece type \"%.40s\"",
					   tb_color_name(color), x->s);
				return -1;
			}
			if (get_int(x, e + 1, "game_state.hands[][]", 0, tb_bug_count[bug], &n))
				return -1;
			st->hand[color][bug] = (uint8_t)n;
		}
	}
	return 0;
}

static int parse_creation(struct ctx *x, size_t cp, unsigned *type)
{
	static const char *const keys[3] = { "use_mosquito", "use_ladybug", "use_pillbug" };
	*type = 0;
	if (cp == NONE || is_null(x, cp))
		return 0;
	if (expect(x, cp, is_obj(x, cp), "game_state.creation_parameters", "an object"))
		return -1;
	for (int i = 0; i < 3; i++) {
		size_t j = member(x, cp, keys[i]);
		if (j == NONE || is_null(x, j))
			continue;
		if (expect(x, j, is_bool(x, j), keys[i], "a boolean"))
			return -1;
		if (is_true(x, j))
			*type |= 1u << i;
	}
	return 0;
}

/* The turns of turn_history array h that the reader did not read again (the cache's:
 * the text starts with the last request's), added to st; -1 when memory runs out. */
static int history_cached(struct ctx *x, size_t h, const struct tb_parse_cache *c, struct tb_state *st)
{
	if (!x->j->tok[h].known)
		return 0;
	for (size_t i = 0; i < c->turns.n; i++)
		if (tb_turns_add(&st->history, &c->turns.v[i])) {
			errbuf_set(x->err, x->errlen, "out of memory");
			return -1;
		}
	return 0;
}

static int parse_state(struct ctx *x, size_t gs, struct tb_state *st, const struct tb_parse_cache *c)
{
	size_t j;
	double n;
	int color;
	if (expect(x, gs, is_obj(x, gs), "game_state", "an object"))
		return -1;
	if (parse_creation(x, member(x, gs, "creation_parameters"), &st->type))
		return -1;
	if ((j = need_member(x, gs, "board", "game_state")) == NONE || parse_board(x, j, st))
		return -1;
	if ((j = need_member(x, gs, "hands", "game_state")) == NONE || parse_hands(x, j, st))
		return -1;
	for (int co = 0; co < 2; co++)
		for (int b = 0; b < HIVE_BUGS; b++)
			if (st->hand[co][b] && !bug_enabled(st->type, b)) {
				errbuf_set(x->err, x->errlen, "game_state.hands.%s: %s is not in this game",
					   tb_color_name(co), tb_bug_name(b));
				return -1;
			}
	if ((j = need_member(x, gs, "player_turn", "game_state")) == NONE ||
	    expect(x, j, is_str(x, j), "game_state.player_turn", "a colour"))
		return -1;
	if ((color = color_parse(str(x, j))) < 0) {
		errbuf_set(x->err, x->errlen, "game_state.player_turn: unknown colour \"%.40s\"", x->s);
		return -1;
	}
	st->player = color;
	if ((j = need_member(x, gs, "turn_number", "game_state")) == NONE ||
	    get_int(x, j, "game_state.turn_number", 0, 1e9, &n))
		return -1;
	st->turn_number = (long)n;
	j = member(x, gs, "turn_history");
	if (j != NONE && !is_null(x, j)) {
		if (expect(x, j, is_arr(x, j), "game_state.turn_history", "an array"))
			return -1;
		x->history = j;
		if (history_cached(x, j, c, st))
			return -1;
		TB_JSON_ELEMENTS(x->j, j, t) {
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
	return parse_possible(x, member(x, gs, "possible_turns"), &st->possible);
}

/* A millisecond timestamp; null and absent are 0. */
static int opt_ms(struct ctx *x, size_t obj, const char *key, int64_t *v)
{
	size_t j = member(x, obj, key);
	double d;
	*v = 0;
	if (j == NONE || is_null(x, j))
		return 0;
	if (get_int(x, j, key, 0, 9007199254740992.0, &d))
		return -1;
	*v = (int64_t)d;
	return 0;
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

/* c: the connection's cache, or NULL; *history gets turn_history's token (NONE when
 * it is absent or null). */
static int request_parse(struct tb_json *tj, const char *json, size_t len, struct tb_request *rq,
			 const struct tb_parse_cache *c, size_t *history, char *err, size_t errlen)
{
	struct ctx x = { .err = err, .errlen = errlen, .history = NONE };
	size_t j;
	memset(rq, 0, sizeof *rq);
	*history = NONE;
	struct tb_json_known known = { "game_state", "turn_history", c ? c->text : NULL, c ? c->len : 0 };
	if (parse_text(&x, tj, json, len, c && c->turns.n ? &known : NULL))
		return -1;
	j = member(&x, 0, "request_type");
	if (j == NONE) {
		errbuf_set(err, errlen, "message: no \"request_type\" (not a Trylobot request)");
		goto fail;
	}
	if (expect(&x, j, is_str(&x, j), "request_type", "a string"))
		goto fail;
	if (!strcmp(str(&x, j), "Greetings")) {
		rq->type = TB_REQ_GREETINGS;
	} else if (!strcmp(x.s, "Choose Turn")) {
		rq->type = TB_REQ_CHOOSE_TURN;
	} else {
		errbuf_set(err, errlen, "request_type: unknown request \"%.40s\"", x.s);
		goto fail;
	}
	if (opt_string(&x, 0, "request_id", &rq->request_id, &rq->request_id_json) ||
	    opt_string(&x, 0, "game_id", &rq->game_id, &rq->game_id_json) ||
	    opt_string(&x, 0, "system_version", &rq->system_version, NULL) ||
	    opt_ms(&x, 0, "request_timestamp", &rq->request_timestamp) ||
	    opt_ms(&x, 0, "response_deadline", &rq->response_deadline))
		goto fail;
	if (rq->type == TB_REQ_CHOOSE_TURN) {
		j = need_member(&x, 0, "game_state", "Choose Turn request");
		if (j == NONE || parse_state(&x, j, &rq->state, c))
			goto fail;
	}
	*history = x.history;
	return 0;
fail:
	tb_request_free(rq);
	return -1;
}

int tb_request_parse(const char *json, size_t len, struct tb_request *rq, char *err, size_t errlen)
{
	struct tb_json tj = { 0 };
	size_t history;
	int rc = request_parse(&tj, json, len, rq, NULL, &history, err, errlen);
	tb_json_free(&tj);
	return rc;
}

void tb_parse_cache_free(struct tb_parse_cache *c)
{
	free(c->text);
	tb_turns_free(&c->turns);
	memset(c, 0, sizeof *c);
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



int tb_request_parse_next(const char *json, size_t len, struct tb_request *rq, struct tb_parse_cache *c,
			  char *err, size_t errlen)
{
	/* The tokens are not kept: an idle connection holds its history only. */
	struct tb_json tj = { 0 };
	size_t h;
	int rc = request_parse(&tj, json, len, rq, c, &h, err, errlen);
	if (rc == 0 && h != NONE)
		history_keep(c, json + tj.tok[h].start, json + tj.tok[h].end, &rq->state.history);
	else
		c->turns.n = 0;
	tb_json_free(&tj);
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

static int response_parse(struct ctx *x, struct tb_json *tj, const char *json, size_t len,
			  struct tb_response *rs)
{
	size_t j;
	if (parse_text(x, tj, json, len, NULL))
		return -1;
	/* json-socket's error frame, and any answer with an error: the core treats a
	 * truthy "error" as a failed turn, so do we. */
	j = member(x, 0, "error");
	if ((j != NONE && !is_null(x, j) && !is_false(x, j)) || is_false(x, member(x, 0, "success"))) {
		rs->type = TB_RESP_ERROR;
		rs->error = is_str(x, j) ? tb_json_strdup(x->j, j) : strdup("(no message)");
		if (!rs->error) {
			errbuf_set(x->err, x->errlen, "out of memory");
			return -1;
		}
	} else if (member(x, 0, "turn_type") != NONE) {
		rs->type = TB_RESP_TURN;
		if (parse_turn(x, 0, "answer", &rs->turn))
			return -1;
	} else if ((j = member(x, 0, "response_type")) != NONE && is_str(x, j) &&
		   !strcmp(str(x, j), "Greetings")) {
		rs->type = TB_RESP_GREETINGS;
		j = member(x, 0, "active");
		/* The core only asks for a truthy "active". */
		rs->active = j != NONE && !is_false(x, j) && !is_null(x, j) &&
			     !(is_num(x, j) && tb_json_number(x->j, j) == 0) &&
			     !(is_str(x, j) && !*str(x, j));
		if (opt_string(x, 0, "name", &rs->name, NULL) ||
		    opt_string(x, 0, "long_name", &rs->long_name, NULL) ||
		    opt_string(x, 0, "version", &rs->version, NULL) ||
		    opt_string(x, 0, "description", &rs->description, NULL))
			return -1;
	} else {
		errbuf_set(x->err, x->errlen, "message: neither a turn, a Greetings answer nor an error frame");
		return -1;
	}
	return 0;
}

int tb_response_parse(const char *json, size_t len, struct tb_response *rs, char *err, size_t errlen)
{
	struct ctx x = { .err = err, .errlen = errlen, .history = NONE };
	struct tb_json tj = { 0 };
	memset(rs, 0, sizeof *rs);
	int rc = response_parse(&x, &tj, json, len, rs);
	tb_json_free(&tj);
	if (rc < 0)
		tb_response_free(rs);
	return rc;
}
