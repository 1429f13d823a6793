/*
 * ratings.c: maximum-likelihood ratings of many engines at once (the model and the
 * margins are described in ratings.h), and the list printed as a table, CSV or JSON.
 */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/match/ratings.h"
#include "core/errbuf.h"

#define RATINGS_Z95      1.959963984540054
/* d/dr of ln P: ln(10) / 400 per Elo. */
#define RATINGS_C        (2.302585092994046 / 400.0)
#define RATINGS_MAX_ITER 200
/* Past this, the likelihood has no finite maximum: a group won every game against
 * the rest. */
#define RATINGS_DIVERGED 10000.0

/* The games as a pair table of the m engines fitted: games[i][j] and i's points. */
struct fit {
	size_t  m;
	double *games;      /* m x m */
	double *points;     /* m x m: i's points against j */
	double *r;          /* ratings */
	double *h;          /* m x m: the information matrix (negative Hessian) */
	double *grad;
	double *work;       /* m x 2m: the inversion's */
	double *inv;        /* m x m */
};

static double win_prob(double ri, double rj)
{
	return 1 / (1 + pow(10, (rj - ri) / 400));
}

static double log_likelihood(const struct fit *f, const double *r)
{
	double ll = 0;
	for (size_t i = 0; i < f->m; i++)
		for (size_t j = i + 1; j < f->m; j++) {
			double n = f->games[i * f->m + j];
			if (n <= 0)
				continue;
			double s = f->points[i * f->m + j], p = win_prob(r[i], r[j]);
			ll += s * log(p) + (n - s) * log(1 - p);
		}
	return ll;
}

/* The gradient of the log-likelihood and the information matrix at f->r. */
static void derivatives(struct fit *f)
{
	size_t m = f->m;
	memset(f->h, 0, m * m * sizeof *f->h);
	memset(f->grad, 0, m * sizeof *f->grad);
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < m; j++) {
			double n = f->games[i * m + j];
			if (i == j || n <= 0)
				continue;
			double p = win_prob(f->r[i], f->r[j]);
			f->grad[i] += RATINGS_C * (f->points[i * m + j] - n * p);
			double w = RATINGS_C * RATINGS_C * n * p * (1 - p);
			f->h[i * m + j] -= w;
			f->h[i * m + i] += w;
		}
}

/* f->inv = the inverse of the k x k matrix a (row stride m), by Gauss-Jordan with
 * partial pivoting; -1 if it is singular. */
static int invert(struct fit *f, const double *a, size_t k)
{
	size_t m = f->m, w = 2 * k;
	double *t = f->work;

	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < w; j++)
			t[i * w + j] = j < k ? a[i * m + j] : (j - k == i);
	for (size_t c = 0; c < k; c++) {
		size_t piv = c;
		for (size_t i = c + 1; i < k; i++)
			if (fabs(t[i * w + c]) > fabs(t[piv * w + c]))
				piv = i;
		if (fabs(t[piv * w + c]) < 1e-300)
			return -1;
		if (piv != c)
			for (size_t j = 0; j < w; j++) {
				double x = t[c * w + j];
				t[c * w + j] = t[piv * w + j];
				t[piv * w + j] = x;
			}
		double d = t[c * w + c];
		for (size_t j = 0; j < w; j++)
			t[c * w + j] /= d;
		for (size_t i = 0; i < k; i++) {
			double x = t[i * w + c];
			if (i == c || x == 0)
				continue;
			for (size_t j = 0; j < w; j++)
				t[i * w + j] -= x * t[c * w + j];
		}
	}
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < k; j++)
			f->inv[i * m + j] = t[i * w + k + j];
	return 0;
}

/* f->inv = the covariance of the ratings under the constraint: the pool's average
 * (anchor -1) or engine anchor (its row and column 0). */
