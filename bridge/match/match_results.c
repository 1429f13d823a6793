/*
 * match_results.c: the results of `hivebridge match`: one JSON line per finished
 * game, flushed as it ends; --resume reads an earlier run's lines back; the score,
 * Elo and SPRT lines printed as the match goes.
 */
#include <cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "bridge/match/match_int.h"
#include "bridge/referee.h"

const char *results_text(int state)
{
	switch (state) {
	case HIVE_WHITE_WINS: return "1-0";
	case HIVE_BLACK_WINS: return "0-1";
	case HIVE_DRAW: return "1/2-1/2";
	default: return "*";      /* aborted: no result */
	}
}

/* ENGINE_A's score of a finished game. */
double results_a_score(int state, int white)
{
	if (state == HIVE_DRAW)
		return 0.5;
	int winner_white = state == HIVE_WHITE_WINS;
	return winner_white == (white == PLAYER_A) ? 1.0 : 0.0;
}

void results_record(struct sprt_counts *rec, double score)
{
	if (score > 0.75)
		rec->wins++;
	else if (score < 0.25)
		rec->losses++;
	else
		rec->draws++;
}

void results_count(struct match *m, unsigned g, double a_score)
{
	int side[2], white, op;

	if (g < 1 || g > m->o.games || m->done[g])
		return;
	m->done[g] = (unsigned char)(1 + lround(2 * a_score));
	m->total++;
	unsigned pair = match_schedule(m, g, side, &white, &op);
	if (pair == 0)
		results_record(&m->rec, a_score);
	if (!m->prec || !m->ppenta)
		return;
	results_record(&m->prec[pair], a_score);
	/* Games 2k-1 and 2k are a pair (one opening, colours swapped), both scored from
	 * side 0's view. */
	unsigned other = g % 2 ? g + 1 : g - 1;
	if (other <= m->o.games && m->done[other])
		sprt_penta_add(&m->ppenta[pair], (m->done[g] - 1) / 2.0, (m->done[other] - 1) / 2.0);
}

/* The game's JSON line (no newline), with "worker" when one played it. */
char *results_line(const struct match *m, const struct slot *s, int state, const char *reason,
		   const char *worker)
{
	const struct hive_game *g = referee_game(s->ref);
	size_t ntimes;
	const uint64_t *times = referee_times(s->ref, &ntimes);
	cJSON *o = cJSON_CreateObject();
	char *gs = match_game_string(g);
	char *line = NULL, *copy = NULL;

	if (!o || !gs)
		goto out;
	cJSON_AddNumberToObject(o, "game", s->game_no);
	cJSON_AddStringToObject(o, "white", slot_label(s, s->white));
	cJSON_AddStringToObject(o, "black", slot_label(s, 1 - s->white));
	cJSON_AddStringToObject(o, "engine_a", s->white == PLAYER_A ? "white" : "black");
	if (s->engine_id[s->white][0])
		cJSON_AddStringToObject(o, "white_id", s->engine_id[s->white]);
	if (s->engine_id[1 - s->white][0])
		cJSON_AddStringToObject(o, "black_id", s->engine_id[1 - s->white]);
	if (s->opening_gs)
		cJSON_AddStringToObject(o, "opening", s->opening_gs);
	cJSON_AddStringToObject(o, "gamestring", gs);
	cJSON_AddStringToObject(o, "result", results_text(state));
	cJSON_AddStringToObject(o, "reason", reason);
	cJSON_AddNumberToObject(o, "plies", (double)g->len);
	/* An aborted game has no score: nobody may count it (--resume plays it again). */
	if (state >= HIVE_DRAW)
		cJSON_AddNumberToObject(o, "a_score", results_a_score(state, s->white));
	cJSON *t = cJSON_AddArrayToObject(o, "times_ms");
	for (size_t i = 0; t && i < ntimes; i++)
		cJSON_AddItemToArray(t, cJSON_CreateNumber((double)times[i]));
	/* With each time, the mover's last [score, depth] ([0, 0]: none), where an
	 * engine reported any: --pgnout's comments, a worker's for its coordinator. */
	size_t nevals, reported = 0;
	const struct referee_eval *ev = referee_evals(s->ref, &nevals);
	for (size_t i = 0; i < nevals; i++)
		reported += ev[i].depth > 0;
	cJSON *e = reported ? cJSON_AddArrayToObject(o, "evals") : NULL;
	for (size_t i = 0; e && i < nevals; i++) {
		int pair[2] = { ev[i].depth > 0 ? ev[i].score : 0, ev[i].depth > 0 ? ev[i].depth : 0 };
		cJSON_AddItemToArray(e, cJSON_CreateIntArray(pair, 2));
	}
	if (worker)
		cJSON_AddStringToObject(o, "worker", worker);
	line = cJSON_PrintUnformatted(o);
	/* cJSON's allocator need not be malloc: the caller frees with free(). */
	if (line)
		copy = strdup(line);
out:
	cJSON_free(line);
	free(gs);
	cJSON_Delete(o);
	return copy;
}

