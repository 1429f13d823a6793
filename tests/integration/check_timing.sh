#!/bin/sh
# check_timing.sh: `hivebridge check`'s timing group against tests/tools/fake_uhp_engine,
# one outcome each: timing.bestmove-1s ("bestmove time 00:00:01" answered after 0.9
# to 1.5 s) passes for an engine that thinks its time, fails (optional) for one that
# answers at once and for one that overruns; timing.sigint (informational: what
# SIGINT to its group, the bridge's stop, does) passes for one that stops and
# answers, for one that stops slowly (long before its own time, as on a loaded
# machine) and for one that survives it after answering, and fails (optional) for
# one that dies of it and one that ignores it. None changes the exit status; the
# JSON report says the behaviour in engine.sigint.
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
. tests/lib/procs.sh
need python3 jsonschema timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

fake=$tmp/fake_timing_$$
cp "$TOOLS/fake_uhp_engine" "$fake" || fail "no fake_uhp_engine in $TOOLS"
. tests/lib/check.sh

what="thinks its time"
run 60 -- "$fake" --use-time
[ $rc = 0 ] || { cat "$report"; fail "$what: exit status $rc"; }
must PASS timing.bestmove-1s 'answered after [0-9]* ms'
must PASS timing.sigint 'stops its search on SIGINT and answers'

what="answers at once"
run 60 -- "$fake"
[ $rc = 0 ] || { cat "$report"; fail "$what: exit status $rc"; }
must FAIL 'timing.bestmove-1s (optional)' 'answered after [0-9]* ms: the engine does not use the time it is given'
must PASS timing.sigint 'survives SIGINT; it answered after [0-9]* ms, before the signal'

what="overruns"
run 90 -- "$fake" --delay-ms 1700
must FAIL 'timing.bestmove-1s (optional)' 'answered after [0-9]* ms: its client waits longer than it asked'
must PASS timing.sigint 'stops its search on SIGINT'

what="stops slowly"
run 60 -- "$fake" --use-time --stop-ms 1100
[ $rc = 0 ] || { cat "$report"; fail "$what: exit status $rc"; }
must PASS timing.sigint 'stops its search on SIGINT and answers ([0-9]* ms after it: slow, over 1000 ms, but long before'

what="dies on SIGINT"
run 60 --json -- "$fake" --fault die-on-sigint --use-time
[ $rc = 0 ] || { cat "$report"; fail "$what: exit status $rc"; }
schema "$report" uhp yes
python3 tests/integration/check_timing.py "$report" || fail "$what: JSON report"
# The rest of the suite runs on a restarted engine.
run 60 -- "$fake" --fault die-on-sigint --use-time
must PASS robustness.unknown-command

what="ignores SIGINT"
run 60 -- "$fake" --fault ignore-sigint --use-time
must FAIL 'timing.sigint (optional)' 'ignores SIGINT: answered [0-9]* ms after it, at its own time'
must PASS timing.bestmove-1s
leftovers timing
echo "check_timing: ok"
