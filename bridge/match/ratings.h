/*
 * ratings.h: a rating list from many engines' games at once, pure math (no I/O but
 * the printers' FILE). The model is Ordo's: the logistic curve, a draw half a point,
 * P(i scores against j) = 1 / (1 + 10^((r_j - r_i) / 400)), no colour advantage.
 * The ratings maximize the likelihood of every game's score (Newton's method on the
 * log-likelihood, whose Hessian is a weighted graph Laplacian), with the pool's
 * average at 0 or one engine anchored at 0.
 *
 * Margins: 1.96 standard errors from the inverse of the Fisher information (the
 * negative Hessian at the maximum) under the anchoring constraint: for the pool
 * average its pseudo-inverse, (H + J/n)^-1 - J/n (J all ones, H 1 = 0); for an
 * anchored engine the inverse of H without that engine's row and column. Ordo
 * itself simulates the margins; the two agree closely once engines have played
 * some tens of games each.
 *
 * An engine that scored every point it played for (or none) has no finite rating:
 * it is listed at +inf (-inf) without a margin and left out of the others' fit,
 * which is repeated until no such engine is left. Engines that never meet the rest,
 * directly or through others, have no common scale: that is an error.
 */
#ifndef BRIDGE_RATINGS_H
#define BRIDGE_RATINGS_H

#include <stddef.h>
#include <stdio.h>

#define RATINGS_MAX_ENGINES 1024
/* The longest engine name a results file may give. */
#define RATINGS_NAME_MAX    4096

/* One game: engine indexes and the first one's score (0, 1/2 or 1). */
struct ratings_game {
	unsigned white;
	unsigned black;
	double   white_score;
};

struct ratings_row {
	const char *name;
	double      elo;      /* +/-inf for a perfect or empty score */
	double      margin;   /* 95 %, NaN when elo is infinite */
	unsigned    games;
	double      points;
	unsigned    wins, draws, losses;
};

/* Fits n engines (names[i], n <= RATINGS_MAX_ENGINES) to the games: rows[i] for
 * engine i (not sorted). anchor: -1 the pool's average at 0, else that engine at 0
 * (it must have a finite rating). 0, or -1 with err (no game, engines unconnected,
 * no finite maximum, no memory). */
int ratings_fit(size_t n, const char *const *names, const struct ratings_game *g, size_t ng, int anchor,
		struct ratings_row *rows, char *err, size_t errlen);

/* Sorts rows best first (by rating, then points). */
void ratings_sort(struct ratings_row *rows, size_t n);

enum ratings_format { RATINGS_TABLE, RATINGS_CSV, RATINGS_JSON };

/* Prints sorted rows; anchor_name NULL for the pool's average. */
void ratings_print(FILE *f, const struct ratings_row *rows, size_t n, enum ratings_format fmt,
		   const char *anchor_name);

/* The rating list as JSON (cJSON, the caller deletes it); NULL on no memory. */
struct cJSON *ratings_json(const struct ratings_row *rows, size_t n, const char *anchor_name);

/* One line (len bytes) of a results file (match's and tournament's --results): 1
 * with its "white" and "black" (each not empty, at most RATINGS_NAME_MAX bytes, no
 * control byte, not the same) copied into white and black (RATINGS_NAME_MAX + 1
 * bytes each) and white's score; 0 for a line without a result (blank, or a game
 * aborted by a signal: result "*"); 2 for a game of an engine against itself (a
 * match of `builtin builtin`), which rates nothing; -1 with err. Pure
 * (tests/fuzz/fuzz_ratings.c). */
int ratings_line_parse(const char *line, size_t len, char *white, char *black, double *white_score,
		       char *err, size_t errlen);

/* `hivebridge ratings [--csv | --json] [--anchor ENGINE] FILE...` (ratings_cmd.c). */
int ratings_main(int argc, char **argv);

#endif
