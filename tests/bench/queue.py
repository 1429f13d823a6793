#!/usr/bin/env python3
"""queue.py: `match --queue` and `worker` on this machine, for a bounded time. Prints
figures, judges nothing (docs/scale.md quotes them).

  queue.py HIVEBRIDGE

A redis-server of its own (a free loopback port, a temporary directory, no
persistence). The same match (the 10 openings of conf/openings-base.txt played
twice, fixed depth QUEUE_DEPTH, default 4, --max-plies 60) is played:
  - locally, --concurrency 1 and 2 (the reference: no queue);
  - through the queue with 1, 2 and 4 workers (--concurrency 1 each).
Per queued run: games per minute (from the workers' start to the coordinator's
exit), the coordinator's CPU time per game (its rusage: utime + stime, all of its
life), and the latency from a result's XADD to its line in the results file: a
second reader blocked on the results stream wakes with the coordinator, then polls
the file (every 0.1 ms) until the game's line is there.
"""
import json, os, socket, subprocess, sys, tempfile, threading, time

HB = os.path.abspath(sys.argv[1])
TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEPTH = int(os.environ.get("QUEUE_DEPTH", 4))
BOUND = float(os.environ.get("QUEUE_SECONDS", 300))   # the whole benchmark
START = time.monotonic()
OPTS = ["--openings", os.path.join(TOP, "conf/openings-base.txt"), "--games", "20",
        "--max-plies", "60", "--depth", str(DEPTH)]
ENGINES = ["builtin:depth=%d" % DEPTH, "builtin:depth=%d" % (DEPTH - 1)]
GAMES = 20


def left():
    return max(1.0, BOUND - (time.monotonic() - START))


class Resp:
    """Just enough RESP for XREAD: commands out, nested replies in."""

    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.f = self.s.makefile("rb")

    def cmd(self, *args):
        out = b"*%d\r\n" % len(args)
        for a in args:
            a = str(a).encode()
            out += b"$%d\r\n%s\r\n" % (len(a), a)
        self.s.sendall(out)
        return self.read()

    def read(self):
        line = self.f.readline()
        if not line:
            raise EOFError("redis closed the connection")
        t, rest = line[:1], line[1:-2]
        if t in (b"+", b"-"):
            return rest.decode() if t == b"+" else RuntimeError(rest.decode())
        if t == b":":
            return int(rest)
        if t == b"$":
            n = int(rest)
            if n < 0:
                return None
            data = self.f.read(n + 2)[:-2]
            return data.decode()
        if t == b"*":
            n = int(rest)
            return None if n < 0 else [self.read() for _ in range(n)]
        raise RuntimeError("RESP: unexpected %r" % line)

    def close(self):
        self.s.close()


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def redis_start(tmp):
    for _ in range(5):
        port = free_port()
        log = os.path.join(tmp, "redis.log")
        open(log, "w").close()
        r = subprocess.Popen(["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--dir", tmp,
                              "--save", "", "--appendonly", "no", "--daemonize", "no", "--logfile", log])
        end = time.monotonic() + 20
        while time.monotonic() < end and r.poll() is None:
            if "Ready to accept" in open(log).read():
                return r, port
            time.sleep(0.05)
        r.kill()
        r.wait()
        if "Address already in use" not in open(log).read():
            raise SystemExit("queue: redis-server did not start:\n" + open(log).read())
    raise SystemExit("queue: no port for redis-server after 5 tries")


def local(tmp, k):
    t0 = time.monotonic()
    subprocess.run([HB, "match"] + OPTS + ["--concurrency", str(k)] + ENGINES, check=True,
                   stdout=subprocess.DEVNULL, timeout=left())
    wall = time.monotonic() - t0
    print("local match, --concurrency %d: %d games in %.1f s: %.0f games/min" % (k, GAMES, wall,
                                                                               GAMES * 60 / wall))


