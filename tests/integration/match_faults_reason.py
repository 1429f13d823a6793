# match_faults_reason.py: part of match_faults.sh (each faulty engine loses with its reason).
import json, re, sys
games = [json.loads(l) for l in open(sys.argv[1])]
assert sorted(g["game"] for g in games) == [1, 2, 3, 4], "games %r" % [g["game"] for g in games]
for g in games:
    assert g["a_score"] == 1, "game %d: the faulty engine did not lose: %s" % (g["game"], g["result"])
    want = "1-0" if g["engine_a"] == "white" else "0-1"
    assert g["result"] == want, "game %d: result %s" % (g["game"], g["result"])
    assert re.search(sys.argv[2], g["reason"]), "game %d: reason %r" % (g["game"], g["reason"])
print("%s" % games[-1]["reason"])
