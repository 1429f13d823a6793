#!/bin/sh
# daemon_concurrency.sh: `hivebridge serve` on a free loopback port; 200 UHP-over-TCP
# sessions at once, each letting the built-in engine play both sides for up to
# PLIES plies (or to the end of the game). Every move must be one of the bridge's
# validmoves, and every GameString must be the previous one plus that move. Then
# SIGTERM must end the daemon cleanly (status 0: under ASan, nothing leaked).
set -u
: "${HIVEBRIDGE:?}"
SESSIONS=${SESSIONS:-200}
PLIES=${PLIES:-12}
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

# Port 0: the system picks a free port and the daemon says which.
cat >"$tmp/conf" <<EOF
[daemon]
max_sessions = $((SESSIONS + 10))
max_sessions_per_peer = $((SESSIONS + 10))
[engine builtin]
hash_mb = 1
[listen uhp]
address = 127.0.0.1
port = 0
EOF
spawn "$HIVEBRIDGE" serve --config "$tmp/conf" 2>"$tmp/err"
daemon=$spawned
wait_listening "$tmp/err" "$daemon" 1 uhp
port=$(listen_port "$tmp/err" uhp)
[ -n "$port" ] || { cat "$tmp/err"; fail "no 'listening on 127.0.0.1:PORT (uhp)' line"; }

timeout 300 python3 tests/integration/daemon_concurrency.py "$port" "$SESSIONS" "$PLIES" || fail "sessions"
procs_alive "$daemon" || fail "the daemon died"

kill -TERM "$daemon"
wait "$daemon"
rc=$?
[ $rc = 0 ] || { cat "$tmp/err"; fail "serve exit status $rc after SIGTERM"; }
echo "daemon_concurrency: ok"