/* Writes the game's JSON line and flushes it; -1 if the file cannot take it. */
int results_write(struct match *m, const struct slot *s, int state, const char *reason)
{
	if (!m->results)
		return 0;
	char *line = results_line(m, s, state, reason, NULL);
	int rc = -1;

	if (!line)
		goto out;
	if (fprintf(m->results, "%s\n", line) < 0 || fflush(m->results) != 0)
		goto out;
	rc = 0;
out:
	if (rc < 0)
		fprintf(stderr, "hivebridge %s: cannot write %s: %s\n", match_cmd(m), m->o.results_path,
			strerror(errno));
	free(line);
	return rc;
}

/* Whether a tournament's results line names other engines than its game's: a file of
 * another tournament (whose game numbers mean other pairings) is not resumed. */
static int results_foreign(const struct match *m, const char *line, size_t len, unsigned g)
{
	char white[512], black[512];
	int side[2], w, op;

	match_schedule(m, g, side, &w, &op);
	if (match_result_players(line, len, white, black, sizeof white) < 0)
		return 1;
	return strcmp(white, m->pl[side[w]].label) || strcmp(black, m->pl[side[1 - w]].label);
}

/* Reads an earlier run's results: marks their games done and counts them. A last
 * line cut short by a kill is cut off the file; so are the lines of games aborted by
 * a signal that end it (their games are played again); any other bad line is an
 * error. */
