/*
 * hivegame_codec.c: hivegame.com's bot API as JSON in and out (see the header for
 * the server files each shape comes from). cJSON reads a bounded body; every field
 * is checked for its type and length before it is copied into a fixed buffer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cJSON.h>

#include "adapters/hivegame/hivegame_codec.h"
#include "core/errbuf.h"

static const char *const mode_names[] = { "Untimed", "RealTime", "Correspondence" };

const char *hg_time_mode_name(enum hg_time_mode m)
{
	return m < HG_TIME_UNKNOWN ? mode_names[m] : "unknown";
}

static enum hg_time_mode mode_parse(const char *s)
{
	for (int i = 0; i < HG_TIME_UNKNOWN; i++)
		if (!strcmp(s, mode_names[i]))
			return (enum hg_time_mode)i;
	return HG_TIME_UNKNOWN;
}

/* The site's words, printable and short, for an err sentence. */
static void words(char *dst, size_t cap, const char *src)
{
	size_t i = 0;
	for (; src && *src && i + 1 < cap && i < 200; src++)
		dst[i++] = (unsigned char)*src < 0x20 || *src == 0x7f ? '?' : *src;
	dst[i] = 0;
}

/* Parses the envelope: the root (to free) and its data object, or -1 with err. A
 * refusal's words are the site's "error" or "message". */
static cJSON *envelope(const char *body, size_t len, cJSON **data, char *err, size_t errlen)
{
	if (!body || len == 0) {
		errbuf_set(err, errlen, "empty answer");
		return NULL;
	}
	cJSON *root = cJSON_ParseWithLength(body, len);
	if (!root || !cJSON_IsObject(root)) {
		errbuf_set(err, errlen, "answer is not a JSON object");
		cJSON_Delete(root);
		return NULL;
	}
	cJSON *ok = cJSON_GetObjectItemCaseSensitive(root, "success");
	cJSON *d = cJSON_GetObjectItemCaseSensitive(root, "data");
	if (!cJSON_IsBool(ok) || !cJSON_IsObject(d)) {
		errbuf_set(err, errlen, "answer lacks \"success\" or \"data\"");
		cJSON_Delete(root);
		return NULL;
	}
	if (!cJSON_IsTrue(ok)) {
		const char *why = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "error"));
		if (!why)
			why = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "message"));
		char w[208];
		words(w, sizeof w, why ? why : "(no reason given)");
		errbuf_set(err, errlen, "the site says: %s", w);
		cJSON_Delete(root);
		return NULL;
	}
	*data = d;
	return root;
}

/* A string field into dst[cap]: 0, or -1 (missing, not a string, too long). */
static int str_field(const cJSON *o, const char *name, char *dst, size_t cap, char *err, size_t errlen)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, name));
	if (!s)
		return errbuf_set(err, errlen, "\"%s\" missing or not a string", name);
	size_t n = strlen(s);
	if (n >= cap)
		return errbuf_set(err, errlen, "\"%s\" longer than %zu bytes", name, cap - 1);
	memcpy(dst, s, n + 1);
	return 0;
}

