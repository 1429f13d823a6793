#!/bin/sh
# match_queue_planted.sh: an entry planted in a match's jobs stream with a high ID
# before the coordinator starts must not block the match. Jobs get their IDs from
# Redis ("*"), which go on after any top ID: with 99999999999999-0 planted, every
# job is queued and played. With the highest ID there is planted
# (18446744073709551615-18446744073709551615) Redis can add nothing more: the
# coordinator says so, makes the jobs stream again (the planted entry goes) and
# queues its games again; the match is played out.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 redis-server redis-cli timeout
tmp=$(mktemp -d)
procs_trap
fail() { fail_logs "$@"; }
. tests/lib/redis.sh
redis_start
rc() { redis-cli -p "$port" "$@"; }

# play NAME ID: plants ID in NAME's jobs, then a match of 2 games and a worker.
play() {
	rc XADD "hivebridge:$1:jobs" "$2" planted 1 >/dev/null || fail "cannot plant $2"
	spawn "$HIVEBRIDGE" match --games 2 --depth 1 --max-plies 20 --queue "redis://127.0.0.1:$port/$1" \
		--results "$tmp/$1.jsonl" builtin:depth=1 builtin >"$tmp/$1.out" 2>"$tmp/$1.err"
	coord=$spawned
	spawn "$HIVEBRIDGE" worker --queue "redis://127.0.0.1:$port/$1" --name "w$1" >"$tmp/w$1.out" 2>"$tmp/w$1.err"
	wait_for '! procs_alive $coord' 30 || fail "$1: the match did not end with $2 planted"
	wait $coord
	st=$?
	[ $st = 0 ] || fail "$1: exit status $st"
	[ "$(wc -l <"$tmp/$1.jsonl")" = 2 ] || fail "$1: not 2 results"
}
play high 99999999999999-0
play max 18446744073709551615-18446744073709551615
grep -q "the jobs stream takes no more entries" "$tmp/max.err" || fail "the blocked stream was not said"
grep -q "the jobs stream is made again: 2 games without a result are queued again" "$tmp/max.err" ||
	fail "the games were not queued again"
echo "match_queue_planted: ok (a high and the highest ID planted; both matches played out)"
