# check_protocols.py: part of check_protocols.sh (each protocol's JSON report).
import json, sys
r = json.load(open(sys.argv[1]))
c = {c["name"]: c for c in r["checks"]}["bestmove.start[Base]"]
assert c["status"] == "fail" and c["required"], c
assert "illegal move" in c["reason"] and c["sent"].startswith('pos pos="Base;'), c
assert c["expected"] == "a legal move", c
