#!/bin/sh
# check_otep.sh: `hivebridge check` against OTEP engines (adapters/otep/otep_check.c):
#   - the fake OTEP engine (tests/tools/fake_otep_engine) from its own .ini, with a
#     relative directory and a name: every required check passes, exit 0, the id
#     is the .ini's name, the UHP-only checks are skipped with the reason;
#   - each fault of the fake engine fails the check it breaks, with the reason,
#     exit 1, within a bound, and leaves no engine process behind; the faults
#     aimed at one OTEP rule fail that check and nothing else;
#   - an optional failure (a line before hello, an .ini without a name) is
#     reported and the exit status stays 0; a non-critical error passes;
#   - the bridge itself as an OTEP engine (otep: + hivebridge otep) passes;
#   - --json reports are valid against schemas/check-report.json.
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
. tests/lib/procs.sh
need python3 jsonschema timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

# A private copy of the engine, in a folder of its own beside its .ini: its path
# marks our children and nobody else's.
mkdir -p "$tmp/engines/fake-otep"
fake=$tmp/engines/fake-otep/fake_otep_$$
cp "$TOOLS/fake_otep_engine" "$fake" || fail "no fake_otep_engine in $TOOLS"
cat >"$tmp/engines/fake.ini" <<INI
[engine]
directory = fake-otep
filename = fake_otep_$$
command = ./fake_otep_$$
arguments = --status --delay-ms 2
name = Fake OTEP Hive engine
INI
grep -v '^name' "$tmp/engines/fake.ini" >"$tmp/engines/noname.ini"

. tests/lib/check.sh

otep_checks="otep.hello otep.hello-first otep.play otep.side-to-move otep.forced-pass otep.after-error
	otep.unknown-command otep.long-line otep.analysis otep.goodbye"

# --- a healthy engine from its .ini ----------------------------------------------------
what="otep ok"
run 60 "otep:$tmp/engines/fake.ini"
[ $rc = 0 ] || { cat "$report"; fail "$what: exit status $rc"; }
! grep -q '^FAIL' "$report" || { cat "$report"; fail "$what: a check failed"; }
grep -q '^protocol: otep$' "$report" || fail "$what: protocol not reported"
grep -q '^id: Fake OTEP Hive engine$' "$report" || { cat "$report"; fail "$what: id is not the .ini's name"; }
for name in startup.start startup.id gameflow.selfplay bestmove.depth-1 bestmove.time-1s \
	bestmove.single-move bestmove.forced-pass bestmove.stacks bestmove.pillbug $otep_checks; do
	must PASS "$name"
done
must PASS 'bestmove.start\[Base..Base+MLP\]' '(8 checks)'
must SKIP robustness.stop 'OTEP has no stop'
for name in startup.info-unprompted movegen.validmoves gameflow.play-undo rejections.invalidmove; do
	must SKIP "$name" 'not part of the OTEP protocol'
done
leftovers "$what"
echo "ok $what (${elapsed}s): $(tail -n 1 "$report")"

what="otep ok --json"
timeout 60 "$HIVEBRIDGE" check --json --timeout-ms 5000 --time-margin-ms 3000 --positions 1 \
	"otep:$tmp/engines/fake.ini" >"$tmp/ok.json"
rc=$?
[ $rc = 0 ] || { python3 tests/lib/check_report.py "$tmp/ok.json" otep yes; fail "$what: exit status $rc"; }
schema "$tmp/ok.json" otep yes
python3 tests/integration/check_otep_ok.py "$tmp/ok.json" $otep_checks || fail "$what: content"
leftovers "$what"

