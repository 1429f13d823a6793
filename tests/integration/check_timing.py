# check_timing.py: part of check_timing.sh (the JSON report of each timing case).
import json, sys
r = json.load(open(sys.argv[1]))
c = {c["name"]: c for c in r["checks"]}["timing.sigint"]
assert c["status"] == "fail" and not c["required"], c
assert c["reason"].startswith("dies on SIGINT (killed by signal 2"), c
assert c["sent"].endswith("bestmove time 00:00:05 | <SIGINT>"), c
assert r["engine"]["sigint"] == "dies", r["engine"]
