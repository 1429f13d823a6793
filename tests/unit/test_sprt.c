/*
 * test_sprt.c: Elo, error margins and SPRT log-likelihood ratios of bridge/sprt.c.
 *
 * Expected values come from the standard formulas worked by hand (the ones noted
 * next to each number) and, for the BayesElo LLR, from an independent
 * re-computation of cutechess's model in double precision (Python, math module):
 *   pw = W/N, pl = L/N, drawElo = 200 log10((1-pl)/pl (1-pw)/pw),
 *   x = 10^(-drawElo/400), scale = 4x/(1+x)^2,
 *   P(b) = (1/(1+10^((drawElo-b)/400)), 1/(1+10^((drawElo+b)/400)), rest),
 *   LLR = sum over W/L/D of count * ln(P(elo1/scale) / P(elo0/scale)).
 */
#include <CUnit/Basic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bridge/match/sprt.h"
#include "tests/unit/unit.h"

#define NEAR(a, b, eps) CU_ASSERT(fabs((a) - (b)) < (eps))

static void test_elo_of_score(void)
{
	/* 0.75 = 3:1 odds: 400 log10(3). */
	NEAR(sprt_elo_of_score(0.75), 400 * log10(3.0), 1e-9);
	NEAR(sprt_elo_of_score(0.75), 190.848501887865, 1e-9);
	NEAR(sprt_elo_of_score(0.5), 0, 1e-12);
	NEAR(sprt_elo_of_score(0.25), -190.848501887865, 1e-9);
	/* 10:1 odds is 400 Elo. */
	NEAR(sprt_elo_of_score(10.0 / 11.0), 400, 1e-9);
	CU_ASSERT(isinf(sprt_elo_of_score(1.0)) && sprt_elo_of_score(1.0) > 0);
	CU_ASSERT(isinf(sprt_elo_of_score(0.0)) && sprt_elo_of_score(0.0) < 0);
	/* The inverse. */
	NEAR(sprt_score_of_elo(400), 10.0 / 11.0, 1e-12);
	for (double e = -600; e <= 600; e += 37.5)
		NEAR(sprt_elo_of_score(sprt_score_of_elo(e)), e, 1e-9);
}

static void test_elo_margin(void)
{
	struct sprt_counts c = { 60, 40, 100 };
	double elo, margin, score;

	/* mu = (60 + 50) / 200 = 0.55; elo = 400 log10(0.55 / 0.45) = 400 log10(11/9). */
	CU_ASSERT_EQUAL(sprt_score(&c, &score), 0);
	NEAR(score, 0.55, 1e-12);
	CU_ASSERT_EQUAL(sprt_elo(&c, &elo, &margin), 0);
	NEAR(elo, 400 * log10(11.0 / 9.0), 1e-9);
	NEAR(elo, 34.8600702875601, 1e-9);
	/* var = .3(.45)^2 + .2(.55)^2 + .5(.05)^2 = 0.1225, sd 0.35, se = 0.35/sqrt(200);
	 * margin = (elo(mu + 1.96 se) - elo(mu - 1.96 se)) / 2. */
	double se = 0.35 / sqrt(200.0), z = 1.959963984540054;
	double want = (sprt_elo_of_score(0.55 + z * se) - sprt_elo_of_score(0.55 - z * se)) / 2;
	NEAR(margin, want, 1e-9);
	NEAR(margin, 34.1592688435972, 1e-9);

	/* A losing record: mu = 0.4, var = .3(.6)^2 + .5(.4)^2 + .2(.1)^2 = 0.19. */
	struct sprt_counts lose = { 30, 50, 20 };
	CU_ASSERT_EQUAL(sprt_elo(&lose, &elo, &margin), 0);
	NEAR(elo, -400 * log10(1.5), 1e-9);
	NEAR(margin, 62.5877299489067, 1e-9);

	/* Mirror image: swapping wins and losses negates the Elo, keeps the margin. */
	struct sprt_counts mirror = { 50, 30, 20 };
	double elo2, margin2;
	CU_ASSERT_EQUAL(sprt_elo(&mirror, &elo2, &margin2), 0);
	NEAR(elo2, -elo, 1e-9);
	NEAR(margin2, margin, 1e-9);

	/* More games of the same mix: the margin shrinks about as 1/sqrt(N). */
	struct sprt_counts big = { 6000, 4000, 10000 };
	CU_ASSERT_EQUAL(sprt_elo(&big, &elo2, &margin2), 0);
	NEAR(elo2, 34.8600702875601, 1e-9);
	CU_ASSERT(margin2 < 34.1592688435972 / 9.5 && margin2 > 34.1592688435972 / 10.5);

	/* No games, and all won. */
	struct sprt_counts none = { 0, 0, 0 }, all = { 5, 0, 0 };
	CU_ASSERT_EQUAL(sprt_elo(&none, &elo, &margin), -1);
	CU_ASSERT_EQUAL(sprt_score(&none, &score), -1);
	CU_ASSERT_EQUAL(sprt_elo(&all, &elo, &margin), 0);
	CU_ASSERT(isinf(elo) && elo > 0);
	CU_ASSERT(isnan(margin));
	/* An even record whose interval reaches 0 or 1 has an unbounded margin. */
	struct sprt_counts few = { 1, 1, 0 };
	CU_ASSERT_EQUAL(sprt_elo(&few, &elo, &margin), 0);
	NEAR(elo, 0, 1e-12);
	CU_ASSERT(isinf(margin));
}