/* An id the bot puts in a URL's path: letters, digits, '-' and '_' only (a nanoid). */
static int id_field(const cJSON *o, const char *name, char *dst, size_t cap, char *err, size_t errlen)
{
	if (str_field(o, name, dst, cap, err, errlen) < 0)
		return -1;
	if (!dst[0] || dst[strspn(dst, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")])
		return errbuf_set(err, errlen, "\"%s\" is empty or not a nanoid", name);
	return 0;
}

/* An integer field, null (or absent) as -1: 0, or -1 when it is something else. */
static int int_field(const cJSON *o, const char *name, int64_t *v, char *err, size_t errlen)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, name);
	if (!j || cJSON_IsNull(j)) {
		*v = -1;
		return 0;
	}
	/* Nanoseconds exceed a double's exact range only past 104 days: fine for a clock. */
	if (!cJSON_IsNumber(j) || j->valuedouble < 0 || j->valuedouble > 9.2e18)
		return errbuf_set(err, errlen, "\"%s\" is not a non-negative number", name);
	*v = (int64_t)j->valuedouble;
	return 0;
}

int hg_parse_token(const char *body, size_t len, char *token, size_t tokcap, char *err, size_t errlen)
{
	cJSON *d, *root = envelope(body, len, &d, err, errlen);
	if (!root)
		return -1;
	int rc = str_field(d, "token", token, tokcap, err, errlen);
	if (rc == 0 && (!token[0] || strpbrk(token, " \t\r\n")))
		rc = errbuf_set(err, errlen, "the token is empty or has blanks");
	cJSON_Delete(root);
	return rc;
}

int64_t hg_token_expiry(const char *token)
{
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	const char *p = strchr(token, '.'), *end = p ? strchr(p + 1, '.') : NULL;
	if (!end || end - p > 2048)
		return -1;
	char json[1600];
	size_t n = 0;
	unsigned acc = 0, bits = 0;
	for (const char *q = p + 1; q < end; q++) {
		const char *at = strchr(alphabet, *q);
		if (!at || !*q)
			return -1;
		acc = (acc << 6) | (unsigned)(at - alphabet);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			json[n++] = (char)((acc >> bits) & 0xff);
		}
	}
	cJSON *root = cJSON_ParseWithLength(json, n);
	const cJSON *exp = cJSON_GetObjectItemCaseSensitive(root, "exp");
	int64_t v = cJSON_IsNumber(exp) && exp->valuedouble > 0 && exp->valuedouble < 1e12
		? (int64_t)exp->valuedouble : -1;
	cJSON_Delete(root);
	return v;
}

int hg_parse_identity(const char *body, size_t len, char *user_id, char *name, char *err, size_t errlen)
{
	cJSON *d, *root = envelope(body, len, &d, err, errlen);
	if (!root)
		return -1;
	int rc = str_field(d, "user_id", user_id, HG_ID_MAX, err, errlen);
	if (rc == 0)
		rc = str_field(d, "bot", name, HG_ID_MAX, err, errlen);
	cJSON_Delete(root);
	return rc;
}

static int challenge_read(const cJSON *o, struct hg_challenge *c, char *err, size_t errlen)
{
	char mode[24];
	memset(c, 0, sizeof *c);
	if (!cJSON_IsObject(o))
		return errbuf_set(err, errlen, "a challenge is not an object");
	if (id_field(o, "challenge_id", c->id, sizeof c->id, err, errlen) < 0 ||
	    str_field(o, "game_type", c->game_type, sizeof c->game_type, err, errlen) < 0 ||
	    str_field(o, "time_mode", mode, sizeof mode, err, errlen) < 0 ||
	    int_field(o, "time_base", &c->time_base, err, errlen) < 0 ||
	    int_field(o, "time_increment", &c->time_increment, err, errlen) < 0)
		return -1;
	const cJSON *who = cJSON_GetObjectItemCaseSensitive(o, "challenger");
	if (cJSON_IsObject(who))
		str_field(who, "username", c->challenger, sizeof c->challenger, err, errlen);
	const char *cc = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "color_choice"));
	if (cc && strlen(cc) < sizeof c->color_choice)
		strcpy(c->color_choice, cc);
	c->rated = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "rated"));
	c->mode = mode_parse(mode);
	c->type_ok = hive_gametype_parse(c->game_type, &c->type) == 0;
	return 0;
}

int hg_parse_challenges(const char *body, size_t len, struct hg_challenges *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	cJSON *d, *root = envelope(body, len, &d, err, errlen);
	if (!root)
		return -1;
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(d, "challenges");
	const char *me = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "bot_username"));
	int rc = 0;
	if (!cJSON_IsArray(list)) {
		rc = errbuf_set(err, errlen, "\"challenges\" missing or not an array");
	} else {
		if (me && strlen(me) < sizeof out->bot_username)
			strcpy(out->bot_username, me);
		size_t n = (size_t)cJSON_GetArraySize(list);
		if (n > HG_LIST_MAX)
			n = HG_LIST_MAX;
		out->v = calloc(n ? n : 1, sizeof *out->v);
		if (!out->v)
			rc = errbuf_set(err, errlen, "out of memory");
		const cJSON *it;
		cJSON_ArrayForEach(it, list) {
			if (rc < 0 || out->n == n)
				break;
			rc = challenge_read(it, &out->v[out->n], err, errlen);
			if (rc == 0)
				out->n++;
		}
	}
	cJSON_Delete(root);
	if (rc < 0)
		hg_challenges_free(out);
	return rc;
}

