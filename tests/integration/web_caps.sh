#!/bin/sh
# web_caps.sh: the web server's shares against one greedy client (other loopback
# addresses as other peers), against a real daemon: one peer address gets at most 16
# event streams and 32 connections (the rest 503 with a JSON reason) while another
# address still gets a stream and an answer; with the 32 shared streams and the 64
# connections taken by several peers, a seated web person's stream still comes in
# (the seats' reserve, one per seat: a second one is refused) and the seat stays
# playing; the daemon's descriptors back at their baseline after every hostile
# connection closed.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
. tests/lib/web.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$tmp/conf" <<EOF
[listen remote]
protocol = uhp-remote
port = 0
clock = 300+5
grace = 30
wait_time = 60
EOF
web_serve 2

timeout 300 python3 tests/integration/web_caps.py "$http" "$pid" || { cat "$tmp/err"; fail "the caps"; }
procs_alive $pid || fail "the daemon died"
kill -TERM $pid
wait $pid || fail "the daemon's exit status $? after SIGTERM: $(cat "$tmp/err")"
echo "web_caps: ok"
