#!/bin/sh
# web_owner.sh: who may act on the web API (issue 27, finding 2), against a real
# daemon: a game started through the API belongs to the holder of the token its
# answer carries; a stranger (another client, another address, no or a wrong
# token) cannot move or resign in it (403, the game unchanged) and sees it
# read-only (owned and playable false), while the owner can. Cross-origin requests
# are refused: a foreign Origin (403), a cross-site Sec-Fetch-Site (403), a
# text/plain or form body (415), a foreign Host as DNS rebinding sends (421, on reads
# too), for the games and the lobby alike; same-origin ones (Origin equal to the
# Host, localhost or the address) work.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
. tests/lib/web.sh
need python3 jsonschema timeout
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

timeout 120 python3 tests/integration/web_owner.py "$http" schemas || { cat "$tmp/err"; fail "who may act"; }
procs_alive $pid || fail "the daemon died"
kill -TERM $pid
wait $pid || fail "the daemon's exit status $? after SIGTERM: $(cat "$tmp/err")"
echo "web_owner: ok"