static void test_parse(void)
{
	struct sprt_test t;
	char err[128];

	CU_ASSERT_EQUAL(sprt_parse("0,10", &t, err, sizeof err), 0);
	CU_ASSERT(t.elo0 == 0);
	CU_ASSERT(t.elo1 == 10);
	NEAR(t.alpha, 0.05, 1e-15);
	NEAR(t.beta, 0.05, 1e-15);
	CU_ASSERT_EQUAL(sprt_parse("-5,2.5,0.01,0.1", &t, err, sizeof err), 0);
	CU_ASSERT(t.elo0 == -5);
	CU_ASSERT(t.elo1 == 2.5);
	NEAR(t.alpha, 0.01, 1e-15);
	NEAR(t.beta, 0.1, 1e-15);

	static const char *const bad[] = {
		"", "5", "0,10,0.05", "0,10,0.05,0.05,1", "10,0", "5,5", "a,b", "0,10x",
		"0,10,0,0.05", "0,10,0.05,0.6", "0,,10", "0,10,", "nan,10",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = 0;
		CU_ASSERT_EQUAL(sprt_parse(bad[i], &t, err, sizeof err), -1);
		CU_ASSERT(err[0] != 0);
	}
}

static void test_bounds(void)
{
	struct sprt_test t = { 0, 10, 0.05, 0.05 };
	double lo, hi;

	/* ln(0.05/0.95) and ln(0.95/0.05) = +-ln(19). */
	sprt_bounds(&t, &lo, &hi);
	NEAR(lo, -log(19.0), 1e-12);
	NEAR(hi, log(19.0), 1e-12);
	NEAR(hi, 2.94443897916644, 1e-12);
	CU_ASSERT_EQUAL(sprt_decide(&t, 0), SPRT_CONTINUE);
	CU_ASSERT_EQUAL(sprt_decide(&t, 2.9), SPRT_CONTINUE);
	CU_ASSERT_EQUAL(sprt_decide(&t, 2.95), SPRT_ACCEPT_H1);
	CU_ASSERT_EQUAL(sprt_decide(&t, -2.95), SPRT_ACCEPT_H0);
	/* alpha 0.01, beta 0.1: lower ln(0.1/0.99), upper ln(0.9/0.01) = ln 90. */
	struct sprt_test u = { 0, 5, 0.01, 0.1 };
	sprt_bounds(&u, &lo, &hi);
	NEAR(lo, log(0.1 / 0.99), 1e-12);
	NEAR(hi, log(90.0), 1e-12);
}

