/*
 * test_ratings.c: the rating list of bridge/match/ratings.c against an independent
 * implementation. The expected numbers come from tests/data/stats_reference.py
 * (plain python3; scipy is not installed here): the MM algorithm of Hunter (2004)
 * for the ratings, and a finite-difference Hessian inverted in n-1 free ratings for
 * the margins, where ratings.c uses Newton's method and the pseudo-inverse of the
 * analytic Hessian.
 */
#include <CUnit/Basic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/match/ratings.h"
#include "tests/unit/unit.h"

#define NEAR(a, b, eps) CU_ASSERT(fabs((a) - (b)) < (eps))

/* The fixed results set: (i, j, i's wins, draws, i's losses), 6 games a pairing. */
static const unsigned recs[6][5] = {
	{ 0, 1, 3, 2, 1 }, { 0, 2, 4, 1, 1 }, { 0, 3, 5, 1, 0 },
	{ 1, 2, 2, 2, 2 }, { 1, 3, 3, 2, 1 }, { 2, 3, 3, 1, 2 },
};
static const char *const names[4] = { "A", "B", "C", "D" };

/* The games of recs, colours alternating (the model has no colour advantage). */
static size_t make_games(struct ratings_game *g)
{
	size_t n = 0;
	for (int r = 0; r < 6; r++) {
		unsigned i = recs[r][0], j = recs[r][1];
		double s[3] = { 1, 0.5, 0 };
		for (int k = 0; k < 3; k++)
			for (unsigned c = 0; c < recs[r][2 + k]; c++, n++)
				g[n] = n % 2 ? (struct ratings_game){ j, i, 1 - s[k] } :
					       (struct ratings_game){ i, j, s[k] };
	}
	return n;
}

static void test_pool_average(void)
{
	struct ratings_game g[64];
	struct ratings_row rows[4];
	char err[160];
	size_t ng = make_games(g);
	static const double elo[4] = { 166.929529, -1.538684, -33.213764, -132.177081 };
	static const double margin[4] = { 146.392330, 127.986957, 128.521395, 138.238537 };

	CU_ASSERT_EQUAL(ng, 36);
	CU_ASSERT_EQUAL(ratings_fit(4, names, g, ng, -1, rows, err, sizeof err), 0);
	double sum = 0, points = 0;
	unsigned games = 0;
	for (int i = 0; i < 4; i++) {
		NEAR(rows[i].elo, elo[i], 1e-4);
		/* Finite differences: a few parts in a million. */
		NEAR(rows[i].margin, margin[i], 1e-3);
		sum += rows[i].elo;
		points += rows[i].points;
		games += rows[i].games;
		CU_ASSERT_EQUAL(rows[i].games, 18);
		CU_ASSERT_EQUAL(rows[i].wins + rows[i].draws + rows[i].losses, 18);
	}
	NEAR(sum, 0, 1e-9);
	NEAR(points, 36, 1e-12);
	CU_ASSERT_EQUAL(games, 72);
	NEAR(rows[0].points, 3 + 1 + 4 + 0.5 + 5 + 0.5, 1e-12);
	ratings_sort(rows, 4);
	CU_ASSERT_STRING_EQUAL(rows[0].name, "A");
	CU_ASSERT_STRING_EQUAL(rows[3].name, "D");
}

static void test_anchor(void)
{
	struct ratings_game g[64];
	struct ratings_row rows[4];
	char err[160];
	size_t ng = make_games(g);
	static const double elo[4] = { 299.106609, 130.638396, 98.963316, 0 };
	static const double margin[4] = { 240.244631, 215.458155, 213.866521, 0 };

	CU_ASSERT_EQUAL(ratings_fit(4, names, g, ng, 3, rows, err, sizeof err), 0);
	for (int i = 0; i < 4; i++) {
		NEAR(rows[i].elo, elo[i], 1e-4);
		NEAR(rows[i].margin, margin[i], 1e-3);
	}
}

/* A perfect score is +inf and leaves the others' fit; a group that never met the
 * rest is an error; so is an anchor without a finite rating. */
