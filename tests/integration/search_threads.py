# search_threads.py: part of search_threads.sh (its failure: "Threads through hub and uhp").
import os, select, subprocess, sys, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from harness import wait_for

binary, tmp = sys.argv[1], sys.argv[2]
pool = min(os.cpu_count() or 1, 64)

def start(*args):
    return subprocess.Popen([binary, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            bufsize=0)

class Session:
    def __init__(self, p):
        self.p, self.pending = p, b""
    def send(self, line):
        self.p.stdin.write(line.encode() + b"\n")
    def until(self, pred, timeout=20.0, what="?"):
        got, end = [], time.time() + timeout
        while True:
            while b"\n" in self.pending:
                raw, self.pending = self.pending.split(b"\n", 1)
                line = raw.decode()
                got.append(line)
                if pred(line):
                    return got
            left = end - time.time()
            if left <= 0:
                sys.exit("timed out waiting for %s; got %r" % (what, got))
            r, _, _ = select.select([self.p.stdout], [], [], left)
            if r:
                data = os.read(self.p.stdout.fileno(), 65536)
                if not data:
                    sys.exit("EOF waiting for %s; got %r" % (what, got))
                self.pending += data

def thread_ticks(pid):
    """CPU ticks (user + system) of each thread of pid."""
    t = {}
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            f = open("/proc/%d/task/%s/stat" % (pid, tid)).read().rsplit(")", 1)[1].split()
            t[tid] = int(f[11]) + int(f[12])
        except OSError:
            pass
    return t

def busy_threads(pid, since=None):
    """Threads of pid that used over 20 ms of CPU: since the ticks `since` (as long as
    a loaded machine takes to give them a CPU), else in the next 300 ms."""
    a = since
    if a is None:
        a = thread_ticks(pid); time.sleep(0.3)
    b = thread_ticks(pid)
    return [tid for tid in b if b[tid] - a.get(tid, 0) > 2]

# Hub: the parameter, set-param, go think with Threads=2, stop.
h = Session(start("hub"))
h.send("hub")
got = h.until(lambda l: l == "wait", what="wait")
want = "param name=Threads value=1 type=int min=1 max=%d" % pool
if want not in got:
    sys.exit("no %r in %r" % (want, got))
h.send("set-param name=Threads value=2")
h.send("init")
h.until(lambda l: l == "ready", what="ready")
h.send('pos pos="Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"')
h.send("level infinite")
before = thread_ticks(h.p.pid)
h.send("go think")
h.until(lambda l: l.startswith("info depth="), what="info")
if pool >= 2:
    # Both threads are searching (a helper is a second busy thread): each used CPU
    # since go. They run at nice +10: on a loaded machine they may wait a long while.
    wait_for(lambda: len(busy_threads(h.p.pid, before)) >= 2, 60, "Threads=2: two busy threads",
             detail=lambda: {t: n - before.get(t, 0) for t, n in thread_ticks(h.p.pid).items()})
h.send("stop")
got = h.until(lambda l: l.startswith("done") or l.startswith("error"), what="done")
if not got[-1].startswith('done move="'):
    sys.exit("stop: %r" % got[-1])
# Every search thread stops: none stays busy (polled, the machine may be loaded).
wait_for(lambda: not busy_threads(h.p.pid), 10, "no thread busy after stop",
         detail=lambda: busy_threads(h.p.pid))
h.send("set-param name=Threads value=x")
got = h.until(lambda l: l.startswith("error"), what="error")
h.p.stdin.close(); h.p.wait(10)

# UHP with the profile's threads = 2: time 00:00:00 answers a legal move at once.
u = Session(start("uhp", "--config", tmp + "/conf", "--profile", "smp"))
u.until(lambda l: l == "ok", what="banner")
u.send("options get Threads")
got = u.until(lambda l: l == "ok", what="options")
if got[0] != "Threads;int;%d;%d;1;%d" % (min(2, pool), min(2, pool), pool):
    sys.exit("options get Threads: %r" % got)
u.send("newgame Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
u.until(lambda l: l == "ok", what="newgame")
for i in range(5):
    u.send("bestmove time 00:00:00")
    move = u.until(lambda l: l == "ok", what="bestmove")[0]
    u.send("validmoves")
    valid = u.until(lambda l: l == "ok", what="validmoves")[0].split(";")
    if move not in valid:
        sys.exit("bestmove %r not in validmoves" % move)
u.p.stdin.close(); u.p.wait(10)
print("ok hub and uhp")
