"""match_basic: RESULTS MS: in each game the builtin:movetime=MS seat took at least MS a
move (a loaded machine only adds), and its depth-1 opponent less time in all."""
import json
import sys

ms = int(sys.argv[2])
games = [json.loads(l) for l in open(sys.argv[1])]
assert len(games) == 2, games
for g in games:
    own = 0 if g["white"] == "builtin:movetime=%d" % ms else 1
    t = g["times_ms"]
    mine, theirs = t[own::2], t[1 - own::2]
    assert mine and all(x >= ms - 10 for x in mine), ("the movetime seat", mine)
    assert sum(theirs) < sum(mine), ("the depth-1 seat took longer", theirs, mine)
