#!/bin/sh
# shutdown_games.sh: SIGTERM to a daemon with games in progress (issue 27, finding 5).
# Three remote-play games between UHP clients at 6, 13 and 20 plies (one client of
# each waiting for the opponent's move, the other to move), a client waiting for an
# opponent, a spectator attached to one game, two web persons playing each other in
# the same lobby, and a game played on the page against the built-in engine. After
# SIGTERM:
#  - every UHP client reads "remote over * aborted: server shutdown", the final
#    GameString and "ok" (the waiting one in answer to its play, the one to move
#    unasked), then EOF; the waiting client reads "err The server is shutting down.";
#  - the spectator reads "over N * aborted: server shutdown";
#  - each web seat's event stream gets its seat "over" with that reason, and a plain
#    event stream gets every game ended with that reason (no result), before EOF;
#  - the results file holds the four lobby games, each valid against
#    schemas/match-result.json, result "*", that reason, its plies, no a_score;
#  - the daemon exits with status 0 within the shutdown's bound.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
. tests/lib/web.sh
need python3 jsonschema timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$tmp/conf" <<EOF
[daemon]
log = $tmp/trace
max_sessions_per_peer = 100
[listen pvp]
protocol = uhp-remote
port = 0
clock = 600+5
wait_time = 60
grace = 60
results = $tmp/results.jsonl
[listen watch]
protocol = uhp-spectate
port = 0
watch = pvp
EOF
web_serve 3
pvp=$(listen_port "$tmp/err" uhp-remote)
watch=$(listen_port "$tmp/err" uhp-spectate)
[ -n "$pvp" ] && [ -n "$watch" ] || fail "no ports: $(cat "$tmp/err")"

timeout 120 python3 tests/integration/shutdown_games.py "$pvp" "$watch" "$http" "$pid" "$tmp/results.jsonl" || fail "the games at SIGTERM"
wait "$pid"
rc=$?
[ $rc = 0 ] || fail "serve exit status $rc after SIGTERM"
grep -q 'shutdown: every client told' "$tmp/trace" || fail "no shutdown note in the log"
echo "shutdown_games: ok"
