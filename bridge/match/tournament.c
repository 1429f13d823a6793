/*
 * tournament.c: `hivebridge tournament [options] ENGINE ENGINE...`, a round-robin
 * (every two engines meet) or a gauntlet (the first engine meets each of the
 * others). It is a match of N engines, not a second runner: the pairings' games
 * are numbered in one list (match_schedule) that match's slots play with the one
 * referee (or, with --queue, match_queue.c puts on Redis for workers), with match's
 * options, results file, --resume and --pgnout; at the end every pairing's score and
 * the rating list of every engine (ratings.h).
 */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/match/match.h"
#include "bridge/match/match_int.h"
#include "bridge/match/ratings.h"

void tournament_pairings(struct match *m)
{
	m->npairs = 0;
	for (unsigned i = 0; i < m->npl; i++)
		for (unsigned j = i + 1; j < m->npl; j++) {
			if (m->o.gauntlet && i > 0)
				break;
			m->pairs[m->npairs][0] = (unsigned char)i;
			m->pairs[m->npairs][1] = (unsigned char)j;
			m->npairs++;
		}
}

/* The rating list of the games with a result: rows (m->npl of them, sorted); 0, or
 * -1 with why (no game yet, no memory, a fit that fails). */
static int tournament_ratings(const struct match *m, struct ratings_row *rows, char *err, size_t errlen)
{
	struct ratings_game *g = calloc(m->o.games ? m->o.games : 1, sizeof *g);
	const char *names[MATCH_MAX_PLAYERS];
	size_t ng = 0;
	int anchor = -1, rc = -1;

	for (unsigned p = 0; p < m->npl; p++) {
		names[p] = m->pl[p].label;
		if (m->o.anchor && !strcmp(m->o.anchor, names[p]))
			anchor = (int)p;
	}
	for (unsigned k = 1; g && k <= m->o.games; k++) {
		int side[2], white, op;
		if (!m->done[k])
			continue;
		match_schedule(m, k, side, &white, &op);
		double a = (m->done[k] - 1) / 2.0;
		g[ng++] = (struct ratings_game){ (unsigned)side[white], (unsigned)side[1 - white],
						 white == 0 ? a : 1 - a };
	}
	if (!g)
		snprintf(err, errlen, "out of memory");
	else if (!ng)
		snprintf(err, errlen, "no game finished");
	else if (ratings_fit(m->npl, names, g, ng, anchor, rows, err, errlen) == 0) {
		ratings_sort(rows, m->npl);
		rc = 0;
	}
	free(g);
	return rc;
}

void tournament_print_standings(const struct match *m)
{
	struct ratings_row rows[MATCH_MAX_PLAYERS];
	char err[256];

	for (unsigned i = 0; i < m->npairs; i++)
		results_print_pair(m, i);
	if (tournament_ratings(m, rows, err, sizeof err) < 0)
		printf("Ratings: %s\n", err);
	else
		ratings_print(stdout, rows, m->npl, RATINGS_TABLE, m->o.anchor);
	fflush(stdout);
}

cJSON *tournament_web(const struct match *m)
{
	struct ratings_row rows[MATCH_MAX_PLAYERS];
	char err[256];
	cJSON *t, *list;

	if (!m->o.tournament)
		return cJSON_CreateNull();
	if (!(t = cJSON_CreateObject()))
		return NULL;
	cJSON_AddStringToObject(t, "kind", m->o.gauntlet ? "gauntlet" : "round-robin");
	cJSON_AddNumberToObject(t, "per_pairing", m->per_pair);
	if ((list = cJSON_AddArrayToObject(t, "pairings")))
		for (unsigned i = 0; i < m->npairs; i++) {
			const struct sprt_counts *c = &m->prec[i];
			const struct sprt_penta *p = &m->ppenta[i];
			double elo, margin;
			cJSON *x = cJSON_CreateObject(), *pn;
			if (!x)
				break;
			cJSON_AddItemToArray(list, x);
			cJSON_AddStringToObject(x, "a", m->pl[m->pairs[i][0]].label);
			cJSON_AddStringToObject(x, "b", m->pl[m->pairs[i][1]].label);
			cJSON_AddNumberToObject(x, "wins", c->wins);
			cJSON_AddNumberToObject(x, "losses", c->losses);
			cJSON_AddNumberToObject(x, "draws", c->draws);
			if ((pn = cJSON_AddArrayToObject(x, "pentanomial")))
				for (int k = 0; k < 5; k++)
					cJSON_AddItemToArray(pn, cJSON_CreateNumber(p->n[k]));
			if (sprt_penta_elo(p, &elo, &margin) < 0)
				elo = margin = NAN;
			match_json_num(x, "elo", elo);
			match_json_num(x, "elo_margin", margin);
		}
	if (tournament_ratings(m, rows, err, sizeof err) == 0)
		cJSON_AddItemToObject(t, "ratings", ratings_json(rows, m->npl, m->o.anchor));
	else
		cJSON_AddNullToObject(t, "ratings");
	return t;
}

int tournament_main(int argc, char **argv)
{
	return match_command(argc, argv, 1);
}
