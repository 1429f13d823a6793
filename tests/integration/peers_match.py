# peers_match.py: part of peers_match.sh.
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert rows, "no results"
for r in rows:
    print("game %d: %s %s, %d plies" % (r["game"], r["result"], r["reason"], r["plies"]))
    assert r["result"] != "*" and not any(w in r["reason"] for w in
        ("crash", "illegal", "stall", "on time", "forfeit", "engine", "disconnect")), r
