/*
 * match_web.c: `hivebridge match --http ADDR:PORT`, the match dashboard's data. The
 * games themselves reach the page through the live registry (match.c reports them);
 * this file keeps what outlives a game: a row per finished game (with its GameString,
 * so the page can step through it) and the LLR after each game, and builds the
 * summary GET /api/match answers (schemas/web-match.json).
 */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bridge/http/http.h"
#include "bridge/live.h"
#include "bridge/match/match_int.h"
#include "bridge/referee.h"

void match_json_num(cJSON *o, const char *key, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, key, v + 0.0);
	else
		cJSON_AddNullToObject(o, key);
}

static cJSON *match_web_summary(void *arg)
{
	struct match *m = arg;
	const struct sprt_counts *c = &m->rec;
	unsigned n = c->wins + c->losses + c->draws;
	double score = 0, elo, margin;
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "engine_a", m->pl[0].label);
	cJSON_AddStringToObject(o, "engine_b", m->pl[1].label);
	cJSON_AddNumberToObject(o, "games", m->o.games);
	cJSON_AddNumberToObject(o, "played", m->total);
	cJSON_AddBoolToObject(o, "over", m->web_lingering || m->stopping);
	cJSON_AddNumberToObject(o, "wins", c->wins);
	cJSON_AddNumberToObject(o, "losses", c->losses);
	cJSON_AddNumberToObject(o, "draws", c->draws);
	sprt_score(c, &score);
	match_json_num(o, "score", n ? score : NAN);
	if (sprt_elo(c, &elo, &margin) == 0) {
		match_json_num(o, "elo", elo);
		match_json_num(o, "elo_margin", margin);
	} else {
		cJSON_AddNullToObject(o, "elo");
		cJSON_AddNullToObject(o, "elo_margin");
	}
	double wl = (double)c->wins + c->losses;
	match_json_num(o, "los", wl > 0 ? 0.5 * (1 + erf(((double)c->wins - c->losses) / sqrt(2 * wl))) : 0.5);
	match_json_num(o, "draw_ratio", n ? (double)c->draws / n : NAN);
	/* The game pairs (one opening, colours swapped) of the first pairing. */
	cJSON *pn = cJSON_AddArrayToObject(o, "pentanomial");
	for (int k = 0; pn && k < 5; k++)
		cJSON_AddItemToArray(pn, cJSON_CreateNumber(m->ppenta ? m->ppenta[0].n[k] : 0));
	if (!m->ppenta || sprt_penta_elo(&m->ppenta[0], &elo, &margin) < 0)
		elo = margin = NAN;
	match_json_num(o, "penta_elo", elo);
	match_json_num(o, "penta_elo_margin", margin);
	if (m->o.sprt_set) {
		double llr, lo, hi;
		const char *model = results_llr(m, &llr);
		sprt_bounds(&m->o.sprt, &lo, &hi);
		cJSON *s = cJSON_AddObjectToObject(o, "sprt");
		match_json_num(s, "elo0", m->o.sprt.elo0);
		match_json_num(s, "elo1", m->o.sprt.elo1);
		match_json_num(s, "alpha", m->o.sprt.alpha);
		match_json_num(s, "beta", m->o.sprt.beta);
		match_json_num(s, "lower", lo);
		match_json_num(s, "upper", hi);
		match_json_num(s, "llr", llr);
		cJSON_AddNumberToObject(s, "min_games", m->o.sprt_min_games);
		if (model)
			cJSON_AddStringToObject(s, "model", model);
		else
			cJSON_AddNullToObject(s, "model");
		cJSON_AddStringToObject(s, "verdict", m->verdict == SPRT_ACCEPT_H1 ? "H1" :
					m->verdict == SPRT_ACCEPT_H0 ? "H0" : "continue");
		cJSON *h = cJSON_AddArrayToObject(s, "history");
		for (size_t i = 0; i < m->nllr; i++)
			cJSON_AddItemToArray(h, cJSON_CreateNumber(isfinite(m->llr_hist[i]) ? m->llr_hist[i] : 0));
	} else {
		cJSON_AddNullToObject(o, "sprt");
	}
	cJSON *t = tournament_web(m);
	if (t)
		cJSON_AddItemToObject(o, "tournament", t);
	cJSON *run = cJSON_AddArrayToObject(o, "running");
	for (unsigned i = 0; i < m->nslots; i++) {
		const struct slot *s = &m->slots[i];
		if (!s->game_no)
			continue;
		cJSON *g = cJSON_CreateObject();
		cJSON_AddNumberToObject(g, "game", s->game_no);
		cJSON_AddStringToObject(g, "white", slot_label(s, s->white));
		cJSON_AddStringToObject(g, "black", slot_label(s, 1 - s->white));
		cJSON_AddNumberToObject(g, "plies", (double)referee_game(s->ref)->len);
		if (referee_live(s->ref))
			cJSON_AddNumberToObject(g, "live_id", referee_live(s->ref)->id);
		else
			cJSON_AddNullToObject(g, "live_id");
		cJSON_AddItemToArray(run, g);
	}
	if (m->web_running)
		m->web_running(m->web_workers_arg, run);
	if (m->web_workers) {
		cJSON *w = m->web_workers(m->web_workers_arg);
		if (w)
			cJSON_AddItemToObject(o, "workers", w);
		else
			cJSON_AddArrayToObject(o, "workers");
	} else {
		cJSON_AddNullToObject(o, "workers");
	}
	cJSON_AddItemToObject(o, "finished", m->web_finished ? cJSON_Duplicate(m->web_finished, 1)
							       : cJSON_CreateArray());
	return o;
}

