/*
 * match_setup.c: what `hivebridge match` needs before the first game: its options
 * (read through match_opts.c's table, then checked together), the two engines (the
 * one ENGINE syntax, checked before the match starts) and the openings file.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "bridge/config.h"
#include "bridge/match/match_int.h"
#include "bridge/record_file.h"
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

int match_parse_args(int argc, char **argv, struct match_opts *o, int tournament)
{
	int rc = match_options_parse(argc, argv, tournament ? MATCH_CMD_TOURNAMENT : MATCH_CMD_MATCH, o);
	if (rc != 0)
		return rc;
	o->cmd = tournament ? "tournament" : "match";
	o->tournament = tournament;
	const char *cmd = o->cmd;
	unsigned nspec = o->nspec;

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
