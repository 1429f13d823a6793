# daemon_lifecycle_clients.py: part of daemon_lifecycle.sh (its failure: "clients").
import os, signal, socket, sys, time

port, busy, daemon, trace = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]

sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from harness import wait_for
from uhp_client import connect, reply, hold, refused

# max_sessions = 3: three get the info block, the fourth the refusal, then EOF.
held = hold(port, 3)
refused(port, ["err Too many sessions."])
print("refusal: ok")

# A freed slot is taken again.
held.pop()[0].close()
def slot():
    s, f = connect(port)
    info, ok = reply(f)
    if info and info[0].startswith("id "):
        return s, f
    s.close()
s, f = wait_for(slot, 30, "the freed slot taken again")
held.append((s, f))
print("slot reused: ok")

# SIGHUP after rotation: the log is opened again under its name.
os.rename(trace, trace + ".1")
os.kill(daemon, signal.SIGHUP)
# The daemon notes the reopening in the new file: only then is a command sure to
# be traced there.
def wait_trace(what):
    wait_for(lambda: os.path.exists(trace) and what in open(trace, "rb").read(), 30,
             "SIGHUP did not reopen the log (no %r)" % what)
wait_trace(b"SIGHUP: log reopened")
s, f = held[0]
s.sendall(b"newgame Base\n")
assert reply(f)[1]
wait_trace(b"client->bridge newgame Base")
print("SIGHUP reopen: ok")
for s, f in held:
    s.close()
