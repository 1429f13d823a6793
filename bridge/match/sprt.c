/*
 * sprt.c: Elo, error margin and SPRT from a W/L/D record (formulas in sprt.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bridge/match/sprt.h"

/* Standard normal quantile at 0.975: the two-sided 95% interval. */
#define SPRT_Z95 1.959963984540054

double sprt_elo_of_score(double score)
{
	if (score <= 0)
		return -INFINITY;
	if (score >= 1)
		return INFINITY;
	return -400.0 * log10(1.0 / score - 1.0);
}

double sprt_score_of_elo(double elo)
{
	return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

static double games_of(const struct sprt_counts *c)
{
	return (double)c->wins + (double)c->losses + (double)c->draws;
}

int sprt_score(const struct sprt_counts *c, double *score)
{
	double n = games_of(c);
	if (n <= 0) {
		*score = 0;
		return -1;
	}
	*score = ((double)c->wins + 0.5 * (double)c->draws) / n;
	return 0;
}

/* Per-game variance of the score around its mean mu. */
static double score_variance(const struct sprt_counts *c, double mu)
{
	double n = games_of(c);
	double w = c->wins / n, l = c->losses / n, d = c->draws / n;
	return w * (1 - mu) * (1 - mu) + l * mu * mu + d * (0.5 - mu) * (0.5 - mu);
}

int sprt_elo(const struct sprt_counts *c, double *elo, double *margin)
{
	double mu;
	if (sprt_score(c, &mu) < 0) {
		*elo = 0;
		*margin = NAN;
		return -1;
	}
	*elo = sprt_elo_of_score(mu);
	double se = sqrt(score_variance(c, mu) / games_of(c));
	double lo = mu - SPRT_Z95 * se, hi = mu + SPRT_Z95 * se;
	if (mu <= 0 || mu >= 1 || lo <= 0 || hi >= 1)
		*margin = mu <= 0 || mu >= 1 ? NAN : INFINITY;
	else
		*margin = (sprt_elo_of_score(hi) - sprt_elo_of_score(lo)) / 2;
	return 0;
}

/* One number of the --sprt list; -1 unless it is all of the field up to ',' or end. */
static int parse_number(const char **s, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(*s, &end);
	if (end == *s || errno || !isfinite(*v) || (*end && *end != ',') ||
	    (*end == ',' && !end[1]))
		return -1;
	*s = *end ? end + 1 : end;
	return 0;
}

int sprt_parse(const char *s, struct sprt_test *t, char *err, size_t errlen)
{
	double v[4] = { 0, 0, 0.05, 0.05 };
	int n = 0;

	while (*s && n < 4) {
		if (parse_number(&s, &v[n]) < 0) {
			snprintf(err, errlen, "--sprt wants elo0,elo1[,alpha,beta]: bad number");
			return -1;
		}
		n++;
	}
	if (*s || (n != 2 && n != 4)) {
		snprintf(err, errlen, "--sprt wants elo0,elo1[,alpha,beta]");
		return -1;
	}
	if (v[0] >= v[1]) {
		snprintf(err, errlen, "--sprt: elo0 (%g) must be below elo1 (%g)", v[0], v[1]);
		return -1;
	}
	if (!(v[2] > 0 && v[2] <= 0.5 && v[3] > 0 && v[3] <= 0.5)) {
		snprintf(err, errlen, "--sprt: alpha and beta must be in (0, 0.5]");
		return -1;
	}
	t->elo0 = v[0];
	t->elo1 = v[1];
	t->alpha = v[2];
	t->beta = v[3];
	return 0;
}

void sprt_bounds(const struct sprt_test *t, double *lower, double *upper)
{
	*lower = log(t->beta / (1 - t->alpha));
	*upper = log((1 - t->beta) / t->alpha);
}

/* Win, loss and draw probabilities of the BayesElo model. */
struct bayes_probs {
	double win, loss, draw;
};

static struct bayes_probs bayes_probs(double bayes_elo, double draw_elo)
{
	struct bayes_probs p;
	p.win = 1 / (1 + pow(10, (draw_elo - bayes_elo) / 400));
	p.loss = 1 / (1 + pow(10, (draw_elo + bayes_elo) / 400));
	p.draw = 1 - p.win - p.loss;
	return p;
}

int sprt_llr(const struct sprt_counts *c, const struct sprt_test *t, double *llr)
{
	*llr = 0;
	if (!c->wins || !c->losses || !c->draws)
		return -1;
	double n = games_of(c);
	double pw = c->wins / n, pl = c->losses / n;
	/* Draw Elo of the sample, and the scale from BayesElo to logistic Elo near 0. */
	double draw_elo = 200 * log10((1 - pl) / pl * (1 - pw) / pw);
	double x = pow(10, -draw_elo / 400);
	double scale = 4 * x / ((1 + x) * (1 + x));
	struct bayes_probs p0 = bayes_probs(t->elo0 / scale, draw_elo);
	struct bayes_probs p1 = bayes_probs(t->elo1 / scale, draw_elo);
	*llr = c->wins * log(p1.win / p0.win) + c->losses * log(p1.loss / p0.loss) +
		c->draws * log(p1.draw / p0.draw);
	return 0;
}

int sprt_llr_logistic(const struct sprt_counts *c, const struct sprt_test *t, double *llr)
{
	double mu;
	*llr = 0;
	if (sprt_score(c, &mu) < 0)
		return -1;
	double var = score_variance(c, mu);
	if (var <= 0)
		return -1;
	double s0 = sprt_score_of_elo(t->elo0), s1 = sprt_score_of_elo(t->elo1);
	*llr = games_of(c) * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var);
	return 0;
}

