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
cat >"$tmp/conf" <<EOF
[daemon]
log = $tmp/trace
max_buffer = 262144
[listen players]
protocol = uhp-player
port = 0
move_time = 1
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
timeout 300 python3 - "$wport" "$pport" "$TOOLS" "$tmp/trace" "$daemon" "$plies" <<'EOF' || fail "slow spectator"
import os, socket, subprocess, sys, time
wport, pport, tools, trace, daemon, plies = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6])
wport = int(wport)

def rss(key):
    for l in open("/proc/%s/status" % daemon):
        if l.startswith(key + ":"):
            return int(l.split()[1])        # kB
    sys.exit("no %s in /proc/%s/status" % (key, daemon))

sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import Conn

class C(Conn):
    def __init__(s, rcvbuf=None):
        Conn.__init__(s, wport, rcvbuf)

reader = C()
reader.answer()
procs = [subprocess.Popen([tools + "/uhp_connect", str(pport), tools + "/fake_uhp_engine"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(2)]
try:
    deadline = time.time() + 20
    while True:
        reader.s.sendall(b"list\n")
        l = reader.answer()
        if len(l) > 1:
            break
        assert time.time() < deadline, "no game listed"
        time.sleep(0.02)
    game = l[0].split()[1]
    base = rss("VmRSS")
    slow = C(rcvbuf=4096)
    slow.s.sendall(("attach %s\n" % game).encode())     # and never reads
    reader.s.sendall(("attach %s\n" % game).encode())
    seen, over, peak = 0, None, base
    while over is None:
        x = reader.line()
        if x.startswith("over "):
            over = x
        elif x.startswith("Base;"):
            seen += 1
            if seen % 50 == 0:
                peak = max(peak, rss("VmRSS"))
    assert over.startswith("over %s 1/2-1/2 adjudicated: %d plies played" % (game, plies)) or \
        " queen surrounded" in over, over
    # The game went on to its end while the slow one was attached: dropped, closed.
    deadline = time.time() + 10
    while "spectator too slow, dropped" not in open(trace).read():
        assert time.time() < deadline, ("the slow spectator was not dropped", seen, over)
        time.sleep(0.05)
    slow.s.settimeout(10)
    got = 0
    while True:
        d = slow.s.recv(1 << 20)                          # drain what the kernel held
        if not d:
            break
        got += len(d)
    peak = max(peak, rss("VmRSS"))
    print("slow spectator: game %s, %d GameStrings seen by the reader, %s; slow one closed after %d bytes; "
          "daemon VmRSS %d kB at attach, %d kB peak" % (game, seen, over, got, base, peak))
    # Buffering it all would hold over 6 MB: what the kernel cannot take of ~10 MB.
    assert peak - base < 4096, ("VmRSS grew", base, peak)
finally:
    for p in procs:
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
EOF
kill -TERM $daemon
wait_for '! procs_alive $daemon' 10 || fail "the daemon did not stop"
echo "remote_slow_spectator: ok"
