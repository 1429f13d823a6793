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
python3 - "$res" "$tmp/run1.out" <<'EOF' || { cat "$tmp/run1.out"; fail "the aborted games"; }
import re, sys
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import valid_rows
rows = valid_rows("schemas/match-result.json", sys.argv[1])
out = open(sys.argv[2]).read()
started = {int(n) for n in re.findall(r"^Started game (\d+)", out, re.M)}
finished = {int(n) for n in re.findall(r"^Finished game (\d+)", out, re.M)}
said = {int(n): int(p) for n, p in
        re.findall(r"^Aborted game (\d+) \(.*\): \* \{aborted: match interrupted\}, (\d+) plies$", out, re.M)}
aborted = [r for r in rows if r["result"] == "*"]
assert started - finished and set(said) == started - finished, (started, finished, said)
assert {r["game"]: r["plies"] for r in aborted} == said, (aborted, said)
for r in aborted:
    assert r["reason"] == "aborted: match interrupted" and "a_score" not in r, r
    assert ";InProgress;" in r["gamestring"] or ";NotStarted;" in r["gamestring"], r
assert {r["game"] for r in rows if r["result"] != "*"} == finished, rows
print(f"interrupted: {len(finished)} finished, {len(said)} aborted at plies {sorted(said.values())}")
EOF
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
python3 - "$res" "$games" <<'EOF' || fail "resumed results"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert sorted(r["game"] for r in rows) == list(range(1, int(sys.argv[2]) + 1)), rows
assert all(r["result"] != "*" for r in rows), rows
EOF
echo "shutdown_match: ok ($n1 finished and $na aborted at SIGTERM, resumed to $games)"
