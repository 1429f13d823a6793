#!/usr/bin/env python3
"""soak.py: `hivebridge serve` under abuse, for a bounded time. Prints figures, judges
nothing (the goals are in the README).

  soak.py HIVEBRIDGE [SECONDS]

Phase 0: IDLE sessions are opened and held on a fresh daemon (RLIMIT_NOFILE raised);
the RSS delta per session is printed.
Phase 1: on another daemon, ABUSERS clients loop short games (newgame, bestmove
depth 1, play) and abusive requests (newgame twice, an over-long line, binary junk,
a Trylobot frame that never ends, connect-and-drop), while one bystander measures
`info` round trips. The abusers run in a process of their own, so that the
bystander's figures are the daemon's and the kernel's, not this interpreter's lock.
The daemon's RSS, threads and descriptors (/proc) are printed at start, at their
peak and after the abusers left.
Phase 2: IDLE sessions again, on the daemon the abusers left.
"""
import multiprocessing, os, resource, socket, subprocess, sys, tempfile, threading, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
sys.dont_write_bytecode = True
import uhp_client

HB = sys.argv[1]
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else float(os.environ.get("SOAK_SECONDS", 10))
ABUSERS = int(os.environ.get("SOAK_ABUSERS", 8))
IDLE = int(os.environ.get("SOAK_IDLE", 10000))


def proc_figures(pid):
    rss = threads = 0
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
            elif line.startswith("Threads:"):
                threads = int(line.split()[1])
    return rss, threads, len(os.listdir("/proc/%d/fd" % pid))


def cpu_seconds(pid):
    """The daemon's user and system CPU time so far (all its threads)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_daemon(tmp):
    conf = os.path.join(tmp, "conf")
    with open(conf, "w") as f:
        f.write("[daemon]\nmax_sessions = %d\nmax_sessions_per_peer = %d\n"
                "[engine builtin]\nhash_mb = 1\n"
                "[listen uhp]\nport = 0\n[listen tb]\nprotocol = trylobot\nport = 0\n"
                % (IDLE + 200, IDLE + 200))
    d = subprocess.Popen([HB, "serve", "--config", conf], stderr=subprocess.PIPE, text=True)
    ports = []
    while len(ports) < 2:
        line = d.stderr.readline()
        if not line:
            raise SystemExit("soak: the daemon did not start")
        if line.startswith("listening on"):
            ports.append(int(line.split()[2].rsplit(":", 1)[1]))
    threading.Thread(target=lambda: [None for _ in d.stderr], daemon=True).start()
    return d, ports[0], ports[1]


def connect(port):
    return uhp_client.connect(port, timeout=30)


def reply(f):
    """The answer's lines (str) without "ok"; None when the connection ended first."""
    lines, ok = uhp_client.reply(f)
    return lines if ok else None


def abuser(k, port, tbport, stop):
    n = 0
    while not stop.is_set():
        try:
            kind = n % 5
            n += 1
            if kind == 0:          # a short game
                s, f = connect(port)
                reply(f)
                s.sendall(b"newgame Base\n")
                reply(f)
                for _ in range(6):
                    s.sendall(b"bestmove depth 1\n")
                    mv = reply(f)
                    if not mv or mv[0].startswith("err"):
                        break
                    s.sendall(("play " + mv[0] + "\n").encode())
                    reply(f)
            elif kind == 1:        # newgame twice, many times
                s, f = connect(port)
                reply(f)
                for _ in range(20):
                    s.sendall(b"newgame\nnewgame\n")
                    reply(f), reply(f)
            elif kind == 2:        # an over-long line, then junk
                s, f = connect(port)
                reply(f)
                s.sendall(b"x" * 200000 + b"\n" + os.urandom(4096) + b"\n")
                reply(f)
            elif kind == 3:        # a Trylobot frame that never ends
                s, f = connect(tbport)
                s.sendall(b"1000000#{\"request_type\":\"" + b"a" * 100000)
            else:                  # connect and drop
                s, f = connect(port)
            f.close()
            s.close()
        except OSError:
            pass


def idle(d, port, when):
    """Opens and holds IDLE sessions; prints the RSS delta per session."""
    want = min(IDLE, resource.getrlimit(resource.RLIMIT_NOFILE)[0] - 100)
    before = proc_figures(d.pid)
    held = []
    for i in range(want):
        try:
            c = socket.create_connection(("127.0.0.1", port), timeout=30)
        except OSError as e:
            print("  idle: stopped at %d: %s" % (i, e))
            break
        held.append(c)
        if i % 500 == 499:
            time.sleep(0.05)
    # Every session has answered its info block once its socket has data.
    for c in held:
        c.recv(1)
    time.sleep(1)
    after = proc_figures(d.pid)
    n = len(held)
    # /proc's "kB" are KiB.
    print("  %d idle sessions %s: RSS %+d KiB, %.1f KiB per session; fds %d"
          % (n, when, after[0] - before[0], (after[0] - before[0]) / max(n, 1), after[2]))
    for c in held:
        c.close()


def stop_daemon(d):
    d.terminate()
    try:
        d.wait(30)
    except subprocess.TimeoutExpired:
        d.kill()


def abusers(port, tbport, stop):
    ts = [threading.Thread(target=abuser, args=(k, port, tbport, stop)) for k in range(ABUSERS)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()


def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    tmp = tempfile.mkdtemp()
    d, port, tbport = start_daemon(tmp)
    try:
        time.sleep(0.5)
        print("soak: idle sessions on a fresh daemon")
        idle(d, port, "on a fresh daemon")
    finally:
        stop_daemon(d)
    d, port, tbport = start_daemon(tmp)
    try:
        s, f = connect(port)
        reply(f)
        time.sleep(0.5)
        start = proc_figures(d.pid)
        peak = list(start)
        cpu0, t0_wall = cpu_seconds(d.pid), time.time()
        stop = multiprocessing.Event()
        ab = multiprocessing.Process(target=abusers, args=(port, tbport, stop))
        ab.start()
        lat = []
        t_end = time.time() + SECONDS
        last = 0
        while time.time() < t_end:
            t0 = time.perf_counter()
            s.sendall(b"info\n")
            reply(f)
            lat.append((time.perf_counter() - t0) * 1000)
            if time.time() - last > 0.1:
                last = time.time()
                fig = proc_figures(d.pid)
                peak = [max(a, b) for a, b in zip(peak, fig)]
            time.sleep(0.01)
        cpu = cpu_seconds(d.pid) - cpu0
        wall = time.time() - t0_wall
        load = os.getloadavg()[0]
        stop.set()
        ab.join()
        time.sleep(3)     # refusals linger, closes drain
        end = proc_figures(d.pid)
        lat.sort()
        pct = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))]
        print("soak: %d abusers for %.0f s" % (ABUSERS, SECONDS))
        print("  %-6s %10s %8s %8s" % ("", "RSS KiB", "threads", "fds"))
        for name, v in (("start", start), ("peak", peak), ("end", end)):
            print("  %-6s %10d %8d %8d" % (name, v[0], v[1], v[2]))
        print("  RSS end - start: %+d KiB" % (end[0] - start[0]))
        print("  daemon CPU during the abuse: %.1f s in %.1f s (%.0f %% of one core); "
              "machine load average %.1f" % (cpu, wall, 100 * cpu / wall, load))
        print("  bystander info round trip: p50 %.2f ms, p99 %.2f ms, max %.2f ms (%d samples)"
              % (pct(0.5), pct(0.99), lat[-1], len(lat)))

        idle(d, port, "after the soak")
    finally:
        stop_daemon(d)


main()
