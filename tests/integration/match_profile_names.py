# match_profile_names.py: part of match_profile_names.sh;
# its failure: "the command's games were played by another engine".
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    side = "white_id" if r["white"] == sys.argv[2] else "black_id"
    assert r.get(side, "").startswith("FakeUhpEngine"), (r["game"], r.get(side))
