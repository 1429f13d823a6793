# check_report.py: part of check.sh (the JSON report).
import json, sys
from jsonschema import Draft202012Validator as V
rep = json.load(open(sys.argv[1]))
errs = list(V(json.load(open('schemas/check-report.json'))).iter_errors(rep))
assert not errs, errs[0].message
assert rep["protocol"] == sys.argv[2], rep["protocol"]
failed = ["%s: %s" % (c["name"], c.get("reason")) for c in rep["checks"] if c["status"] == "fail"]
assert rep["conformant"] is (sys.argv[3] == "yes"), f"conformant {rep['conformant']}; failed: {failed}"
s = rep["summary"]
assert s["passed"] == sum(c["status"] == "pass" for c in rep["checks"])
assert s["failed"] == sum(c["status"] == "fail" for c in rep["checks"])
assert all("reason" in c for c in rep["checks"] if c["status"] != "pass")
for c in rep["checks"]:
    if c["status"] == "fail":
        assert c.get("sent") and c.get("got") and c.get("expected"), c
