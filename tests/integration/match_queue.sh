#!/bin/sh
# match_queue.sh: a match across processes through a real Redis (Debian's
# redis-server, started here on a free loopback port in a temporary directory):
# a coordinator (match --queue) and three workers at fixed depths; one worker is
# SIGKILLed in the middle of a game (another claims its job and replays it), the
# coordinator is SIGKILLed and started again (it resumes from the streams), and
# Redis itself is killed and started again on the same port and AOF (everyone
# reconnects, no result is lost). Every game's result arrives exactly once and the
# summary equals that of the same match played locally; --pgnout, written again
# from the streams by the restarted coordinator, holds each game once, in Mzinga's
# format, with the moves, ids, times, scores and depths of the results file. Then a second match on
# the same Redis whose worker lacks its engine profile: reported once, the worker
# stops (the job stays for a worker that has it).
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 redis-server redis-cli timeout
tmp=$(mktemp -d)
procs_trap
fail() { fail_logs "$@"; }
top=$(pwd)
games=12
opts="--openings $top/conf/openings-base.txt --games $games --max-plies 40"
engines="builtin:depth=2 builtin:depth=4"
mkdir "$tmp/redis"

# A URL with a password is refused before anything connects: argv shows in ps.
"$HIVEBRIDGE" match --queue redis://:secret@127.0.0.1:1/x builtin builtin >"$tmp/pw.out" 2>&1
[ $? = 2 ] && grep -q HIVEBRIDGE_REDIS_PASSWORD "$tmp/pw.out" || fail "a password in the URL was not refused"
"$HIVEBRIDGE" worker --queue redis://u:secret@127.0.0.1:1/x >"$tmp/pw.out" 2>&1
[ $? = 2 ] && grep -q HIVEBRIDGE_REDIS_PASSWORD "$tmp/pw.out" || fail "worker: a password in the URL was not refused"

# Redis with its AOF in $tmp/redis (fsync'd on every write: a restart loses nothing).
. tests/lib/redis.sh
redis_aof() { redis_start "$@" --appendonly yes --appendfsync always; }
redis_aof
url=redis://127.0.0.1:$port/m1

# The reference: the same match played locally.
# (two at a time: fixed depths make each game the same whatever runs beside it)
timeout 900 "$HIVEBRIDGE" match $opts --concurrency 2 $engines >"$tmp/local.out" 2>"$tmp/local.err" || fail "local match"

coord() {
	spawn "$HIVEBRIDGE" match $opts --queue "$url" --results "$tmp/res.jsonl" --pgnout "$tmp/res.pgn" $engines >>"$tmp/coord.out" 2>>"$tmp/coord.err"
	coord=$spawned
}
coord
for w in w1 w2 w3; do
	spawn "$HIVEBRIDGE" worker --queue "$url" --name $w --claim-after 2000 >"$tmp/$w.out" 2>"$tmp/$w.err"
	eval "pid_$w=\$spawned"
done

# w1 stopped while a game of its own runs, then killed.
queue_kill_in_game w1 $pid_w1

# The coordinator killed and started again: it resumes from the streams.
queue_coord_again

# Redis killed (its AOF kept) until the workers noticed and one finished a game
# meanwhile, then started again on the same port.
before=$(count "^Finished" "$tmp/w2.out")$(count "^Finished" "$tmp/w3.out")
kill -KILL $redis
wait $redis 2>/dev/null
wait_for 'grep -q "retrying" "$tmp/w2.err" && grep -q "retrying" "$tmp/w3.err" && grep -q retrying "$tmp/coord.err"' 20 ||
	fail "nobody noticed that Redis was gone"
wait_for '[ "$(count "^Finished" "$tmp/w2.out")$(count "^Finished" "$tmp/w3.out")" != "$before" ]' 60 ||
	fail "no game finished while Redis was down"
redis_aof same

wait_for '! procs_alive $coord' 240 || fail "the match did not end"
wait $coord
st=$?
[ $st = 0 ] || fail "coordinator exit status $st"
grep -q "connected again" "$tmp/w2.err" || fail "w2 did not reconnect"

python3 tests/integration/match_queue.py "$tmp/res.jsonl" "$games" "$killed" || fail "results"
python3 tests/integration/pgnout.py check "$HIVEBRIDGE" "$tmp/res.pgn" "$tmp/res.jsonl" 4 || fail "the PGN"
# Exactly once in the file; the summary equals the local match's.
last() { grep "^$1" "$2" | tail -n 1; }
for l in "Score of" "Elo difference"; do
	[ "$(last "$l" "$tmp/coord.out")" = "$(last "$l" "$tmp/local.out")" ] ||
		fail "$l: queue \"$(last "$l" "$tmp/coord.out")\", local \"$(last "$l" "$tmp/local.out")\""
done
# The workers left once the match was over.
wait_for '! procs_alive $pid_w2 && ! procs_alive $pid_w3' 20 || fail "the workers did not leave"
grep -q "is over" "$tmp/w2.out" || fail "w2 was not told the match is over"

# A second match on the same Redis; its worker lacks an engine profile: reported once, it stops.
spawn "$HIVEBRIDGE" match --games 2 --depth 1 --queue "redis://127.0.0.1:$port/m2" \
	no-such-engine builtin >"$tmp/m2.out" 2>"$tmp/m2.err"
m2=$spawned
spawn "$HIVEBRIDGE" worker --queue "redis://127.0.0.1:$port/m2" --name wbad >"$tmp/wbad.out" 2>"$tmp/wbad.err"
wbad=$spawned
wait_for '! procs_alive $wbad' 30 || fail "the worker without its engine kept going"
wait $wbad
[ $? = 1 ] || fail "the worker without its engine exited with status 0"
wait_for 'grep -q "worker wbad: engine" "$tmp/m2.err"' 20 || fail "the coordinator was not told"
[ $(count "worker wbad" "$tmp/m2.err") = 1 ] || fail "reported more than once"
kill -INT $m2
wait_for '! procs_alive $m2' 20 || fail "the coordinator did not stop on SIGINT"
[ "$(redis-cli -p $port GET hivebridge:m2:stop)" = paused ] || fail "SIGINT did not pause the workers"
[ "$(redis-cli -p $port GET hivebridge:m1:stop | cut -c1-4)" = over ] || fail "m1 is not over"
echo "match_queue: ok (game $killed replayed after a SIGKILL, $n games resumed, $games games once each)"
