# remote_slow_spectator.py: part of remote_slow_spectator.sh (its failure: "slow spectator").
import os, socket, subprocess, sys, time
wport, pport, tools, trace, daemon, plies = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6])
wport = int(wport)

def rss(key):
    return proc_status(daemon, key)         # kB

sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from harness import wait_for, proc_status
from uhp_client import Conn

class C(Conn):
    def __init__(s, rcvbuf=None):
        Conn.__init__(s, wport, rcvbuf)

reader = C()
reader.answer()
procs = [subprocess.Popen([tools + "/uhp_connect", str(pport), tools + "/fake_uhp_engine"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(2)]
try:
    l = wait_for(lambda: (lambda l: l if len(l) > 1 else None)(reader.cmd("list")), 20, "a game listed")
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
    wait_for(lambda: "spectator too slow, dropped" in open(trace).read(), 10,
             "the slow spectator dropped", detail=lambda: (seen, over))
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
