#!/bin/sh
# engine_faults.sh: every fault of tests/tools/fake_uhp_engine, through `hivebridge uhp`
# on stdio and through `hivebridge serve` over TCP. Each must end in a UHP "err ..."
# answer followed by "ok" (never a hang; on stdio an engine that cannot start ends
# the command with exit status 1 instead, before anything is printed), the session and the daemon must go on
# serving, and no engine process or descriptor may be left behind.
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
. tests/lib/procs.sh
need python3 timeout awk
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

# A private copy of the engine: its path marks our children and nobody else's.
fake=$tmp/fake_engine_$$
cp "$TOOLS/fake_uhp_engine" "$fake" || fail "no fake_uhp_engine in $TOOLS"

faults="crash-on-bestmove stall garbage long-line illegal-move exit-at-start slow-start no-ok ignore-sigint invalidmove-all"

# One profile and one listener per fault, all on free loopback ports, with short
# time-outs so that the stalling faults take a second, not ten. Only the faults at
# the start have a short start_timeout: the others' start may take a loaded
# machine's time (a sanitizer-built fake took over 1 s at load 15).
conf=$tmp/faults.conf
{
	printf '[daemon]\nlog = %s/trace.log\n' "$tmp"
	printf '[engine good]\ncommand = %s\n' "$fake"
	printf '[listen uhp]\nport = 0\nengine = good\n'
	for f in $faults; do
		case $f in exit-at-start|slow-start|no-ok) st=1 ;; *) st=10 ;; esac
		printf '[engine %s]\ncommand = %s --fault %s\n' "$f" "$fake" "$f"
		printf 'start_timeout = %s\ncommand_timeout = 1\nstop_timeout = 0.5\n' "$st"
		printf '[listen %s]\nport = 0\nengine = %s\n' "$f" "$f"
	done
} >"$conf"

# What to ask each engine: stall answers a timed bestmove when SIGINT ends it, so
# it gets a depth; ignore-sigint must be stopped, so it gets a time.
bestmove_for() {
	case $1 in
	ignore-sigint) echo "bestmove time 00:00:01" ;;
	*) echo "bestmove depth 1" ;;
	esac
}

# --- stdio: hivebridge uhp ------------------------------------------------------
for f in $faults; do
	out=$tmp/stdio.$f
	printf 'newgame Base\nplay wS1\n%s\nvalidmoves\n' "$(bestmove_for "$f")" |
		timeout 30 "$HIVEBRIDGE" uhp --config "$conf" --profile "$f" >"$out" 2>"$out.err"
	rc=$?
	case $f in
	exit-at-start|slow-start)
		# An engine that cannot start: exit 1 before anything is printed.
		[ $rc = 1 ] && [ ! -s "$out" ] && grep -q "^hivebridge uhp: engine \"$f\": " "$out.err" ||
			{ cat "$out" "$out.err"; fail "uhp --profile $f: exit status $rc, want 1 and nothing printed"; }
		echo "stdio $f: exit 1: $(cat "$out.err")"
		continue ;;
	esac
	[ $rc = 0 ] || fail "uhp --profile $f: exit status $rc"
	# Five answers (info, newgame, play, bestmove, validmoves); the fourth is an err.
	[ "$(grep -c '^ok$' "$out")" -ge 5 ] || { cat "$out"; fail "uhp --profile $f: answers missing"; }
	awk '/^ok$/ { if (++n == 4) exit prev !~ /^err /; } { prev = $0 }' "$out" ||
		{ cat "$out"; fail "uhp --profile $f: bestmove did not answer err"; }
	echo "stdio $f: $(grep '^err' "$out" | head -n 1)"
done
# The same through --engine (the command-line profile), for a fault that is quick.
printf 'newgame Base\nbestmove depth 1\n' |
	timeout 30 "$HIVEBRIDGE" uhp --engine "$fake --fault garbage" >"$tmp/engine.out" 2>&1 ||
	fail "uhp --engine: exit status $?"
grep -q '^err ' "$tmp/engine.out" && tail -n 1 "$tmp/engine.out" | grep -q '^ok$' ||
	{ cat "$tmp/engine.out"; fail "uhp --engine garbage: no err+ok"; }
left=$(engines_left "$fake")
[ "$left" = 0 ] || fail "$left engine processes left after the stdio runs"

# --- TCP: hivebridge serve -------------------------------------------------------
spawn "$HIVEBRIDGE" serve --config "$conf" 2>"$tmp/serve.err"
daemon=$spawned
wait_listening "$tmp/serve.err" "$daemon" 11
ports=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$tmp/serve.err")
[ "$(echo "$ports" | wc -l)" = 11 ] || { cat "$tmp/serve.err"; fail "expected 11 listeners"; }
good_port=$(echo "$ports" | sed -n 1p)
fds_before=$(ls "/proc/$daemon/fd" | wc -l)

# All faults at once, each on its own connection, while a good session plays on.
args="$good_port"
n=2
for f in $faults; do
	args="$args $f:$(echo "$ports" | sed -n ${n}p)"
	n=$((n + 1))
done
timeout 120 python3 tests/integration/engine_faults.py $args || fail "TCP clients"
procs_alive "$daemon" || fail "the daemon died"

# Sessions are gone once their clients are: engines reaped, descriptors back.
settled() {
	fds_after=$(ls "/proc/$daemon/fd" | wc -l)
	procs_children "$daemon"
	[ "$fds_after" = "$fds_before" ] && [ -z "$procs_kids" ]
}
wait_for settled 20
kids=$(children_left "$daemon" 0)
echo "daemon descriptors: $fds_before before, $fds_after after; children left: $kids"
[ "$kids" = 0 ] || fail "children left"
[ "$fds_after" = "$fds_before" ] || { ls -l "/proc/$daemon/fd"; fail "descriptors leaked"; }

kill -TERM "$daemon"
wait "$daemon"
rc=$?
[ $rc = 0 ] || fail "serve exit status $rc after SIGTERM"
left=$(engines_left "$fake")
[ "$left" = 0 ] || fail "$left engine processes left after the daemon"
echo "engine_faults: ok"
