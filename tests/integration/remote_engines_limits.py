# remote_engines_limits.py: part of remote_engines.sh;
# its failure: "max_waiting, max_games, hints".
import sys, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from harness import wait_for
sys.dont_write_bytecode = True
from remote_engines_lib import *  # noqa: F401,F403 (C, SPEC, expect, ...)
port, trace = int(sys.argv[1]), sys.argv[2]
def seen(text):
    return open(trace).read().count(text)
R = "id hivebridge v0.1.0 (remote play)"
def C2():
    c = C.__new__(C); c.s = socket.create_connection(("127.0.0.1", port), timeout=30); c.buf = b""
    c.answer(); return c
a, b, c = C2(), C2(), C2()
# max_waiting = 1: a waits (Base+M), so b asking for Base cannot wait too. The daemon
# logs a line before it acts on it, in the same turn of its loop: once a's newgame is
# in the trace, a is waiting by the time b's line is read.
before = seen(" newgame Base+M\n")
a.send("newgame Base+M")
wait_for(lambda: seen(" newgame Base+M\n") != before, 10, "a's newgame reaching the daemon")
r = b.cmd("newgame Base")
expect(r, ["err Too many players waiting (1); try again later.", "ok"], "max_waiting")
b.send("newgame Base+M")
# The one that waited plays White; Black's answer comes after White's first move.
ra = a.answer()
assert ra[0].startswith("remote game=") and "color=White" in ra[0] and ra[1:] == ["Base+M;NotStarted;White[1]", "ok"], ra
w = a
# max_games = 1: the one game runs, c is refused.
expect(c.cmd("newgame"), ["err Too many games in progress (1); try again later.", "ok"], "max_games")
# hints = yes: bestmove is answered by the listener's engine, the game untouched.
h = w.cmd("bestmove depth 1")
assert len(h) == 2 and h[1] == "ok" and not h[0].startswith("err"), h
v = w.cmd("validmoves")
assert h[0] in v[0].split(";"), (h, v)
w.send("play " + h[0])
assert w.line().startswith("Base+M;InProgress;Black[1];"), "play after the hint"
rb = b.answer()
assert "color=Black" in rb[0] and rb[1].startswith("Base+M;InProgress;Black[1];"), rb