static int covariance(struct fit *f, int anchor)
{
	size_t m = f->m;

	if (anchor < 0) {
		/* (H + a J/m)^-1 - J/(a m): the pseudo-inverse, H having the null vector 1. */
		double a = 0;
		for (size_t i = 0; i < m; i++)
			a += f->h[i * m + i];
		a = a > 0 ? a / m : 1;
		for (size_t i = 0; i < m * m; i++)
			f->h[i] += a / m;
		if (invert(f, f->h, m) < 0)
			return -1;
		for (size_t i = 0; i < m * m; i++)
			f->inv[i] -= 1 / (a * m);
		return 0;
	}
	/* H without the anchor's row and column, moved to the end. */
	size_t x = (size_t)anchor;
	for (size_t i = 0, ii = 0; i < m; i++) {
		if (i == x)
			continue;
		for (size_t j = 0, jj = 0; j < m; j++)
			if (j != x)
				f->h[ii * m + jj++] = f->h[i * m + j];
		ii++;
	}
	if (invert(f, f->h, m - 1) < 0)
		return -1;
	/* Back to the engines' order, the anchor with no variance. */
	for (size_t i = m; i-- > 0;)
		for (size_t j = m; j-- > 0;) {
			double v = 0;
			if (i != x && j != x)
				v = f->inv[(i - (i > x)) * m + (j - (j > x))];
			f->inv[i * m + j] = v;
		}
	return 0;
}

/* Newton's method from all ratings 0, each step capped and halved until the
 * likelihood grows; -1 when it does not settle (no finite maximum). */
static int maximize(struct fit *f, int anchor, double *step)
{
	size_t m = f->m;

	for (int it = 0; it < RATINGS_MAX_ITER; it++) {
		derivatives(f);
		if (covariance(f, anchor) < 0)
			return -1;
		double big = 0;
		for (size_t i = 0; i < m; i++) {
			step[i] = 0;
			for (size_t j = 0; j < m; j++)
				step[i] += f->inv[i * m + j] * f->grad[j];
			big = fmax(big, fabs(step[i]));
		}
		if (big < 1e-9)
			return 0;
		double scale = big > 400 ? 400 / big : 1, ll = log_likelihood(f, f->r);
		double *next = step + m;
		for (int half = 0; half < 40; half++, scale /= 2) {
			for (size_t i = 0; i < m; i++)
				next[i] = f->r[i] + scale * step[i];
			if (log_likelihood(f, next) >= ll - 1e-12)
				break;
		}
		memcpy(f->r, next, m * sizeof *next);
		for (size_t i = 0; i < m; i++)
			if (fabs(f->r[i]) > RATINGS_DIVERGED)
				return -1;
	}
	return -1;
}

/* Marks engines with every point (or none) against those still in, until none is
 * left; returns how many stay in. */
static size_t drop_perfect(size_t n, const struct ratings_game *g, size_t ng, unsigned char *in,
			   struct ratings_row *rows)
{
	double *games = calloc(n, sizeof *games), *pts = calloc(n, sizeof *pts);
	size_t left = 0;
	int changed = 1;

	while (games && pts && changed) {
		changed = 0;
		memset(games, 0, n * sizeof *games);
		memset(pts, 0, n * sizeof *pts);
		for (size_t k = 0; k < ng; k++) {
			if (!in[g[k].white] || !in[g[k].black])
				continue;
			games[g[k].white]++;
			games[g[k].black]++;
			pts[g[k].white] += g[k].white_score;
			pts[g[k].black] += 1 - g[k].white_score;
		}
		for (size_t i = 0; i < n; i++) {
			if (!in[i] || (pts[i] > 0 && pts[i] < games[i]))
				continue;
			in[i] = 0;
			rows[i].elo = games[i] <= 0 ? NAN : pts[i] > 0 ? INFINITY : -INFINITY;
			changed = 1;
		}
	}
	for (size_t i = 0; i < n; i++)
		left += in[i];
	free(games);
	free(pts);
	return left;
}

