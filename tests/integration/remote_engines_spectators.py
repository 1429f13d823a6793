# remote_engines_spectators.py: part of remote_engines.sh;
# its failure: "spectators of an engine game".
import sys, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from harness import wait_for
sys.dont_write_bytecode = True
from remote_engines_lib import *  # noqa: F401,F403 (C, SPEC, expect, ...)
port = int(sys.argv[1])
a = C(port, SPEC)
l = wait_for(lambda: (lambda l: l if len(l) > 1 else None)(a.cmd("list")), 20, "a game listed")
assert len(l) == 2 and l[0].startswith("game 1 Base white=player#") and "black=player#" in l[0], l
assert l[0].endswith(" spectators=0"), l
r = a.cmd("attach 1")
assert r[-1] == "ok" and r[0].startswith("Base;"), r
seen = [r[0]]
# max_spectators = 1: a second spectator of game 1 is refused; detached, it may.
b = C(port, SPEC)
expect(b.cmd("attach 1"), ["err Game 1 has 1 spectators already.", "ok"], "second spectator")
l = b.cmd("list")
assert l[0].endswith(" spectators=1"), l
# a detaches: b may attach now and gets the position at once.
a.send("detach")
while True:
    x = a.line()
    if x == "ok":
        break
    seen.append(x)                      # a move that raced the detach
r = b.cmd("attach 1")
assert r[-1] == "ok" and r[0].startswith("Base;"), r
seen.append(r[0])
over = None
while over is None:
    x = b.line()
    if x.startswith("over "):
        over = x
    else:
        seen.append(x)
assert over.startswith("over 1 1/2-1/2 adjudicated: 8 plies played"), over
expect(a.cmd("list"), ["ok"], "list after the game")
open(sys.argv[2], "w").write("\n".join(seen) + "\n")
