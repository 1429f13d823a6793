#!/bin/sh
# remote_hint_fault.sh: a remote-play hint (hints = yes, uhp-remote's bestmove) from a
# listener engine that breaks: the client gets "err No hint: " and the engine's own
# reason (read before the broken engine is freed: the result is the engine's), the
# next hint comes from a fresh engine and fails the same way, and the game goes on.
# The checks are in remote_hint_fault.py.
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -x "$TOOLS/fake_uhp_engine" ] || fail "test tools missing in $TOOLS"

cat >"$tmp/conf" <<EOF2
[engine crash]
command = $TOOLS/fake_uhp_engine --fault crash-on-bestmove
[listen r]
protocol = uhp-remote
port = 0
engine = crash
hints = yes
house_engine = builtin
house_wait = 0
EOF2
spawn "$HIVEBRIDGE" serve --config "$tmp/conf" 2>"$tmp/err"
pid=$spawned
wait_listening "$tmp/err" $pid 1 uhp-remote
port=$(listen_port "$tmp/err" uhp-remote)
timeout 60 python3 tests/integration/remote_hint_fault.py "$port" ||
	{ tail -n 30 "$tmp/err"; fail "a broken hint engine's reason"; }
procs_alive $pid || fail "the daemon died: $(tail -n 30 "$tmp/err")"
kill -TERM $pid
wait $pid || fail "the daemon's exit status $? after SIGTERM: $(tail -n 30 "$tmp/err")"
echo "remote_hint_fault: ok"
