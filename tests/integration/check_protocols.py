# check_protocols.py: part of check_protocols.sh (each protocol's JSON report).
import json, sys
r = json.load(open(sys.argv[1]))
if sys.argv[2:] == ["restart"]:
    # An engine that does not start again: bestmove.start[Base] (the first restart)
    # fails saying so, the rest of its group is skipped, and robustness.restart,
    # in the next group, tries once more.
    by = {c["name"]: c for c in r["checks"]}
    assert by["startup.start"]["status"] == "pass", by["startup.start"]
    assert by["gameflow.selfplay"]["status"] == "fail", by["gameflow.selfplay"]
    for name in ("bestmove.start[Base]", "robustness.restart"):
        c = by[name]
        assert c["status"] == "fail" and c["reason"].startswith("the engine does not start"), c
        assert c["sent"] == "hub | init" and '"ready" after "init"' in c["expected"], c
    for name in ("bestmove.start[Base+MLP]", "bestmove.depth-1", "robustness.stop"):
        c = by[name]
        assert c["status"] == "skip" and "(it did not start again)" in c["reason"], c
    sys.exit(0)
c = {c["name"]: c for c in r["checks"]}["bestmove.start[Base]"]
assert c["status"] == "fail" and c["required"], c
assert "illegal move" in c["reason"] and c["sent"].startswith('pos pos="Base;'), c
assert c["expected"] == "a legal move", c
