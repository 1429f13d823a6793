# remote_engines_gone_thinking.py: part of remote_engines.sh;
# its failure: "an engine gone while its opponent thinks".
import sys, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from harness import wait_for
sys.dont_write_bytecode = True
from remote_engines_lib import *  # noqa: F401,F403 (C, SPEC, expect, ...)
port, trace = int(sys.argv[1]), sys.argv[2]
class E(C):
    def __init__(s, name):
        s.s = socket.create_connection(("127.0.0.1", port), timeout=30)
        s.buf = b""
        s.s.sendall(("id %s\nMosquito;Ladybug;Pillbug\nok\n" % name).encode())
    def reply(s, *lines):
        s.s.sendall(("\n".join(lines + ("ok",)) + "\n").encode())
leaver = E("Leaver 1")
wait_for(lambda: " is Leaver 1" in open(trace).read(), 10, "the leaver waiting")
thinker = E("Thinker 1")
# The leaver waited: White. It plays its first move, then leaves while Black thinks.
l = leaver.line()
assert l.startswith("newgame Base;NotStarted"), l
leaver.reply(l.split(" ", 1)[1])
l = leaver.line()
assert l.startswith("bestmove"), l
leaver.reply("wS1")
l = thinker.line()
assert l.startswith("newgame Base;InProgress;Black[1];wS1"), l
thinker.reply(l.split(" ", 1)[1])
l = thinker.line()
assert l.startswith("bestmove"), l
leaver.s.close()
# Black is not asked to finish: the game is over, it gets exit and is closed.
rest = b""
while True:
    d = thinker.s.recv(4096)
    if not d:
        break
    rest += d
assert rest in (b"exit\n", b""), rest
