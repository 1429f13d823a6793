# peers_remote.py: part of peers_remote.sh.
import json, sys
r = json.loads(open(sys.argv[1]).readline())
print("%s vs %s: %s %s, %d plies" % (r.get("white_id"), r.get("black_id"), r["result"], r["reason"], r["plies"]))
assert r["reason"].startswith("adjudicated") or r["result"] in ("1-0", "0-1") and \
    "queen" in r["reason"], r