static void fit_free(struct fit *f)
{
	free(f->games);
	free(f->points);
	free(f->r);
	free(f->h);
	free(f->grad);
	free(f->work);
	free(f->inv);
}

int ratings_fit(size_t n, const char *const *names, const struct ratings_game *g, size_t ng, int anchor,
		struct ratings_row *rows, char *err, size_t errlen)
{
	struct fit f = { 0 };
	unsigned char *in = NULL;
	size_t *idx = NULL, *back = NULL;
	double *step = NULL;
	int rc = -1;

	if (n == 0 || ng == 0)
		return errbuf_set(err, errlen, "no game to rate");
	if (n > RATINGS_MAX_ENGINES)
		return errbuf_set(err, errlen, "more than %d engines", RATINGS_MAX_ENGINES);
	for (size_t i = 0; i < n; i++)
		rows[i] = (struct ratings_row){ .name = names[i], .elo = NAN, .margin = NAN };
	for (size_t k = 0; k < ng; k++) {
		const struct ratings_game *x = &g[k];
		if (x->white >= n || x->black >= n || x->white == x->black)
			return errbuf_set(err, errlen, "game %zu is not between two of the engines", k + 1);
		double s = x->white_score;
		struct ratings_row *w = &rows[x->white], *b = &rows[x->black];
		w->games++;
		b->games++;
		w->points += s;
		b->points += 1 - s;
		w->wins += s > 0.75, w->losses += s < 0.25, w->draws += s >= 0.25 && s <= 0.75;
		b->wins += s < 0.25, b->losses += s > 0.75, b->draws += s >= 0.25 && s <= 0.75;
	}
	in = calloc(n, 1);
	idx = calloc(n, sizeof *idx);
	back = calloc(n, sizeof *back);
	if (!in || !idx || !back) {
		errbuf_set(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		in[i] = rows[i].games > 0;
	f.m = drop_perfect(n, g, ng, in, rows);
	if (anchor >= 0 && (size_t)anchor < n && !in[anchor]) {
		errbuf_set(err, errlen, "the anchor %s has no finite rating (%s)", names[anchor],
			   rows[anchor].games ? "it scored every point or none" : "no game");
		goto out;
	}
	if (f.m == 0) {
		rc = 0;                 /* every engine is +/-inf */
		goto out;
	}
	size_t m = f.m;
	for (size_t i = 0, k = 0; i < n; i++)
		if (in[i])
			idx[i] = k, back[k++] = i;
	f.games = calloc(m * m, sizeof *f.games);
	f.points = calloc(m * m, sizeof *f.points);
	f.r = calloc(m, sizeof *f.r);
	f.h = calloc(m * m, sizeof *f.h);
	f.grad = calloc(m, sizeof *f.grad);
	f.work = calloc(m * 2 * m, sizeof *f.work);
	f.inv = calloc(m * m, sizeof *f.inv);
	step = calloc(2 * m, sizeof *step);
	if (!f.games || !f.points || !f.r || !f.h || !f.grad || !f.work || !f.inv || !step) {
		errbuf_set(err, errlen, "out of memory");
		goto out;
	}
	for (size_t k = 0; k < ng; k++) {
		if (!in[g[k].white] || !in[g[k].black])
			continue;
		size_t i = idx[g[k].white], j = idx[g[k].black];
		f.games[i * m + j]++;
		f.games[j * m + i]++;
		f.points[i * m + j] += g[k].white_score;
		f.points[j * m + i] += 1 - g[k].white_score;
	}
	/* Connected: every engine reached from the first through games played. */
	size_t *order = calloc(m, sizeof *order), head = 0, tail = 0;
	unsigned char *seen = calloc(m, 1);
	if (order && seen) {
		order[tail++] = 0;
		seen[0] = 1;
		while (head < tail) {
			size_t i = order[head++];
			for (size_t j = 0; j < m; j++)
				if (!seen[j] && f.games[i * m + j] > 0)
					seen[j] = 1, order[tail++] = j;
		}
	}
	free(order);
	free(seen);
	if (tail < m) {
		errbuf_set(err, errlen, tail ? "the engines fall into groups that never met: no common "
			   "scale" : "out of memory");
		goto out;
	}
	memset(step, 0, 2 * m * sizeof *step);
	int a = anchor >= 0 ? (int)idx[anchor] : -1;
	if (maximize(&f, a, step) < 0) {
		errbuf_set(err, errlen, "the ratings have no finite maximum (a group of engines won "
			   "every game against the others)");
		goto out;
	}
	derivatives(&f);
	if (covariance(&f, a) < 0) {
		errbuf_set(err, errlen, "the margins cannot be computed");
		goto out;
	}
	for (size_t k = 0; k < m; k++) {
		struct ratings_row *row = &rows[back[k]];
		double v = f.inv[k * m + k];
		row->elo = f.r[k] - (a >= 0 ? f.r[a] : 0) + 0.0;
		row->margin = RATINGS_Z95 * sqrt(v > 0 ? v : 0);
	}
	rc = 0;
out:
	free(in);
	free(idx);
	free(back);
	free(step);
	fit_free(&f);
	return rc;
}

/* A name fit for a terminal and a CSV cell: not empty, not too long, no control
 * byte (a results file is not trusted: its names are printed). */
static int name_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > RATINGS_NAME_MAX)
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

int ratings_line_parse(const char *line, size_t len, char *white, char *black, double *white_score,
		       char *err, size_t errlen)
{
	size_t i = 0;
	while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r' || line[i] == '\n'))
		i++;
	if (i == len)
		return 0;
	cJSON *o = cJSON_ParseWithLength(line, len);
	const char *w = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "white"));
	const char *b = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "black"));
	const char *r = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "result"));
	int rc = -1;

	if (!cJSON_IsObject(o) || !w || !b || !r) {
		errbuf_set(err, errlen, "not a result line (white, black and result)");
	} else if (!strcmp(r, "*")) {
		rc = 0;
	} else if (strcmp(r, "1-0") && strcmp(r, "0-1") && strcmp(r, "1/2-1/2")) {
		errbuf_set(err, errlen, "the result is not 1-0, 0-1, 1/2-1/2 or *");
	} else if (!name_ok(w) || !name_ok(b)) {
		errbuf_set(err, errlen, "white and black are not two engines' names");
	} else if (!strcmp(w, b)) {
		rc = 2;
	} else {
		memcpy(white, w, strlen(w) + 1);
		memcpy(black, b, strlen(b) + 1);
		*white_score = !strcmp(r, "1-0") ? 1 : !strcmp(r, "0-1") ? 0 : 0.5;
		rc = 1;
	}
	cJSON_Delete(o);
	return rc;
}

