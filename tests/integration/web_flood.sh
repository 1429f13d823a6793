#!/bin/sh
# web_flood.sh: half-sent HTTP requests at the descriptor limit. The daemon runs
# under `ulimit -n 128` with a UHP listener and the web page; clients open more
# connections than it has descriptors, each sending only "GET / HTTP/1.1", and hold
# them:
#   - from one address (127.0.0.2): the address's share is taken at accept time and
#     the rest refused; the UHP listener and HTTP from another address still answer;
#   - from many addresses: every HTTP connection is taken (others get a 503 JSON
#     "too many connections" or are closed), the UHP listener still answers;
# and all the while the daemon does not spin (its CPU time from /proc/PID/stat over
# 3 s under 30 % of one core) nor flood its logs (under 64 KB each), and its
# descriptors come back once the clients go.
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
[engine builtin]
hash_mb = 1
[listen uhp]
port = 0
EOF
# dash and bash both set the soft and the hard limit: the daemon cannot raise it.
spawn sh -c 'ulimit -n 128 && exec "$0" serve --config "$1" --http 127.0.0.1:0' "$HIVEBRIDGE" "$tmp/conf" \
	2>"$tmp/err"
pid=$spawned
wait_listening "$tmp/err" $pid 2
http=$(listen_port "$tmp/err" http)
uhp=$(listen_port "$tmp/err" uhp)
[ -n "$http" ] && [ -n "$uhp" ] || fail "no ports: $(cat "$tmp/err")"

timeout 200 python3 tests/integration/web_flood.py "$http" "$uhp" "$pid" "$tmp/err" "$tmp/trace.log" ||
	{ cat "$tmp/err"; cat "$tmp/trace.log"; fail "the flood"; }
procs_alive $pid || fail "the daemon died"
kill -TERM $pid
wait $pid || fail "the daemon's exit status $? after SIGTERM: $(cat "$tmp/err")"
echo "web_flood: ok"
