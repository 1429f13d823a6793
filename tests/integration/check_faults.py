# check_faults.py: part of check_faults.sh (its failure: "--json illegal-move: content").
import json, sys
r = json.load(open(sys.argv[1]))
assert r["conformant"] is False
bad = {c["name"]: c for c in r["checks"] if c["status"] == "fail"}
c = bad["bestmove.depth-1"]
assert c["required"] is True
assert "bestmove depth 1" in c["sent"] and c["got"].endswith("ok") and "legal move" in c["expected"]
assert "not a legal move" in c["reason"]
assert r["summary"]["required_failures"] == sum(1 for c in bad.values() if c["required"])
