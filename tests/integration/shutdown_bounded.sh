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
	timeout 60 python3 - "$port" "$pid" "$phase" "$tmp/results.jsonl" "$tmp/trace" <<'EOF' ||
import json, os, signal, socket, sys, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import Conn, expect
from web_client import deadline
port, pid = int(sys.argv[1]), int(sys.argv[2])
phase, results, trace = sys.argv[3:6]
class Tail:
    """The trace read as it grows (the flood below makes it large: reading it whole
    at each poll would take seconds on a loaded machine)."""
    def __init__(self, path):
        self.f, self.keep = open(path, "rb"), b""
    def has(self, text):
        new = self.f.read()
        found = text in self.keep + new
        self.keep = (self.keep + new)[-len(text):]
        return found
tail = Tail(trace)
w, b = Conn(port, rcvbuf=4096), Conn(port)
w.answer(); b.answer()
w.send("newgame Base")
deadline(lambda: tail.has(b"newgame"), 20, "the first newgame read")
b.send("newgame Base")
ans = w.answer()
assert "color=White" in ans[0], ans
# White stops reading and floods until the daemon reads no more: its answers fill
# White's socket, the daemon's send queue (which the kernel may grow to megabytes)
# and then the daemon's own buffer, whose input pauses. Stalled when our sends have
# found no room for a whole second. Whether the daemon's buffer or only the kernel
# then holds White's answers varies from run to run: either way White is owed them.
w.s.setblocking(False)
flood_end, blocked = time.monotonic() + 60, None
while True:
    try:
        w.s.send(b"help\n" * 4096)
        blocked = None
    except BlockingIOError:
        now = time.monotonic()
        if blocked is None:
            blocked = now
        elif now - blocked >= 1.0:
            break
        time.sleep(0.02)
    if time.monotonic() > flood_end:
        sys.exit("the daemon kept reading White's requests for 60 s")
deadline(lambda: tail.has(b"input paused"), 20, "the stalled client's input paused")
t0 = time.monotonic()
os.kill(pid, signal.SIGTERM)
if phase == "second":
    deadline(lambda: tail.has(b"shutting down"), 20, "the first SIGTERM handled")
    t1 = time.monotonic()
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        sys.exit(f"the daemon was gone {t1 - t0:.2f} s after the first SIGTERM: the stalled client did not hold it")
got = []
try:
    while True:
        got.append(b.line())
except EOFError:
    pass
assert got[0] == "remote over * aborted: server shutdown" and got[-1] == "ok", got
rows = [json.loads(l) for l in open(results)]
assert len(rows) == 1 and rows[0]["result"] == "*", rows
if phase == "read":
    # White reads now, inside the grace: all of it, to the end of the stream. Its
    # receive buffer grows first: through a 4 KB window the megabytes queued for it
    # would take a loaded machine most of the grace.
    w.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
    w.s.setblocking(True)
    data = w.buf
    while True:
        try:
            d = w.s.recv(1 << 20)
        except ConnectionResetError:
            sys.exit(f"White's connection reset after {len(data)} bytes: its answers were thrown away")
        if not d:
            break
        data += d
    last = data.decode().split("\n")[-4:]
    expect(last, ["remote over * aborted: server shutdown", "Base;NotStarted;White[1]", "ok", ""],
           "the end of what White was sent")
elif phase == "gone":
    w.close()
def exited():
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:                    # gone (reaped), maybe between two reads
        return True
deadline(exited, 20, "the daemon's exit")
took = time.monotonic() - t0
print(f"{phase}: the daemon exited {took:.2f} s after the first SIGTERM, a client stalled")
if phase == "hold":
    assert 2.5 < took < 8, f"not held for the grace: exited after {took:.2f} s"
elif phase == "second":
    # Well inside the 3 s grace, counted from the second signal.
    assert time.monotonic() - t1 < 1.5, (took, t1 - t0)
EOF
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
