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

timeout 60 python3 tests/integration/daemon_lifecycle_clients.py "$port" "$busy" "$daemon" "$tmp/trace.log" || fail "clients"
procs_alive "$daemon" || fail "the daemon died"

# SIGTERM while an external engine is searching (and would never answer).
spawn python3 tests/integration/daemon_lifecycle_busy.py "$busy" >"$tmp/busy.out" 2>&1
client=$spawned
wait_for 'procs_children "$daemon"; [ -n "$procs_kids" ] && grep -q "bridge->engine bestmove" "$tmp/trace.log"' 30 ||
	fail "the busy engine never started"
engine=$procs_kids
t0=$(date +%s)
kill -TERM "$daemon"
wait "$daemon"
rc=$?
t1=$(date +%s)
[ $rc = 0 ] || { cat "$tmp/err"; fail "serve exit status $rc after SIGTERM"; }
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
