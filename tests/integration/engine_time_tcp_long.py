# engine_time_tcp_long.py: part of engine_time.sh (its failure: "tcp long").
import sys, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import uhp_tcp
s, reply, ask = uhp_tcp(int(sys.argv[1]))
reply()
ask("newgame Base")
t0 = time.monotonic()
ans = ask("bestmove time 00:00:01")[-1]
ms = (time.monotonic() - t0) * 1000
print("long: %s (%.0f ms)" % (ans, ms))
if not ans.startswith("err ") or "command_timeout" not in ans:
    sys.exit("not a time-out error: " + ans)
if ms < 1900:
    sys.exit("failed before its time and grace: %.0f ms" % ms)
ans = ask("bestmove depth 1")[-1]
print("long, restarted: " + ans)
if ans.startswith("err"):
    sys.exit("no fresh engine: " + ans)
