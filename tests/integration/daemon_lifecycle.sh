#!/bin/sh
# daemon_lifecycle.sh: `hivebridge serve` limits and signals: --listen, max_sessions
# (a refused client reads "err Too many sessions." and "ok", then EOF), SIGHUP
# reopening a rotated trace log, and SIGTERM while an external engine is busy
# (clean exit 0 within seconds, and no engine process left behind).
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
tmp=$(mktemp -d)
daemon=
cleanup() {
	[ -n "$daemon" ] && kill -9 "$daemon" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

fake=$tmp/fake_engine_$$
cp "$TOOLS/fake_uhp_engine" "$fake" || fail "no fake_uhp_engine in $TOOLS"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

cat >"$tmp/conf" <<EOF
[daemon]
log = $tmp/trace.log
max_sessions = 3
[engine builtin]
hash_mb = 1
[engine stall]
command = $fake --fault stall
command_timeout = 60
stop_timeout = 0.5
[listen uhp]
port = 1
[listen busy]
port = 0
engine = stall
EOF
"$HIVEBRIDGE" serve --config "$tmp/conf" --listen "127.0.0.1:$port" 2>"$tmp/err" &
daemon=$!
i=0
while [ "$(grep -c '^listening on' "$tmp/err")" -lt 2 ]; do
	kill -0 "$daemon" 2>/dev/null || { cat "$tmp/err"; fail "serve died at start"; }
	[ $i -lt 100 ] || fail "serve did not start listening"
	sleep 0.1
	i=$((i + 1))
done
grep -qx "listening on 127.0.0.1:$port (uhp)" "$tmp/err" || { cat "$tmp/err"; fail "--listen not applied"; }
busy=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\) (uhp)$/\1/p' "$tmp/err" | sed -n 2p)

timeout 60 python3 - "$port" "$busy" "$daemon" "$tmp/trace.log" <<'EOF' || fail "clients"
import os, signal, socket, sys, time

port, busy, daemon, trace = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]

def connect(p):
    s = socket.create_connection(("127.0.0.1", p), timeout=20)
    return s, s.makefile("rb")

def reply(f):
    lines = []
    while True:
        line = f.readline()
        if not line:
            return lines, False
        line = line.rstrip(b"\r\n").decode()
        if line == "ok":
            return lines, True
        lines.append(line)

# max_sessions = 3: three get the info block, the fourth the refusal, then EOF.
held = []
for i in range(3):
    s, f = connect(port)
    info, ok = reply(f)
    assert ok and info[0].startswith("id "), info
    held.append((s, f))
s, f = connect(port)
lines, ok = reply(f)
assert ok and lines == ["err Too many sessions."], (lines, ok)
assert f.readline() == b"", "refused connection not closed"
s.close()
print("refusal: ok")

# A freed slot is taken again.
held.pop()[0].close()
for attempt in range(50):
    s, f = connect(port)
    info, ok = reply(f)
    if info and info[0].startswith("id "):
        break
    s.close()
    time.sleep(0.1)
else:
    raise SystemExit("slot not freed")
held.append((s, f))
print("slot reused: ok")

# SIGHUP after rotation: the log is opened again under its name.
os.rename(trace, trace + ".1")
os.kill(daemon, signal.SIGHUP)
time.sleep(0.3)
s, f = held[0]
s.sendall(b"newgame Base\n")
assert reply(f)[1]
for attempt in range(50):
    if os.path.exists(trace) and b"client->bridge newgame Base" in open(trace, "rb").read():
        break
    time.sleep(0.1)
else:
    raise SystemExit("SIGHUP did not reopen the log")
print("SIGHUP reopen: ok")
for s, f in held:
    s.close()
EOF
kill -0 "$daemon" 2>/dev/null || fail "the daemon died"

# SIGTERM while an external engine is searching (and would never answer).
python3 - "$busy" >"$tmp/busy.out" 2>&1 <<'EOF' &
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=30)
s.sendall(b"newgame Base\nbestmove depth 1\n")
f = s.makefile("rb")
while f.readline():
    pass
EOF
client=$!
i=0
until pgrep -P "$daemon" >/dev/null && grep -q 'bridge->engine bestmove' "$tmp/trace.log"; do
	[ $i -lt 100 ] || fail "the busy engine never started"
	sleep 0.1
	i=$((i + 1))
done
engine=$(pgrep -P "$daemon")
t0=$(date +%s)
kill -TERM "$daemon"
wait "$daemon"
rc=$?
daemon=
t1=$(date +%s)
[ $rc = 0 ] || { tail -n 20 "$tmp/err"; fail "serve exit status $rc after SIGTERM"; }
[ $((t1 - t0)) -le 5 ] || fail "shutdown took $((t1 - t0)) s"
wait "$client"
kill -0 "$engine" 2>/dev/null && fail "engine $engine outlived the daemon"
grep -q 'engine-stderr\|bridge->engine exit' "$tmp/trace.log" || fail "no engine trace in the log"
echo "shutdown with a busy engine: $((t1 - t0)) s"
echo "daemon_lifecycle: ok"
