# match_queue_forged.py: part of match_queue_forged.sh (its failure: "the results file").
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1, lines
r = json.loads(lines[0])
assert r["game"] == 1 and r["reason"] == "agreed" and "evil" not in r, r
assert r["worker"] == "w\\x1b]0;owned\\x07", r["worker"]
