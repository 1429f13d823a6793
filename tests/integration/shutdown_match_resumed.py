# shutdown_match_resumed.py: part of shutdown_match.sh (its failure: "resumed results").
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert sorted(r["game"] for r in rows) == list(range(1, int(sys.argv[2]) + 1)), rows
assert all(r["result"] != "*" for r in rows), rows