def watch(port, key, path, lat, stop):
    """The second reader: wakes at each XADD, then waits for the line in path."""
    r = Resp(port)
    cur = "0-0"
    seen = set()
    while not stop.is_set():
        rep = r.cmd("XREAD", "COUNT", "100", "BLOCK", "200", "STREAMS", key, cur)
        woke = time.monotonic()
        if not rep:
            continue
        for _, entries in rep:
            for eid, fields in entries:
                cur = eid
                f = dict(zip(fields[0::2], fields[1::2]))
                game = json.loads(f["line"])["game"]
                ms = int(eid.split("-")[0])
                end = woke + 2
                while time.monotonic() < end:
                    if os.path.exists(path):
                        with open(path) as fh:
                            seen.update(json.loads(l)["game"] for l in fh if l.endswith("\n"))
                    if game in seen:
                        lat.append((time.monotonic() - woke, time.time() - ms / 1000))
                        break
                    time.sleep(0.0001)
    r.close()


def queued(tmp, port, n):
    name = "b%d" % n
    url = "redis://127.0.0.1:%d/%s" % (port, name)
    res = os.path.join(tmp, name + ".jsonl")
    out = open(os.path.join(tmp, name + ".out"), "w+")
    coord = subprocess.Popen([HB, "match"] + OPTS + ["--queue", url, "--results", res] + ENGINES,
                             stdout=out, stderr=subprocess.STDOUT)
    end = time.monotonic() + 20
    while "queue redis://" not in open(out.name).read():
        if coord.poll() is not None or time.monotonic() > end:
            raise SystemExit("queue: the coordinator did not start:\n" + open(out.name).read())
        time.sleep(0.02)
    lat, stop = [], threading.Event()
    th = threading.Thread(target=watch, args=(port, "hivebridge:%s:results" % name, res, lat, stop))
    th.start()
    t0 = time.monotonic()
    workers = [subprocess.Popen([HB, "worker", "--queue", url, "--name", "%s-w%d" % (name, i)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for i in range(n)]
    status = ru = None
    end = time.monotonic() + left()
    while time.monotonic() < end:
        pid, status, ru = os.wait4(coord.pid, os.WNOHANG)
        if pid:
            coord.returncode = status
            break
        time.sleep(0.01)
    wall = time.monotonic() - t0
    stop.set()
    th.join()
    for w in workers + [coord]:
        if w.returncode is None:
            try:
                w.wait(10)
            except subprocess.TimeoutExpired:
                w.kill()
                w.wait()
    if ru is None or status != 0:
        raise SystemExit("queue: the coordinator with %d workers did not finish:\n%s" % (n, open(out.name).read()))
    cpu = ru.ru_utime + ru.ru_stime
    wake = sorted(l[0] * 1e3 for l in lat)
    idms = sorted(l[1] * 1e3 for l in lat)
    pct = lambda v, p: v[min(len(v) - 1, int(len(v) * p))] if v else float("nan")
    print("queue, %d worker%s: %d games in %.1f s: %.0f games/min; coordinator CPU %.1f ms in all, %.2f ms a game "
          "(max RSS %d kB)" % (n, "s" if n > 1 else "", GAMES, wall, GAMES * 60 / wall, cpu * 1e3, cpu * 1e3 / GAMES,
                              ru.ru_maxrss))
    print("  result on the stream -> line in the results file: p50 %.2f ms, p90 %.2f ms, max %.2f ms (%d results); "
          "from the entry ID's time (1 ms resolution): p50 %.1f ms, max %.1f ms" %
          (pct(wake, 0.5), pct(wake, 0.9), wake[-1] if wake else float("nan"), len(wake), pct(idms, 0.5),
           idms[-1] if idms else float("nan")))


def main():
    print("match of %d games, %s vs %s, --max-plies 60, on %d CPUs (load average %s)" %
          (GAMES, ENGINES[0], ENGINES[1], os.cpu_count(), open("/proc/loadavg").read().split()[0]))
    with tempfile.TemporaryDirectory(prefix="hb-bench-queue.") as tmp:
        r, port = redis_start(tmp)
        try:
            for k in (1, 2):
                local(tmp, k)
            for n in (1, 2, 4):
                queued(tmp, port, n)
        finally:
            r.terminate()
            r.wait(10)


if __name__ == "__main__":
    main()
