#!/bin/sh
# shutdown_match.sh: a local match interrupted by SIGTERM (issue 27, finding 5) writes
# each game it had in progress to --results with result "*", reason "aborted: match
# interrupted" and the plies played, and no a_score (valid against
# schemas/match-result.json), says "Aborted game N" for each, and exits 1 as an
# interrupted match does; --resume then plays exactly those games again, counts
# only the finished ones, and ends with every game once in the file, the aborted
# lines gone.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout jsonschema
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }
top=$(pwd)
res=$tmp/results.jsonl
games=6

spawn "$HIVEBRIDGE" match --openings "$top/conf/openings-base.txt" --games $games --concurrency 2 \
	--movetime 40 --max-plies 40 --results "$res" builtin builtin:depth=2 >"$tmp/run1.out" 2>"$tmp/run1.err"
pid=$spawned
# A game written, and two in progress after it.
wait_for '! procs_alive $pid || { [ "$(count "^Finished game" "$tmp/run1.out")" -ge 1 ] &&
	[ "$(count "^Started game" "$tmp/run1.out")" -ge 3 ]; }' 120 || fail "no game finished within 120 s"
procs_alive "$pid" || { cat "$tmp/run1.out"; fail "the match ended before the signal"; }
kill -TERM "$pid"
wait "$pid"
rc=$?
[ $rc = 1 ] || { cat "$tmp/run1.err"; fail "exit status $rc after SIGTERM (an interrupted match: 1)"; }
! grep -q "Sanitizer" "$tmp/run1.err" || { cat "$tmp/run1.err"; fail "a sanitizer spoke"; }
grep -q "interrupted" "$tmp/run1.err" || fail "no 'interrupted': $(cat "$tmp/run1.err")"
python3 tests/integration/shutdown_match_aborted.py "$res" "$tmp/run1.out" || { cat "$tmp/run1.out"; fail "the aborted games"; }
n1=$(grep -c '"a_score"' "$res")
na=$(grep -c '"result":"\*"' "$res")

timeout 120 "$HIVEBRIDGE" match --openings "$top/conf/openings-base.txt" --games $games --concurrency 2 \
	--movetime 40 --max-plies 40 --results "$res" --resume builtin builtin:depth=2 \
	>"$tmp/run2.out" 2>"$tmp/run2.err" || { cat "$tmp/run2.err"; fail "resumed match exit status $?"; }
grep -q "$res: $na games aborted by a signal are played again" "$tmp/run2.err" ||
	{ cat "$tmp/run2.err"; fail "the resume did not say it plays the aborted games again"; }
grep -q "^Match builtin vs builtin:depth=2: $games games ($n1 already played)" "$tmp/run2.out" ||
	{ cat "$tmp/run2.out"; fail "the resumed match counted aborted games"; }
grep -q "^Match finished: $((games - n1)) games played now, $games of $games" "$tmp/run2.out" ||
	{ cat "$tmp/run2.out"; fail "the resumed match played the wrong number of games"; }
python3 tests/integration/shutdown_match_resumed.py "$res" "$games" || fail "resumed results"
echo "shutdown_match: ok ($n1 finished and $na aborted at SIGTERM, resumed to $games)"
