#!/bin/sh
# tournament_queue.sh: a round-robin of three engines (the built-in engine at depths
# 1 and 2, nokamute at depth 1) through Redis: `tournament --queue` queues its games,
# two workers (--concurrency 2 and 1) play whichever pairing each job names,
# starting and switching engines as the pairings change. Before any worker comes,
# results forged on the results stream name engines of the tournament that are not
# the game's (another pairing; the right pairing with the colours of the game's
# twin): each is refused, and the game is played all the same. One worker is
# SIGKILLed in the middle of a game: the other claims its job and plays it again;
# the coordinator is SIGKILLed and started again: it resumes from the streams.
# Every game is numbered once, every pairing is played the same number of times
# with both colours, the rating list at the end is the one `hivebridge ratings`
# makes from the results file and sums consistently, as on the dashboard (--http), --pgnout holds every game
# once, the workers leave once it is over. Then a gauntlet through Redis plays the
# first engine against each other one, and nothing else; no engine process is left.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 jsonschema redis-server redis-cli timeout
tmp=$(mktemp -d)
procs_trap
fail_files="$tmp/r.jsonl"
fail() { fail_logs "$@"; }
. tests/lib/peers.sh
# nokamute from a private path: its processes are ours alone (engines_left).
mkdir "$tmp/bin"
cp "$PEERS/nokamute" "$tmp/bin/nokamute"
printf '[engine nokamute]\ncommand = %s uhp --num-threads=1\n' "$tmp/bin/nokamute" >"$tmp/conf"
. tests/lib/redis.sh
redis_start
url=redis://127.0.0.1:$port/t
rc() { redis-cli -p "$port" "$@"; }
engines="builtin:depth=1 builtin:depth=2 nokamute"
grep -v '^#' conf/openings-base.txt | grep . | head -n 2 >"$tmp/openings.txt"
opts="--openings $tmp/openings.txt --depth 1 --max-plies 30"

coord() {
	# shellcheck disable=SC2086
	spawn "$HIVEBRIDGE" tournament $opts --queue "$url" --results "$tmp/r.jsonl" --pgnout "$tmp/r.pgn" \
		"$@" $engines >>"$tmp/coord.out" 2>>"$tmp/coord.err"
	coord=$spawned
}
coord
wait_for '[ "$(rc XLEN hivebridge:t:jobs)" = 12 ]' 30 || fail "the 12 jobs were not queued"
# Game 1 is builtin:depth=1 (white) against builtin:depth=2, game 2 the same pairing
# and opening with colours swapped, games 3 and 4 builtin:depth=1 against nokamute.
ops='"gamestring":"Base;InProgress;White[2];wS1;bS1 wS1-","result":"1/2-1/2","reason":"r","plies":2,"a_score":0.5,"times_ms":[]'
post() { rc XADD hivebridge:t:results '*' worker forger line "$1" >/dev/null || fail "XADD"; }
post '{"game":1,"white":"builtin:depth=1","black":"nokamute","engine_a":"white",'"$ops"'}'
post '{"game":2,"white":"builtin:depth=1","black":"builtin:depth=2","engine_a":"white",'"$ops"'}'
wait_for '[ "$(count "refused a result" "$tmp/coord.err")" = 2 ]' 20 || fail "the forged results were not refused"
grep -q "^hivebridge tournament: refused a result of game 1 (worker forger): not this game's engines" "$tmp/coord.err" ||
	fail "game 1 with another pairing's engine"
grep -q "^hivebridge tournament: refused a result of game 2 (worker forger): not this game's engines" "$tmp/coord.err" ||
	fail "game 2 with game 1's colours"
[ "$(count "^Finished" "$tmp/coord.out")" = 0 ] || fail "a forged result was counted"

for w in w1 w2; do
	c=1
	[ $w = w1 ] && c=2
	spawn "$HIVEBRIDGE" worker --queue "$url" --config "$tmp/conf" --name $w --concurrency $c \
		--claim-after 2000 --log "$tmp/$w.log" >"$tmp/$w.out" 2>"$tmp/$w.err"
	eval "pid_$w=\$spawned"
done

# w1 stopped while a game of its own runs, then killed.
queue_kill_in_game w1 $pid_w1

# The coordinator killed once a result is in, and started again: it resumes from the
# streams, with the dashboard this time (it stays up once played out, until SIGTERM).
queue_coord_again --http 127.0.0.1:0
wait_listening "$tmp/coord.err" $coord 1 http

