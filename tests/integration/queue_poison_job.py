# queue_poison_job.py: part of queue_poison_job.sh (the dead stream).
import sys
lines = open(sys.argv[1]).read().split("\n")
got = {}
while len(lines) >= 9:
    e = dict(zip(lines[1:9:2], lines[2:9:2]))
    assert e["id"] not in got, "set aside twice: %r" % e
    got[e["id"]] = e
    lines = lines[9:]
assert sorted(got) == ["0-2", "0-4", "0-5", "0-6"], got
assert got["0-2"]["game"] == "2" and "opening" in got["0-2"]["reason"], got["0-2"]
assert got["0-4"]["game"] == "4" and "no engine_b" in got["0-4"]["reason"], got["0-4"]
assert got["0-5"]["game"] == "5" and "depth" in got["0-5"]["reason"], got["0-5"]
assert got["0-6"]["game"] == "0-6" and "no game number" in got["0-6"]["reason"], got["0-6"]
assert all(e["worker"] in ("w1", "w2", "w3") for e in got.values()), got
