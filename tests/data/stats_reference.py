#!/usr/bin/env python3
"""Reference numbers for tests/unit/test_sprt.c and test_ratings.c, computed once by
another route than bridge/match/sprt.c and ratings.c take (run: python3 THIS).

- GSPRT LLR (the "expectation" statistic of fishtest's and fastchess's logistic
  model): the constrained maximum-likelihood distribution is found by Newton's
  method on the Lagrange multiplier (the C code bisects), empty bins counting 1e-3.
- Pentanomial Elo and margin: the formula of sprt.h, in Python floats.
- Ratings: the MM algorithm of Hunter (2004) for the Bradley-Terry model, a draw
  counting half a win for each side (the C code uses Newton's method); margins from
  a finite-difference Hessian of the log-likelihood in n-1 free ratings (the last
  one minus the sum of the others for the pool average, or the anchor fixed at 0),
  inverted by Gauss-Jordan (the C code takes the pseudo-inverse of the analytic
  Hessian). Plain Python: no scipy or numpy on the machine that made them.
"""
import math

Z95 = 1.959963984540054


def score_of_elo(e):
    return 1 / (1 + 10 ** (-e / 400))


def elo_of_score(s):
    return -400 * math.log10(1 / s - 1)


def mle(q, a, s):
    # maximize sum q log p with sum p = 1, sum p a = s: p_i = q_i / (1 + t (a_i - s))
    t = 0.0
    for _ in range(100):
        f = sum(qi * (ai - s) / (1 + t * (ai - s)) for qi, ai in zip(q, a))
        df = -sum(qi * (ai - s) ** 2 / (1 + t * (ai - s)) ** 2 for qi, ai in zip(q, a))
        step = f / df
        nt = t - step
        # stay where every 1 + t (a_i - s) > 0
        while any(1 + nt * (ai - s) <= 0 for ai in a):
            step /= 2
            nt = t - step
        t = nt
        if abs(step) < 1e-15:
            break
    return [qi / (1 + t * (ai - s)) for qi, ai in zip(q, a)]


def gsprt_llr(counts, elo0, elo1):
    c = [x if x else 1e-3 for x in counts]
    n = sum(c)
    q = [x / n for x in c]
    k = len(c)
    a = [i / (k - 1) for i in range(k)]
    p0 = mle(q, a, score_of_elo(elo0))
    p1 = mle(q, a, score_of_elo(elo1))
    return n * sum(qi * math.log(x1 / x0) for qi, x0, x1 in zip(q, p0, p1))


def penta_elo(n):
    N = sum(n)
    mu = sum(n[i] * i / 4 for i in range(5)) / N
    var = sum(n[i] * (i / 4 - mu) ** 2 for i in range(5)) / N
    se = math.sqrt(var / N)
    return elo_of_score(mu), (elo_of_score(mu + Z95 * se) - elo_of_score(mu - Z95 * se)) / 2


# --- ratings ---------------------------------------------------------------------

def games_of(records):
    """records: (i, j, wins_i, draws, losses_i) -> list of (i, j, score_i)"""
    g = []
    for i, j, w, d, l in records:
        g += [(i, j, 1.0)] * w + [(i, j, 0.5)] * d + [(i, j, 0.0)] * l
    return g


def loglik(r, games):
    ll = 0
    for i, j, s in games:
        p = 1 / (1 + 10 ** ((r[j] - r[i]) / 400))
        ll += s * math.log(p) + (1 - s) * math.log(1 - p)
    return ll


def mm_fit(n, games):
    pts = [0.0] * n
    cnt = [[0] * n for _ in range(n)]
    for i, j, s in games:
        pts[i] += s
        pts[j] += 1 - s
        cnt[i][j] += 1
        cnt[j][i] += 1
    gamma = [1.0] * n
    for _ in range(100000):
        new = []
        for i in range(n):
            den = sum(cnt[i][j] / (gamma[i] + gamma[j]) for j in range(n) if j != i)
            new.append(pts[i] / den)
        gm = math.exp(sum(math.log(x) for x in new) / n)
        new = [x / gm for x in new]
        done = max(abs(math.log(x / y)) for x, y in zip(new, gamma)) < 1e-14
        gamma = new
        if done:
            break
    r = [400 * math.log10(x) for x in gamma]
    mean = sum(r) / n
    return [x - mean for x in r]