static void test_llr_bayeselo(void)
{
	struct sprt_test t = { 0, 10, 0.05, 0.05 };
	struct sprt_counts c = { 60, 40, 100 };
	double llr;

	/* drawElo = 200 log10((0.8/0.2)(0.7/0.3)) = 194.007..., scale 0.743166... */
	CU_ASSERT_EQUAL(sprt_llr(&c, &t, &llr), 0);
	NEAR(llr, 0.999793229911246, 1e-9);

	/* Ten times the games, same mix: ten times the LLR (it is a sum over games). */
	struct sprt_counts c10 = { 600, 400, 1000 };
	CU_ASSERT_EQUAL(sprt_llr(&c10, &t, &llr), 0);
	NEAR(llr, 9.99793229911246, 1e-8);
	CU_ASSERT_EQUAL(sprt_decide(&t, llr), SPRT_ACCEPT_H1);

	/* A losing record against [0, 5]. */
	struct sprt_test t5 = { 0, 5, 0.05, 0.05 };
	struct sprt_counts lose = { 30, 50, 20 };
	CU_ASSERT_EQUAL(sprt_llr(&lose, &t5, &llr), 0);
	NEAR(llr, -0.376727438012655, 1e-9);

	/* H0 and H1 swapped around 0 (elo0 = -elo1): the mirrored record gives -LLR. */
	struct sprt_test sym = { -10, 10, 0.05, 0.05 };
	struct sprt_counts a = { 70, 45, 85 }, b = { 45, 70, 85 };
	double la, lb;
	CU_ASSERT_EQUAL(sprt_llr(&a, &sym, &la), 0);
	CU_ASSERT_EQUAL(sprt_llr(&b, &sym, &lb), 0);
	NEAR(la, -lb, 1e-9);
	CU_ASSERT(la > 0);

	/* Undefined while a count is zero: 0 and -1, like cutechess. */
	struct sprt_counts nodraw = { 10, 5, 0 };
	CU_ASSERT_EQUAL(sprt_llr(&nodraw, &t, &llr), -1);
	CU_ASSERT(llr == 0);
}

static void test_llr_logistic(void)
{
	struct sprt_test t = { 0, 10, 0.05, 0.05 };
	struct sprt_counts c = { 60, 40, 100 };
	double llr;

	/* s0 = 0.5, s1 = 1/(1 + 10^(-1/40)); LLR = N (s1-s0)(2 mu - s0 - s1) / (2 var)
	 * with N = 200, mu = 0.55, var = 0.1225. */
	double s1 = 1 / (1 + pow(10, -10.0 / 400));
	double want = 200 * (s1 - 0.5) * (1.1 - 0.5 - s1) / (2 * 0.1225);
	CU_ASSERT_EQUAL(sprt_llr_logistic(&c, &t, &llr), 0);
	NEAR(llr, want, 1e-9);
	NEAR(llr, 1.00549171295797, 1e-9);
	/* Near zero Elo both models agree closely. */
	double bayes;
	CU_ASSERT_EQUAL(sprt_llr(&c, &t, &bayes), 0);
	CU_ASSERT(fabs(bayes - llr) < 0.02);
	/* No variance (all draws): undefined. */
	struct sprt_counts draws = { 0, 0, 10 };
	CU_ASSERT_EQUAL(sprt_llr_logistic(&draws, &t, &llr), -1);
}

/* The pentanomial model. Published values: fastchess's app/tests/sprt_test.cpp
 * ("logistic pentanomial 1" and "2", its Stats(LL, LD, WL, DD, WD, WW) giving the bins
 * below, LLR -3.07 and -4.98 to two places; "logistic trinomial 1" and "2", -1.57 and
 * -2.59). The full-precision numbers are tests/data/stats_reference.py's, which
 * solves the constrained maximum likelihood by Newton's method in Python (sprt.c
 * bisects): the two agree with each other and with the published figures. */
static void test_llr_gsprt_published(void)
{
	struct sprt_test t1 = { 0.5, 2.5, 0.05, 0.05 }, t2 = { 0, 2, 0.05, 0.05 };
	struct sprt_penta p1 = { { 223, 9863, 20279 + 1000, 10037, 246 } };
	struct sprt_penta p2 = { { 871, 26175, 55003 + 980, 26678, 821 } };
	unsigned tri1[3] = { 21184, 40708, 21404 }, tri2[3] = { 57030, 106593, 57433 };
	double llr;

	CU_ASSERT_EQUAL(sprt_llr_penta(&p1, &t1, &llr), 0);
	NEAR(llr, -3.07, 0.005);
	NEAR(llr, -3.074126439586, 1e-6);
	CU_ASSERT_EQUAL(sprt_llr_penta(&p2, &t2, &llr), 0);
	NEAR(llr, -4.98, 0.005);
	NEAR(llr, -4.978672863441, 1e-6);
	CU_ASSERT_EQUAL(sprt_llr_gsprt(tri1, 3, &t1, &llr), 0);
	NEAR(llr, -1.57, 0.005);
	NEAR(llr, -1.571888792690, 1e-6);
	CU_ASSERT_EQUAL(sprt_llr_gsprt(tri2, 3, &t2, &llr), 0);
	NEAR(llr, -2.59, 0.005);
	NEAR(llr, -2.593024163540, 1e-6);
}

