#!/usr/bin/env python3
"""peers_hub.py: a Hub GUI for the peer matrix (tests/integration/peers_hub.sh).

  peers_hub.py HIVEBRIDGE (--port PORT | --cmd ARG...) --plies N (--depth D |
               --move-time S | --clock S+I)

The bridge (on TCP PORT, or the child ARG... on its stdio) plays both sides of a
Base game as a Hub engine with a real engine behind it; `HIVEBRIDGE uhp` (built-in
engine) referees. Each move: pos, level, go think, then "done move=...": legal and
within its time (+1.5 s). --clock keeps Fischer clocks for both sides (level
time=S inc=I each move). Time a thread of the test waited for a CPU (a loaded machine)
is not held against the bridge: see Starvation in harness.py. The game runs to its end or N plies.
"""
import re
import sys
import time

import peers_common
from harness import Starvation


def main():
    args = sys.argv[1:]
    ref_bin = args.pop(0)
    port, argv, plies, level, limit, clock = None, None, 20, None, 60.0, None
    while args:
        a = args.pop(0)
        if a == "--port":
            port = int(args.pop(0))
        elif a == "--cmd":
            argv, args = args, []
        elif a == "--plies":
            plies = int(args.pop(0))
        elif a == "--depth":
            level = "level depth=%s" % args.pop(0)
        elif a == "--move-time":
            limit = float(args.pop(0))
            level = "level move-time=%g" % limit
        elif a == "--clock":
            s, i = args.pop(0).split("+")
            clock = [float(s), float(s), float(i)]
        else:
            sys.exit("usage: peers_hub.py HIVEBRIDGE (--port P | --cmd ARG...) [options]")
    ref, ref_ask = peers_common.referee(ref_bin)
    sock, p, rf, send = peers_common.bridge_link(port, argv)

    def until(prefix):
        while True:
            l = rf.readline()
            if not l:
                sys.exit("FAIL: the bridge closed")
            l = l.decode().rstrip("\n")
            if l.startswith("error"):
                sys.exit("FAIL: %r" % l)
            if l.startswith(prefix):
                return l

    ref_ask("")
    send("hub")
    until("wait")
    send("init")
    until("ready")
    gs = ref_ask("newgame Base")[-1]
    n, worst = 0, 0.0
    starved = Starvation()
    while n < plies and gs.split(";")[1] in ("NotStarted", "InProgress"):
        send('pos pos="%s"' % gs)
        side = 0 if gs.split(";")[2].startswith("White") else 1
        if clock:
            limit = clock[side]
            level = "level time=%.1f inc=%g" % (clock[side], clock[2])
        send(level)
        send("go think")
        starved.mark()
        t0 = time.monotonic()
        l = until("done")
        secs = time.monotonic() - t0
        lost = starved.seconds()
        worst = max(worst, secs)
        m = re.match(r'done move=(?:"([^"]*)"|(\S+))', l)
        if not m:
            sys.exit("FAIL: ply %d: %r" % (n, l))
        move = m.group(1) or m.group(2)
        if secs - lost > limit + 1.5:
            sys.exit("FAIL: ply %d: answered in %.3f s (%.3f s of it waiting for a CPU), the limit %.1f s"
                     % (n, secs, lost, limit))
        if clock:
            clock[side] += clock[2] - secs
            if clock[side] <= 0:
                sys.exit("FAIL: ply %d: lost on time" % n)
        r = ref_ask("play " + move)
        if r[-1].startswith(("err", "invalidmove")):
            sys.exit("FAIL: an illegal move %r: %r" % (move, r))
        gs = r[-1]
        n += 1
    send("quit")
    if p:
        p.stdin.close()
        if p.wait(timeout=30) != 0:
            sys.exit("FAIL: the bridge exited with status %d" % p.returncode)
    else:
        sock.close()
    ref.stdin.close()
    ref.wait(timeout=30)
    print("%d plies, %s, slowest move %.3f s" % (n, gs.split(";")[1], worst))


if __name__ == "__main__":
    main()
