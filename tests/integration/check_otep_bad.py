# check_otep_bad.py: part of check_otep.sh (the report of a faulty OTEP engine).
import json, sys
c = {c["name"]: c for c in json.load(open(sys.argv[1]))["checks"]}["otep.play"]
assert c["status"] == "fail" and c["required"], c
assert c["reason"].startswith('illegal move "'), c
assert c["sent"].startswith("rules Base+MLP | position Base+MLP;NotStarted;White[1] | side white | "
                            "opponent-move - Base+MLP;NotStarted;White[1] | play white | "), c
assert c["sent"].endswith("play white | clock 1000* 1000* 1 1 1 | error 2"), c
assert c["got"].startswith("move "), c
assert c["expected"].startswith('"move <MoveString>", legal'), c
