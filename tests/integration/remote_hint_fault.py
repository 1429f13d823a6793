# remote_hint_fault.py PORT: run by remote_hint_fault.sh against a uhp-remote listener
# whose engine (the hints') aborts on bestmove, with the built-in house engine.
import sys
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import Conn

c = Conn(int(sys.argv[1]))
c.answer()
c.send("newgame Base")
r = c.answer()
assert r[0].startswith("remote game=") and "color=White" in r[0], r
assert r[1:] == ["Base;NotStarted;White[1]", "ok"], r
for i in range(2):
    h = c.cmd("bestmove time 00:00:01")
    # The engine's reason, as the back end gave it: it was killed by SIGABRT.
    assert len(h) == 2 and h[1] == "ok", h
    assert h[0].startswith("err No hint: killed by signal 6") and "bestmove" in h[0], h
print("hints from a broken engine: %s" % h[0])
c.send("play wS1")
assert c.line() == "Base;InProgress;Black[1];wS1", "play after the failed hints"
print("the game goes on")
c.close()
