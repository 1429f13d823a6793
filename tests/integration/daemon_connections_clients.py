# daemon_connections_clients.py: part of daemon_connections.sh (its failure: "clients").
import os, select, socket, sys, time

daemon = int(sys.argv[1])
uhp, hub, tb, idle = (int(p) for p in sys.argv[2:6])

def fds():
    return len(os.listdir("/proc/%d/fd" % daemon))

sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from harness import wait_for
from uhp_client import connect, reply, close, hold, refused

base = fds()

# Per-peer limit: 127.0.0.1 takes its 4 sessions (an info block each).
held = hold(uhp, 4)

# A fifth from the same address is refused, in each listener's protocol, then closed.
refused(uhp, ["err Too many sessions from this address."])

s, f = connect(hub)
line = f.readline()
assert line == b'error message="Too many sessions from this address."\n', line
assert f.readline() == b"", "refused Hub connection not closed"
close(s, f)

s, f = connect(tb)
data = f.read()
want = b'{"success":false,"error":"Error: Too many sessions from this address."}'
assert data == b"%d#%s" % (len(want), want), data
close(s, f)
print("per-peer refusals in each protocol: ok")

# Another address is served meanwhile, on every listener.
s, f = connect(uhp, "127.0.0.2")
info, ok = reply(f)
assert ok and info[0].startswith("id "), info
s.sendall(b"newgame Base\n")
lines, ok = reply(f)
assert ok and lines == ["Base;NotStarted;White[1]"], lines
close(s, f)
s, f = connect(tb, "127.0.0.2")
req = b'{"request_type":"Greetings","request_id":"x"}'
s.sendall(b"%d#%s" % (len(req), req))
head = b""
while not head.endswith(b"#"):
    c = f.read(1)
    assert c, "no Greetings answer"
    head += c
body = f.read(int(head[:-1]))
assert b'"response_type":"Greetings"' in body, body
close(s, f)
print("another address served: ok")

# A freed slot is given back to the peer.
close(*held.pop())
def slot_back():
    s, f = connect(uhp)
    info, ok = reply(f)
    if info and info[0].startswith("id "):
        held.append((s, f))
        return True
    close(s, f)
    return False
wait_for(slot_back, 15, "the freed slot")
for s, f in held:
    close(s, f)
held = []
wait_for(lambda: fds() <= base, 15, "the descriptors of closed sessions")
print("slot reused: ok")

# Idle time-outs (idle listener: 2 s without a game, 5 s with one).
quiet, qf = connect(idle)
assert reply(qf)[1]
game, gf = connect(idle)
assert reply(gf)[1]
game.sendall(b"newgame Base\n")
assert reply(gf)[1]
busy, bf = connect(idle)
assert reply(bf)[1]
assert fds() >= base + 3

t0 = time.monotonic()
closed_at = {}
watch = {quiet: "quiet", game: "game"}
deadline = t0 + 30
while time.monotonic() < deadline and len(closed_at) < 2:
    # Both silent sessions are watched at once; the active client talks every
    # 0.2 s and must never be closed.
    ready, _, _ = select.select(list(watch), [], [], 0.2)
    now = time.monotonic() - t0
    for sock in ready:
        if sock.recv(1) == b"":
            closed_at[watch.pop(sock)] = now
    busy.sendall(b"info\n")
    lines, ok = reply(bf)
    assert ok and lines[0].startswith("id "), "active session closed"
assert "quiet" in closed_at, "the session without a game was never closed"
assert "game" in closed_at, "the session with a game was never closed"
# Ordering, not timing: the same silence closed the one without a game first, and
# the one in a game only once its longer limit had passed.
assert closed_at["quiet"] < closed_at["game"], closed_at
assert closed_at["game"] >= 5 - 0.5, closed_at
print("idle time-outs: quiet after %.1f s, in a game after %.1f s, active kept: ok"
      % (closed_at["quiet"], closed_at["game"]))
close(quiet, qf)
close(game, gf)
close(busy, bf)
wait_for(lambda: fds() <= base, 15, "the descriptors of timed-out sessions")
print("descriptors back to %d: ok" % base)