static int game_read(const cJSON *o, struct hg_game *g, char *err, size_t errlen)
{
	char mode[24];
	int64_t turn = -1;
	memset(g, 0, sizeof *g);
	if (!cJSON_IsObject(o))
		return errbuf_set(err, errlen, "a game is not an object");
	if (id_field(o, "nanoid", g->nanoid, sizeof g->nanoid, err, errlen) < 0 ||
	    str_field(o, "game_type", g->game_type, sizeof g->game_type, err, errlen) < 0 ||
	    str_field(o, "game_status", g->game_status, sizeof g->game_status, err, errlen) < 0 ||
	    str_field(o, "time_mode", mode, sizeof mode, err, errlen) < 0 ||
	    str_field(o, "white_id", g->white_id, sizeof g->white_id, err, errlen) < 0 ||
	    str_field(o, "black_id", g->black_id, sizeof g->black_id, err, errlen) < 0 ||
	    str_field(o, "current_player_id", g->current_player_id, sizeof g->current_player_id,
		      err, errlen) < 0 ||
	    int_field(o, "turn", &turn, err, errlen) < 0 ||
	    int_field(o, "time_base", &g->time_base, err, errlen) < 0 ||
	    int_field(o, "time_increment", &g->time_increment, err, errlen) < 0 ||
	    int_field(o, "white_time_left", &g->white_time_left, err, errlen) < 0 ||
	    int_field(o, "black_time_left", &g->black_time_left, err, errlen) < 0)
		return -1;
	const cJSON *fin = cJSON_GetObjectItemCaseSensitive(o, "finished");
	if (!cJSON_IsBool(fin))
		return errbuf_set(err, errlen, "\"finished\" missing or not a boolean");
	g->finished = cJSON_IsTrue(fin);
	if (turn < 0 || turn > 100000)
		return errbuf_set(err, errlen, "\"turn\" missing or out of range");
	g->turn = (long)turn;
	const char *h = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "history"));
	if (!h)
		return errbuf_set(err, errlen, "\"history\" missing or not a string");
	if (strlen(h) > HG_HISTORY_MAX)
		return errbuf_set(err, errlen, "\"history\" longer than %d bytes", HG_HISTORY_MAX);
	if (!(g->history = strdup(h)))
		return errbuf_set(err, errlen, "out of memory");
	g->mode = mode_parse(mode);
	g->type_ok = hive_gametype_parse(g->game_type, &g->type) == 0;
	return 0;
}

int hg_parse_games(const char *body, size_t len, struct hg_games *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	cJSON *d, *root = envelope(body, len, &d, err, errlen);
	if (!root)
		return -1;
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(d, "games");
	const cJSON *one = cJSON_GetObjectItemCaseSensitive(d, "game");
	int rc = 0;
	size_t n = 0;
	if (cJSON_IsArray(list))
		n = (size_t)cJSON_GetArraySize(list);
	else if (cJSON_IsObject(one))
		n = 1;
	else
		rc = errbuf_set(err, errlen, "neither \"games\" nor \"game\" in the answer");
	if (n > HG_LIST_MAX)
		n = HG_LIST_MAX;
	if (rc == 0 && !(out->v = calloc(n ? n : 1, sizeof *out->v)))
		rc = errbuf_set(err, errlen, "out of memory");
	if (rc == 0 && !cJSON_IsArray(list)) {
		rc = game_read(one, &out->v[0], err, errlen);
		out->n = rc == 0;
		if (rc < 0)
			free(out->v[0].history);
	} else if (rc == 0) {
		const cJSON *it;
		cJSON_ArrayForEach(it, list) {
			if (out->n == n)
				break;
			if ((rc = game_read(it, &out->v[out->n], err, errlen)) < 0) {
				free(out->v[out->n].history);
				break;
			}
			out->n++;
		}
	}
	cJSON_Delete(root);
	if (rc < 0)
		hg_games_free(out);
	return rc;
}

