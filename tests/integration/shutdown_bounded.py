# shutdown_bounded.py: part of shutdown_bounded.sh.
import json, os, signal, sys, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import Conn, expect
from harness import wait_for
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
wait_for(lambda: tail.has(b"newgame"), 20, "the first newgame read")
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
wait_for(lambda: tail.has(b"input paused"), 20, "the stalled client's input paused")
t0 = time.monotonic()
os.kill(pid, signal.SIGTERM)
if signals == 2:
    wait_for(lambda: tail.has(b"shutting down"), 20, "the first SIGTERM handled")
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
wait_for(exited, 20, "the daemon's exit")
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
