# match_faults_good.py: part of match_faults.sh (its failure: "good engine results").
import json, sys
games = [json.loads(l) for l in open(sys.argv[1])]
assert len(games) == 2
for g in games:
    assert not g["reason"].startswith(("illegal", "engine", "time")), g["reason"]
    assert g["plies"] >= 6, g["plies"]
