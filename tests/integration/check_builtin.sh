#!/bin/sh
# check_builtin.sh: `hivebridge check` against the bridge's own UHP front end (the
# built-in engine): every check passes, the exit status is 0, the reference data was
# used, --json is valid JSON that says the same, and bad command lines exit 2. All but
# one: `hivebridge uhp` exits on SIGINT (its clean shutdown), which the optional,
# informational timing.sigint reports.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }


# The text report (a wide bestmove margin: the ASan build may run on a busy machine).
timeout 120 "$HIVEBRIDGE" check --time-margin-ms 1000 -- "$HIVEBRIDGE" uhp >"$tmp/report" 2>"$tmp/stderr"
rc=$?
cat "$tmp/report"
[ $rc = 0 ] || fail "exit status $rc, expected 0"
grep -q '^FAIL timing.sigint (optional)  exits on SIGINT (exited with status 0)' "$tmp/report" ||
	fail "timing.sigint does not say that hivebridge uhp exits on SIGINT"
# timing.bestmove-1s is a band (0.9 to 1.5 s) that a loaded machine misses (the
# sanitizer build answered after 1705 ms at load 15): check_timing tests it on fakes.
! grep '^FAIL' "$tmp/report" | grep -v '^FAIL timing.sigint ' |
	grep -qv '^FAIL timing.bestmove-1s (optional)  answered after' || fail "a check failed"
nfail=$(grep -c '^FAIL' "$tmp/report")
grep -q "^summary: [0-9]* passed, $nfail failed, [0-9]* skipped (required failures: 0)\$" "$tmp/report" ||
	fail "no clean summary line"
passed=$(sed -n 's/^summary: \([0-9]*\) passed.*/\1/p' "$tmp/report")
# 8 start positions, 24 rule violations, ~200 real-game positions, 20 random ones...
[ "$passed" -ge 250 ] || fail "only $passed checks passed: was the reference data found?"
for name in startup.info-unprompted startup.info-command gameflow.play gameflow.undo \
	gameflow.pass-forced bestmove.depth-1 bestmove.time-1s bestmove.game-over \
	robustness.long-line robustness.stdin-closed; do
	grep -q "^PASS $name\$" "$tmp/report" || fail "$name did not pass"
done
for group in movegen.start movegen.nokamute movegen.realgames movegen.random \
	gameflow.end rejections.byrule rejections.malformed; do
	grep -q "^PASS $group\[" "$tmp/report" || fail "no passing $group checks"
done

# The JSON report, with other positions.
timeout 120 "$HIVEBRIDGE" check --json --positions 5 --seed 7 --time-margin-ms 1000 -- "$HIVEBRIDGE" uhp \
	>"$tmp/report.json" 2>"$tmp/stderr"
rc=$?
[ $rc = 0 ] || fail "--json: exit status $rc"
python3 -m json.tool "$tmp/report.json" >/dev/null || fail "--json does not parse"
python3 tests/integration/check_builtin.py "$tmp/report.json" || fail "--json content"

# The command as one string, and the `builtin` shorthand, with a few positions.
# (The same grace over a time limit as above: at load 11 a sanitizer build's 1 s
# search overran the default 500 ms.)
timeout 120 "$HIVEBRIDGE" check --positions 2 --time-margin-ms 1000 "$HIVEBRIDGE uhp" >"$tmp/one" 2>&1 ||
	{ st=$?; grep '^FAIL' "$tmp/one"; fail "one-string command: exit status $st"; }
timeout 120 "$HIVEBRIDGE" check --positions 2 --time-margin-ms 1000 builtin >"$tmp/builtin" 2>&1 ||
	{ st=$?; grep '^FAIL' "$tmp/builtin"; fail "builtin: exit status $st"; }

# Usage errors exit 2.
"$HIVEBRIDGE" check >/dev/null 2>&1
[ $? = 2 ] || fail "no command: expected exit status 2"
"$HIVEBRIDGE" check --bogus -- "$HIVEBRIDGE" uhp >/dev/null 2>&1
[ $? = 2 ] || fail "unknown option: expected exit status 2"
"$HIVEBRIDGE" check --timeout-ms x -- "$HIVEBRIDGE" uhp >/dev/null 2>&1
[ $? = 2 ] || fail "bad number: expected exit status 2"
"$HIVEBRIDGE" check '"unbalanced' >/dev/null 2>&1
[ $? = 2 ] || fail "unbalanced quote: expected exit status 2"

# An engine that does not exist fails start-up and nothing else runs.
timeout 30 "$HIVEBRIDGE" check -- "$tmp/no-such-engine" >"$tmp/none" 2>&1
[ $? = 1 ] || fail "missing engine: expected exit status 1"
grep -q '^FAIL startup.info-unprompted .*cannot run' "$tmp/none" || fail "missing engine: no start-up failure"
! grep -q '^PASS' "$tmp/none" || fail "missing engine: something passed"
echo "check_builtin: ok ($passed checks passed)"