int hg_parse_play(const char *body, size_t len, char **history, char *err, size_t errlen)
{
	*history = NULL;
	cJSON *d, *root = envelope(body, len, &d, err, errlen);
	if (!root)
		return -1;
	const char *h = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "history"));
	int rc = 0;
	if (!h || strlen(h) > HG_HISTORY_MAX)
		rc = errbuf_set(err, errlen, "\"history\" missing, not a string or too long");
	else if (!(*history = strdup(h)))
		rc = errbuf_set(err, errlen, "out of memory");
	cJSON_Delete(root);
	return rc;
}

int hg_parse_ok(const char *body, size_t len, char *err, size_t errlen)
{
	cJSON *d, *root = envelope(body, len, &d, err, errlen);
	cJSON_Delete(root);
	return root ? 0 : -1;
}

void hg_games_free(struct hg_games *g)
{
	for (size_t i = 0; g->v && i < g->n; i++)
		free(g->v[i].history);
	free(g->v);
	g->v = NULL;
	g->n = 0;
}

void hg_challenges_free(struct hg_challenges *c)
{
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

/* An object of string pairs as JSON text (cJSON escapes them). */
static char *format_pairs(const char *const *kv, size_t n)
{
	cJSON *o = cJSON_CreateObject();
	for (size_t i = 0; o && i < n; i += 2) {
		if (strlen(kv[i + 1]) > HG_TOKEN_MAX || !cJSON_AddStringToObject(o, kv[i], kv[i + 1])) {
			cJSON_Delete(o);
			return NULL;
		}
	}
	char *s = o ? cJSON_PrintUnformatted(o) : NULL;
	cJSON_Delete(o);
	return s;
}

char *hg_format_login(const char *user, const char *password)
{
	const char *kv[] = { "email", user, "password", password };
	return format_pairs(kv, 4);
}

char *hg_format_play(const char *game_id, const char *piece_pos)
{
	const char *kv[] = { "game_id", game_id, "piece_pos", piece_pos };
	return format_pairs(kv, 4);
}

char *hg_format_control(const char *game_id, const char *control)
{
	const char *kv[] = { "game_id", game_id, "control", control };
	return format_pairs(kv, 4);
}

int hg_history_replay(const char *history, struct hive_game *g, char *err, size_t errlen)
{
	const char *p = history;
	char ply[64], why[160];
	while (*p) {
		const char *end = strchr(p, ';');
		if (!end)
			return errbuf_set(err, errlen, "history ply %zu has no ';'", g->len + 1);
		size_t n = (size_t)(end - p);
		if (n >= sizeof ply)
			return errbuf_set(err, errlen, "history ply %zu is too long", g->len + 1);
		memcpy(ply, p, n);
		/* "wS1 " (the first ply) and "pass " end in a blank the core does not want. */
		while (n > 0 && ply[n - 1] == ' ')
			n--;
		ply[n] = 0;
		struct hive_move m;
		if (n == 0 || hive_move_parse(&g->board, ply, &m, why, sizeof why) != HIVE_OK)
			return errbuf_set(err, errlen, "history ply %zu \"%s\": %s", g->len + 1, ply,
					  n ? why : "empty");
		if (hive_game_play(g, m) != HIVE_OK)
			return errbuf_set(err, errlen, "history ply %zu \"%s\" cannot be played",
					  g->len + 1, ply);
		p = end + 1;
	}
	return 0;
}

int hg_move_text(const struct hive_game *g, struct hive_move m, char *buf, size_t len)
{
	char s[HIVE_MOVESTR_MAX];
	hive_move_format(&g->board, m, s, sizeof s);
	if (!strcmp(s, "pass"))
		return -1;
	if (g->len == 0) {
		char *sp = strchr(s, ' ');
		if (sp)
			*sp = 0;
	}
	if (strlen(s) >= len)
		return -1;
	strcpy(buf, s);
	return 0;
}

int hg_game_side(const struct hg_game *g, const char *user_id)
{
	if (!strcmp(g->white_id, user_id))
		return 0;
	if (!strcmp(g->black_id, user_id))
		return 1;
	return -1;
}
