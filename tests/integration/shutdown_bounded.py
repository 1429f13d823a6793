# shutdown_bounded.py PORT PID PHASE RESULTS TRACE: one phase of shutdown_bounded.sh
# (hold, second, read, gone) against a daemon with a remote-play game.
import json, os, signal, socket, sys, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import Conn, expect
from harness import wait_for
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
wait_for(lambda: tail.has(b"newgame"), 20, "the first newgame read")
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
wait_for(lambda: tail.has(b"input paused"), 20, "the stalled client's input paused")
t0 = time.monotonic()
os.kill(pid, signal.SIGTERM)
if phase == "second":
    wait_for(lambda: tail.has(b"shutting down"), 20, "the first SIGTERM handled")
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
wait_for(exited, 20, "the daemon's exit")
took = time.monotonic() - t0
print(f"{phase}: the daemon exited {took:.2f} s after the first SIGTERM, a client stalled")
if phase == "hold":
    assert 2.5 < took < 8, f"not held for the grace: exited after {took:.2f} s"
elif phase == "second":
    # Well inside the 3 s grace, counted from the second signal.
    assert time.monotonic() - t1 < 1.5, (took, t1 - t0)
