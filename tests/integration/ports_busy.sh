#!/bin/sh
# ports_busy.sh: `hivebridge serve` with a configuration that defines its own
# listeners (all on port 0) starts and serves while somebody else holds the embedded
# defaults, 127.0.0.1:5000 and 127.0.0.1:51337 (a user's `make run`, the service): a
# file that defines listeners gets exactly those, and no test depends on a fixed port.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

# The holder binds what it can; a port already taken by someone else is just as busy.
spawn python3 tests/integration/ports_busy_holder.py "$tmp/held"
holder=$spawned
wait_for '[ -s "$tmp/held" ] || ! procs_alive $holder' 30 && [ -s "$tmp/held" ] || fail "the port holder did not start"

cat >"$tmp/conf" <<EOF
[engine builtin]
hash_mb = 1
[listen mine]
protocol = uhp
address = 127.0.0.1
port = 0
engine = builtin
EOF
spawn "$HIVEBRIDGE" serve --config "$tmp/conf" 2>"$tmp/err"
daemon=$spawned
wait_listening "$tmp/err" "$daemon" 1 uhp
port=$(listen_port "$tmp/err" uhp)
[ -n "$port" ] && [ "$port" != 0 ] || { cat "$tmp/err"; fail "no uhp listener on a chosen port"; }
procs_count_listening "$tmp/err"
[ "$_pn" = 1 ] || { cat "$tmp/err"; fail "$_pn listeners, the configuration defines one"; }

timeout 30 python3 tests/integration/ports_busy_client.py "$port" || fail "a UHP client on the configured listener"
procs_alive "$daemon" || fail "the daemon died"
kill -TERM "$daemon"
wait "$daemon"
rc=$?
[ $rc = 0 ] || { cat "$tmp/err"; fail "serve exit status $rc after SIGTERM"; }
echo "ports_busy: ok (listened on $port only, with 5000 and 51337 taken)"
