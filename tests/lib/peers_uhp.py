#!/usr/bin/env python3
"""peers_uhp.py: a UHP client for the peer matrix (tests/integration/peers_*.sh).

  peers_uhp.py (--port PORT | --cmd ARG...) [--type T] [--depth N --plies N]
               [--timed SECONDS]... [--bare]

Talks UHP to a bridge (on TCP PORT, or as the child ARG... on its stdio) that has
a real engine behind it:
  --depth N --plies P  a whole game of "bestmove depth N" and "play", until the game
                       ends or P plies are played
  --bare               then a bare "newgame" (MzingaCpp keeps the previous game on
                       one): the first move must be a first move again
  --timed S            after "newgame T" and a few plies, "bestmove time 00:00:0S":
                       a move within S + 1.5 seconds (repeatable)
Every bestmove answer must be one move line and "ok", and the move must play.
"""
import os
import socket
import subprocess
import sys
import time

from harness import Starvation


class Uhp:
    def __init__(s, port=None, argv=None):
        s.buf = b""
        if port:
            s.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
            s.p = None
        else:
            s.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)

    def line(s):
        while b"\n" not in s.buf:
            d = s.sock.recv(65536) if not s.p else os.read(s.p.stdout.fileno(), 65536)
            if not d:
                sys.exit("FAIL: the bridge closed its output; pending %r" % s.buf)
            s.buf += d
        l, s.buf = s.buf.split(b"\n", 1)
        return l.decode()

    def answer(s):
        out = []
        while True:
            l = s.line()
            if l == "ok":
                return out
            out.append(l)

    def cmd(s, c):
        data = (c + "\n").encode()
        if s.p:
            s.p.stdin.write(data)
        else:
            s.sock.sendall(data)
        return s.answer()

    def close(s):
        if s.p:
            # End of input, no exit: the bridge must end its engine itself
            # (MzingaCpp does not exit when its input closes).
            s.p.stdin.close()
            rc = s.p.wait(timeout=30)
            if rc != 0:
                sys.exit("FAIL: the bridge exited with status %d" % rc)
        else:
            s.sock.close()


OPENING = ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wA1 \\wQ", "bA1 bQ-", "wG1 /wS1"]


def bestmove(u, how):
    """(move, seconds): the time taken less the time a thread of the test waited for a
    CPU (a loaded machine: see Starvation in harness.py)."""
    starved = Starvation()
    t0 = time.monotonic()
    got = u.cmd("bestmove " + how)
    secs = time.monotonic() - t0 - starved.seconds()
    if len(got) != 1 or got[0].startswith(("err", "invalidmove")):
        sys.exit("FAIL: bestmove %s: got %r" % (how, got))
    return got[0], secs


def play(u, move):
    got = u.cmd("play " + move)
    if len(got) != 1 or got[0].startswith(("err", "invalidmove")):
        sys.exit("FAIL: play %s: got %r" % (move, got))
    return got[0].split(";")[1]


def main():
    args = sys.argv[1:]
    port, argv, gtype, depth, plies, timed, bare = None, None, "Base", 0, 0, [], False
    while args:
        a = args.pop(0)
        if a == "--port":
            port = int(args.pop(0))
        elif a == "--cmd":
            argv, args = args, []
        elif a == "--type":
            gtype = args.pop(0)
        elif a == "--depth":
            depth = int(args.pop(0))
        elif a == "--plies":
            plies = int(args.pop(0))
        elif a == "--timed":
            timed.append(int(args.pop(0)))
        elif a == "--bare":
            bare = True
        else:
            sys.exit("usage: peers_uhp.py (--port P | --cmd ARG...) [options]")
    u = Uhp(port, argv)
    info = u.answer()
    if not info or not info[0].startswith("id "):
        sys.exit("FAIL: no id line: %r" % info)
    if depth:
        u.cmd("newgame " + gtype)
        state, n = "NotStarted", 0
        while state in ("NotStarted", "InProgress") and n < plies:
            move, _ = bestmove(u, "depth %d" % depth)
            state = play(u, move)
            n += 1
        print("%s: depth %d: %d plies, %s" % (info[0], depth, n, state))
    if bare:
        got = u.cmd("newgame")
        if got != ["%s;NotStarted;White[1]" % "Base"]:
            sys.exit("FAIL: bare newgame: got %r" % got)
        move, _ = bestmove(u, "depth 1")
        if " " in move:
            sys.exit("FAIL: after a bare newgame the engine answered %r, not a first move" % move)
        play(u, move)
        print("%s: bare newgame: a new game (%s)" % (info[0], move))
    # Each timed request from a position the engine has not seen: the bridge
    # must catch it up first (newgame with a GameString), as a viewer's first
    # request after loading a game does.
    for i, t in enumerate(timed):
        u.cmd("newgame " + gtype)
        for m in OPENING[:4 + i % 4]:
            play(u, m)
        move, secs = bestmove(u, "time 00:00:%02d" % t)
        play(u, move)
        print("%s: bestmove time %ds: %s in %.3f s" % (info[0], t, move, secs))
        # Early is the engine's choice (MzingaCpp answers at once where it
        # sees nothing to search); late is not.
        if secs > t + 1.5:
            sys.exit("FAIL: bestmove time %ds answered in %.3f s" % (t, secs))
    u.close()


if __name__ == "__main__":
    main()
