/*
 * match_parse.c: the line parsers of match's two input files, the openings file and
 * an earlier run's results file (--resume), and the check of a worker's result line
 * (match --queue). Pure: no I/O, no loop, so that the fuzz targets link them alone
 * (tests/fuzz/fuzz_openings.c, fuzz_results.c, fuzz_redis_reply.c).
 */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bridge/match/match_int.h"

/* Space, tab, CR and LF at both ends are not part of a line's content. */
static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int match_opening_parse(char *line, int type, char **opening, char *err, size_t errlen)
{
	size_t n = strlen(line);
	char *s = line;

	*opening = NULL;
	while (n > 0 && is_blank(line[n - 1]))
		line[--n] = 0;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '#')
		return 0;

	struct hive_game g;
	int rc = -1;
	hive_game_init(&g, 0);
	if (hive_game_parse(&g, s, err, errlen) != HIVE_OK)
		goto out;
	if (hive_game_over(&g.board)) {
		snprintf(err, errlen, "the game is over");
		goto out;
	}
	if (type >= 0 && g.type != (unsigned)type) {
		snprintf(err, errlen, "%s, not --type %s", hive_gametype_name(g.type),
			 hive_gametype_name((unsigned)type));
		goto out;
	}
	*opening = s;
	rc = 1;
out:
	hive_game_free(&g);
	return rc;
}

int match_result_aborted(const char *line, size_t len)
{
	cJSON *o = cJSON_ParseWithLength(line, len);
	cJSON *r = o ? cJSON_GetObjectItemCaseSensitive(o, "result") : NULL;
	int aborted = cJSON_IsString(r) && !strcmp(r->valuestring, "*");
	cJSON_Delete(o);
	return aborted;
}

int match_result_players(const char *line, size_t len, char *white, char *black, size_t n)
{
	cJSON *o = cJSON_ParseWithLength(line, len);
	const char *w = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "white"));
	const char *b = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "black"));
	int rc = -1;

	if (w && b && strlen(w) < n && strlen(b) < n) {
		memcpy(white, w, strlen(w) + 1);
		memcpy(black, b, strlen(b) + 1);
		rc = 0;
	}
	cJSON_Delete(o);
	return rc;
}

int match_result_parse(const char *line, size_t len, unsigned *game, double *a_score)
{
	cJSON *o = cJSON_ParseWithLength(line, len);
	cJSON *g = o ? cJSON_GetObjectItemCaseSensitive(o, "game") : NULL;
	cJSON *sc = o ? cJSON_GetObjectItemCaseSensitive(o, "a_score") : NULL;
	int rc = -1;

	/* What results_write writes: a game number from 1, a score of 0, 1/2 or 1. */
	if (cJSON_IsNumber(g) && cJSON_IsNumber(sc) && g->valuedouble >= 1 &&
	    g->valuedouble <= MATCH_MAX_GAMES && g->valuedouble == floor(g->valuedouble) &&
	    (sc->valuedouble == 0 || sc->valuedouble == 0.5 || sc->valuedouble == 1)) {
		*game = (unsigned)g->valuedouble;
		*a_score = sc->valuedouble;
		rc = 0;
	}
	cJSON_Delete(o);
	return rc;
}

/* A string member of o (NULL if absent or not a string), at most max bytes. */
static const char *str_member(const cJSON *o, const char *k, size_t max, int *bad)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	if (!v)
		return NULL;
	if (!cJSON_IsString(v) || strlen(v->valuestring) > max) {
		*bad = 1;
		return NULL;
	}
	return v->valuestring;
}

/* v: an integer in [lo, hi]; -1 if absent or anything else. */
static int int_value(const cJSON *v, double lo, double hi, double *out)
{
	if (!cJSON_IsNumber(v) || !(v->valuedouble >= lo && v->valuedouble <= hi) ||
	    v->valuedouble != floor(v->valuedouble))
		return -1;
	*out = v->valuedouble;
	return 0;
}

/* An integer member in [lo, hi]; -1 if absent or anything else. */
static int int_member(const cJSON *o, const char *k, double lo, double hi, double *out)
{
	return int_value(cJSON_GetObjectItemCaseSensitive(o, k), lo, hi, out);
}