def invert(m):
    k = len(m)
    t = [row[:] + [1.0 if i == j else 0.0 for j in range(k)] for i, row in enumerate(m)]
    for c in range(k):
        p = max(range(c, k), key=lambda i: abs(t[i][c]))
        t[c], t[p] = t[p], t[c]
        d = t[c][c]
        t[c] = [x / d for x in t[c]]
        for i in range(k):
            if i != c:
                f = t[i][c]
                t[i] = [x - f * y for x, y in zip(t[i], t[c])]
    return [row[k:] for row in t]


def margins(n, games, r, anchor=None):
    """95 % margins: free parameters are the ratings but one (the anchor, or the last
    one, which is minus the sum of the others for the pool average)."""
    free = [i for i in range(n) if i != (anchor if anchor is not None else n - 1)]

    def full(x):
        v = [0.0] * n
        for k, i in enumerate(free):
            v[i] = x[k]
        if anchor is None:
            v[n - 1] = -sum(x)
        return v

    x0 = [r[i] for i in free]
    h = 1e-2
    k = len(free)
    H = [[0.0] * k for _ in range(k)]
    for a in range(k):
        for b in range(k):
            def f(da, db):
                x = x0[:]
                x[a] += da
                x[b] += db
                return loglik(full(x), games)
            H[a][b] = -(f(h, h) - f(h, -h) - f(-h, h) + f(-h, -h)) / (4 * h * h)
    C = invert(H)
    var = [0.0] * n
    for kk, i in enumerate(free):
        var[i] = C[kk][kk]
    if anchor is None:
        var[n - 1] = sum(C[a][b] for a in range(k) for b in range(k))
    return [Z95 * math.sqrt(v) for v in var]


if __name__ == "__main__":
    print("GSPRT logistic LLR:")
    for counts, e0, e1 in [
        # fastchess's app/tests/sprt_test.cpp, "logistic pentanomial 1" and "2":
        # Stats(LL, LD, WL, DD, WD, WW) published as -3.07 and -4.98.
        ([223, 9863, 20279 + 1000, 10037, 246], 0.5, 2.5),
        ([871, 26175, 55003 + 980, 26678, 821], 0, 2),
        # its "logistic trinomial 1" and "2": Stats(W, L, D) published as -1.57, -2.59
        ([21184, 40708, 21404], 0.5, 2.5),
        ([57030, 106593, 57433], 0, 2),
        ([0, 0, 2, 0, 37], 0, 20),
        ([3, 10, 20, 12, 5], -5, 5),
        ([0, 0, 0, 0, 3], -1.75, 0.25),
    ]:
        print("  ", counts, e0, e1, "%.12f" % gsprt_llr(counts, e0, e1))
    print("pentanomial Elo:")
    for n in ([3, 10, 20, 12, 5], [1, 60, 500, 1200, 600]):
        print("  ", n, "%.12f %.12f" % penta_elo(n))
    recs = [(0, 1, 3, 2, 1), (0, 2, 4, 1, 1), (0, 3, 5, 1, 0),
            (1, 2, 2, 2, 2), (1, 3, 3, 2, 1), (2, 3, 3, 1, 2)]
    g = games_of(recs)
    r = mm_fit(4, g)
    print("ratings (pool average 0):", ["%.6f" % x for x in r])
    print("margins:", ["%.6f" % x for x in margins(4, g, r)])
    ra = [x - r[3] for x in r]
    print("ratings (engine 3 at 0):", ["%.6f" % x for x in ra])
    print("margins:", ["%.6f" % x for x in margins(4, g, ra, anchor=3)])
