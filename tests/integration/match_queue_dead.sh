#!/bin/sh
# match_queue_dead.sh: the dead-letter stream (hivebridge:NAME:dead), on which a
# worker puts each job it cannot play, written here with redis-cli: the
# coordinator prints each set-aside game once, with its reason and worker escaped,
# and a job that is no game of the match once as such. The match does not wait for
# a set-aside game: it ends once every other game has a result, says how many were
# not played, and exits 1. Its ENGINE_B is a command, which workers refuse unless
# told otherwise: warned once at the start; its ENGINE_A, builtin:movetime=MS, is
# not (workers take it).
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
enga=builtin:movetime=100 engb="uhp:/bin/true --x"

spawn "$HIVEBRIDGE" match --games 3 --depth 1 --queue "redis://127.0.0.1:$port/d" --results "$tmp/res.jsonl" \
	"$enga" "$engb" >"$tmp/coord.out" 2>"$tmp/coord.err"
coord=$spawned
wait_for '[ "$(rc XLEN hivebridge:d:jobs)" = 3 ]' 20 || fail "the jobs were not queued"
[ "$(count "warning: ENGINE_B .*--allow-engine-commands" "$tmp/coord.err")" = 1 ] || fail "no warning about ENGINE_B"
[ "$(count "warning: ENGINE_A" "$tmp/coord.err")" = 0 ] || fail "$enga warned about"

reason=$(printf 'no engine \033[31mx\033[0m')
rc XADD hivebridge:d:dead '*' game 2 worker "$(printf 'w\007')" reason "$reason" id 1-2 >/dev/null
rc XADD hivebridge:d:dead '*' game 2 worker w2 reason "again" id 1-2 >/dev/null
rc XADD hivebridge:d:dead '*' game 5-0 worker w3 reason "no game" id 5-0 >/dev/null
wait_for 'grep -q "no game of this match" "$tmp/coord.err"' 20 || fail "the dead stream was not read"
[ "$(count "game 2 will not be played" "$tmp/coord.err")" = 1 ] || fail "game 2 not reported exactly once"
grep -q 'game 2 will not be played: worker w\\x07 set its job aside: no engine \\x1b\[31mx\\x1b\[0m' "$tmp/coord.err" ||
	fail "the reason or the worker is not escaped"

# The two other games get a result: the match is over without game 2.
for g in 1 3; do
	rc XADD hivebridge:d:results '*' worker w line '{"game":'$g',"white":"'"$enga"'","black":"'"$engb"'","engine_a":"white","gamestring":"Base;NotStarted;White[1]","result":"1/2-1/2","reason":"r","plies":0,"a_score":0.5,"times_ms":[]}' >/dev/null
done
wait_for '! procs_alive $coord' 20 || fail "the match did not end without the set-aside game"
wait $coord
st=$?
[ $st = 1 ] || fail "exit status $st, not 1"
grep -q "^Not played: 1 games" "$tmp/coord.out" || fail "the summary does not say a game was not played"
[ "$(wc -l <"$tmp/res.jsonl")" = 2 ] || fail "not 2 results written"
[ "$(rc GET hivebridge:d:stop | cut -c1-4)" = over ] || fail "the workers were not told the match is over"
[ "$(rc XLEN hivebridge:d:dead)" = 3 ] || fail "the dead stream (the only record of game 2) was deleted"
! grep -q "$(printf '\033')" "$tmp/coord.out" "$tmp/coord.err" || fail "an escape sequence reached the terminal"
echo "match_queue_dead: ok (game 2 set aside, reported once, the match ended with status 1)"
