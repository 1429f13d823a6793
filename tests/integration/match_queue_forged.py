# match_queue_forged.py: part of match_queue_forged.sh (its failure: "the results
# file or the PGN"): RESULTS PGN HIVEBRIDGE.
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1, lines
r = json.loads(lines[0])
assert r["game"] == 1 and r["reason"] == "agreed" and "evil" not in r, r
assert r["worker"] == "w\\x1b]0;owned\\x07", r["worker"]
# The PGN holds that game alone, as `convert` reads it back: none of the refused ones.
import subprocess
out = subprocess.run([sys.argv[3], "convert", "--to", "json", sys.argv[2]], capture_output=True, text=True,
                     timeout=60)
assert out.returncode == 0, out.stderr
games = [json.loads(l) for l in out.stdout.splitlines()]
assert len(games) == 1, games
g = games[0]
assert g["tags"]["Round"] == "1" and g["moves"] == [] and g["result"] == "Draw", g
assert g["tags"]["Termination"] == "agreed" and g["tags"]["White"] == "builtin:depth=1", g
assert g["gamestring"] == r["gamestring"] == "Base;NotStarted;White[1]", g
