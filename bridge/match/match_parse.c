/*
 * match_parse.c: the line parsers of match's two input files, the openings file and
 * an earlier run's results file (--resume). Pure: no I/O, no loop, so that the fuzz
 * targets link them alone (tests/fuzz/fuzz_openings.c, fuzz_results.c).
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
