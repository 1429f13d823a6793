#!/bin/sh
# hub_engine.sh: the bridge driving an external Hub engine (profile kind "hub"),
# tests/tools/fake_hub_engine, through `hivebridge uhp --config --profile`:
#   - the happy path: a UHP client plays bestmoves against it (moves written sloppily
#     by the engine come out canonical) and sets its options;
#   - every fault: the UHP client gets "err ..." + "ok", never a hang, and the
#     session goes on (the engine restarts on next use);
#   - a Hub GUI on a Hub engine: `hivebridge hub --engine hub:CMD`.
# No engine process may be left behind.
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
. tests/lib/procs.sh
need python3 timeout awk
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

# A private copy of the engine: its path marks our children and nobody else's.
fake=$tmp/fake_hub_$$
cp "$TOOLS/fake_hub_engine" "$fake" || fail "no fake_hub_engine in $TOOLS"

faults="never-ready never-done illegal-move garbage crash long-line refuse-pos"
conf=$tmp/hub.conf
{
	printf '[daemon]\nlog = %s/trace.log\n' "$tmp"
	printf '[engine good]\nkind = hub\ncommand = %s --sloppy --delay-ms 50\n' "$fake"
	printf 'option = style wild\nhash_mb = 8\n'
	for f in $faults; do
		printf '[engine %s]\nkind = hub\ncommand = %s --fault %s\n' "$f" "$fake" "$f"
		# Only never-ready is about the start: the others' may take a loaded
		# machine's time (illegal-move's took over 1 s at load 15).
		[ "$f" = never-ready ] && st=1 || st=10
		printf 'start_timeout = %s\ncommand_timeout = 1\nstop_timeout = 0.5\n' "$st"
	done
} >"$conf"

# --- happy path: a UHP client plays against the Hub engine ------------------------
timeout 60 python3 tests/integration/hub_engine.py "$HIVEBRIDGE" "$conf" || fail "UHP client against the Hub engine"

# --- faults -----------------------------------------------------------------------
for f in $faults; do
	out=$tmp/uhp.$f
	start=$(date +%s)
	printf 'newgame Base\nplay wS1\nbestmove depth 1\nvalidmoves\nbestmove depth 1\n' |
		timeout 30 "$HIVEBRIDGE" uhp --config "$conf" --profile "$f" >"$out" 2>"$out.err"
	rc=$?
	took=$(( $(date +%s) - start ))
	if [ "$f" = never-ready ]; then
		# An engine that cannot start: exit 1 before anything is printed.
		[ $rc = 1 ] && [ ! -s "$out" ] && grep -q "^hivebridge uhp: engine \"$f\": " "$out.err" ||
			{ cat "$out" "$out.err"; fail "uhp --profile $f: exit status $rc, want 1 and nothing printed"; }
		echo "fault $f (${took}s): exit 1: $(cat "$out.err")"
		continue
	fi
	[ $rc = 0 ] || { cat "$out" "$out.err"; fail "uhp --profile $f: exit status $rc"; }
	# Six answers (info, newgame, play, bestmove, validmoves, bestmove).
	[ "$(grep -c '^ok$' "$out")" = 6 ] || { cat "$out"; fail "uhp --profile $f: answers missing"; }
	for k in 4 6; do
		awk -v k=$k '/^ok$/ { if (++n == k) exit prev !~ /^err /; } { prev = $0 }' "$out" ||
			{ cat "$out"; fail "uhp --profile $f: bestmove $k did not answer err"; }
	done
	# validmoves still works: the session went on.
	awk '/^ok$/ { if (++n == 5) exit prev !~ /^[wb][A-Z]/; } { prev = $0 }' "$out" ||
		{ cat "$out"; fail "uhp --profile $f: the session did not go on"; }
	[ $took -le 15 ] || fail "uhp --profile $f took $took s"
	echo "fault $f (${took}s): $(grep '^err' "$out" | head -n 1)"
done
left=$(engines_left "$fake")
[ "$left" = 0 ] || fail "$left engine processes left after the fault runs"

# --- a Hub GUI on a Hub engine ----------------------------------------------------
printf 'hub\ninit\npos variant=Base moves="wG1;bG1 wG1-"\nlevel move-time=0.2\ngo think\n' >"$tmp/hubin"
# Keep stdin open until done came (EOF would be quit).
( cat "$tmp/hubin"; wait_for '[ $(count "^done " "$tmp/hubout") -ge 1 ]' 15 ) |
	timeout 20 "$HIVEBRIDGE" hub --engine "hub:$fake --sloppy" >"$tmp/hubout" 2>&1 ||
	fail "hub --engine hub:...: exit status $?"
grep -q '^param name=style value=calm type=enum values="calm wild"$' "$tmp/hubout" ||
	{ cat "$tmp/hubout"; fail "the Hub engine's params were not passed on"; }
grep -q '^ready$' "$tmp/hubout" || { cat "$tmp/hubout"; fail "no ready"; }
done_line=$(grep '^done ' "$tmp/hubout")
[ "$(grep -c '^done ' "$tmp/hubout")" = 1 ] || { cat "$tmp/hubout"; fail "want exactly one done"; }
# Its move must be legal: feed it back to the UHP side.
move=$(printf '%s\n' "$done_line" | sed -n 's/^done move="\([^"]*\)".*/\1/p')
[ -n "$move" ] || { cat "$tmp/hubout"; fail "unexpected done line: $done_line"; }
printf 'newgame Base\nplay wG1\nplay bG1 wG1-\nplay %s\n' "$move" | "$HIVEBRIDGE" uhp >"$tmp/replay" 2>&1
grep -q '^err\|^invalidmove' "$tmp/replay" && { cat "$tmp/replay"; fail "illegal done: $done_line"; }
printf 'ok hub on hub: %s\n' "$done_line"
# A back end that breaks during a search: one error, still exactly one done (a legal
# fall-back move), and the next go works on a restarted engine.
( printf 'hub\ninit\npos variant=Base moves="wG1"\nlevel depth=1\ngo think\n'
  wait_for '[ $(count "^done " "$tmp/crashout") -ge 1 ]' 15
  printf 'go think\n'
  wait_for '[ $(count "^done " "$tmp/crashout") -ge 2 ]' 15 ) |
	timeout 20 "$HIVEBRIDGE" hub --engine "hub:$fake --fault crash" >"$tmp/crashout" 2>&1 ||
	fail "hub on a crashing engine: exit status $?"
[ "$(grep -c '^error message="engine failed: ' "$tmp/crashout")" = 2 ] &&
	[ "$(grep -c '^done move=' "$tmp/crashout")" = 2 ] ||
	{ cat "$tmp/crashout"; fail "hub on a crashing engine: want error + done twice"; }
move=$(sed -n 's/^done move="\([^"]*\)".*/\1/p' "$tmp/crashout" | head -n 1)
printf 'newgame Base\nplay wG1\nplay %s\n' "$move" | "$HIVEBRIDGE" uhp >"$tmp/replay" 2>&1
grep -q '^err\|^invalidmove' "$tmp/replay" && { cat "$tmp/replay"; fail "illegal fall-back: $move"; }
printf 'ok hub on a crashing engine: %s\n' "$(grep '^error' "$tmp/crashout" | head -n 1)"

left=$(engines_left "$fake")
[ "$left" = 0 ] || fail "$left engine processes left"
echo "hub_engine: ok"
