#!/bin/sh
# match_queue_lost.sh: Redis without persistence (no RDB, no AOF) killed in the
# middle of a match and started again empty on the same port: the jobs stream, its
# group, the results stream and the match hash are gone. The coordinator says so,
# queues again every game it had queued that has no result, and the match ends with
# every game's result exactly once. The worker is stopped (SIGSTOP) while Redis is
# down, so that the loss falls in the middle of the match.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 redis-server redis-cli timeout
tmp=$(mktemp -d)
procs_trap
fail() { fail_logs "$@"; }
. tests/lib/redis.sh
redis_start
url=redis://127.0.0.1:$port/lost
games=5

spawn "$HIVEBRIDGE" match --games $games --movetime 40 --max-plies 16 --queue "$url" --results "$tmp/res.jsonl" \
	builtin builtin:depth=1 >"$tmp/coord.out" 2>"$tmp/coord.err"
coord=$spawned
spawn "$HIVEBRIDGE" worker --queue "$url" --name w1 --claim-after 2000 >"$tmp/w1.out" 2>"$tmp/w1.err"
w1=$spawned
wait_for '[ $(count "^Finished" "$tmp/coord.out") -ge 1 ]' 60 || fail "no result before the loss"
kill -STOP $w1
before=$(count "^Finished" "$tmp/coord.out")
[ $before -lt $games ] || fail "the match ended before the loss"
kill -KILL $redis
wait $redis 2>/dev/null
redis_start same
kill -CONT $w1
wait_for 'grep -q "redis lost the match.s data" "$tmp/coord.err"' 30 || fail "the loss was not said"
grep -q "lost the match's data .*: [1-9][0-9]* games without a result are queued again" "$tmp/coord.err" ||
	fail "no game was queued again"
wait_for '! procs_alive $coord' 120 || fail "the match did not end after the loss"
wait $coord
st=$?
[ $st = 0 ] || fail "exit status $st"
python3 tests/integration/match_queue_lost.py "$tmp/res.jsonl" "$games" || fail "results"
echo "match_queue_lost: ok (Redis lost the match after $before results were in; all $games games once each)"
