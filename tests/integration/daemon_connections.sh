#!/bin/sh
# daemon_connections.sh: connection budgets of `hivebridge serve`.
#   - max_sessions_per_peer: one address holding its limit is refused on every
#     listener, each refusal in the listener's own protocol (UHP err + ok, a Hub
#     error line, a Trylobot error frame), while a client from another loopback
#     address (127.0.0.2) is still served;
#   - idle_timeout / game_idle_timeout: a silent session with no game is closed after
#     idle_timeout, one with a game in progress only after game_idle_timeout, an
#     active one never; the daemon's descriptors (/proc/PID/fd) go back to where
#     they were;
#   - max_sessions: once the daemon holds that many, a client from any address is
#     refused in the listener's own protocol.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$tmp/conf" <<EOF
[daemon]
log = $tmp/trace.log
max_sessions_per_peer = 4
[engine builtin]
hash_mb = 1
[listen uhp]
port = 0
idle_timeout = 0
game_idle_timeout = 0
[listen hub]
protocol = hub
port = 0
[listen trylobot]
protocol = trylobot
port = 0
# idle_timeout 2 s: the active client below talks every 0.2 s, so a loaded machine
# has 1.8 s to schedule it before its session would be taken for idle.
[listen idle]
port = 0
idle_timeout = 2
game_idle_timeout = 5
EOF
spawn "$HIVEBRIDGE" serve --config "$tmp/conf" 2>"$tmp/err"
daemon=$spawned
wait_listening "$tmp/err" "$daemon" 4
ports="$(listen_port "$tmp/err" uhp 1) $(listen_port "$tmp/err" hub) $(listen_port "$tmp/err" trylobot) \
$(listen_port "$tmp/err" uhp 2)"

timeout 120 python3 - "$daemon" $ports <<'EOF' || { tail -n 30 "$tmp/trace.log"; fail "clients"; }
import os, select, socket, sys, time

daemon = int(sys.argv[1])
uhp, hub, tb, idle = (int(p) for p in sys.argv[2:6])

def fds():
    return len(os.listdir("/proc/%d/fd" % daemon))

sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import connect, reply, close, hold, refused

def wait_for(what, cond, secs=15):
    deadline = time.monotonic() + secs
    while time.monotonic() < deadline:
        if cond():
            return
        time.sleep(0.05)
    raise SystemExit("timed out waiting for " + what)

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
wait_for("the freed slot", slot_back)
for s, f in held:
    close(s, f)
held = []
wait_for("the descriptors of closed sessions", lambda: fds() <= base)
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
wait_for("the descriptors of timed-out sessions", lambda: fds() <= base)
print("descriptors back to %d: ok" % base)
EOF
procs_alive "$daemon" || fail "the daemon died"
grep -q 'idle time-out' "$tmp/trace.log" || fail "no idle time-out in the log"
kill "$daemon"
wait "$daemon" || fail "daemon exit status $?"

# max_sessions (daemon-wide): once it is reached, every listener refuses in its own
# protocol, whatever the address.
cat >"$tmp/conf2" <<EOF
[daemon]
max_sessions = 2
max_sessions_per_peer = 100
[engine builtin]
hash_mb = 1
[listen uhp]
port = 0
[listen hub]
protocol = hub
port = 0
[listen trylobot]
protocol = trylobot
port = 0
EOF
spawn "$HIVEBRIDGE" serve --config "$tmp/conf2" 2>"$tmp/err2"
daemon=$spawned
wait_listening "$tmp/err2" "$daemon" 3
ports="$(listen_port "$tmp/err2" uhp) $(listen_port "$tmp/err2" hub) $(listen_port "$tmp/err2" trylobot)"
timeout 60 python3 - $ports <<'EOF' || fail "max_sessions refusals"
import socket, sys

uhp, hub, tb = (int(p) for p in sys.argv[1:4])
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import connect
held = []
for src in ("127.0.0.1", "127.0.0.2"):
    s, f = connect(uhp, src)
    while f.readline() not in (b"ok\n", b""):
        pass
    held.append((s, f))
s, f = connect(uhp, "127.0.0.3")
data = f.read()
assert data == b"err Too many sessions.\nok\n", data
s, f = connect(hub, "127.0.0.3")
data = f.read()
assert data == b'error message="Too many sessions."\n', data
s, f = connect(tb, "127.0.0.3")
data = f.read()
want = b'{"success":false,"error":"Error: Too many sessions."}'
assert data == b"%d#%s" % (len(want), want), data
print("max_sessions refusals in each protocol: ok")
EOF
echo "daemon_connections: ok"