wait_for 'grep -q "played out" "$tmp/coord.err"' 120 || fail "the tournament did not end"
# shellcheck disable=SC2086
timeout 60 python3 tests/integration/tournament_web.py "$(listen_port "$tmp/coord.err" http)" schemas $engines \
	>"$tmp/web.out" 2>&1 || fail "the dashboard of the tournament"
kill -TERM $coord
wait $coord
st=$?
[ $st = 0 ] || fail "coordinator exit status $st"
wait_for '! procs_alive $pid_w2' 20 || fail "w2 did not leave"
wait $pid_w2 || fail "w2 exit status $?"
grep -q "is over" "$tmp/w2.out" || fail "w2 was not told the tournament is over"
! grep -q "Sanitizer" "$tmp/w2.err" "$tmp/coord.err" || fail "a sanitizer report"

# Every game once, each pairing 4 times with both colours, the killed game by w2.
"$HIVEBRIDGE" ratings --json "$tmp/r.jsonl" >"$tmp/ratings.json" || fail "ratings exit status $?"
# shellcheck disable=SC2086
python3 tests/integration/tournament_check.py "$tmp/r.jsonl" 4 $engines -- "$tmp/ratings.json" >"$tmp/check.out" ||
	fail "the results or ratings do not add up"
python3 - "$tmp/r.jsonl" "$killed" <<'EOF' || fail "game $killed was not played by w2"
import json, sys
g = [json.loads(l) for l in open(sys.argv[1]) if json.loads(l)["game"] == int(sys.argv[2])]
assert len(g) == 1 and g[0]["worker"] == "w2", g
EOF
grep -q "^Tournament (round-robin) of 3 engines: 3 pairings, 4 games each, 12 games ($n already played)" \
	"$tmp/coord.out" || fail "no tournament header"
grep -q "^Tournament finished: $((12 - n)) games played now, 12 of 12 with a result" "$tmp/coord.out" ||
	fail "not every game played"
# The list at the end is the one the results file makes.
sed -n '/^Ratings (pool average at 0/,$p' "$tmp/coord.out" | sed -n '2,5p' >"$tmp/table"
"$HIVEBRIDGE" ratings "$tmp/r.jsonl" | sed -n '2,$p' >"$tmp/t2"
[ -s "$tmp/table" ] && cmp -s "$tmp/table" "$tmp/t2" || fail "the rating tables differ: $(cat "$tmp/table" "$tmp/t2")"
[ "$(grep -c '^\[GameType ' "$tmp/r.pgn")" = 12 ] || fail "--pgnout has not 12 games"
# w2 switched engines: it played every engine, and kept nokamute running from one
# of its games to the next (the pairings' games come in twos: one opening, both colours).
[ "$(sed -n 's/^Started game [0-9]* (\(.*\))$/\1/p' "$tmp/w2.out" | tr ' ' '\n' | grep -v '^vs$' | sort -u | wc -l)" = 3 ] ||
	fail "w2 did not play the three engines"
starts=$(count 'slot 0: nokamute is "nokamute' "$tmp/w2.log")
games=$(count '^Started game .*nokamute' "$tmp/w2.out")
[ "$starts" -ge 1 ] && [ "$starts" -lt "$games" ] || fail "w2 started nokamute $starts times for $games games"
# A gauntlet on the same Redis under another NAME: the first engine against each other one.
spawn "$HIVEBRIDGE" worker --queue "redis://127.0.0.1:$port/g" --config "$tmp/conf" --name w3 --concurrency 2 \
	>"$tmp/w3.out" 2>"$tmp/w3.err"
w3=$spawned
# shellcheck disable=SC2086
timeout 60 "$HIVEBRIDGE" tournament --gauntlet --games 2 --depth 1 --max-plies 20 --queue "redis://127.0.0.1:$port/g" \
	--results "$tmp/g.jsonl" $engines >"$tmp/g.out" 2>"$tmp/g.err" || fail "gauntlet exit status $?"
grep -q "^Tournament (gauntlet) of 3 engines: 2 pairings, 2 games each, 4 games" "$tmp/g.out" || fail "no gauntlet header"
# shellcheck disable=SC2086
python3 tests/integration/tournament_check.py --gauntlet "$tmp/g.jsonl" 2 $engines >>"$tmp/check.out" ||
	fail "the gauntlet's results"
wait_for '! procs_alive $w3' 20 || fail "w3 did not leave"
[ "$(engines_left "$tmp/bin/nokamute" 10)" = 0 ] || fail "nokamute processes left behind"
echo "tournament_queue: ok (12 games of 3 engines by 2 workers, game $killed replayed after a SIGKILL, $n resumed, 2 forged results refused, w2 started nokamute $starts times for $games games)"
