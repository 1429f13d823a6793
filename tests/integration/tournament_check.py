# tournament_check.py [--gauntlet] RESULTS GAMES_PER_PAIRING ENGINE... [-- RATINGS_JSON]:
# part of tournament_peers.sh and tournament_resume.sh. Every game of the
# round-robin (or the gauntlet: the first engine against each other one) once (numbered 1..N), every pairing played the same number of times
# with both colours, each game between the pairing the number says; with a
# `hivebridge ratings --json` answer, its games and points sum consistently.
import itertools, json, sys

args = sys.argv[1:]
gauntlet = args[0] == "--gauntlet"
if gauntlet:
    args = args[1:]
rjson = None
if "--" in args:
    rjson = args[args.index("--") + 1]
    args = args[:args.index("--")]
path, per, engines = args[0], int(args[1]), args[2:]
pairs = [(0, j) for j in range(1, len(engines))] if gauntlet else \
    list(itertools.combinations(range(len(engines)), 2))
games = [json.loads(l) for l in open(path)]
nums = sorted(g["game"] for g in games)
total = per * len(pairs)
assert nums == list(range(1, total + 1)), "game numbers %r, want 1..%d" % (nums, total)
count = {}
for g in games:
    n = g["game"]
    a, b = pairs[((n - 1) // 2) % len(pairs)]
    white, black = (engines[a], engines[b]) if n % 2 else (engines[b], engines[a])
    assert (g["white"], g["black"]) == (white, black), "game %d: %s vs %s, want %s vs %s" % (
        n, g["white"], g["black"], white, black)
    assert g["result"] in ("1-0", "0-1", "1/2-1/2"), "game %d: result %r" % (n, g["result"])
    count[(g["white"], g["black"])] = count.get((g["white"], g["black"]), 0) + 1
for a, b in pairs:
    x, y = count.get((engines[a], engines[b]), 0), count.get((engines[b], engines[a]), 0)
    assert x == y == per // 2, "%s-%s: %d and %d games by colour, want %d each" % (
        engines[a], engines[b], x, y, per // 2)
if rjson:
    r = json.load(open(rjson))
    rows = r["engines"]
    assert sorted(e["engine"] for e in rows) == sorted(engines), "rated %r" % rows
    assert sum(e["games"] for e in rows) == 2 * total, "games do not sum to 2 x %d" % total
    assert abs(sum(e["points"] for e in rows) - total) < 1e-9, "points do not sum to %d" % total
    for e in rows:
        want = per * sum(engines.index(e["engine"]) in p for p in pairs)
        assert e["games"] == want, "%s: %d games, want %d" % (e["engine"], e["games"], want)
        assert e["wins"] + e["draws"] + e["losses"] == e["games"], "%s: W+D+L" % e["engine"]
        assert abs(e["wins"] + e["draws"] / 2 - e["points"]) < 1e-9, "%s: points" % e["engine"]
    finite = [e["elo"] for e in rows if e["elo"] is not None]
    if len(finite) == len(rows):
        assert abs(sum(finite)) < 0.5, "pool average %r is not 0" % sum(finite)
    elos = [e["elo"] if e["elo"] is not None else (1e9 if e.get("elo_bound") == "+inf" else -1e9)
            for e in rows]
    assert elos == sorted(elos, reverse=True), "not sorted best first: %r" % elos
print("%d games, %d pairings x %d, both colours each%s" % (total, len(pairs), per,
                                                          " (gauntlet)" if gauntlet else ""))