#define REFUSE(...) do { snprintf(why, whylen, __VA_ARGS__); goto out; } while (0)

unsigned match_game_place(unsigned npairs, size_t nopenings, unsigned g, int *white, int *opening)
{
	unsigned k = (g - 1) / 2, np = npairs ? npairs : 1;

	*white = g % 2 == 1 ? 0 : 1;
	*opening = nopenings ? (int)((k / np) % nopenings) : -1;
	return k % np;
}

struct cJSON *match_result_check(const char *line, const struct match_result_rules *rr, unsigned *game,
				 double *a_score, char *why, size_t whylen)
{
	const char *end = NULL;
	/* Not parsed at all when too long: whoever writes to Redis chooses its length. */
	int too_long = line && strlen(line) > MATCH_RESULT_MAX;
	cJSON *o = line && !too_long ? cJSON_ParseWithOpts(line, &end, 1) : NULL;
	cJSON *out = NULL, *t;
	struct hive_game hg, start;
	char err[128];
	double g, plies, ms;
	int bad = 0;

	*game = 0;
	*a_score = 0;
	hive_game_init(&hg, 0);
	hive_game_init(&start, rr->type);
	if (!line)
		REFUSE("no line");
	if (too_long)
		REFUSE("longer than %d bytes", MATCH_RESULT_MAX);
	/* One JSON object and nothing after it. */
	if (!cJSON_IsObject(o))
		REFUSE("not one JSON object");
	if (int_member(o, "game", 1, rr->games, &g) < 0)
		REFUSE("no game number of this match");
	*game = (unsigned)g;
	/* The game's job: its pairing's engines, the side with white, its round's opening
	 * (match_schedule's numbering; a match is one pairing). */
	int side_white, op;
	unsigned pairing = match_game_place(rr->npairs, rr->nopenings, *game, &side_white, &op);
	const char *la = rr->npairs ? rr->labels[rr->pairs[pairing][0]] : rr->label[0];
	const char *lb = rr->npairs ? rr->labels[rr->pairs[pairing][1]] : rr->label[1];
	int a_white = side_white == 0;
	const char *white = str_member(o, "white", 4096, &bad), *black = str_member(o, "black", 4096, &bad);
	const char *ea = str_member(o, "engine_a", 8, &bad);
	if (!white || !black || strcmp(white, a_white ? la : lb) || strcmp(black, a_white ? lb : la))
		REFUSE("not this game's engines");
	if (!ea || strcmp(ea, a_white ? "white" : "black"))
		REFUSE("engine_a is not %s", a_white ? "white" : "black");
	const char *res = str_member(o, "result", 8, &bad), *reason = str_member(o, "reason", 256, &bad);
	int state = !res ? -1 : !strcmp(res, "1-0") ? HIVE_WHITE_WINS : !strcmp(res, "0-1") ? HIVE_BLACK_WINS :
		    !strcmp(res, "1/2-1/2") ? HIVE_DRAW : -1;
	if (state < 0)
		REFUSE("no result");
	if (!reason || !*reason)
		REFUSE("no reason");
	const cJSON *sc = cJSON_GetObjectItemCaseSensitive(o, "a_score");
	*a_score = state == HIVE_DRAW ? 0.5 : (state == HIVE_WHITE_WINS) == a_white ? 1.0 : 0.0;
	if (!cJSON_IsNumber(sc) || sc->valuedouble != *a_score)
		REFUSE("a_score does not match %s", res);
	if (int_member(o, "plies", 0, MATCH_PLY_CAP, &plies) < 0)
		REFUSE("plies is not a count");
	const char *gs = str_member(o, "gamestring", 1 << 20, &bad);
	/* Its moves counted before the parse, whose cost grows with them: a line whose
	 * plies do not match costs a scan, not a game replayed. */
	size_t semis = 0;
	for (const char *q = gs; q && *q; q++)
		semis += *q == ';';
	if (gs && semis != (size_t)plies + 2)
		REFUSE("plies is not the gamestring's");
	if (!gs || hive_game_parse(&hg, gs, err, sizeof err) != HIVE_OK)
		REFUSE("the gamestring does not parse");
	if (hg.len != (size_t)plies)
		REFUSE("plies is not the gamestring's");
	if (hive_game_over(&hg.board) && hg.board.state != state)
		REFUSE("the result is not the gamestring's");
	/* The game's own start: its opening, else an empty board of the match's type. */
	const char *opening = op >= 0 ? rr->openings[op] : NULL;
	if (opening) {
		if (hive_game_parse(&start, opening, err, sizeof err) != HIVE_OK)
			REFUSE("its opening does not parse");
	}
	if (hg.type != start.type || !hive_game_is_prefix(&start, &hg))
		REFUSE("not this game's opening");
	const char *wid = str_member(o, "white_id", 256, &bad), *bid = str_member(o, "black_id", 256, &bad);
	if (bad)
		REFUSE("a field is not a short string");
	const cJSON *times = cJSON_GetObjectItemCaseSensitive(o, "times_ms");
	if (!cJSON_IsArray(times) || cJSON_GetArraySize(times) > (int)plies + 1)
		REFUSE("times_ms is not one time per move");
	const cJSON *evals = cJSON_GetObjectItemCaseSensitive(o, "evals");
	if (evals && (!cJSON_IsArray(evals) || cJSON_GetArraySize(evals) > cJSON_GetArraySize(times)))
		REFUSE("evals is not one [score, depth] per time");
	/* Rebuilt from what was checked, in results_line's order: never the line as sent. */
	if (!(out = cJSON_CreateObject()))
		REFUSE("no memory");
	cJSON_AddNumberToObject(out, "game", g);
	cJSON_AddStringToObject(out, "white", white);
	cJSON_AddStringToObject(out, "black", black);
	cJSON_AddStringToObject(out, "engine_a", ea);
	if (wid)
		cJSON_AddStringToObject(out, "white_id", wid);
	if (bid)
		cJSON_AddStringToObject(out, "black_id", bid);
	if (opening)
		cJSON_AddStringToObject(out, "opening", opening);
	cJSON_AddStringToObject(out, "gamestring", gs);
	cJSON_AddStringToObject(out, "result", res);
	cJSON_AddStringToObject(out, "reason", reason);
	cJSON_AddNumberToObject(out, "plies", plies);
	cJSON_AddNumberToObject(out, "a_score", *a_score);
	if (!(t = cJSON_AddArrayToObject(out, "times_ms")))
		REFUSE("no memory");
	for (const cJSON *x = times->child; x; x = x->next) {
		if (!cJSON_IsNumber(x) || !(x->valuedouble >= 0 && x->valuedouble <= 86400000.0 * 7) ||
		    x->valuedouble != floor(x->valuedouble))
			REFUSE("times_ms is not one time per move");
		ms = x->valuedouble;
		cJSON_AddItemToArray(t, cJSON_CreateNumber(ms));
	}
	if (evals && !(t = cJSON_AddArrayToObject(out, "evals")))
		REFUSE("no memory");
	for (const cJSON *x = evals ? evals->child : NULL; x; x = x->next) {
		double score, depth;
		if (!cJSON_IsArray(x) || cJSON_GetArraySize(x) != 2 ||
		    int_value(cJSON_GetArrayItem(x, 0), -MATCH_SCORE_MAX, MATCH_SCORE_MAX, &score) < 0 ||
		    int_value(cJSON_GetArrayItem(x, 1), 0, MATCH_MAX_DEPTH_REPORTED, &depth) < 0)
			REFUSE("evals is not one [score, depth] per time");
		int pair[2] = { (int)score, (int)depth };
		cJSON_AddItemToArray(t, cJSON_CreateIntArray(pair, 2));
	}
	if (rr->worker)
		cJSON_AddStringToObject(out, "worker", rr->worker);
	cJSON_Delete(o);
	hive_game_free(&hg);
	hive_game_free(&start);
	return out;
out:
	cJSON_Delete(out);
	cJSON_Delete(o);
	hive_game_free(&hg);
	hive_game_free(&start);
	return NULL;
}