int match_web_start(struct match *m)
{
	char err[256] = "";
	m->web_finished = cJSON_CreateArray();
	m->http = m->web_finished ? http_start(m->base, &m->conf, m->o.http, err, sizeof err) : NULL;
	if (!m->http) {
		fprintf(stderr, "hivebridge %s: --http: %s\n", match_cmd(m), err[0] ? err : "out of memory");
		return -1;
	}
	http_set_match(m->http, match_web_summary, m);
	return 0;
}

/* A finished game's row joins the table; the LLR after it joins the chart. */
static void web_add(struct match *m, cJSON *g)
{
	cJSON_AddItemToArray(m->web_finished, g);
	if (m->o.sprt_set) {
		double llr;
		results_llr(m, &llr);
		if (m->nllr == m->capllr) {
			size_t cap = m->capllr ? m->capllr * 2 : 64;
			double *p = realloc(m->llr_hist, cap * sizeof *p);
			if (p) {
				m->llr_hist = p;
				m->capllr = cap;
			}
		}
		if (m->nllr < m->capllr)
			m->llr_hist[m->nllr++] = llr;
	}
	live_notify_match();
}

void match_web_record(struct match *m, const struct slot *s, int state, const char *reason)
{
	if (!m->http)
		return;
	char *gs = match_game_string(referee_game(s->ref));
	cJSON *g = cJSON_CreateObject();
	cJSON_AddNumberToObject(g, "game", s->game_no);
	cJSON_AddStringToObject(g, "white", slot_label(s, s->white));
	cJSON_AddStringToObject(g, "black", slot_label(s, 1 - s->white));
	cJSON_AddStringToObject(g, "result", results_text(state));
	cJSON_AddStringToObject(g, "reason", reason);
	cJSON_AddNumberToObject(g, "plies", (double)referee_game(s->ref)->len);
	cJSON_AddNumberToObject(g, "a_score", results_a_score(state, s->white));
	cJSON_AddStringToObject(g, "gamestring", gs ? gs : "");
	free(gs);
	web_add(m, g);
}

void match_web_result(struct match *m, const cJSON *line)
{
	static const char *const keys[] = { "game", "white", "black", "result", "reason", "plies",
					    "a_score", "gamestring" };
	if (!m->http)
		return;
	cJSON *g = cJSON_CreateObject();
	for (size_t i = 0; g && i < sizeof keys / sizeof *keys; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(line, keys[i]);
		cJSON *copy = v ? cJSON_Duplicate(v, 0) : cJSON_CreateString("");
		if (copy)
			cJSON_AddItemToObject(g, keys[i], copy);
	}
	if (g)
		web_add(m, g);
}

void match_web_free(struct match *m)
{
	http_free(m->http);
	m->http = NULL;
	cJSON_Delete(m->web_finished);
	m->web_finished = NULL;
	free(m->llr_hist);
	m->llr_hist = NULL;
}
