#!/bin/sh
# match_faults.sh: a match against a faulty external engine (tests/tools/fake_uhp_engine).
# The faulty engine must lose every game, as white and as black, with the reason its
# fault deserves; a crashed engine must be restarted for its next game (so it fails
# the same way again rather than "cannot start"); the match must end, and no engine
# process may be left behind.
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

# A private copy of the engine: its path marks our children and nobody else's.
fake=$tmp/fake_match_engine_$$
cp "$TOOLS/fake_uhp_engine" "$fake" || fail "no fake_uhp_engine in $TOOLS"

# Short time-outs so that a stall costs a second, not ten.
conf=$tmp/match.conf
{
	printf '[engine stall]\ncommand = %s --fault stall\n' "$fake"
	printf 'start_timeout = 2\ncommand_timeout = 1\nstop_timeout = 0.5\n'
	printf '[engine slow]\ncommand = %s --delay-ms 2500\n' "$fake"
	printf '[engine nostart]\ncommand = %s --fault exit-at-start\n' "$fake"
} >"$conf"

# run NAME ENGINE_B REASON_REGEX [extra match options...]: ENGINE_A is the built-in
# engine; B must lose all 4 games with a reason matching the regex.
run() {
	name=$1 engine=$2 reason=$3
	shift 3
	out=$tmp/$name.out
	timeout 120 "$HIVEBRIDGE" match --config "$conf" --games 4 --results "$tmp/$name.jsonl" "$@" \
		builtin:depth=1 "$engine" >"$out" 2>&1 ||
		{ cat "$out"; fail "$name: match exit status $?"; }
	python3 tests/integration/match_faults_reason.py "$tmp/$name.jsonl" "$reason" || { cat "$out"; fail "$name: wrong results"; }
	grep -q '^Score of builtin:depth=1 vs .*: 4 - 0 - 0 ' "$out" || { cat "$out"; fail "$name: score"; }
	echo "$name: 4 games lost as expected"
}

run illegal "$fake --fault illegal-move" '^illegal move "[^"]*": ' --depth 1
run garbage "$fake --fault garbage" '^illegal move: unreadable move' --depth 1
run crash "$fake --fault crash-on-bestmove" '^engine crashed: killed by signal 6' --depth 1
run stall stall '^time forfeit \(engine stalled: no ok in time after "bestmove' --depth 1
# An engine that never starts aborts the match (exit 1, a message), as cutechess-cli
# does, rather than lose every game.
timeout 60 "$HIVEBRIDGE" match --config "$conf" --games 4 --depth 1 --results "$tmp/nostart.jsonl" \
	builtin:depth=1 nostart >"$tmp/nostart.out" 2>"$tmp/nostart.err"
rc=$?
[ $rc = 1 ] || { cat "$tmp/nostart.out" "$tmp/nostart.err"; fail "nostart: exit status $rc, want 1"; }
grep -q '^hivebridge match: engine "nostart" did not start: exited with status 3 during start; match aborted$' \
	"$tmp/nostart.err" || { cat "$tmp/nostart.err"; fail "nostart: no abort message"; }
[ ! -s "$tmp/nostart.jsonl" ] || { cat "$tmp/nostart.jsonl"; fail "nostart: games recorded"; }
echo "nostart: match aborted as expected"
# The bridge's own clock: the engine thinks 2.5 s with 2 s on its clock.
run clock slow '^time forfeit$' --clock 2000+10

left=$(engines_left "$fake")
[ "$left" = 0 ] || fail "$left engine processes left behind"

# A healthy external engine plays whole games: every ply it makes is legal and gets
# through, so some game lasts beyond the first moves.
timeout 120 "$HIVEBRIDGE" match --games 2 --movetime 20 --max-plies 40 --results "$tmp/good.jsonl" \
	builtin:depth=1 "$fake" >"$tmp/good.out" 2>&1 || { cat "$tmp/good.out"; fail "good engine match"; }
python3 tests/integration/match_faults_good.py "$tmp/good.jsonl" || { cat "$tmp/good.out"; fail "good engine results"; }
left=$(engines_left "$fake")
[ "$left" = 0 ] || fail "$left engine processes left after the good match"
echo "match_faults: ok"
