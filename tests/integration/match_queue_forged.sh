#!/bin/sh
# match_queue_forged.sh: results that anyone who can write to Redis posts on a
# match's results stream (redis-cli here, no worker): a game never queued,
# "game":3.9, 0-1 with a_score 1, negative plies, a second JSON object after the
# first, an illegal move (a Queen on black's first turn), [score, depth] pairs that
# are not. None is counted or written (to --results or --pgnout); each is refused
# once on stderr with its reason. A consistent result is counted and written as
# the coordinator rebuilds it (not the line as posted), its game alone in the PGN,
# and a worker name with escape sequences reaches the terminal escaped.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 redis-server redis-cli timeout
tmp=$(mktemp -d)
procs_trap
fail_files="$tmp/res.jsonl"
fail() { fail_logs "$@"; }
. tests/lib/redis.sh
redis_start
rc() { redis-cli -p "$port" "$@"; }

spawn "$HIVEBRIDGE" match --games 4 --depth 1 --queue "redis://127.0.0.1:$port/f" --results "$tmp/res.jsonl" \
	--pgnout "$tmp/res.pgn" builtin:depth=1 builtin >"$tmp/coord.out" 2>"$tmp/coord.err"
coord=$spawned
wait_for '[ "$(rc XLEN hivebridge:f:jobs)" = 4 ]' 20 || fail "the jobs were not queued"

post() { rc XADD hivebridge:f:results '*' worker "$1" line "$2" >/dev/null || fail "XADD"; }
ok='"white":"builtin:depth=1","black":"builtin","engine_a":"white","gamestring":"Base;NotStarted;White[1]"'
post forger '{"game":99,'"$ok"',"result":"1/2-1/2","reason":"r","plies":0,"a_score":0.5,"times_ms":[]}'
post forger '{"game":3.9,'"$ok"',"result":"1/2-1/2","reason":"r","plies":0,"a_score":0.5,"times_ms":[]}'
post forger '{"game":3,'"$ok"',"result":"0-1","reason":"r","plies":0,"a_score":1,"times_ms":[]}'
post forger '{"game":3,'"$ok"',"result":"1/2-1/2","reason":"r","plies":-1,"a_score":0.5,"times_ms":[]}'
post forger '{"game":1,'"$ok"',"result":"1/2-1/2","reason":"r","plies":0,"a_score":0.5,"times_ms":[]} {"evil":1}'
bad='"white":"builtin:depth=1","black":"builtin","engine_a":"white","gamestring":"Base;InProgress;White[2];wS1;bQ wS1-"'
post forger '{"game":3,'"$bad"',"result":"1/2-1/2","reason":"r","plies":2,"a_score":0.5,"times_ms":[1,2]}'
post forger '{"game":3,'"$ok"',"result":"1/2-1/2","reason":"r","plies":0,"a_score":0.5,"times_ms":[1],"evals":[[1,2,3]]}'
post forger '{"game":3,'"$ok"',"result":"1/2-1/2","reason":"r","plies":0,"a_score":0.5,"times_ms":[1],"evals":[[0,0],[0,0]]}'
# Consistent: counted, and written rebuilt (the unknown member is not).
esc=$(printf 'w\033]0;owned\007')
post "$esc" '{"game":1,'"$ok"',"result":"1/2-1/2","reason":"agreed","plies":0,"a_score":0.5,"times_ms":[],"evil":"x"}'

wait_for 'grep -q "^Finished game 1 " "$tmp/coord.out"' 20 || fail "the consistent result was not counted"
[ "$(count "refused a result" "$tmp/coord.err")" = 8 ] || fail "not 8 results refused"
grep -q "refused a result of game 3 .*gamestring does not parse" "$tmp/coord.err" || fail "an illegal move"
[ "$(count "refused a result of game 3 .*evals is not" "$tmp/coord.err")" = 2 ] || fail "evals"
grep -q "refused a result of game 99 .*never queued\|refused a result .*game number" "$tmp/coord.err" || fail "game 99"
grep -q "refused a result of game 3 .*a_score" "$tmp/coord.err" || fail "0-1 with a_score 1"
grep -q "refused a result of game 3 .*plies" "$tmp/coord.err" || fail "negative plies"
grep -q "refused a result .*not one JSON object" "$tmp/coord.err" || fail "two JSON objects"
kill -INT $coord
wait_for '! procs_alive $coord' 20 || fail "the coordinator did not stop"
grep -q "^Score of .*: 0 - 0 - 1 " "$tmp/coord.out" || fail "the score does not count exactly the one result"
python3 tests/integration/match_queue_forged.py "$tmp/res.jsonl" "$tmp/res.pgn" "$HIVEBRIDGE" ||
	fail "the results file or the PGN"
! grep -q "$(printf '\033')" "$tmp/coord.out" "$tmp/coord.err" || fail "an escape sequence reached the terminal"
grep -q 'worker w\\x1b\]0;owned\\x07' "$tmp/coord.out" || fail "the worker's name is not shown escaped"
echo "match_queue_forged: ok (8 forged results refused, 1 counted and rebuilt, in the PGN alone, names escaped)"
