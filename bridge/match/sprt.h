/*
 * sprt.h: match statistics, pure math. Elo difference from a W/L/D record with its
 * 95% error margin, and the sequential probability ratio test that stops a match
 * as soon as "elo >= elo1" or "elo <= elo0" is decided.
 *
 * Models (the ones cutechess-cli uses, which fastchess also offers):
 *  - Elo of a score s in (0, 1): the logistic curve, elo = -400 log10(1/s - 1).
 *  - Error margin: normal approximation of the trinomial score distribution; the
 *    score's standard error is sqrt(sum p_i (x_i - mu)^2 / N), mapped through the
 *    logistic curve at mu -/+ 1.96 standard errors; margin = half that interval.
 *  - LLR (sprt_llr): the BayesElo model. The draw Elo is estimated from the sample,
 *    elo0/elo1 are converted to BayesElo with the sample's scale factor, and the
 *    trinomial log-likelihood ratio is summed over wins, losses and draws.
 *  - sprt_llr_logistic: the GSPRT normal approximation of fishtest/fastchess,
 *    LLR = N (s1 - s0) (2 mu - s0 - s1) / (2 var), s0/s1 the logistic scores of
 *    elo0/elo1 and var the per-game variance of the score.
 *  - Bounds (Wald): lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha).
 *
 * The pentanomial model (fastchess's and fishtest's): games come in pairs, one
 * opening played with both colours, so a pair is the unit of sampling. A pair's
 * score from one player's view is 0, 1/2, 1, 3/2 or 2 points, counted in five bins.
 *  - Elo: mu = the mean pair score per game (bin i scores i/4), elo = the logistic
 *    curve at mu; the margin maps mu -/+ 1.96 standard errors through it, the
 *    standard error sqrt(var / pairs) from the pairs' own variance (which counts the
 *    correlation of a pair's two games, so it is smaller than the trinomial one).
 *  - LLR (sprt_llr_gsprt): the generalized SPRT with the "expectation" statistic:
 *    for s = s0 and s = s1 (the logistic scores of elo0, elo1) the maximum-likelihood
 *    distribution on the bins with mean s, p_i = q_i / (1 + x (a_i - s)) with x the
 *    root of sum q_i (a_i - s) / (1 + x (a_i - s)) = 0 (q the observed frequencies,
 *    a_i the bins' scores); LLR = N sum q_i ln(p1_i / p0_i). An empty bin counts
 *    1e-3 (the regularization both fishtest and fastchess use), so an LLR exists
 *    from the first pair on.
 */
#ifndef BRIDGE_SPRT_H
#define BRIDGE_SPRT_H

#include <stddef.h>

/* A record from one player's view. */
struct sprt_counts {
	unsigned wins;
	unsigned losses;
	unsigned draws;
};

/* An SPRT: H0 elo <= elo0 against H1 elo >= elo1, error rates alpha and beta. */
struct sprt_test {
	double elo0;
	double elo1;
	double alpha;
	double beta;
};

enum sprt_verdict { SPRT_CONTINUE, SPRT_ACCEPT_H0, SPRT_ACCEPT_H1 };

/* Elo difference of an expected score (-inf at 0, +inf at 1), and back. */
double sprt_elo_of_score(double score);
double sprt_score_of_elo(double elo);

/* Score (wins + draws / 2) / games; -1 when there are no games. */
int sprt_score(const struct sprt_counts *c, double *score);

/* Elo difference and its 95% error margin; -1 when there are no games. elo is
 * infinite and margin NaN when every game was won (or lost). */
int sprt_elo(const struct sprt_counts *c, double *elo, double *margin);

/* Parses "elo0,elo1[,alpha,beta]" (alpha = beta = 0.05 by default); -1 with a
 * reason in err when malformed (elo0 >= elo1, alpha or beta outside (0, 0.5]). */
int sprt_parse(const char *s, struct sprt_test *t, char *err, size_t errlen);

/* Wald's bounds on the LLR. */
void sprt_bounds(const struct sprt_test *t, double *lower, double *upper);

/* BayesElo LLR (cutechess). 0 with *llr set; -1 with *llr = 0 while the sample has
 * no win, no loss or no draw (the draw Elo cannot be estimated yet). */
int sprt_llr(const struct sprt_counts *c, const struct sprt_test *t, double *llr);

/* GSPRT logistic LLR; -1 with *llr = 0 while there are no games or no variance. */
int sprt_llr_logistic(const struct sprt_counts *c, const struct sprt_test *t, double *llr);

/* Game pairs by the pair's points from one player's view: n[0] two losses, n[1] a
 * loss and a draw, n[2] two draws or a win and a loss, n[3] a win and a draw, n[4]
 * two wins. */
struct sprt_penta {
	unsigned n[5];
};

/* One more pair: the player's scores (0, 1/2 or 1) in its two games. */
void sprt_penta_add(struct sprt_penta *p, double first, double second);

/* Pairs counted. */
unsigned sprt_penta_pairs(const struct sprt_penta *p);

/* Elo and its 95% margin from the pentanomial variance; -1 when there is no pair.
 * elo is infinite and margin NaN when every pair was won (or lost). */
int sprt_penta_elo(const struct sprt_penta *p, double *elo, double *margin);

/* The GSPRT LLR (the "expectation" statistic) of k bins (3: loss, draw, win; 5: a
 * pentanomial) scoring i / (k - 1); -1 with *llr = 0 when there is no count. */
int sprt_llr_gsprt(const unsigned *counts, int k, const struct sprt_test *t, double *llr);

/* The pentanomial LLR: sprt_llr_gsprt over the pairs. */
int sprt_llr_penta(const struct sprt_penta *p, const struct sprt_test *t, double *llr);

/* Where llr stands against the test's bounds. */
enum sprt_verdict sprt_decide(const struct sprt_test *t, double llr);

#endif