/* Small samples, empty bins regularized (1e-3 each): stats_reference.py's numbers. */
static void test_llr_penta_small(void)
{
	struct sprt_test t20 = { 0, 20, 0.05, 0.05 }, t5 = { -5, 5, 0.05, 0.05 };
	struct sprt_test tf = { -1.75, 0.25, 0.05, 0.05 };
	struct sprt_penta a = { { 0, 0, 2, 0, 37 } }, b = { { 3, 10, 20, 12, 5 } };
	struct sprt_penta c = { { 0, 0, 0, 0, 3 } }, none = { { 0 } };
	double llr;

	CU_ASSERT_EQUAL(sprt_llr_penta(&a, &t20, &llr), 0);
	NEAR(llr, 2.180485205913, 1e-6);
	CU_ASSERT_EQUAL(sprt_llr_penta(&b, &t5, &llr), 0);
	NEAR(llr, 0.320527357196, 1e-6);
	CU_ASSERT_EQUAL(sprt_llr_penta(&c, &tf, &llr), 0);
	NEAR(llr, 0.017318213086, 1e-6);
	CU_ASSERT_EQUAL(sprt_llr_penta(&none, &tf, &llr), -1);
	CU_ASSERT(llr == 0);
}

static void test_penta_elo(void)
{
	struct sprt_penta p = { { 0 } };
	double elo, margin;

	CU_ASSERT_EQUAL(sprt_penta_elo(&p, &elo, &margin), -1);
	/* Bins from game scores: 0 + 0.5 -> bin 1, 1 + 0 -> bin 2, 1 + 1 -> bin 4. */
	sprt_penta_add(&p, 0, 0.5);
	sprt_penta_add(&p, 1, 0);
	sprt_penta_add(&p, 0.5, 0.5);
	sprt_penta_add(&p, 1, 1);
	CU_ASSERT(p.n[0] == 0 && p.n[1] == 1 && p.n[2] == 2 && p.n[3] == 0 && p.n[4] == 1);
	CU_ASSERT_EQUAL(sprt_penta_pairs(&p), 4);
	/* stats_reference.py: mu and the pairs' variance mapped through the logistic. */
	struct sprt_penta b = { { 3, 10, 20, 12, 5 } }, f = { { 1, 60, 500, 1200, 600 } };
	CU_ASSERT_EQUAL(sprt_penta_elo(&b, &elo, &margin), 0);
	NEAR(elo, 20.871204666029, 1e-6);
	NEAR(margin, 50.236057157571, 1e-6);
	CU_ASSERT_EQUAL(sprt_penta_elo(&f, &elo, &margin), 0);
	NEAR(elo, 188.599379993442, 1e-6);
	NEAR(margin, 7.017942813465, 1e-6);
	/* Every pair won: +inf, no margin. */
	struct sprt_penta won = { { 0, 0, 0, 0, 4 } };
	CU_ASSERT_EQUAL(sprt_penta_elo(&won, &elo, &margin), 0);
	CU_ASSERT(isinf(elo) && elo > 0 && isnan(margin));
}

static const struct unit_test tests[] = {
	{ "pentanomial counts and Elo", test_penta_elo },
	{ "GSPRT LLR: published values", test_llr_gsprt_published },
	{ "pentanomial LLR: small samples", test_llr_penta_small },
	{ "Elo of a score", test_elo_of_score },
	{ "Elo and 95% margin", test_elo_margin },
	{ "--sprt parsing", test_parse },
	{ "Wald bounds", test_bounds },
	{ "BayesElo LLR", test_llr_bayeselo },
	{ "GSPRT logistic LLR", test_llr_logistic },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "sprt",
	.tests = tests,
};
