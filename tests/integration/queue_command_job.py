# queue_command_job.py: part of queue_command_job.sh (the dead stream entries).
import sys
lines = open(sys.argv[1], encoding="latin-1").read().split("\n")
entries = []
while len(lines) >= 9:
    e = dict(zip(lines[1:9:2], lines[2:9:2]))
    assert lines[1:9:2] == ["game", "worker", "reason", "id"], lines[:9]
    entries.append(e)
    lines = lines[9:]
assert [e["game"] for e in entries] == ["1", "2"], entries
assert [e["id"] for e in entries] == ["0-1", "0-2"], entries
assert all(e["worker"] == "plain" for e in entries), entries
assert "--allow-engine-commands" in entries[0]["reason"] and "engine_a" in entries[0]["reason"], entries[0]
assert "control byte" in entries[1]["reason"] and "\\x1b" in entries[1]["reason"], entries[1]
assert all(len(e["reason"]) < 300 and all(32 <= ord(c) < 127 for c in e["reason"]) for e in entries), entries
