#!/bin/sh
# shutdown_bounded.sh: the shutdown of a daemon with games in progress is bounded,
# and a client that stopped reading (its answers fill its socket, the kernel's send
# queue and the daemon's buffer) gets the grace to read how its game ended. SIGTERM
# with such a client in a game: the game is written to the results file at once
# and its opponent told; then, in every run,
#   hold:   the client never reads: the daemon waits for it the whole grace (3 s),
#           says it was still busy, and exits 0;
#   second: a second SIGTERM cuts the grace short;
#   read:   the client starts reading after the SIGTERM: it gets everything, its
#           "remote over" last, then the end of the stream (no reset), and the
#           daemon exits once it has it, every client told;
#   gone:   the client hangs up after the SIGTERM: it does not hold the daemon.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$tmp/conf" <<EOF
[daemon]
log = $tmp/trace
max_buffer = 65536
[listen pvp]
protocol = uhp-remote
port = 0
clock = 600+5
results = $tmp/results.jsonl
EOF

for phase in hold second read gone; do
	: >"$tmp/results.jsonl"
	: >"$tmp/trace"
	spawn "$HIVEBRIDGE" serve --config "$tmp/conf" 2>"$tmp/err"
	pid=$spawned
	wait_listening "$tmp/err" $pid 1 uhp-remote
	port=$(listen_port "$tmp/err" uhp-remote)
	timeout 60 python3 tests/integration/shutdown_bounded.py "$port" "$pid" "$phase" "$tmp/results.jsonl" "$tmp/trace" ||
	fail "shutdown with a stalled client, phase $phase"
	wait "$pid"
	rc=$?
	[ $rc = 0 ] || fail "serve exit status $rc, phase $phase"
	case $phase in
	hold) note='shutdown: 1 sessions still busy after' ;;
	second) note='SIGTERM again: stopping now' ;;
	read | gone) note='shutdown: every client told in' ;;
	esac
	grep -q "$note" "$tmp/trace" || fail "phase $phase: no \"$note\" in the log"
done
echo "shutdown_bounded: ok"
