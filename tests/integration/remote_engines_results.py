# remote_engines_results.py: part of remote_engines.sh (its failure: "results file").
import sys
sys.dont_write_bytecode = True
from remote_engines_lib import *  # noqa: F401,F403 (C, SPEC, expect, ...)
rows = valid_rows(sys.argv[1], sys.argv[2])
for r in rows:
    assert r["source"] == "remote" and r["time_control"] == "1/move", r
assert [r["listener"] for r in rows] == ["players", "faulty", "faulty"], rows
g = rows[0]
assert g["result"] == "1/2-1/2" and g["plies"] == 8 and g["white"].startswith("player#"), g
assert g["white_id"].startswith("hivebridge") and g["black_id"].startswith("hivebridge"), g
for r, why in zip(rows[1:], ["illegal move", "engine crashed: closed the connection"]):
    fake = "white" if r["white_id"].startswith("FakeUhp") else "black"
    assert r[fake + "_id"].startswith("FakeUhp") and not r[("black" if fake == "white" else "white") + "_id"].startswith("FakeUhp"), r
    assert r["result"] == ("0-1" if fake == "white" else "1-0"), r
    assert r["reason"].startswith(fake + " " + why), (r["reason"], why)
print("results: %d games, reasons: %s" % (len(rows), [r["reason"] for r in rows]))
