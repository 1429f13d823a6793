#!/bin/sh
# remote_slow_spectator.sh: a spectator that attaches and then never reads is dropped
# (docs/remote-play.md: "never waited for") and never holds the game up: two fast
# engines (fake_uhp_engine) connected in play a game of many plies while it is
# attached; the game finishes, the spectator's connection is closed by the daemon
# ("too slow, dropped" in the log), a reading spectator saw the moves, and the
# daemon's memory stays bounded (VmRSS from /proc, sampled while the game runs).
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -x "$TOOLS/uhp_connect" ] && [ -x "$TOOLS/fake_uhp_engine" ] || fail "test tools missing in $TOOLS"

plies=1500
# move_time 5 s, not 1: the fake engines answer at once, but on a loaded machine (load 9)
# one move of 1500 took over 1 s to cross and the game ended on time.
cat >"$tmp/conf" <<EOF
[daemon]
log = $tmp/trace
max_buffer = 262144
[listen players]
protocol = uhp-player
port = 0
move_time = 5
max_plies = $plies
results = $tmp/results.jsonl
[listen watch]
protocol = uhp-spectate
port = 0
watch = players
EOF
# Under ASan freed memory is held in quarantine (256 MB by default): none here, so
# VmRSS measures what the daemon keeps (no effect on a plain build).
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0" \
	spawn "$HIVEBRIDGE" serve --config "$tmp/conf" 2>"$tmp/err"
daemon=$spawned
wait_listening "$tmp/err" $daemon 2
pport=$(listen_port "$tmp/err" uhp-player 1)
wport=$(listen_port "$tmp/err" uhp-spectate 1)

# The slow one attaches before the game starts ("attach 0" is not a game: it waits
# with "list" from a reading connection first), and the engines then connect.
timeout 300 python3 tests/integration/remote_slow_spectator.py "$wport" "$pport" "$TOOLS" "$tmp/trace" "$daemon" "$plies" || fail "slow spectator"
kill -TERM $daemon
wait_for '! procs_alive $daemon' 10 || fail "the daemon did not stop"
echo "remote_slow_spectator: ok"
