/*
 * match_setup.c: what `hivebridge match` needs before the first game: its options,
 * the two engines (the one ENGINE syntax, checked before the match starts) and the
 * openings file.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "bridge/config.h"
#include "bridge/match/match_int.h"
#include "bridge/referee.h"
#include "bridge/record_file.h"
#include "bridge/util.h"
#include "core/game.h"

/* "hivebridge CMD: " and the message, on stderr. */
static void say(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "hivebridge %s: ", cmd);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/* "MS" or "MS+INC". */
static int parse_clock(const char *s, uint64_t *ms, uint64_t *inc)
{
	char buf[64];
	unsigned long long a, b = 0;
	const char *plus = strchr(s, '+');
	size_t n = plus ? (size_t)(plus - s) : strlen(s);
	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	if (parse_uint(buf, 1, 86400000ULL * 7, &a) < 0)
		return -1;
	if (plus && parse_uint(plus + 1, 0, 86400000ULL, &b) < 0)
		return -1;
	*ms = a;
	*inc = b;
	return 0;
}

const char *match_option_value(const char *cmd, const char *too_long, int argc, char **argv,
			       int *i, char *name, size_t n)
{
	const char *a = argv[*i];
	const char *eq = strchr(a, '=');
	size_t nlen = eq ? (size_t)(eq - a) : strlen(a);

	if (nlen >= n) {
		fprintf(stderr, "hivebridge %s: %s %s\n", cmd, too_long, a);
		return NULL;
	}
	memcpy(name, a, nlen);
	name[nlen] = 0;
	const char *val = eq ? eq + 1 : (*i + 1 < argc ? argv[++*i] : NULL);
	if (!val)
		fprintf(stderr, "hivebridge %s: %s needs a value\n", cmd, name);
	return val;
}

