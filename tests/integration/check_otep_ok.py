# check_otep_ok.py: part of check_otep.sh (the report of a good OTEP engine).
import json, sys
r = json.load(open(sys.argv[1]))
c = {c["name"]: c for c in r["checks"]}
assert r["engine"]["id"] == "Fake OTEP Hive engine", r["engine"]
for n in sys.argv[2:]:
    assert c[n]["status"] == "pass", c[n]
assert c["otep.play"]["required"] and not c["otep.hello-first"]["required"], c
