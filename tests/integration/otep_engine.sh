#!/bin/sh
# otep_engine.sh: the bridge as an OTEP host, driving tests/tools/fake_otep_engine
# (profile kind "otep", otep:PATH.ini, otep:CMD):
#   - a UHP client plays a game against the engine read from its .ini, whose
#     directory is relative to the .ini's folder (docs/otep-hive.md, section 2);
#     the trace shows hello, rules, opponent-move before every play, clock, move;
#   - every fault: the UHP client gets "err ..." + "ok", never a hang, and the
#     session goes on (the engine restarts on next use); an illegal move is
#     answered "error 2", a wrong-side one "error 1", and the engine hears
#     "finish 0" and "goodbye"; a non-critical error is logged and the move stands;
#   - match: refereed games between the OTEP engine and the built-in one.
# No engine process may be left behind.
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# A private copy of the engine, in a folder of its own next to its .ini: its path
# marks our children and nobody else's.
mkdir -p "$tmp/engines/fake-otep"
fake=$tmp/engines/fake-otep/fake_otep_$$
cp "$TOOLS/fake_otep_engine" "$fake" || fail "no fake_otep_engine in $TOOLS"
cat >"$tmp/engines/fake.ini" <<INI
; an OTEP engine's own .ini, with a relative directory
[engine]
directory = fake-otep
filename = fake_otep_$$
command = ./fake_otep_$$
arguments = --status --delay-ms 5
name = Fake OTEP Hive engine
INI

faults="no-hello crash stall garbage longline illegal wrong-side critical-error exit"
conf=$tmp/otep.conf
{
	printf '[daemon]\nlog = %s/trace.log\n' "$tmp"
	printf '[engine good]\nkind = otep\ncommand = %s\n' "$tmp/engines/fake.ini"
	for f in $faults noncritical-error; do
		printf '[engine %s]\nkind = otep\ncommand = %s --fault %s --at 2\n' "$f" "$fake" "$f"
		# Only no-hello is about the start: the others' may take a loaded machine's time.
		[ "$f" = no-hello ] && st=1 || st=10
		printf 'start_timeout = %s\ncommand_timeout = 1\nstop_timeout = 0.5\n' "$st"
	done
} >"$conf"

. tests/lib/procs.sh

# --- a UHP client plays a game against the OTEP engine of the .ini -----------------
timeout 120 python3 tests/integration/otep_engine.py "$HIVEBRIDGE" "$conf" || fail "UHP client against the OTEP engine"
log=$tmp/trace.log
grep -q 'engine->bridge hello$' "$log" || fail "no hello in the trace"
grep -q 'bridge->engine rules Base+MLP$' "$log" || fail "no rules in the trace"
grep -q 'bridge->engine opponent-move - Base+MLP;NotStarted;White\[1\]$' "$log" ||
	fail "no opponent-move - before the first play"
grep -q 'bridge->engine clock 1000\* 1000\* 1 1 1$' "$log" || fail "bestmove time 1 s is no clock 1000* ..."
# opponent-move comes before every play.
awk '/bridge->engine play / { if (prev !~ /bridge->engine opponent-move /) bad++ }
     /bridge->engine / { prev = $0 } END { exit bad > 0 }' "$log" || fail "a play without its opponent-move"
grep -q 'bridge->engine goodbye$' "$log" || fail "no goodbye at the end"

