#!/bin/sh
# shutdown_bounded.sh: the shutdown of a daemon with games in progress is bounded: a
# client that stopped reading (its answers fill its socket and the daemon's buffer)
# does not hold it up. SIGTERM with such a client in a game: the game is still
# written to the results file at once and its opponent told, and the daemon exits 0
# once the grace (3 s) is over; a second SIGTERM cuts the grace short.
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

tries=0
for signals in 1 1 1 2 2 2; do
	# Each phase runs until one run held the daemon (3 tries each): a stall of the
	# client's socket is the kernel's to keep, not ours.
	[ $signals = 1 ] && [ "${first_done:-}" = 1 ] && continue
	[ $signals = 2 ] && [ "${second_done:-}" = 1 ] && continue
	# No run held the daemon: its exit was bounded each time, which is what is required;
	# the grace and the second signal are not shown this time (said).
	[ $signals = 2 ] && [ "${first_done:-}" != 1 ] && { nohold=1; continue; }
	: >"$tmp/results.jsonl"
	[ $signals = 1 ] || [ -f "$tmp/trace.1" ] || cp "$tmp/trace" "$tmp/trace.1"
	: >"$tmp/trace"
	spawn "$HIVEBRIDGE" serve --config "$tmp/conf" 2>"$tmp/err"
	pid=$spawned
	wait_listening "$tmp/err" $pid 1 uhp-remote
	port=$(listen_port "$tmp/err" uhp-remote)
	timeout 60 python3 - "$port" "$pid" "$signals" "$tmp/results.jsonl" "$tmp/trace" <<'EOF' ||
import json, os, signal, sys, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import Conn, expect
from web_client import deadline
port, pid, signals = (int(a) for a in sys.argv[1:4])
results, trace = sys.argv[4], sys.argv[5]
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
# White's socket, the daemon's send buffer (which the kernel may grow to megabytes)
# and then the daemon's own buffer, whose input pauses. Stalled when our sends have
# found no room for a whole second.
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
if signals == 2:
    deadline(lambda: tail.has(b"shutting down"), 20, "the first SIGTERM handled")
    t1 = time.monotonic()
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        # The stall did not hold it this time (what phase 1 checks): try again.
        print(f"the daemon was gone {t1 - t0:.2f} s after the first SIGTERM, before the second")
        sys.exit(3)
got = []
try:
    while True:
        got.append(b.line())
except EOFError:
    pass
assert got[0] == "remote over * aborted: server shutdown" and got[-1] == "ok", got
rows = [json.loads(l) for l in open(results)]
assert len(rows) == 1 and rows[0]["result"] == "*", rows
def exited():
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:                    # gone (reaped), maybe between two reads
        return True
deadline(exited, 20, "the daemon's exit")
took = time.monotonic() - t0
print(f"{signals} SIGTERM: the daemon exited {took:.2f} s after the first, a client stalled")
if signals == 1:
    assert took < 8, took
    if took < 2.5:
        # Not held: bounded all the same (what this test requires); said, and tried
        # again for a run that shows the grace.
        print(f"the daemon was not held ({took:.2f} s) by the stalled client")
        sys.exit(3)
else:
    # Well inside the 3 s grace, counted from the second signal.
    assert time.monotonic() - t1 < 1.5, (took, t1 - t0)
EOF
	{
		py=$?
		[ $py = 3 ] && tries=$((tries + 1)) && { wait "$pid"; continue; }
		fail "shutdown with a stalled client, $signals SIGTERM"
	}
	wait "$pid"
	rc=$?
	[ $rc = 0 ] || fail "serve exit status $rc after $signals SIGTERM"
	[ $signals = 1 ] && first_done=1
	[ $signals = 2 ] && second_done=1
done
if [ "${nohold:-}" = 1 ]; then
	echo "shutdown_bounded: ok (bounded; the stalled client held the daemon in no run: grace not shown)"
	exit 0
fi
[ "${second_done:-}" = 1 ] || { echo "shutdown_bounded: ok (bounded; the second signal found no daemon in 3 runs)"; exit 0; }
grep -q 'SIGTERM again: stopping now' "$tmp/trace" && grep -q 'still busy after' "$tmp/trace.1" || fail "no second-signal note in the log"
echo "shutdown_bounded: ok"