static int results_resume(struct match *m, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	long good_end = 0;
	int lineno = 0, rc = 0, past = 0, aborted = 0;

	while ((n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		int complete = n > 0 && line[n - 1] == '\n';
		unsigned game;
		double score;
		if (!complete)
			break;               /* the interrupted write: cut off below */
		if (match_result_aborted(line, (size_t)n)) {
			aborted++;           /* not a result; cut off below if nothing follows */
			continue;
		}
		if (match_result_parse(line, (size_t)n, &game, &score) < 0) {
			fprintf(stderr, "hivebridge %s: %s line %d is not a result\n", match_cmd(m),
				m->o.results_path, lineno);
			rc = -1;
			break;
		}
		if (game <= m->o.games && m->o.tournament && results_foreign(m, line, (size_t)n, game)) {
			fprintf(stderr, "hivebridge tournament: %s line %d: game %u is not between this "
				"tournament's engines (its engines or their order changed?)\n",
				m->o.results_path, lineno, game);
			rc = -1;
			break;
		}
		if (game > m->o.games)
			past++;
		else
			results_count(m, game, score);
		good_end = ftell(f);
	}
	free(line);
	if (rc == 0 && aborted)
		fprintf(stderr, "hivebridge %s: %s: %d games aborted by a signal are played again\n",
			match_cmd(m), m->o.results_path, aborted);
	if (rc == 0 && past)
		fprintf(stderr, "hivebridge %s: %s: %d results past %s %u stay in the file, "
			"not in the score\n", match_cmd(m), m->o.results_path, past,
			m->o.tournament ? "game" : "--games", m->o.games);
	if (rc == 0 && ftruncate(fileno(f), good_end) < 0) {
		fprintf(stderr, "hivebridge %s: cannot truncate %s: %s\n", match_cmd(m), m->o.results_path,
			strerror(errno));
		rc = -1;
	}
	return rc;
}

int results_open(struct match *m)
{
	if (!m->o.results_path)
		return 0;
	if (m->o.resume) {
		m->results = fopen(m->o.results_path, "a+");
		if (m->results) {
			rewind(m->results);
			if (results_resume(m, m->results) < 0)
				return -1;
			fseek(m->results, 0, SEEK_END);
		}
	} else {
		m->results = fopen(m->o.results_path, "w");
	}
	if (!m->results) {
		fprintf(stderr, "hivebridge %s: cannot open %s: %s\n", match_cmd(m), m->o.results_path,
			strerror(errno));
		return -1;
	}
	return 0;
}

/* The match's LLR. By default the pentanomial GSPRT over the game pairs finished
 * (fastchess's and fishtest's model). With --sprt-model trinomial: the BayesElo model
 * (cutechess) once the record has a win, a loss and a draw; until then the GSPRT
 * logistic model, which needs none of them, so a one-sided match can still be
 * decided. Returns the model's name, NULL if none is defined yet (*llr = 0). */
const char *results_llr(const struct match *m, double *llr)
{
	if (!m->o.sprt_trinomial)
		return m->ppenta && sprt_llr_penta(&m->ppenta[0], &m->o.sprt, llr) == 0 ? "pentanomial" : NULL;
	if (sprt_llr(&m->rec, &m->o.sprt, llr) == 0)
		return "BayesElo";
	if (sprt_llr_logistic(&m->rec, &m->o.sprt, llr) == 0)
		return "logistic";
	return NULL;
}

enum sprt_verdict results_verdict(const struct match *m, double *llr)
{
	*llr = 0;
	if (!results_llr(m, llr) || m->total < m->o.sprt_min_games)
		return SPRT_CONTINUE;
	return sprt_decide(&m->o.sprt, *llr);
}

/* "+12.3 +/- 4.5", "+12.3 +/- inf", "+inf". */
static void elo_text(char *e, size_t n, double elo, double margin)
{
	elo += 0.0;      /* no "-0.0" */
	if (isfinite(elo) && isfinite(margin))
		snprintf(e, n, "%+.1f +/- %.1f", elo, margin);
	else if (isfinite(elo))
		snprintf(e, n, "%+.1f +/- inf", elo);
	else
		snprintf(e, n, "%s", elo > 0 ? "+inf" : "-inf");
}

void results_print_pair(const struct match *m, unsigned i)
{
	const struct sprt_counts *c = i == 0 || !m->prec ? &m->rec : &m->prec[i];
	unsigned n = c->wins + c->losses + c->draws;
	double score = 0, elo, margin;
	char e[64];

	sprt_score(c, &score);
	printf("Score of %s vs %s: %u - %u - %u  [%.3f] %u\n", m->pl[m->pairs[i][0]].label,
	       m->pl[m->pairs[i][1]].label, c->wins, c->losses, c->draws, score, n);
	if (sprt_elo(c, &elo, &margin) == 0) {
		elo_text(e, sizeof e, elo, margin);
		/* The likelihood of superiority: P(A stronger), from wins and losses. */
		double wl = (double)c->wins + c->losses;
		double los = wl > 0 ? 0.5 * (1 + erf(((double)c->wins - c->losses) / sqrt(2 * wl))) : 0.5;
		printf("Elo difference: %s, LOS: %.1f %%, DrawRatio: %.1f %%\n", e, 100 * los,
		       n ? 100.0 * c->draws / n : 0.0);
	}
	const struct sprt_penta *p = m->ppenta ? &m->ppenta[i] : NULL;
	if (p && sprt_penta_elo(p, &elo, &margin) == 0) {
		elo_text(e, sizeof e, elo, margin);
		printf("Ptnml(0-2): [%u, %u, %u, %u, %u], pentanomial Elo: %s, %u pairs\n", p->n[0], p->n[1],
		       p->n[2], p->n[3], p->n[4], e, sprt_penta_pairs(p));
	}
}

void results_print_score(const struct match *m)
{
	results_print_pair(m, 0);
	if (m->o.sprt_set) {
		double llr, lo, hi;
		const char *model = results_llr(m, &llr);
		sprt_bounds(&m->o.sprt, &lo, &hi);
		printf("SPRT: llr %.3f (%.3f, %.3f) elo0 %g elo1 %g, %s model\n", llr + 0.0, lo, hi,
		       m->o.sprt.elo0, m->o.sprt.elo1, model ? model : "no");
	}
	fflush(stdout);
}
