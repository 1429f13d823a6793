#!/bin/sh
# check_faults.sh: `hivebridge check` against tests/tools/fake_uhp_engine with each of
# its faults. The check the fault breaks must fail (by name), the checks it does not
# touch must not, the exit status is 1, the checker finishes within a bound, and no
# engine process is left behind. The healthy fake engine passes everything.
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

# A private copy of the engine: its path marks our children and nobody else's.
fake=$tmp/fake_engine_$$
cp "$TOOLS/fake_uhp_engine" "$fake" || fail "no fake_uhp_engine in $TOOLS"

. tests/lib/check.sh
check_positions=5

# The healthy fake plays by the core's rules and thinks the time it is given:
# everything passes.
run 60 -- "$fake" --use-time
[ $rc = 0 ] || { cat "$report"; fail "healthy fake: exit status $rc"; }
! grep -q '^FAIL' "$report" || fail "healthy fake: a check failed"
leftovers healthy

# fault : checks that must fail : groups in which nothing else may fail
expectations='
crash-on-bestmove:bestmove.depth-1:startup movegen gameflow rejections robustness
stall:bestmove.depth-1:startup movegen gameflow rejections robustness
garbage:bestmove.depth-1 bestmove.time-1s bestmove.single-move bestmove.forced-pass:startup movegen gameflow rejections robustness
long-line:bestmove.depth-1 bestmove.time-1s:startup movegen gameflow rejections robustness
illegal-move:bestmove.depth-1 bestmove.time-1s bestmove.single-move:startup movegen gameflow rejections robustness
ignore-sigint:bestmove.depth-1:startup movegen gameflow rejections robustness
exit-at-start:startup.info-unprompted:
slow-start:startup.info-unprompted:
no-ok:startup.info-command movegen.start\[Base\] gameflow.newgame bestmove.depth-1:
invalidmove-all:movegen.nokamute\[queen-moves\] movegen.realgames\[1\] gameflow.play gameflow.undo gameflow.end\[draw\] bestmove.depth-1:startup robustness
'
echo "$expectations" | while IFS=: read -r fault must clean; do
	[ -n "$fault" ] || continue
	run 60 -- "$fake" --fault "$fault"
	[ $rc = 1 ] || { cat "$report"; fail "$fault: exit status $rc, expected 1"; }
	for name in $must; do
		grep -q "^FAIL $name " "$report" || { cat "$report"; fail "$fault: $name did not fail"; }
	done
	for group in $clean; do
		! grep -q "^FAIL $group\." "$report" || { cat "$report"; fail "$fault: a $group check failed"; }
	done
	grep -q '^summary: .*(required failures: [1-9]' "$report" || fail "$fault: no required failure in the summary"
	leftovers "$fault"
	echo "ok $fault (${elapsed}s)"
done || exit 1

# An engine that never starts: one failure, everything else skipped, and quickly.
run 20 -- "$fake" --fault exit-at-start
[ "$(grep -c '^FAIL' "$report")" = 1 ] || fail "exit-at-start: more than one failure"
! grep -q '^PASS' "$report" || fail "exit-at-start: something passed"

# A stalled engine is killed at the deadline: the failure says so and shows what was sent.
run 30 -- "$fake" --fault stall
grep -q '^FAIL bestmove.depth-1  no "ok" within 2000 ms  sent: .*bestmove depth 1' "$report" ||
	fail "stall: the report lacks the time-out or the transcript"
grep -q '^SKIP bestmove.time-1s .*engine lost at bestmove.depth-1' "$report" ||
	fail "stall: the rest of the group is not skipped"
grep -q '^PASS robustness.unknown-command$' "$report" || fail "stall: the engine was not restarted for the next group"

# Engine bytes are escaped in the report, and a crash is named.
run 30 -- "$fake" --fault garbage
! grep -q "$(printf '\001')" "$report" || fail "garbage: raw control bytes in the report"
grep -q 'got: \\x01\\xfe garbage' "$report" || fail "garbage: the reply is not shown escaped"
run 30 -- "$fake" --fault crash-on-bestmove
grep -q '^FAIL bestmove.depth-1  engine killed by signal 6' "$report" || fail "crash: the signal is not reported"

# An engine that lies: the bridge behind a filter that swaps wS1 for the (illegal)
# wQ in the first validmoves of a game, and misnumbers White's third turn.
run 60 -- sh -c "\"$HIVEBRIDGE\" uhp | sed -u -e 's/^wS1;wB1;/wQ;wB1;/' -e 's/;White\\[3\\];/;White[4];/'"
[ $rc = 1 ] || { cat "$report"; fail "lying engine: exit status $rc"; }
grep -q '^FAIL movegen.start\[Base\]  validmoves differs from the core: .*only-engine: wQ (.*only-core: wS1$' "$report" ||
	{ cat "$report"; fail "lying engine: the move-set diff is missing"; }
grep -q '^FAIL gameflow.play  play .*TurnString is "White\[4\]", expected "White\[3\]"' "$report" ||
	{ cat "$report"; fail "lying engine: the wrong turn is not caught"; }
! grep -q '^FAIL \(startup\|robustness\)\.' "$report" || fail "lying engine: an unrelated check failed"

# The JSON report of a faulty engine: not conformant, the failure with its transcript.
run 30 --json -- "$fake" --fault illegal-move
[ $rc = 1 ] || fail "--json illegal-move: exit status $rc"
python3 tests/integration/check_faults.py "$report" || fail "--json illegal-move: content"
leftovers json
echo "check_faults: ok"
