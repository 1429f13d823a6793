#!/bin/sh
# tournament_resume.sh: a round-robin of three engines killed with SIGKILL once its
# first games are written, then run again with --resume, must end with every game
# exactly once: the games written are kept byte for byte and not replayed, a line
# cut short by the kill is dropped, --pgnout holds each game once, every pairing is
# played the same number of times with both colours, and the final rating list
# counts every game. A results file of other engines (or another order) is refused.
# Then a gauntlet plays the first engine against each other one, and nothing else.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }
top=$(pwd)
res=$tmp/results.jsonl
engines="builtin builtin:depth=1 builtin:depth=2"
games=12

# Slow enough to be killed mid-run: 50 ms a move for "builtin", 24 plies a game.
opts="--openings $top/conf/openings-base.txt --games 4 --movetime 50 --max-plies 24 --concurrency 2"
# shellcheck disable=SC2086
spawn "$HIVEBRIDGE" tournament $opts --results "$res" --pgnout "$tmp/games.pgn" $engines \
	>"$tmp/run1.out" 2>&1
pid=$spawned
# SIGKILLed once two games are written; the next line torn, as if the kill struck mid-write.
kill_torn "$pid" "$res" 2 $games "$tmp/run1.out"

# shellcheck disable=SC2086
timeout 180 "$HIVEBRIDGE" tournament $opts --results "$res" --pgnout "$tmp/games.pgn" --resume $engines \
	>"$tmp/run2.out" 2>&1 || { cat "$tmp/run2.out"; fail "resumed tournament exit status $?"; }
grep -q "^Tournament (round-robin) of 3 engines: 3 pairings, 4 games each, $games games ($n1 already played)" \
	"$tmp/run2.out" || { cat "$tmp/run2.out"; fail "the resumed tournament did not count the old games"; }
grep -q "^Tournament finished: $((games - n1)) games played now, $games of $games" "$tmp/run2.out" ||
	{ cat "$tmp/run2.out"; fail "the resumed tournament played the wrong number of games"; }
head -n "$n1" "$res" | cmp -s - "$tmp/before.jsonl" || fail "the old results changed"
"$HIVEBRIDGE" ratings --json "$res" >"$tmp/ratings.json" || fail "ratings exit status $?"
# shellcheck disable=SC2086
python3 tests/integration/tournament_check.py "$res" 4 $engines -- "$tmp/ratings.json" ||
	fail "resumed results"
[ "$(grep -c '^\[GameType ' "$tmp/games.pgn")" = $games ] || fail "--pgnout has not $games games"
rounds=$(sed -n 's/^\[Round "\([0-9]*\)"\]/\1/p' "$tmp/games.pgn" | sort -n | uniq | wc -l)
[ "$rounds" = $games ] || fail "--pgnout has $rounds different rounds, want $games"
# The summary's rating table counts all 12 games: 8 per engine.
[ "$(sed -n '/^Ratings (pool average/,$p' "$tmp/run2.out" | grep -c '  8  ')" = 3 ] ||
	{ cat "$tmp/run2.out"; fail "the rating table does not count every game"; }
# Resuming a finished tournament plays nothing; another order of engines is refused.
# shellcheck disable=SC2086
timeout 60 "$HIVEBRIDGE" tournament $opts --results "$res" --resume $engines >"$tmp/run3.out" 2>&1 || fail "third run"
grep -q "^Tournament finished: 0 games played now, $games of $games" "$tmp/run3.out" ||
	{ cat "$tmp/run3.out"; fail "a finished tournament was replayed"; }
# shellcheck disable=SC2086
timeout 60 "$HIVEBRIDGE" tournament $opts --results "$res" --resume builtin:depth=1 builtin builtin:depth=2 >"$tmp/run4.out" 2>&1
[ $? = 1 ] && grep -q "is not between this tournament's engines" "$tmp/run4.out" ||
	{ cat "$tmp/run4.out"; fail "a file of another order of engines was resumed"; }
[ "$(wc -l <"$res")" = $games ] || fail "lines added to a finished tournament"
# A gauntlet: the first engine against each of the others, nothing else.
"$HIVEBRIDGE" tournament --gauntlet --openings "$top/conf/openings-base.txt" --games 2 --max-plies 24 \
	--results "$tmp/g.jsonl" builtin:depth=1 builtin:depth=2 builtin:depth=3 builtin:depth=4 \
	>"$tmp/g.out" 2>&1 || { cat "$tmp/g.out"; fail "gauntlet exit status $?"; }
"$HIVEBRIDGE" ratings --json "$tmp/g.jsonl" >"$tmp/g.json" || fail "gauntlet ratings"
python3 tests/integration/tournament_check.py --gauntlet "$tmp/g.jsonl" 2 builtin:depth=1 builtin:depth=2 \
	builtin:depth=3 builtin:depth=4 -- "$tmp/g.json" || fail "the gauntlet's games"
echo "tournament_resume: ok (killed after $n1 of $games games; resumed without a game replayed or lost)"
