#!/bin/sh
# daemon_orphans.sh: engines die with the daemon. A daemon killed with SIGKILL (as
# the OOM killer does) runs no cleanup, so its engine children must be ended by the
# kernel (PR_SET_PDEATHSIG): two sessions each hold a fake engine that is deep in
# a one-hour "search" and reads no input, the daemon is SIGKILLed while both
# clients are still connected, and no engine process may be left after a deadline.
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
. tests/lib/procs.sh
need python3
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

# A private copy of the engine: its path marks our engines and nobody else's.
fake=$tmp/fake_orphan_$$
cp "$TOOLS/fake_uhp_engine" "$fake" || fail "no fake_uhp_engine in $TOOLS"
# An engine orphaned by a failure here belongs to init, out of procs_trap's reach:
# the hook ends whatever still runs our copy (checked by its command line, so a
# reused PID is left alone).
engines=
procs_cleanup_hook='for e in $engines; do grep -qsF -- "$fake" /proc/$e/cmdline && kill -9 $e; done'

cat >"$tmp/conf" <<EOF2
[daemon]
log = $tmp/trace.log
[engine thinker]
command = $fake --fault ignore-sigint
command_timeout = 3600
[listen uhp]
port = 0
engine = thinker
EOF2
spawn "$HIVEBRIDGE" serve --config "$tmp/conf" 2>"$tmp/err"
daemon=$spawned
wait_listening "$tmp/err" "$daemon" 1 uhp
port=$(listen_port "$tmp/err" uhp)
[ -n "$port" ] || { cat "$tmp/err"; fail "no uhp port"; }

# Two clients start a search each and stay connected until the daemon is gone: a
# client that left would let the daemon stop its engine itself, and the kill
# below would then prove nothing.
spawn timeout 120 python3 tests/integration/daemon_orphans.py "$port" >"$tmp/clients.out" 2>&1
clients=$spawned
wait_for '[ "$(count "bridge->engine bestmove depth 1" "$tmp/trace.log")" -ge 2 ]' 30 ||
	{ cat "$tmp/clients.out"; fail "the searches never reached the engines"; }
procs_children "$daemon"
engines=$procs_kids
set -- $engines
[ $# = 2 ] || fail "expected 2 engines before the kill, got: $engines"
for e in $engines; do
	grep -qsF -- "$fake" /proc/$e/cmdline || fail "child $e of the daemon is not an engine"
done
procs_alive "$clients" || fail "a client left before the kill"

kill -9 "$daemon"
wait "$daemon" 2>/dev/null
n=$(engines_left "$fake")
[ "$n" = 0 ] || fail "$n engine(s) orphaned after the daemon was SIGKILLed"
wait "$clients"
echo "daemon_orphans: ok"