int match_parse_args(int argc, char **argv, struct match_opts *o, int tournament)
{
	unsigned nspec = 0, maxspec = tournament ? MATCH_MAX_PLAYERS : 2;
	memset(o, 0, sizeof *o);
	o->cmd = tournament ? "tournament" : "match";
	o->tournament = tournament;
	const char *cmd = o->cmd;
	o->concurrency = 1;
	o->max_plies = REFEREE_MAX_PLIES;
	o->repetition = REFEREE_REPETITION;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		unsigned long long v;
		char err[160];

		if (a[0] != '-' || a[1] == 0) {
			if (nspec == maxspec) {
				fprintf(stderr, "hivebridge %s: unexpected argument %s%s\n", cmd, a,
					tournament ? " (at most 32 engines)" : "");
				return -1;
			}
			o->spec[nspec++] = a;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			return 1;
		if (!strcmp(a, "--resume")) {
			o->resume = 1;
			continue;
		}
		if (!strcmp(a, "--keep")) {
			o->keep = 1;
			continue;
		}
		if (tournament && !strcmp(a, "--gauntlet")) {
			o->gauntlet = 1;
			continue;
		}
		/* Every other option takes a value. */
		char name[32];
		const char *val = match_option_value(cmd, "unknown option", argc, argv, &i, name,
						     sizeof name);
		if (!val)
			return -1;
		if (!strcmp(name, "--type")) {
			if (hive_gametype_parse(val, &o->type) != 0) {
				say(cmd, "unknown game type %s\n", val);
				return -1;
			}
			o->type_set = 1;
		} else if (!strcmp(name, "--games")) {
			if (parse_uint(val, 1, MATCH_MAX_GAMES, &v) < 0)
				goto bad;
			o->games = (unsigned)v;
			o->games_set = 1;
		} else if (!strcmp(name, "--concurrency")) {
			if (parse_uint(val, 1, MATCH_MAX_CONCURRENCY, &v) < 0)
				goto bad;
			o->concurrency = (unsigned)v;
		} else if (!strcmp(name, "--openings")) {
			o->openings_path = val;
		} else if (!strcmp(name, "--opening-plies")) {
			if (parse_uint(val, 1, MATCH_PLY_CAP, &v) < 0)
				goto bad;
			o->opening_plies = (unsigned)v;
		} else if (!strcmp(name, "--depth")) {
			if (parse_uint(val, 1, MATCH_MAX_DEPTH, &v) < 0)
				goto bad;
			o->depth = (int)v;
		} else if (!strcmp(name, "--movetime")) {
			if (parse_uint(val, 1, 86400000ULL, &v) < 0)
				goto bad;
			o->movetime_ms = v;
		} else if (!strcmp(name, "--clock")) {
			if (parse_clock(val, &o->clock_ms, &o->inc_ms) < 0)
				goto bad;
		} else if (!strcmp(name, "--max-plies")) {
			if (parse_uint(val, 0, MATCH_PLY_CAP, &v) < 0 || !MATCH_PLIES_OK(v))
				goto bad;
			o->max_plies = (unsigned)v;
		} else if (!strcmp(name, "--repetition")) {
			if (parse_uint(val, 0, MATCH_REPETITION_CAP, &v) < 0 || !MATCH_REPETITION_OK(v))
				goto bad;
			o->repetition = (unsigned)v;
		} else if (!strcmp(name, "--results")) {
			o->results_path = val;
		} else if (!strcmp(name, "--pgnout")) {
			o->pgnout_path = val;
		} else if (!strcmp(name, "--sprt")) {
			if (sprt_parse(val, &o->sprt, err, sizeof err) < 0) {
				say(cmd, "%s\n", err);
				return -1;
			}
			o->sprt_set = 1;
		} else if (!strcmp(name, "--sprt-model")) {
			if (strcmp(val, "pentanomial") && strcmp(val, "trinomial"))
				goto bad;
			o->sprt_trinomial = !strcmp(val, "trinomial");
		} else if (tournament && !strcmp(name, "--anchor")) {
			o->anchor = val;
		} else if (!strcmp(name, "--sprt-min-games")) {
			if (parse_uint(val, 0, MATCH_MAX_GAMES, &v) < 0)
				goto bad;
			o->sprt_min_games = (unsigned)v;
		} else if (!strcmp(name, "--viewer")) {
			o->viewer = val;
		} else if (!strcmp(name, "--http")) {
			o->http = val;
		} else if (!strcmp(name, "--config")) {
			o->config_path = val;
		} else if (!strcmp(name, "--log")) {
			o->log_path = val;
		} else if (!strcmp(name, "--queue")) {
			o->queue = val;
		} else if (!strcmp(name, "--live-expiry")) {
			if (parse_uint(val, 100, 86400000ULL, &v) < 0)
				goto bad;
			o->live_expiry_ms = v;
		} else {
			say(cmd, "unknown option %s\n", name);
			return -1;
		}
		continue;
bad:
		say(cmd, "bad value for %s: %s\n", name, val);
		return -1;
	}
	o->nspec = nspec;
	if (tournament ? nspec < 2 : nspec != 2) {
		say(cmd, tournament ? "two engines or more needed\n" : "two engines needed\n");
		return -1;
	}
	for (unsigned i = 0; tournament && i < nspec; i++)
		for (unsigned j = 0; j < i; j++)
			if (!strcmp(o->spec[i], o->spec[j])) {
				say(cmd, "engine %s is named twice (a profile in --config tells two "
				    "configurations apart)\n", o->spec[i]);
				return -1;
			}
	if (tournament && o->games_set && o->games % 2) {
		say(cmd, "--games %u: a pairing plays each opening with both colours, so an even "
		    "number\n", o->games);
		return -1;
	}
	if (tournament && o->sprt_set && nspec != 2) {
		say(cmd, "--sprt is a test between two engines\n");
		return -1;
	}
	if (tournament && o->anchor) {
		int found = 0;
		for (unsigned i = 0; i < nspec; i++)
			found |= !strcmp(o->spec[i], o->anchor);
		if (!found) {
			say(cmd, "--anchor %s is not one of the engines\n", o->anchor);
			return -1;
		}
	}
	if (!!o->depth + !!o->movetime_ms + !!o->clock_ms > 1) {
		say(cmd, "--depth, --movetime and --clock exclude each other\n");
		return -1;
	}
	if (o->live_expiry_ms && !(o->queue && o->http)) {
		say(cmd, "--live-expiry goes with --queue and --http\n");
		return -1;
	}
	if (o->keep && !o->queue) {
		say(cmd, "--keep goes with --queue\n");
		return -1;
	}
	if (o->sprt_min_games && !o->sprt_set) {
		say(cmd, "--sprt-min-games goes with --sprt\n");
		return -1;
	}
	if (o->games_set && !tournament && o->sprt_min_games > o->games) {
		say(cmd, "--sprt-min-games %u is more than --games %u: "
			"the test could never decide\n", o->sprt_min_games, o->games);
		return -1;
	}
	if (o->resume && !o->results_path) {
		say(cmd, "--resume needs --results FILE\n");
		return -1;
	}
	return 0;
}

/* Resolves ENGINE_A and ENGINE_B to profiles of m->conf: 0, 2 for a bad ENGINE,
 * -1 for one that cannot work. */