# --- faults ------------------------------------------------------------------------------
# engine arguments : checks that must fail : what their reason says : only (these and no other fail)
expectations='
--fault no-hello:startup.start otep.hello:hello:
--fault slow-hello --delay-ms 6000:otep.hello:no "hello" within 5000 ms:
--fault crash:otep.play otep.side-to-move bestmove.start\[Base\]:killed by signal 6:
--fault stall:otep.play bestmove.start\[Base\]:no "move":
--fault garbage:otep.play otep.side-to-move:unreadable line:
--fault longline:otep.play otep.side-to-move bestmove.start\[Base\]:65536:
--fault illegal:otep.play otep.side-to-move otep.after-error:illegal move:
--fault wrong-side:otep.play otep.side-to-move otep.forced-pass:wrong-side move:
--fault critical-error:otep.play otep.side-to-move:critical error:
--fault exit:otep.play otep.side-to-move:exited with status 3:
--fault no-pass:otep.forced-pass bestmove.forced-pass:illegal move:only
--fault no-retry:otep.after-error:no "move" within:only
--fault analysis-count:otep.analysis:missing a move list:only
--fault analysis-illegal:otep.analysis:move list 1 starts with:only
--fault strict:otep.unknown-command otep.long-line:exited with status 4:only
--fault ignore-goodbye:otep.goodbye:still running after:only
'
echo "$expectations" | while IFS=: read -r args names why only; do
	[ -n "$args" ] || continue
	what="otep $args"
	# shellcheck disable=SC2086
	run 60 "otep:$fake" $args
	[ $rc = 1 ] || { cat "$report"; fail "$what: exit status $rc, expected 1"; }
	for name in $names; do
		must FAIL "$name" "$why"
	done
	grep -q '^summary: .*(required failures: [1-9]' "$report" || fail "$what: no required failure in the summary"
	if [ -n "$only" ]; then
		n=$(echo $names | wc -w)
		[ "$(grep -c '^FAIL' "$report")" = "$n" ] || { cat "$report"; fail "$what: other checks failed too"; }
		must PASS otep.play
	fi
	case $args in
	*hello*) ! grep -q '^PASS' "$report" || { cat "$report"; fail "$what: something passed"; } ;;
	*) must PASS otep.hello ;;
	esac
	[ $elapsed -le 40 ] || fail "$what took ${elapsed}s"
	leftovers "$what"
	printf 'ok %s (%ss): %s\n' "$what" "$elapsed" "$(grep -m 1 '^FAIL otep' "$report" | cut -c 1-110)"
done || exit 1

# A failing engine's JSON: what was sent, what came back and what was expected.
what="otep --json illegal"
timeout 60 "$HIVEBRIDGE" check --json --timeout-ms 5000 --time-margin-ms 3000 --positions 1 "otep:$fake" --fault illegal \
	>"$tmp/bad.json"
[ $? = 1 ] || fail "$what: exit status"
schema "$tmp/bad.json" otep no
python3 tests/integration/check_otep_bad.py "$tmp/bad.json" || fail "$what: content"
leftovers "$what"

# --- optional failures and a non-critical error: exit 0 -----------------------------------
what="otep banner"
run 60 "otep:$fake" --fault banner
[ $rc = 0 ] || { cat "$report"; fail "$what: exit status $rc"; }
must FAIL 'otep.hello-first (optional)' '1 line before "hello"'
must PASS otep.hello
what="otep no name"
run 60 "otep:$tmp/engines/noname.ini"
[ $rc = 0 ] || { cat "$report"; fail "$what: exit status $rc"; }
must FAIL 'startup.id (optional)' 'the .ini has no name'
grep -q "^id: fake_otep_$$\$" "$report" || fail "$what: not called by its filename"
what="otep noncritical-error"
run 60 "otep:$fake" --fault noncritical-error
[ $rc = 0 ] || { cat "$report"; fail "$what: exit status $rc"; }
! grep -q '^FAIL' "$report" || { cat "$report"; fail "$what: a check failed"; }
leftovers "$what"
echo "ok optional failures: hello-first, startup.id; error 0 passes"

# --- the bridge itself as an OTEP engine ----------------------------------------------------
# At a fixed depth: without one it would think for the whole 5 s clock of every move.
# The analysis check gives the built-in engine 1 s: its threads run at nice +10, so on
# a loaded machine (the suite runs tests in parallel) the margin is wider than 500 ms.
what="otep:hivebridge otep"
run 120 --time-margin-ms 3000 "otep:$HIVEBRIDGE" otep --engine builtin:depth=1
[ $rc = 0 ] || { cat "$report"; fail "$what: exit status $rc"; }
! grep -q '^FAIL' "$report" || { cat "$report"; fail "$what: a check failed"; }
grep -q '^id: hivebridge$' "$report" || fail "$what: id"
for name in bestmove.forced-pass $otep_checks; do
	must PASS "$name"
done
echo "ok $what (${elapsed}s): $(tail -n 1 "$report")"
timeout 120 "$HIVEBRIDGE" check --json --timeout-ms 5000 --time-margin-ms 3000 --positions 1 \
	"otep:$HIVEBRIDGE otep --engine builtin:depth=1" >"$tmp/self.json"
[ $? = 0 ] || fail "$what --json: exit status"
schema "$tmp/self.json" otep yes

leftovers final
echo "check_otep: ok"
