#!/bin/sh
# daemon_orphans.sh: engines die with the daemon. A daemon killed with SIGKILL (as
# the OOM killer does) runs no cleanup, so its engine children must be ended by the
# kernel (PR_SET_PDEATHSIG): two sessions each hold a fake engine that is deep in
# a one-hour "search" and reads no input, the daemon is SIGKILLed, and no engine
# process may be left after a deadline.
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
. "$(dirname "$0")/../lib/procs.sh"
tmp=$(mktemp -d)
daemon=
engines=
fake=$tmp/fake_orphan_$$
cleanup() {
	[ -n "$daemon" ] && kill -9 "$daemon" 2>/dev/null
	# Whatever the outcome, no fake engine of ours outlives the test.
	[ -n "$engines" ] && kill -9 $engines 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cp "$TOOLS/fake_uhp_engine" "$fake" || fail "no fake_uhp_engine in $TOOLS"
cat >"$tmp/conf" <<EOF
[daemon]
log = $tmp/trace.log
[engine thinker]
command = $fake --fault ignore-sigint
command_timeout = 3600
[listen uhp]
port = 0
engine = thinker
EOF
# Made before the daemon starts: the wait below reads it at once.
: >"$tmp/err"
"$HIVEBRIDGE" serve --config "$tmp/conf" 2>"$tmp/err" &
daemon=$!
i=0
until grep -q '^listening on' "$tmp/err"; do
	kill -0 "$daemon" 2>/dev/null || { cat "$tmp/err"; fail "serve died at start"; }
	[ $i -lt 100 ] || fail "serve did not start listening"
	sleep 0.1
	i=$((i + 1))
done
port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\) (uhp)$/\1/p' "$tmp/err")

# Two clients start a search each and stay connected; the script exits once both
# searches reached their engines, leaving the sockets to die with it.
timeout 60 python3 - "$port" "$tmp/trace.log" <<'EOF' || fail "clients"
import socket, sys, time
port, trace = int(sys.argv[1]), sys.argv[2]
held = []
for i in range(2):
    s = socket.create_connection(("127.0.0.1", port), timeout=20)
    s.sendall(b"newgame Base\nbestmove depth 1\n")
    held.append(s)
deadline = time.time() + 30
while time.time() < deadline:
    if open(trace, "rb").read().count(b"bridge->engine bestmove depth 1") >= 2:
        break
    time.sleep(0.05)
else:
    raise SystemExit("the searches never reached the engines")
EOF
engines=$(pgrep -f "$fake")
[ "$(echo $engines | wc -w)" = 2 ] || fail "expected 2 engines before the kill, got: $engines"

kill -9 "$daemon"
wait "$daemon" 2>/dev/null
daemon=
n=$(engines_left "$fake")
[ "$n" = 0 ] || fail "$n engine(s) orphaned after the daemon was SIGKILLed"
echo "daemon_orphans: ok"