/* Best first: by rating (+inf first, NaN last), then by points, then by name.
 * Ratings within a thousandth of an Elo are a tie: the fit's last bits depend on
 * the order of the games, and the same games must give the same list. */
static int row_cmp(const void *x, const void *y)
{
	const struct ratings_row *a = x, *b = y;
	double ea = isnan(a->elo) ? -HUGE_VAL : a->elo, eb = isnan(b->elo) ? -HUGE_VAL : b->elo;
	if (ea != eb && !(fabs(ea - eb) <= 1e-3))
		return ea > eb ? -1 : 1;
	if (a->points != b->points)
		return a->points > b->points ? -1 : 1;
	return strcmp(a->name, b->name);
}

void ratings_sort(struct ratings_row *rows, size_t n)
{
	qsort(rows, n, sizeof *rows, row_cmp);
}

/* "+12.3", "+inf", "-inf", "-". */
static void fmt_num(char *buf, size_t n, double v, int sign)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (isinf(v))
		snprintf(buf, n, "%sinf", v > 0 ? (sign ? "+" : "") : "-");
	else
		snprintf(buf, n, sign ? "%+.1f" : "%.1f", v + 0.0);
}

/* A CSV field: quoted when it holds a comma, a quote or a line break. */
static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void json_num(cJSON *o, const char *k, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, k, round(v * 10) / 10 + 0.0);
	else
		cJSON_AddNullToObject(o, k);
}

