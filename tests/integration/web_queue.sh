#!/bin/sh
# web_queue.sh: the games that `hivebridge worker`s play show on the page of
# `match --queue ... --http` like local match games. A real redis-server (free
# loopback port), a coordinator with --http and a short --live-expiry, two workers:
# a worker's game appears in /api/games (schema-checked) with the engines' names,
# its move count grows over successive polls, /api/match lists it as running with
# its worker; forged progress entries (an illegal GameString, a game of another
# type, a legal game longer than --max-plies) are refused with a log line and the coordinator lives on; a SIGKILLed
# worker's game leaves the running list within the expiry (shown "abandoned")
# before its job is claimed again; the other worker's game finishes with its
# result; once the match is played out no worker game is left in progress.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
. tests/lib/web.sh
need python3 jsonschema timeout redis-server redis-cli
tmp=$(mktemp -d)
procs_trap
fail() {
	[ -n "${KEEP_ERR:-}" ] && cp "$tmp/coord.err" "$KEEP_ERR"
	fail_logs "$@"
}

web_redis wq

# 16 games of 40 plies at 150 ms a move (the depth-2 side: at once: at a load of 18 on
# 2 cores 8 games were over before the test came to its steps); a silent worker's
# game goes after 5 s (not 2: on a loaded machine a move took that long, and the games
# flickered in and out of the list), its job to another worker after 15 s (so the
# expiry, not the take-over, drops it).
spawn "$HIVEBRIDGE" match --queue "$url" --games 16 --max-plies 40 --movetime 150 --live-expiry 5000 \
	--http 127.0.0.1:0 builtin builtin:depth=2 >"$tmp/coord.out" 2>"$tmp/coord.err"
coord=$spawned
wait_listening "$tmp/coord.err" $coord 1 http
http=$(listen_port "$tmp/coord.err" http)
spawn "$HIVEBRIDGE" worker --queue "$url" --name w1 --claim-after 15000 >"$tmp/w1.out" 2>"$tmp/w1.err"
w1=$spawned
spawn "$HIVEBRIDGE" worker --queue "$url" --name w2 --claim-after 15000 >"$tmp/w2.out" 2>"$tmp/w2.err"

timeout 300 python3 tests/integration/web_queue.py "$http" schemas "$w1" "$rport" "$tmp/coord.err" "$tmp/w1.out" \
	"$HIVEBRIDGE" || fail "the workers' games on the page"
procs_alive $coord || fail "the coordinator died"
grep -q "refused a progress entry of game 1 (worker forger)" "$tmp/coord.err" || fail "no refusal said"
kill -TERM $coord
wait $coord || { st=$?; fail "match --queue exit status $st after SIGTERM"; }
coord=
echo "web_queue: ok"