# --- faults -----------------------------------------------------------------------
for f in $faults noncritical-error; do
	out=$tmp/uhp.$f
	: >"$log"
	start=$(date +%s)
	printf 'newgame Base\nbestmove depth 1\nplay wS1\nbestmove depth 1\nvalidmoves\nbestmove depth 1\n' |
		timeout 30 "$HIVEBRIDGE" uhp --config "$conf" --profile "$f" >"$out" 2>"$out.err"
	rc=$?
	took=$(( $(date +%s) - start ))
	if [ "$f" = no-hello ]; then
		# An engine that cannot start: exit 1 before anything is printed.
		[ $rc = 1 ] && [ ! -s "$out" ] && grep -q "^hivebridge uhp: engine \"$f\": " "$out.err" ||
			{ cat "$out" "$out.err"; fail "uhp --profile $f: exit status $rc, want 1 and nothing printed"; }
		echo "fault $f (${took}s): exit 1: $(cat "$out.err")"
		continue
	fi
	[ $rc = 0 ] || { cat "$out" "$out.err"; fail "uhp --profile $f: exit status $rc"; }
	[ "$(grep -c '^ok$' "$out")" = 7 ] || { cat "$out"; fail "uhp --profile $f: answers missing"; }
	# The first bestmove works (the fault is at the engine's second move).
	awk '/^ok$/ { if (++n == 3) exit prev !~ /^wS1$/; } { prev = $0 }' "$out" && [ "$f" != no-hello ] ||
		[ "$f" = no-hello ] || { cat "$out"; fail "uhp --profile $f: first bestmove"; }
	if [ "$f" = noncritical-error ]; then
		awk '/^ok$/ { if (++n == 5) exit prev !~ /^b[A-Z]/; } { prev = $0 }' "$out" ||
			{ cat "$out"; fail "noncritical-error: the move did not stand"; }
		grep -q 'engine->bridge error 0 ' "$log" || fail "noncritical-error: not in the log"
		grep -q 'bridge->engine finish 0' "$log" && fail "noncritical-error: the game was ended"
		echo "fault $f (${took}s): logged, the game goes on"
		continue
	fi
	awk '/^ok$/ { if (++n == 5) exit prev !~ /^err /; } { prev = $0 }' "$out" ||
		{ cat "$out"; fail "uhp --profile $f: bestmove did not answer err"; }
	# validmoves still works: the session went on.
	awk '/^ok$/ { if (++n == 6) exit prev !~ /^[wb][A-Z]/; } { prev = $0 }' "$out" ||
		{ cat "$out"; fail "uhp --profile $f: the session did not go on"; }
	[ $took -le 15 ] || fail "uhp --profile $f took $took s"
	case $f in
	illegal) grep -q 'bridge->engine error 2$' "$log" || fail "illegal: no error 2" ;;
	wrong-side) grep -q 'bridge->engine error 1$' "$log" || fail "wrong-side: no error 1" ;;
	esac
	case $f in
	illegal|wrong-side|critical-error|stall|garbage)
		grep -q 'bridge->engine finish 0$' "$log" && grep -q 'bridge->engine goodbye$' "$log" ||
			{ cat "$log"; fail "$f: no finish 0 and goodbye"; } ;;
	esac
	echo "fault $f (${took}s): $(grep '^err' "$out" | head -n 1)"
done
left=$(engines_left "$fake")
[ "$left" = 0 ] || fail "$left engine processes left after the fault runs"

# --- match: the OTEP engine against the built-in one ------------------------------
timeout 120 "$HIVEBRIDGE" match --games 2 --movetime 50 --max-plies 80 \
	"otep:$tmp/engines/fake.ini" builtin:depth=1 >"$tmp/match" 2>&1 ||
	{ cat "$tmp/match"; fail "match otep:... builtin: exit status $?"; }
grep -q '2 of 2 with a result' "$tmp/match" || { cat "$tmp/match"; fail "match: games missing"; }
echo "ok match: $(grep '^Score' "$tmp/match" | tail -n 1)"

# --- otep:CMD, and a bad .ini refused before any game -----------------------------
printf 'newgame Base\nbestmove depth 1\n' |
	timeout 20 "$HIVEBRIDGE" uhp --engine "otep:$fake" >"$tmp/cmd" 2>&1
grep -q '^wS1$' "$tmp/cmd" || { cat "$tmp/cmd"; fail "otep:CMD did not play"; }
printf '[engine]\ndirectory = nowhere\nfilename = x\ncommand = ./x\n' >"$tmp/bad.ini"
printf 'newgame Base\nbestmove depth 1\n' |
	timeout 20 "$HIVEBRIDGE" uhp --engine "otep:$tmp/bad.ini" >"$tmp/bad" 2>"$tmp/bad.err"
rc=$?
grep -q 'nowhere' "$tmp/bad.err" || { cat "$tmp/bad.err"; fail "a bad .ini: the error does not name the path"; }
[ $rc = 1 ] && [ ! -s "$tmp/bad" ] || { cat "$tmp/bad"; fail "a bad .ini: exit status $rc, want 1 and nothing printed"; }

left=$(engines_left "$fake")
[ "$left" = 0 ] || fail "$left engine processes left"
echo "otep_engine: ok"
