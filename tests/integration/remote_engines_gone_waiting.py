# remote_engines_gone_waiting.py: part of remote_engines.sh;
# its failure: "an engine gone while waiting".
import sys, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from harness import wait_for
sys.dont_write_bytecode = True
from remote_engines_lib import *  # noqa: F401,F403 (C, SPEC, expect, ...)
port, trace = int(sys.argv[1]), sys.argv[2]
def wait_log(text):
    wait_for(lambda: text in open(trace).read(), 10, "in the log: " + text)
gone = socket.create_connection(("127.0.0.1", port), timeout=30)
gone.sendall(b"id Gone 1\nMosquito;Ladybug;Pillbug\nok\n")
wait_log(" is Gone 1")
gone.close()
wait_log("disconnected while waiting")
