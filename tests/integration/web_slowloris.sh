#!/bin/sh
# web_slowloris.sh: requests that never finish. With http_head_timeout = 2:
#   - 20 connections send 24 KB of header lines, then one byte every 0.5 s: each is
#     answered 408 (or closed) within the deadline plus slack, from its first byte,
#     although bytes keep coming (an idle time-out alone would never fire);
#   - 320 connections from 8 addresses each send 28 KB of header lines (half of them
#     100 KB, over the 32 KB head limit) and hold: the daemon's VmRSS grows by less
#     than 24 MB while they are held, and is back within 8 MB of where it was once
#     they are gone (memory given back), descriptors back at their baseline.
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
http_head_timeout = 2
[engine builtin]
hash_mb = 1
[listen uhp]
port = 0
EOF
# Under ASan, freed blocks wait in a quarantine (256 MB by default) that RSS would
# count, and its allocator gives memory back only when told to.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:allocator_release_to_os_interval_ms=0"
export ASAN_OPTIONS
spawn "$HIVEBRIDGE" serve --config "$tmp/conf" --http 127.0.0.1:0 2>"$tmp/err"
pid=$spawned
wait_listening "$tmp/err" $pid 2
http=$(listen_port "$tmp/err" http)
[ -n "$http" ] || fail "no http port: $(cat "$tmp/err")"

timeout 200 python3 tests/integration/web_slowloris.py "$http" "$pid" || { cat "$tmp/err"; fail "the slow requests"; }
procs_alive $pid || fail "the daemon died"
kill -TERM $pid
wait $pid || fail "the daemon's exit status $? after SIGTERM: $(cat "$tmp/err")"
echo "web_slowloris: ok"
