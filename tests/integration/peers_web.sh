#!/bin/sh
# peers_web.sh: the peer matrix, the web page's play endpoint: POST /api/games with
# an engine profile (nokamute, then MzingaCpp: tests/lib/peers.sh), the person's
# moves posted with the owner token (X-Game-Token, application/json, same origin)
# and chosen by the built-in engine. Budgets: depth 2 (a game to its end or 30
# plies, then resigned if it still runs) and depth 0, the page's 1 s a move (two
# engine moves, then resigned). The page has no other budget. Every engine move
# must be its own (tests/lib/peers_trace.py on the daemon's trace log).
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
. tests/lib/web.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }
. tests/lib/peers.sh

peers_conf "$tmp/conf"
printf '[listen u]\nprotocol = uhp\nport = 0\n' >>"$tmp/conf"

# play PROFILE DEPTH PLIES: one page game, the person White.
play() { timeout 120 python3 tests/integration/peers_web.py "$http" "$HIVEBRIDGE" "$@"; }

spawn "$HIVEBRIDGE" serve --config "$tmp/conf" --http 127.0.0.1:0 --log "$tmp/d.log" 2>"$tmp/err"
pid=$spawned
wait_listening "$tmp/err" $pid 2
http=$(listen_port "$tmp/err" http)
peers_case depth-nokamute play nokamute 2 20
peers_case depth-mzinga play mzinga 2 20
peers_case depth-trace peers_trace "$tmp/d.log" 10
: >"$tmp/d.log"
peers_case 1s-nokamute play nokamute 0 4
peers_case 1s-mzinga play mzinga 0 4
peers_case 1s-trace peers_trace "$tmp/d.log" 4
kill -TERM $pid
wait $pid

peers_end peers_web
