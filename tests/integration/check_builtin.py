# check_builtin.py: part of check_builtin.sh (its failure: "--json content").
import json, sys
r = json.load(open(sys.argv[1]))
checks = r["checks"]
names = [c["name"] for c in checks]
assert len(names) == len(set(names)), "duplicate check names"
assert r["conformant"] is True
assert r["summary"]["required_failures"] == 0 and r["summary"]["failed"] == 1
assert r["summary"]["passed"] == sum(c["status"] == "pass" for c in checks)
assert r["summary"]["skipped"] == sum(c["status"] == "skip" for c in checks)
assert all(c["status"] in ("pass", "skip") for c in checks if c["name"] != "timing.sigint")
assert r["engine"]["sigint"] == "exits"
assert all("reason" in c for c in checks if c["status"] == "skip")
assert sum(n.startswith("movegen.random[") for n in names) == 5
assert r["options"]["seed"] == "7" and r["options"]["time_margin_ms"] == 1000
assert r["engine"]["id"].startswith("hivebridge")
assert r["engine"]["capabilities"] == "Mosquito;Ladybug;Pillbug"
