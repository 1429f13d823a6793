#!/bin/sh
# match_resume.sh: a match killed with SIGKILL after its first game is written, then
# run again with --resume, must end with every game exactly once: the games already
# written are kept byte for byte and not replayed, a line cut short by the kill is
# dropped, and the summary counts the old games with the new.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }
top=$(pwd)
res=$tmp/results.jsonl
games=6

# Slow enough to be killed mid-match: 50 ms a move, at most 24 plies a game.
spawn "$HIVEBRIDGE" match --openings "$top/conf/openings-base.txt" --games $games --movetime 50 \
	--max-plies 24 --results "$res" builtin builtin:depth=2 >"$tmp/run1.out" 2>&1
pid=$spawned
# SIGKILLed once a game is written; the next line torn, as if the kill struck mid-write.
kill_torn "$pid" "$res" 1 $games "$tmp/run1.out"

timeout 120 "$HIVEBRIDGE" match --openings "$top/conf/openings-base.txt" --games $games --movetime 50 \
	--max-plies 24 --results "$res" --resume builtin builtin:depth=2 >"$tmp/run2.out" 2>&1 ||
	{ cat "$tmp/run2.out"; fail "resumed match exit status $?"; }
grep -q "^Match builtin vs builtin:depth=2: $games games ($n1 already played)" "$tmp/run2.out" ||
	{ cat "$tmp/run2.out"; fail "the resumed match did not count the old games"; }
grep -q "^Match finished: $((games - n1)) games played now, $games of $games" "$tmp/run2.out" ||
	{ cat "$tmp/run2.out"; fail "the resumed match played the wrong number of games"; }
head -n "$n1" "$res" | cmp -s - "$tmp/before.jsonl" || fail "the old results changed"
python3 tests/integration/match_resume_resumed.py "$res" "$games" || fail "resumed results"
# The final score counts every game in the file.
python3 tests/integration/match_resume_summary.py "$res" "$tmp/run2.out" || fail "summary does not match the file"
# Resuming a finished match plays nothing.
timeout 60 "$HIVEBRIDGE" match --openings "$top/conf/openings-base.txt" --games $games --movetime 50 \
	--results "$res" --resume builtin builtin:depth=2 >"$tmp/run3.out" 2>&1 || fail "third run"
grep -q "^Match finished: 0 games played now, $games of $games" "$tmp/run3.out" ||
	{ cat "$tmp/run3.out"; fail "a finished match was replayed"; }
[ "$(wc -l <"$res")" = $games ] || fail "lines added to a finished match"
# Games past a smaller --games stay in the file and out of the score, said once.
timeout 60 "$HIVEBRIDGE" match --openings "$top/conf/openings-base.txt" --games 3 --movetime 50 \
	--results "$res" --resume builtin builtin:depth=2 >"$tmp/run4.out" 2>&1 || fail "fourth run"
grep -q "^Match finished: 0 games played now, 3 of 3" "$tmp/run4.out" &&
	[ "$(grep -c "$res: 3 results past --games 3 stay in the file, not in the score" "$tmp/run4.out")" = 1 ] ||
	{ cat "$tmp/run4.out"; fail "--games 3 on 6 results"; }
[ "$(wc -l <"$res")" = $games ] || fail "results past --games were cut"
# A score that no game gives is refused, with its line.
sed '2s/"a_score":[0-9.]*/"a_score":0.6/' "$res" >"$tmp/bad.jsonl"
grep -q '"a_score":0.6' "$tmp/bad.jsonl" || fail "no a_score to spoil"
timeout 60 "$HIVEBRIDGE" match --games $games --movetime 50 --results "$tmp/bad.jsonl" --resume \
	builtin builtin:depth=2 >"$tmp/run5.out" 2>&1
st=$?
[ $st = 1 ] && grep -q "$tmp/bad.jsonl line 2 is not a result" "$tmp/run5.out" ||
	{ cat "$tmp/run5.out"; fail "a_score 0.6: status $st"; }
echo "match_resume: ok (killed after $n1 games, resumed to $games)"