int match_players_resolve(struct match *m)
{
	char *names[MATCH_MAX_PLAYERS] = { NULL };
	int rc = -1;

	m->npl = m->o.nspec;
	for (unsigned p = 0; p < m->npl; p++) {
		const char *spec = m->o.spec[p];
		char err[512] = "";
		m->pl[p].label = spec;
		const struct engine_profile *pr = config_engine_parse(&m->conf, spec, &m->pl[p].depth,
								      err, sizeof err);
		if (!pr) {
			say(match_cmd(m), "engine \"%s\": %s\n", spec, err[0] ? err : "bad engine");
			rc = 2;
			goto out;
		}
		m->pl[p].movetime_ms = config_engine_movetime(spec);
		names[p] = strdup(pr->name);
		if (!names[p])
			goto out;
	}
	/* Only now: adding a profile may move the others. */
	for (unsigned p = 0; p < m->npl; p++) {
		char err[512] = "";
		m->pl[p].profile = config_profile(&m->conf, names[p]);
		if (!m->pl[p].profile) {
			say(match_cmd(m), "no engine profile \"%s\"\n", names[p]);
			goto out;
		}
		/* A command that is not there, or a host that does not resolve, ends the
		 * match before it starts (and no name is resolved inside the loop). */
		if (config_engine_check(&m->conf, m->pl[p].profile, err, sizeof err) < 0) {
			say(match_cmd(m), "engine \"%s\": %s\n", m->pl[p].label,
				err[0] ? err : "cannot work");
			goto out;
		}
	}
	rc = 0;
out:
	for (unsigned p = 0; p < m->npl; p++)
		free(names[p]);
	return rc;
}

/* The openings of a PGN or SGF file: each game's first --opening-plies plies (all by
 * default) as a GameString; a game over by then, or of another --type, is refused. */
static int openings_from_records(struct match *m)
{
	struct hive_record *v;
	size_t n;
	char err[768];

	if (record_file_read(m->o.openings_path, &v, &n, err, sizeof err) != 0) {
		say(match_cmd(m), "--openings %s\n", err);
		return -1;
	}
	m->openings = calloc(n, sizeof *m->openings);
	for (size_t i = 0; m->openings && i < n; i++) {
		struct hive_game *g = &v[i].game;
		char name[160];
		hive_record_name(&v[i], i + 1, name, sizeof name);
		if (m->o.opening_plies && g->len > m->o.opening_plies)
			hive_game_undo(g, g->len - m->o.opening_plies);
		if (hive_game_over(&g->board) || (m->o.type_set && g->type != m->o.type)) {
			say(match_cmd(m), "--openings %s: %s: %s\n", m->o.openings_path, name,
				hive_game_over(&g->board) ? "the game is over at its last ply (see --opening-plies)" :
				"not of the match's --type");
			break;
		}
		size_t need = hive_game_format(g, NULL, 0);
		if (!(m->openings[i] = malloc(need + 1)))
			break;
		hive_game_format(g, m->openings[i], need + 1);
		m->nopenings++;
	}
	int rc = m->openings && m->nopenings == n ? 0 : -1;
	if (rc != 0 && !m->openings)
		say(match_cmd(m), "out of memory\n");
	hive_records_free(v, n);
	return rc;
}

/* Reads the openings: one GameString per line, blank lines and '#' comments skipped;
 * or, told by content, the games of a PGN or BoardSpace SGF file. */
int match_openings_load(struct match *m)
{
	FILE *f = fopen(m->o.openings_path, "r");
	char *line = NULL, err[256], head[4096];
	size_t cap = 0, capo = 0;
	ssize_t n;
	int lineno = 0, rc = 0;

	if (!f) {
		say(match_cmd(m), "%s: %s\n", m->o.openings_path, strerror(errno));
		return -1;
	}
	size_t headlen = fread(head, 1, sizeof head, f);
	enum hive_record_format fmt = hive_record_detect(head, headlen);
	if (fmt == HIVE_RECORD_PGN || fmt == HIVE_RECORD_SGF) {
		fclose(f);
		return openings_from_records(m);
	}
	rewind(f);
	while (rc == 0 && (n = getline(&line, &cap, f)) >= 0) {
		char *s;
		lineno++;
		int got = match_opening_parse(line, m->o.type_set ? (int)m->o.type : -1, &s, err, sizeof err);
		if (got < 0) {
			say(match_cmd(m), "%s line %d: %s\n", m->o.openings_path, lineno, err);
			rc = -1;
		} else if (got > 0) {
			if (m->nopenings == capo) {
				capo = capo ? capo * 2 : 16;
				char **o = realloc(m->openings, capo * sizeof *o);
				if (!o)
					rc = -1;
				else
					m->openings = o;
			}
			if (rc == 0 && !(m->openings[m->nopenings] = strdup(s)))
				rc = -1;
			if (rc == 0)
				m->nopenings++;
		}
	}
	free(line);
	fclose(f);
	if (rc == 0 && m->nopenings == 0) {
		say(match_cmd(m), "%s has no opening\n", m->o.openings_path);
		rc = -1;
	}
	return rc;
}
