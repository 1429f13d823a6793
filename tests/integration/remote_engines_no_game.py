# remote_engines_no_game.py: part of remote_engines.sh (its failure: "spectator with no game").
import sys
sys.dont_write_bytecode = True
from remote_engines_lib import *  # noqa: F401,F403 (C, SPEC, expect, ...)
from harness import read_to_close
# max_spectators_total = 1 on faulty: a second spectator is refused and closed.
one = C(int(sys.argv[2]), SPEC)
two = socket.create_connection(("127.0.0.1", int(sys.argv[2])), timeout=30)
expect(read_to_close(two), b"err Too many spectators (1); try again later.\nok\n", "max_spectators_total")
s = C(int(sys.argv[1]), SPEC)
expect(s.cmd("list"), ["ok"], "empty list")
expect(s.cmd("attach 7"), ["err No game 7 is in progress.", "ok"], "attach to nothing")
expect(s.cmd("attach x"), ["err attach needs a game number (list shows them).", "ok"], "bad attach")
expect(s.cmd("undo"), ["err Invalid command. Try 'help' to see a list of valid commands.", "ok"], "unknown")
s.send("exit")
assert s.s.recv(10) == b"", "exit did not close"
