# tournament_web.py PORT SCHEMAS [ENGINE ENGINE ENGINE]: part of tournament_web.sh
# and tournament_queue.sh (its failure: "the dashboard of the tournament"). GET
# /api/match of a played-out round-robin of three engines, four games a pairing: valid
# against schemas/web-match.json, every pairing with its games, and the rating list
# of every engine, whose games and points sum to the games played.
import json, sys, urllib.request
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from web_client import schema_validator
port, schemas = int(sys.argv[1]), sys.argv[2]
engines = sys.argv[3:] or ["builtin:depth=1", "builtin:depth=2", "builtin:depth=3"]
valid = schema_validator(schemas, ["web-match"])
m = valid(json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/match", timeout=20)), "web-match")
t = m["tournament"]
assert t and t["kind"] == "round-robin" and t["per_pairing"] == 4, t
assert m["played"] == m["games"] == 12 and m["over"], (m["played"], m["games"], m["over"])
assert len(t["pairings"]) == 3, t["pairings"]
for p in t["pairings"]:
    assert p["wins"] + p["losses"] + p["draws"] == 4, p
    assert sum(p["pentanomial"]) == 2, p
rows = t["ratings"]["engines"]
assert sorted(r["engine"] for r in rows) == sorted(engines), rows
assert sum(r["games"] for r in rows) == 24 and abs(sum(r["points"] for r in rows) - 12) < 1e-9, rows
assert [r["rank"] for r in rows] == [1, 2, 3], rows
assert len(m["finished"]) == 12, len(m["finished"])
print("dashboard: %s" % ", ".join("%s %s" % (r["engine"], r["elo"]) for r in rows))
