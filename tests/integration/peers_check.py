# peers_check.py: part of peers_check.sh.
import json, sys
from jsonschema import Draft202012Validator as V
r = json.load(open(sys.argv[1]))
errs = list(V(json.load(open("schemas/check-report.json"))).iter_errors(r))
assert not errs, errs[0].message
want = set(sys.argv[2].split())
got = {c["name"] for c in r["checks"] if c["status"] == "fail"}
for c in r["checks"]:
    if c["name"].startswith("timing.") or c["name"] in got:
        print("%s %s%s  %s" % (c["status"].upper(), c["name"], "" if c["required"] else " (optional)",
                               c.get("reason", "")))
assert got == want, "failed %s, expected %s" % (sorted(got), sorted(want))
assert r["engine"]["sigint"] == sys.argv[3], r["engine"]
print("%s: sigint %s, %d passed, %d failed" % (r["engine"]["id"], r["engine"]["sigint"],
                                                r["summary"]["passed"], r["summary"]["failed"]))
