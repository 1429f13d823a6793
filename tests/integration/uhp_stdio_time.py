"""uhp_stdio: HIVEBRIDGE: `bestmove time 00:00:01` answers after about a second with a legal
move. Timed from the command to its "ok" (not the process's start-up), and the time the
machine kept the engine from a CPU (its threads' run delay, /proc schedstat) is not counted
against it: on a loaded machine a second of search may take longer by that much. Prints the
move and the milliseconds."""
import subprocess, sys, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from harness import Starvation

p = subprocess.Popen([sys.argv[1], "uhp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
def ask(cmd):
    if cmd:
        p.stdin.write(cmd + "\n"); p.stdin.flush()
    out = []
    while True:
        l = p.stdout.readline()
        if not l:
            sys.exit("uhp ended after %r: %r" % (cmd, out))
        if l.strip() == "ok":
            return out
        out.append(l.strip())
ask(None)   # the id block it starts with
ask("newgame Base+MLP")
ask("play wS1")
starved = Starvation(p.pid)
t0 = time.monotonic()
out = ask("bestmove time 00:00:01")
ms = (time.monotonic() - t0) * 1000
stolen = starved.seconds() * 1000
assert len(out) == 1 and out[0], out
move = out[0]
assert ms >= 950, "answered after %d ms" % ms
assert ms - stolen <= 2000, "answered after %d ms, %d of them waiting for a CPU" % (ms, stolen)
legal = ask("validmoves")[-1].split(";")
assert move in legal, (move, legal)
p.stdin.close(); p.wait(timeout=20)
print(move, int(ms))
