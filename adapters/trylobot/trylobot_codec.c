/*
 * trylobot_codec.c: the names, turns and positions of Trylobot's remote AI protocol,
 * and its messages written (cJSON trees, and the one answer every turn sends written
 * straight). See /work/shared/notes/trylobot-protocol.md for what the real core
 * sends and reads; the framing is trylobot_frame.c, the reading trylobot_parse.c.
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
#include "core/errbuf.h"

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


static const char *const color_names[2] = { "White", "Black" };

static const char *const turn_names[] = {
	[TB_PLACEMENT] = "Placement", [TB_MOVEMENT] = "Movement",
	[TB_ABILITY] = "Special Ability", [TB_FORFEIT] = "Forfeit"
};

const char *tb_bug_name(int bug)
{
	return bug >= 0 && bug < HIVE_BUGS ? bug_names[bug] : NULL;
}

const char *tb_color_name(int color)
{
	return color == HIVE_WHITE || color == HIVE_BLACK ? color_names[color] : NULL;
}

int tb_bug_parse(const char *s)
{
	for (int b = 0; b < HIVE_BUGS; b++)
		if (!strcmp(s, bug_names[b]))
			return b;
	return -1;
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
 * Builders. cJSON_Add* return NULL on failure; one check at the end of each builder
 * would miss a failed nested add, so each helper checks as it goes.
 */

static int add_str(cJSON *obj, const char *key, const char *s)
{
	return cJSON_AddStringToObject(obj, key, s) ? 0 : -1;
}

/* k (NULL: out of memory) into object to under key, or into array to when key is
 * NULL; on failure k is deleted: -1. */
static int add_owned(cJSON *to, const char *key, cJSON *k)
{
	if (k && (key ? cJSON_AddItemToObject(to, key, k) : cJSON_AddItemToArray(to, k)))
		return 0;
	cJSON_Delete(k);
	return -1;
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
	if (add_owned(obj, buf, j) < 0)
		return NULL;
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
			if (add_owned(arr, NULL, pc) < 0 ||
			    s->piece[h].color > 1 || s->piece[h].bug >= HIVE_BUGS ||
			    add_str(pc, "color", color_names[s->piece[h].color]) ||
			    add_str(pc, "type", bug_names[s->piece[h].bug]))
				goto fail;
		}
	}
	/* hands: Trylobot's type order, zero counts omitted. */
	if (!(j = cJSON_AddObjectToObject(gs, "hands")))
		goto fail;
	for (int c = 0; c < 2; c++) {
		if (!(k = cJSON_AddObjectToObject(j, color_names[c])))
			goto fail;
		for (int i = 0; i < HIVE_BUGS; i++) {
			int b = tb_bug_order[i];
			if (st->hand[c][b] && !cJSON_AddNumberToObject(k, bug_names[b], st->hand[c][b]))
				goto fail;
		}
	}
	if (st->player < 0 || st->player > 1 || add_str(gs, "player_turn", color_names[st->player]) ||
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
	for (size_t i = 0; i < st->history.n; i++)
		if (add_owned(j, NULL, tb_turn_json(&st->history.v[i])) < 0)
			goto fail;
	if (add_owned(gs, "possible_turns", tb_possible_json(&st->possible)) < 0)
		goto fail;
	return gs;
fail:
	cJSON_Delete(gs);
	return NULL;
}

cJSON *tb_request_json(const struct tb_request *rq)
{
	cJSON *o = cJSON_CreateObject();
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
	if (add_owned(o, "game_state", state_json(&rq->state)) < 0)
		goto fail;
	return o;
fail:
	cJSON_Delete(o);
	return NULL;
}
