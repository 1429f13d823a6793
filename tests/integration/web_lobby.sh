#!/bin/sh
# web_lobby.sh: persons playing each other through the page's remote-play lobby
# (/api/lobbies, /api/lobby/*), against a real daemon, every answer validated against
# its schema: two web persons pair and play moves (each one the core's legal move,
# each reaching the canonical game), an illegal move refused with 422 and a move out
# of turn with 409 while the game stays as it was, a resignation with the right
# result; a web person against a UHP client on the uhp-remote listener in both
# directions (the client waits first, the web person waits first); presence: an
# event stream that closes leaves the seat (away), /api/lobby/resume takes it back,
# and one not taken back within the grace loses the game (its seat over with that
# result); an away seat is over as soon as the opponent resigns; one taken back by a
# request stays seated (not detached again by its leaving's timer); cancel while waiting; the
# caps per peer address and in total (other loopback addresses as other peers);
# malformed requests; no token in anything other viewers read; and the daemon's
# descriptors back at their baseline at the end.
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

[listen quick]
protocol = uhp-remote
port = 0
clock = 300+5
grace = 1
wait_time = 60
EOF
web_serve 3
remp=$(grep -m1 'listening on .* (uhp-remote)' "$tmp/err" | sed 's/.*:\([0-9]*\) (uhp-remote).*/\1/')
[ -n "$remp" ] || fail "no ports: $(cat "$tmp/err")"

timeout 300 python3 tests/integration/web_lobby.py "$http" "$remp" schemas "$pid" || { cat "$tmp/err"; fail "the lobby API"; }
procs_alive $pid || fail "the daemon died"
kill -TERM $pid
wait $pid || fail "the daemon's exit status $? after SIGTERM: $(cat "$tmp/err")"
echo "web_lobby: ok"
