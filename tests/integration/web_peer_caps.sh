#!/bin/sh
# web_peer_caps.sh: the web API's per-address caps (issue 27, finding 2), against a
# real daemon, other loopback addresses (127.0.0.2, .3, .4) as other peers: one
# address holds at most 4 of the 16 page games (429 "too many games from your
# address"), another address still gets one, and the capped address's own page still
# loads and plays in its games; once one of its games ends it may start another. In
# the lobby, four seats of one address that nobody watches (joined with no event
# stream) never lock that address out: its next join takes the oldest one's place.
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

timeout 120 python3 tests/integration/web_peer_caps.py "$http" || { cat "$tmp/err"; fail "the per-address caps"; }
procs_alive $pid || fail "the daemon died"
kill -TERM $pid
wait $pid || fail "the daemon's exit status $? after SIGTERM: $(cat "$tmp/err")"
echo "web_peer_caps: ok"