cJSON *ratings_json(const struct ratings_row *rows, size_t n, const char *anchor_name)
{
	cJSON *o = cJSON_CreateObject(), *list;
	if (!o)
		return NULL;
	if (anchor_name)
		cJSON_AddStringToObject(o, "anchor", anchor_name);
	else
		cJSON_AddNullToObject(o, "anchor");
	if (!(list = cJSON_AddArrayToObject(o, "engines"))) {
		cJSON_Delete(o);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		const struct ratings_row *r = &rows[i];
		cJSON *e = cJSON_CreateObject();
		if (!e)
			break;
		cJSON_AddItemToArray(list, e);
		cJSON_AddNumberToObject(e, "rank", (double)(i + 1));
		cJSON_AddStringToObject(e, "engine", r->name);
		json_num(e, "elo", r->elo);
		/* +/-inf as a string: JSON has no infinity. */
		if (isinf(r->elo))
			cJSON_AddStringToObject(e, "elo_bound", r->elo > 0 ? "+inf" : "-inf");
		json_num(e, "margin", r->margin);
		cJSON_AddNumberToObject(e, "games", r->games);
		cJSON_AddNumberToObject(e, "points", r->points);
		cJSON_AddNumberToObject(e, "wins", r->wins);
		cJSON_AddNumberToObject(e, "draws", r->draws);
		cJSON_AddNumberToObject(e, "losses", r->losses);
		json_num(e, "score", r->games ? 100 * r->points / r->games : NAN);
	}
	return o;
}

void ratings_print(FILE *f, const struct ratings_row *rows, size_t n, enum ratings_format fmt,
		   const char *anchor_name)
{
	char elo[32], margin[32];
	int w = 6;

	if (fmt == RATINGS_JSON) {
		cJSON *o = ratings_json(rows, n, anchor_name);
		char *s = o ? cJSON_PrintUnformatted(o) : NULL;
		fprintf(f, "%s\n", s ? s : "{}");
		cJSON_free(s);
		cJSON_Delete(o);
		return;
	}
	if (fmt == RATINGS_CSV) {
		fputs("rank,engine,elo,margin,games,points,wins,draws,losses,score\n", f);
		for (size_t i = 0; i < n; i++) {
			const struct ratings_row *r = &rows[i];
			fmt_num(elo, sizeof elo, r->elo, 0);
			fmt_num(margin, sizeof margin, r->margin, 0);
			fprintf(f, "%zu,", i + 1);
			csv_field(f, r->name);
			fprintf(f, ",%s,%s,%u,%.1f,%u,%u,%u,%.1f\n", isnan(r->elo) ? "" : elo,
				isnan(r->margin) ? "" : margin, r->games, r->points, r->wins, r->draws,
				r->losses, r->games ? 100 * r->points / r->games : 0.0);
		}
		return;
	}
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(rows[i].name) > w)
			w = (int)strlen(rows[i].name);
	fprintf(f, "Ratings (%s at 0, 95 %% margins):\n", anchor_name ? anchor_name : "pool average");
	fprintf(f, "%4s  %-*s  %8s  %6s  %6s  %7s  %6s\n", "rank", w, "engine", "elo", "+/-", "games",
		"points", "score");
	for (size_t i = 0; i < n; i++) {
		const struct ratings_row *r = &rows[i];
		fmt_num(elo, sizeof elo, r->elo, 1);
		fmt_num(margin, sizeof margin, r->margin, 0);
		fprintf(f, "%4zu  %-*s  %8s  %6s  %6u  %7.1f  %5.1f%%\n", i + 1, w, r->name, elo, margin,
			r->games, r->points, r->games ? 100 * r->points / r->games : 0.0);
	}
}
