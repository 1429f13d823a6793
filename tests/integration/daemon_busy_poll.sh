#!/bin/sh
# daemon_busy_poll.sh: [daemon] busy_poll_us keeps the loop awake after activity, and
# never when idle or while a search runs. Read from /proc: the loop thread's
# voluntary context switches (each time it slept), its state and CPU time, and the
# daemon's CPU time.
#  - request-reply, the client thinking 1 ms between an answer and its next request:
#    with busy_poll_us = 0 the loop sleeps before nearly every request (which shows
#    the count sees sleeps); with 10000 it sleeps before few;
#  - idle, after the last answer, with 500 idle connections, and after a client that
#    trickled a line byte by byte left mid-line: no CPU time to speak of;
#  - during each search on a worker the loop thread sleeps (it would take CPU time
#    from the nicer worker);
#  - while one client trickles, another is answered as usual;
#  - SIGTERM ends the daemon with status 0 while it spins and while it sleeps.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

for us in 10000 0; do
	cat >"$tmp/conf$us" <<EOF
[daemon]
log = $tmp/log$us
busy_poll_us = $us
max_sessions_per_peer = 600
[engine builtin]
hash_mb = 1
[listen uhp]
port = 0
EOF
done

timeout 300 python3 - "$HIVEBRIDGE" "$tmp" <<'PYEOF' || fail "busy_poll_us"
import os, resource, signal, socket, subprocess, sys, threading, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import Conn

exe, tmp = sys.argv[1], sys.argv[2]
hz = os.sysconf("SC_CLK_TCK")
N = 300

def wait_for(what, cond, timeout=20):
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            sys.exit(f"FAIL: {what} (not within {timeout} s)")
        time.sleep(0.01)

def start(us):
    err = f"{tmp}/err{us}"
    p = subprocess.Popen([exe, "serve", "--config", f"{tmp}/conf{us}"], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=open(err, "w"))
    def said():
        if p.poll() is not None:
            sys.exit(f"FAIL: serve exited ({p.returncode}): {open(err).read()}")
        return "listening on 127.0.0.1:" in open(err).read()
    wait_for("serve listening", said)
    line = open(err).read().split("listening on 127.0.0.1:", 1)[1]
    return p, int(line.split()[0])

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

def ok(c, cmd):
    a = c.cmd(cmd)
    if a[-1] != "ok" or any(l.startswith(("err", "invalidmove")) for l in a):
        sys.exit(f"FAIL: {cmd}: {a}")
    return a[:-1]

def request_reply(port, pid):
    c = Conn(port); c.answer()
    ok(c, "newgame Base")
    s0 = sleeps(pid)
    for _ in range(N):
        if len(ok(c, "validmoves")) != 1:
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
    wait_for("the loop asleep after the last answer", lambda: asleep(spin.pid))
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
        ok(c, "newgame " + o)
        if len(ok(c, "bestmove depth 5")) != 1:
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
    wait_for("the loop asleep with 500 idle connections", lambda: asleep(spin.pid))
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
    ok(c, "newgame Base")
    for _ in range(100):
        if len(ok(c, "validmoves")) != 1:
            sys.exit("FAIL: validmoves while another client trickles")
    stop.set(); t.join()
    c.close()
    for c in idle:
        c.close()
    wait_for("the loop asleep after the trickler left", lambda: asleep(spin.pid))
    quiet(spin.pid, "after the trickler left mid-line")

    # SIGTERM while spinning: a trickler keeps the loop awake.
    stop.clear(); t = threading.Thread(target=trickle); t.start()
    c0 = cpu_s(spin.pid)
    deadline = time.monotonic() + 30
    while cpu_s(spin.pid) - c0 < 0.05:       # the spin is on
        if time.monotonic() > deadline:
            sys.exit("FAIL: a trickling client did not keep the loop awake")
        time.sleep(0.01)
    for p, what in ((spin, "while spinning"), (plain, "while sleeping")):
        p.send_signal(signal.SIGTERM)
        try:
            rc = p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            sys.exit(f"FAIL: serve still running 20 s after SIGTERM {what}")
        if rc != 0:
            sys.exit(f"FAIL: serve exit status {rc} after SIGTERM {what}: "
                     + open(f"{tmp}/err{10000 if p is spin else 0}").read()[-2000:])
    stop.set(); t.join()
finally:
    for p in (spin, plain):
        if p.poll() is None:
            p.kill(); p.wait()
PYEOF
echo "daemon_busy_poll: ok"
