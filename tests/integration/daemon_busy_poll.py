# daemon_busy_poll.py: part of daemon_busy_poll.sh (its failure: "busy_poll_us").
import os, resource, socket, sys, threading, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from harness import wait_for, Daemon
from uhp_client import Conn

exe, tmp = sys.argv[1], sys.argv[2]
hz = os.sysconf("SC_CLK_TCK")
N = 300

def start(us):
    d = Daemon([exe, "serve", "--config", f"{tmp}/conf{us}"], f"{tmp}/err{us}")
    return d, d.wait_listening(1)[0]

def stat(pid, tid=None):
    with open(f"/proc/{pid}/task/{tid}/stat" if tid else f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()

def cpu_s(pid, tid=None):
    fields = stat(pid, tid)
    return (int(fields[11]) + int(fields[12])) / hz     # utime + stime

def asleep(pid):
    """The loop thread sleeps: a spinning one is running or runnable."""
    return stat(pid, pid)[0] == "S"

def sleeps(pid):
    with open(f"/proc/{pid}/task/{pid}/status") as f:
        for l in f:
            if l.startswith("voluntary_ctxt_switches:"):
                return int(l.split()[1])
    sys.exit("FAIL: no voluntary_ctxt_switches in /proc: nothing can be checked")

def quiet(pid, what, seconds=1.0, limit=0.05):
    """CPU time over seconds of no traffic stays under limit."""
    c0 = cpu_s(pid)
    time.sleep(seconds)          # a measuring window, not a synchronisation
    used = cpu_s(pid) - c0
    if used > limit:
        sys.exit(f"FAIL: {what}: {used:.2f} s of CPU in {seconds} s")
    return used

def request_reply(port, pid):
    c = Conn(port); c.answer()
    c.ok("newgame Base")
    s0 = sleeps(pid)
    for _ in range(N):
        if len(c.ok("validmoves")) != 1:
            sys.exit("FAIL: validmoves")
        time.sleep(0.001)        # the client's think time: the loop is done meanwhile
    n = sleeps(pid) - s0
    c.close()
    return n

spin, spin_port = start(10000)
plain, plain_port = start(0)
try:
    quiet(spin.pid, "busy_poll_us 10000, idle from the start")
    n_plain = request_reply(plain_port, plain.pid)
    n_spin = request_reply(spin_port, spin.pid)
    print(f"loop sleeps over {N} request-replies: {n_plain} with busy_poll_us 0, {n_spin} with 10000")
    if n_plain < N // 2:
        sys.exit(f"FAIL: without busy polling the loop slept only {n_plain} times in {N} "
                 "request-replies: the count does not see its sleeps")
    if n_spin > N // 4:
        sys.exit(f"FAIL: with busy_poll_us 10000 the loop slept {n_spin} times in {N} request-replies")
    wait_for(lambda: asleep(spin.pid), 20, "the loop asleep after the last answer")
    quiet(spin.pid, "after the last answer")

    # Searches on a worker: the loop sleeps during each (it would take CPU time from
    # the worker, which runs nicer): once for the search, and again after each
    # iteration's report wakes it (five iterations a search), however fast the
    # answers come back. Spinning, it would sleep only when a search outlasts 10 ms.
    ops = [l.strip() for l in open("conf/openings-strength-mlp.txt")
           if l.strip() and not l.startswith("#")][:20]
    c = Conn(spin_port); c.answer()
    s0 = sleeps(spin.pid)
    for o in ops:
        c.ok("newgame " + o)
        if len(c.ok("bestmove depth 5")) != 1:
            sys.exit("FAIL: bestmove depth 5")
    n = sleeps(spin.pid) - s0
    c.close()
    print(f"loop sleeps over {len(ops)} searches to depth 5 with busy_poll_us 10000: {n}")
    # Spinning, it sleeps at most once a search that outlasts 10 ms; sleeping, once
    # a search and again after reports (fewer when a loaded machine delays the loop
    # and reports come together).
    if n <= len(ops):
        sys.exit(f"FAIL: the loop slept {n} times during {len(ops)} searches: it spun while they ran")

    # 500 idle connections, each greeted: the loop sleeps once they are in.
    lim = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(2048, lim[1]), lim[1]))
    idle = []
    for _ in range(500):
        c = Conn(spin_port); c.answer(); idle.append(c)
    wait_for(lambda: asleep(spin.pid), 20, "the loop asleep with 500 idle connections")
    quiet(spin.pid, "500 idle connections")

    # A client trickles a line a byte every 2 ms and never ends it; another is
    # answered meanwhile; the trickler leaves mid-line and the loop sleeps again.
    stop = threading.Event()
    def trickle():
        s = socket.create_connection(("127.0.0.1", spin_port))
        try:
            while not stop.is_set():
                s.send(b"v")
                time.sleep(0.002)
        except OSError:
            pass                 # the daemon went (SIGTERM below)
        s.close()
    t = threading.Thread(target=trickle); t.start()
    c = Conn(spin_port); c.answer()
    c.ok("newgame Base")
    for _ in range(100):
        if len(c.ok("validmoves")) != 1:
            sys.exit("FAIL: validmoves while another client trickles")
    stop.set(); t.join()
    c.close()
    for c in idle:
        c.close()
    wait_for(lambda: asleep(spin.pid), 20, "the loop asleep after the trickler left")
    quiet(spin.pid, "after the trickler left mid-line")

    # SIGTERM while spinning: a trickler keeps the loop awake.
    stop.clear(); t = threading.Thread(target=trickle); t.start()
    c0 = cpu_s(spin.pid)
    wait_for(lambda: cpu_s(spin.pid) - c0 >= 0.05, 30,     # the spin is on
             "a trickling client keeping the loop awake")
    for d, what in ((spin, "while spinning"), (plain, "while sleeping")):
        rc = d.stop(what)
        if rc != 0:
            sys.exit(f"FAIL: serve exit status {rc} after SIGTERM {what}: " + d.said())
    stop.set(); t.join()
finally:
    for d in (spin, plain):
        d.kill()
