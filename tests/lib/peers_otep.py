#!/usr/bin/env python3
"""peers_otep.py: an OTEP host for the peer matrix (tests/integration/peers_otep.sh).

  peers_otep.py HIVEBRIDGE (--port PORT | --cmd ARG...) --plies N
                [--overtime S | --fischer MS+INC]

The bridge (on TCP PORT, or the child ARG... on its stdio) plays White as an OTEP
engine with a real engine behind it; Black and the referee are `HIVEBRIDGE uhp`
(the built-in engine at depth 1). Each White move: opponent-move, play white, and
clock: an overtime period of S seconds per move (`clock S000* S000* S 1 1`), or
the host's Fischer clocks (10000+100: 10 s, 0.1 s added after each move), or
"clock 60000 60000 0 0 0" for a listener with a depth. The game runs to its end or
N plies; every move must be a legal "move", within its time (+1.5 s).
"""
import sys
import time

import peers_common
from harness import Starvation


def main():
    args = sys.argv[1:]
    ref_bin = args.pop(0)
    port, argv, plies, overtime, fischer = None, None, 20, 0, None
    while args:
        a = args.pop(0)
        if a == "--port":
            port = int(args.pop(0))
        elif a == "--cmd":
            argv, args = args, []
        elif a == "--plies":
            plies = int(args.pop(0))
        elif a == "--overtime":
            overtime = int(args.pop(0))
        elif a == "--fischer":
            base, inc = args.pop(0).split("+")
            fischer = [int(base), int(base), int(inc)]
        else:
            sys.exit("usage: peers_otep.py HIVEBRIDGE (--port P | --cmd ARG...) [options]")
    ref, ref_ask = peers_common.referee(ref_bin)
    sock, p, rf, send = peers_common.bridge_link(port, argv)

    def read():
        while True:
            l = rf.readline()
            if not l:
                sys.exit("FAIL: the bridge closed")
            l = l.decode().rstrip("\n")
            if not l.startswith(("status ", "simple-moves")):
                return l

    ref_ask("")
    l = read()
    if l != "hello":
        sys.exit("FAIL: no hello: %r" % l)
    gs = ref_ask("newgame Base")[-1]
    send("rules Base")
    last, n, worst = "-", 0, 0.0
    starved = Starvation()
    while n < plies and gs.split(";")[1] in ("NotStarted", "InProgress"):
        if gs.split(";")[2].startswith("White"):
            send("opponent-move %s %s" % (last, gs.replace(" ", "_")))
            send("play white")
            if overtime:
                limit = overtime
                send("clock %d* %d* %d 1 1" % (overtime * 1000, overtime * 1000, overtime))
            elif fischer:
                limit = fischer[0] / 1000.0
                send("clock %d %d 0 0 0" % (fischer[0], fischer[1]))
            else:
                limit = 60
                send("clock 60000 60000 0 0 0")
            starved.mark()
            t0 = time.monotonic()
            l = read()
            secs = time.monotonic() - t0
            lost = starved.seconds()
            worst = max(worst, secs)
            if not l.startswith("move "):
                sys.exit("FAIL: ply %d: %r" % (n, l))
            if secs - lost > limit + 1.5:
                sys.exit("FAIL: ply %d: answered in %.3f s (%.3f s of it waiting for a CPU), the limit %.1f s"
                         % (n, secs, lost, limit))
            if fischer:
                fischer[0] += fischer[2] - int(secs * 1000)
                if fischer[0] <= 0:
                    sys.exit("FAIL: ply %d: White lost on time" % n)
            mv = l[5:].replace("_", " ")
            r = ref_ask("play " + mv)
            if r[-1].startswith(("err", "invalidmove")):
                sys.exit("FAIL: an illegal move %r: %r" % (mv, r))
            gs = r[-1]
            send("move " + gs.replace(" ", "_"))
        else:
            mv = ref_ask("bestmove depth 1")[-1]
            gs = ref_ask("play " + mv)[-1]
            last = mv.replace(" ", "_")
        n += 1
    state = gs.split(";")[1]
    send("finish %d" % {"WhiteWins": 2, "BlackWins": 3, "Draw": 1}.get(state, 0))
    send("goodbye")
    if p:
        p.stdin.close()
        if p.wait(timeout=30) != 0:
            sys.exit("FAIL: the bridge exited with status %d" % p.returncode)
    else:
        sock.close()
    ref.stdin.close()
    ref.wait(timeout=30)
    print("%d plies, %s, slowest move %.3f s" % (n, state, worst))


if __name__ == "__main__":
    main()
