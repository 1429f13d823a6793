/*
 * ratings_cmd.c: `hivebridge ratings [--csv | --json] [--anchor ENGINE] FILE...`,
 * the rating list of every engine named in results files (match's and tournament's
 * --results: one JSON line per game, naming white, black and the result).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "bridge/match/ratings.h"
#include "core/errbuf.h"

/* A results line longer than this is not ours (a GameString of thousands of plies
 * stays well under it). */
#define RATINGS_LINE_MAX  (4u << 20)

static const char ratings_usage[] =
	"usage: hivebridge ratings [--csv | --json] [--anchor ENGINE] FILE...\n"
	"  the maximum-likelihood rating of every engine in the FILEs, the --results of\n"
	"  `match` and `tournament` (Ordo's model: logistic, a draw half a point), with\n"
	"  95 % margins from the inverse Hessian, games, points and score per engine;\n"
	"  games aborted by a signal (result \"*\") and an engine's games against\n"
	"  itself are not counted\n"
	"  --anchor ENGINE        that engine at 0 (default: the pool's average at 0)\n"
	"  --csv, --json          the list as CSV or one JSON object (default a table)\n"
	"  an engine that scored every point (or none) is listed at +inf (-inf)\n"
	"  exit status: 0 the list, 1 a file that cannot be read or rated, 2 a usage error\n";

struct games {
	char                **names;
	size_t                nnames;
	struct ratings_game  *g;
	size_t                ng, cap;
	size_t                self;      /* games of an engine against itself, left out */
};

/* The index of name, added if new; -1 on no memory or too many. */
static int name_index(struct games *gs, const char *name)
{
	for (size_t i = 0; i < gs->nnames; i++)
		if (!strcmp(gs->names[i], name))
			return (int)i;
	if (gs->nnames == RATINGS_MAX_ENGINES)
		return -1;
	char **v = realloc(gs->names, (gs->nnames + 1) * sizeof *v);
	if (!v)
		return -1;
	gs->names = v;
	if (!(v[gs->nnames] = strdup(name)))
		return -1;
	return (int)gs->nnames++;
}

/* One line: 1 a game added, 0 a line without a result, -1 with err. */
static int add_line(struct games *gs, const char *line, size_t len, char *err, size_t errlen)
{
	char w[RATINGS_NAME_MAX + 1], b[RATINGS_NAME_MAX + 1];
	double s;
	int rc = ratings_line_parse(line, len, w, b, &s, err, errlen);
	if (rc == 2)
		gs->self++;
	if (rc != 1)
		return rc < 0 ? -1 : 0;
	int wi = name_index(gs, w), bi = wi < 0 ? -1 : name_index(gs, b);
	if (wi < 0 || bi < 0)
		return errbuf_set(err, errlen, "more than %d engines, or out of memory", RATINGS_MAX_ENGINES);
	if (gs->ng == gs->cap) {
		size_t cap = gs->cap ? 2 * gs->cap : 256;
		struct ratings_game *v = realloc(gs->g, cap * sizeof *v);
		if (!v)
			return errbuf_set(err, errlen, "out of memory");
		gs->g = v;
		gs->cap = cap;
	}
	gs->g[gs->ng++] = (struct ratings_game){ (unsigned)wi, (unsigned)bi, s };
	return 1;
}

static int read_file(struct games *gs, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, err[160];
	size_t cap = 0;
	ssize_t n;
	int lineno = 0, rc = 0;

	if (!f) {
		fprintf(stderr, "hivebridge ratings: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (rc == 0 && (n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if ((size_t)n > RATINGS_LINE_MAX) {
			fprintf(stderr, "hivebridge ratings: %s line %d: longer than %u bytes\n", path,
				lineno, RATINGS_LINE_MAX);
			rc = -1;
		} else if (add_line(gs, line, (size_t)n, err, sizeof err) < 0) {
			fprintf(stderr, "hivebridge ratings: %s line %d: %s\n", path, lineno, err);
			rc = -1;
		}
	}
	if (rc == 0 && ferror(f)) {
		fprintf(stderr, "hivebridge ratings: %s: %s\n", path, strerror(errno));
		rc = -1;
	}
	free(line);
	fclose(f);
	return rc;
}

int ratings_main(int argc, char **argv)
{
	enum ratings_format fmt = RATINGS_TABLE;
	const char *anchor = NULL;
	struct games gs = { 0 };
	struct ratings_row *rows = NULL;
	int nfiles = 0, status = 1;
	char err[256];

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(ratings_usage, stdout);
			return 0;
		} else if (!strcmp(a, "--csv")) {
			fmt = RATINGS_CSV;
		} else if (!strcmp(a, "--json")) {
			fmt = RATINGS_JSON;
		} else if (!strcmp(a, "--anchor") || !strncmp(a, "--anchor=", 9)) {
			anchor = a[8] == '=' ? a + 9 : i + 1 < argc ? argv[++i] : NULL;
			if (!anchor || !*anchor) {
				fprintf(stderr, "hivebridge ratings: --anchor needs an engine\n");
				goto usage;
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "hivebridge ratings: unknown option %s\n", a);
			goto usage;
		} else {
			argv[++nfiles] = argv[i];     /* the files, in place */
		}
	}
	if (!nfiles) {
		fprintf(stderr, "hivebridge ratings: no results file\n");
		goto usage;
	}
	for (int i = 1; i <= nfiles; i++)
		if (read_file(&gs, argv[i]) < 0)
			goto out;
	if (gs.self)
		fprintf(stderr, "hivebridge ratings: %zu games of an engine against itself left out\n", gs.self);
	int ai = -1;
	if (anchor) {
		for (size_t i = 0; i < gs.nnames; i++)
			if (!strcmp(gs.names[i], anchor))
				ai = (int)i;
		if (ai < 0) {
			fprintf(stderr, "hivebridge ratings: --anchor %s: no such engine in the files\n", anchor);
			goto out;
		}
	}
	rows = calloc(gs.nnames ? gs.nnames : 1, sizeof *rows);
	if (!rows || ratings_fit(gs.nnames, (const char *const *)gs.names, gs.g, gs.ng, ai, rows, err,
				 sizeof err) < 0) {
		fprintf(stderr, "hivebridge ratings: %s\n", rows ? err : "out of memory");
		goto out;
	}
	ratings_sort(rows, gs.nnames);
	ratings_print(stdout, rows, gs.nnames, fmt, anchor);
	status = fflush(stdout) == 0 ? 0 : 1;
out:
	for (size_t i = 0; i < gs.nnames; i++)
		free(gs.names[i]);
	free(gs.names);
	free(gs.g);
	free(rows);
	return status;
usage:
	fputs("Try 'hivebridge ratings --help'.\n", stderr);
	return 2;
}