static void test_edges(void)
{
	struct ratings_game g[8] = {
		{ 0, 1, 1 }, { 1, 0, 0 },                     /* A beats B twice */
		{ 1, 2, 0.5 }, { 2, 1, 1 }, { 1, 2, 1 },      /* B and C share */
	};
	struct ratings_row rows[4];
	char err[160];

	CU_ASSERT_EQUAL(ratings_fit(3, names, g, 5, -1, rows, err, sizeof err), 0);
	CU_ASSERT(isinf(rows[0].elo) && rows[0].elo > 0 && isnan(rows[0].margin));
	/* B 1.5 of 3 against C: equal, about 0 each. */
	NEAR(rows[1].elo, 0, 1e-6);
	NEAR(rows[2].elo, 0, 1e-6);
	CU_ASSERT_EQUAL(rows[0].games, 2);
	CU_ASSERT_EQUAL(ratings_fit(3, names, g, 5, 0, rows, err, sizeof err), -1);
	CU_ASSERT(strstr(err, "anchor") != NULL);

	struct ratings_game apart[2] = { { 0, 1, 0.5 }, { 2, 3, 0.5 } };
	CU_ASSERT_EQUAL(ratings_fit(4, names, apart, 2, -1, rows, err, sizeof err), -1);
	CU_ASSERT(strstr(err, "never met") != NULL);
	CU_ASSERT_EQUAL(ratings_fit(4, names, apart, 0, -1, rows, err, sizeof err), -1);

	/* A and B beat C and D in every game: no finite maximum. */
	struct ratings_game split[6] = {
		{ 0, 1, 0.5 }, { 2, 3, 0.5 }, { 0, 2, 1 }, { 1, 3, 1 }, { 0, 3, 1 }, { 1, 2, 1 },
	};
	CU_ASSERT_EQUAL(ratings_fit(4, names, split, 6, -1, rows, err, sizeof err), -1);
	CU_ASSERT(strstr(err, "no finite maximum") != NULL);
	struct ratings_game self = { 1, 1, 0.5 };
	CU_ASSERT_EQUAL(ratings_fit(4, names, &self, 1, -1, rows, err, sizeof err), -1);
}

static void test_print(void)
{
	struct ratings_game g[64];
	struct ratings_row rows[4];
	char err[160], buf[2048];
	size_t ng = make_games(g);
	FILE *f = fmemopen(buf, sizeof buf, "w");

	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL(ratings_fit(4, names, g, ng, -1, rows, err, sizeof err), 0);
	ratings_sort(rows, 4);
	ratings_print(f, rows, 4, RATINGS_CSV, NULL);
	fclose(f);
	static const char want[] = "rank,engine,elo,margin,games,points,wins,draws,losses,score\n"
				   "1,A,166.9,146.4,18,14.0,12,4,2,77.8\n";
	CU_ASSERT(strncmp(buf, want, strlen(want)) == 0);
}

/* Two engines with the same record: their fits differ in the last bits with the
 * order of the games, and the list must not (the tournament's list and `ratings`
 * on its results file read the games in different orders). */
static void test_tie_order(void)
{
	struct ratings_row a[3] = {
		{ .name = "nokamute", .elo = -29.6 + 1e-9, .points = 3.5 },
		{ .name = "builtin:depth=2", .elo = 59.2, .points = 5 },
		{ .name = "builtin:depth=1", .elo = -29.6, .points = 3.5 },
	};
	struct ratings_row b[3] = { a[2], a[1], a[0] };
	b[0].elo = -29.6 + 2e-9;        /* the other order's noise */

	ratings_sort(a, 3);
	ratings_sort(b, 3);
	for (int i = 0; i < 3; i++)
		CU_ASSERT_STRING_EQUAL(a[i].name, b[i].name);
	CU_ASSERT_STRING_EQUAL(a[1].name, "builtin:depth=1");
	CU_ASSERT_STRING_EQUAL(a[2].name, "nokamute");
	/* A real difference still counts, below the points. */
	a[2].elo = -29.5;
	ratings_sort(a, 3);
	CU_ASSERT_STRING_EQUAL(a[1].name, "nokamute");
}

static const struct unit_test tests[] = {
	{ "pool average at 0", test_pool_average },
	{ "one engine anchored", test_anchor },
	{ "perfect scores, unconnected engines", test_edges },
	{ "CSV", test_print },
	{ "a tie sorts by name, whatever the order", test_tie_order },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "ratings",
	.tests = tests,
};