enum sprt_verdict sprt_decide(const struct sprt_test *t, double llr)
{
	double lower, upper;
	sprt_bounds(t, &lower, &upper);
	if (llr >= upper)
		return SPRT_ACCEPT_H1;
	if (llr <= lower)
		return SPRT_ACCEPT_H0;
	return SPRT_CONTINUE;
}

/* --- the pentanomial model ---------------------------------------------------------- */

/* Bin of a pair: the points of its two games, in half points. */
void sprt_penta_add(struct sprt_penta *p, double first, double second)
{
	int bin = (int)lround(2 * (first + second));
	if (bin >= 0 && bin <= 4)
		p->n[bin]++;
}

unsigned sprt_penta_pairs(const struct sprt_penta *p)
{
	return p->n[0] + p->n[1] + p->n[2] + p->n[3] + p->n[4];
}

int sprt_penta_elo(const struct sprt_penta *p, double *elo, double *margin)
{
	double n = sprt_penta_pairs(p), mu = 0, var = 0;

	*elo = 0;
	*margin = NAN;
	if (n <= 0)
		return -1;
	for (int i = 0; i < 5; i++)
		mu += p->n[i] / n * (i / 4.0);
	for (int i = 0; i < 5; i++)
		var += p->n[i] / n * (i / 4.0 - mu) * (i / 4.0 - mu);
	*elo = sprt_elo_of_score(mu);
	double se = sqrt(var / n), lo = mu - SPRT_Z95 * se, hi = mu + SPRT_Z95 * se;
	if (mu <= 0 || mu >= 1)
		*margin = NAN;
	else if (lo <= 0 || hi >= 1)
		*margin = INFINITY;
	else
		*margin = (sprt_elo_of_score(hi) - sprt_elo_of_score(lo)) / 2;
	return 0;
}

/* The maximum-likelihood distribution p (k bins scoring a[i]) nearest the observed
 * q whose mean is s: p_i = q_i / (1 + x (a_i - s)). The root x of the decreasing
 * f(x) = sum q_i (a_i - s) / (1 + x (a_i - s)) lies where every 1 + x (a_i - s) > 0,
 * between -1 / (a_max - s) and -1 / (a_min - s); bisection finds it to the last bit. */
static void mle_with_mean(const double *q, const double *a, int k, double s, double *p)
{
	double lo = -1 / (a[k - 1] - s), hi = -1 / (a[0] - s);

	for (int it = 0; it < 200; it++) {
		double x = (lo + hi) / 2, f = 0;
		if (x <= lo || x >= hi)
			break;
		for (int i = 0; i < k; i++)
			f += q[i] * (a[i] - s) / (1 + x * (a[i] - s));
		if (f > 0)
			lo = x;
		else
			hi = x;
	}
	double x = (lo + hi) / 2;
	for (int i = 0; i < k; i++)
		p[i] = q[i] / (1 + x * (a[i] - s));
}

int sprt_llr_gsprt(const unsigned *counts, int k, const struct sprt_test *t, double *llr)
{
	double q[5], a[5], p0[5], p1[5], n = 0;
	unsigned seen = 0;

	*llr = 0;
	if (k < 2 || k > 5)
		return -1;
	for (int i = 0; i < k; i++) {
		seen += counts[i];
		q[i] = counts[i] ? (double)counts[i] : 1e-3;
		a[i] = (double)i / (k - 1);
		n += q[i];
	}
	if (!seen)
		return -1;
	for (int i = 0; i < k; i++)
		q[i] /= n;
	mle_with_mean(q, a, k, sprt_score_of_elo(t->elo0), p0);
	mle_with_mean(q, a, k, sprt_score_of_elo(t->elo1), p1);
	for (int i = 0; i < k; i++)
		*llr += n * q[i] * log(p1[i] / p0[i]);
	return 0;
}

int sprt_llr_penta(const struct sprt_penta *p, const struct sprt_test *t, double *llr)
{
	return sprt_llr_gsprt(p->n, 5, t, llr);
}
