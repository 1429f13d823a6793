#!/bin/sh
# daemon_lifecycle.sh: `hivebridge serve` limits and signals: --listen, max_sessions
# (a refused client reads "err Too many sessions." and "ok", then EOF), SIGHUP
# reopening a rotated trace log, and SIGTERM while an external engine is busy
# (clean exit 0 within seconds, and no engine process left behind).
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

fake=$tmp/fake_engine_$$
cp "$TOOLS/fake_uhp_engine" "$fake" || fail "no fake_uhp_engine in $TOOLS"

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
# --listen 127.0.0.1:0 replaces the configured port 1: the first uhp listener is on
# a port the system chose, never on 1.
spawn "$HIVEBRIDGE" serve --config "$tmp/conf" --listen "127.0.0.1:0" 2>"$tmp/err"
daemon=$spawned
wait_listening "$tmp/err" "$daemon" 2 uhp
port=$(listen_port "$tmp/err" uhp 1)
busy=$(listen_port "$tmp/err" uhp 2)
case $port in '' | 0 | 1) cat "$tmp/err"; fail "--listen not applied" ;; esac
[ -n "$busy" ] || { cat "$tmp/err"; fail "no busy listener"; }

timeout 60 python3 - "$port" "$busy" "$daemon" "$tmp/trace.log" <<'EOF' || fail "clients"
import os, signal, socket, sys, time

port, busy, daemon, trace = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]

sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import connect, reply, hold, refused

# max_sessions = 3: three get the info block, the fourth the refusal, then EOF.
held = hold(port, 3)
refused(port, ["err Too many sessions."])
print("refusal: ok")

# A freed slot is taken again.
held.pop()[0].close()
deadline = time.monotonic() + 30
while True:
    s, f = connect(port)
    info, ok = reply(f)
    if info and info[0].startswith("id "):
        break
    s.close()
    if time.monotonic() > deadline:
        raise SystemExit("slot not freed")
    time.sleep(0.05)
held.append((s, f))
print("slot reused: ok")

# SIGHUP after rotation: the log is opened again under its name.
os.rename(trace, trace + ".1")
os.kill(daemon, signal.SIGHUP)
# The daemon notes the reopening in the new file: only then is a command sure to
# be traced there.
def wait_trace(what):
    deadline = time.monotonic() + 30
    while not (os.path.exists(trace) and what in open(trace, "rb").read()):
        if time.monotonic() > deadline:
            raise SystemExit("SIGHUP did not reopen the log (no %r)" % what)
        time.sleep(0.05)
wait_trace(b"SIGHUP: log reopened")
s, f = held[0]
s.sendall(b"newgame Base\n")
assert reply(f)[1]
wait_trace(b"client->bridge newgame Base")
print("SIGHUP reopen: ok")
for s, f in held:
    s.close()
EOF
procs_alive "$daemon" || fail "the daemon died"

# SIGTERM while an external engine is searching (and would never answer).
spawn python3 - "$busy" >"$tmp/busy.out" 2>&1 <<'EOF'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=30)
s.sendall(b"newgame Base\nbestmove depth 1\n")
f = s.makefile("rb")
while f.readline():
    pass
EOF
client=$spawned
wait_for 'procs_children "$daemon"; [ -n "$procs_kids" ] && grep -q "bridge->engine bestmove" "$tmp/trace.log"' 30 ||
	fail "the busy engine never started"
engine=$procs_kids
t0=$(date +%s)
kill -TERM "$daemon"
wait "$daemon"
rc=$?
t1=$(date +%s)
[ $rc = 0 ] || { tail -n 20 "$tmp/err"; fail "serve exit status $rc after SIGTERM"; }
[ $((t1 - t0)) -le 5 ] || fail "shutdown took $((t1 - t0)) s"
wait "$client"
for e in $engine; do
	[ ! -e "/proc/$e" ] || fail "engine $e outlived the daemon"
done
left=$(engines_left "$fake")
[ "$left" = 0 ] || fail "$left engine processes left after the daemon"
grep -q 'engine-stderr\|bridge->engine exit' "$tmp/trace.log" || fail "no engine trace in the log"
echo "shutdown with a busy engine: $((t1 - t0)) s"
echo "daemon_lifecycle: ok"
