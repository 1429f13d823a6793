# web_heavy.py: part of web_heavy.sh (its failure: "the heavy requests").
import json, multiprocessing, os, socket, statistics, sys, time, urllib.parse
http, uhp = int(sys.argv[1]), int(sys.argv[2])

def game(n):
    """A valid GameString of n plies: two ants going round their queens."""
    m = ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wA1 -wQ", "bA1 bQ-"]
    cyc = ["wA1 wQ/", "bA1 /bQ", "wA1 -wQ", "bA1 bQ-"]
    m += [cyc[i % 4] for i in range(n - len(m))]
    return f"Base;InProgress;{'White' if n % 2 == 0 else 'Black'}[{n // 2 + 1}];" + ";".join(m)

def position(gs, conn=None):
    s = conn or socket.create_connection(("127.0.0.1", http), timeout=20)
    s.sendall(b"GET /api/position?game=" + urllib.parse.quote(gs).encode() +
              b" HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % http)
    buf = b""
    while b"\r\n\r\n" not in buf:
        d = s.recv(65536)
        if not d:
            raise EOFError
        buf += d
    head, body = buf.split(b"\r\n\r\n", 1)
    n = int([l.split(b":")[1] for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")][0])
    while len(body) < n:
        body += s.recv(65536)
    if conn is None:
        s.close()
    return int(head.split()[1]), json.loads(body)

st, p = position(game(1800))
assert st == 200 and p["ply"] == 1800, (st, str(p)[:200])
over = game(2300)
assert 16384 < len(over) and len(urllib.parse.quote(over)) < 31 * 1024, len(over)
st, e = position(over)
assert st == 413 and e == {"error": "GameString too long: at most 16384 bytes"}, (st, e)
st, e = position(game(13400))
assert st == 431 and e == {"error": "request head too large"}, (st, e)
print("lengths: ok")

def run_delay(pid, tid):
    """ns thread tid of pid has spent runnable, waiting for a CPU (/proc schedstat)."""
    with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
        return int(f.read().split()[1])

def hammer(stop, done):
    # Each request on a connection of its own: a refusal closes it. A process of its
    # own, so that the bystander below never waits for this one's interpreter lock.
    while not stop.is_set():
        for n in (13400, 2300, 1800):
            try:
                position(game(n))
                with done.get_lock():
                    done.value += 1
            except (OSError, EOFError):
                pass
games = {n: game(n) for n in (13400, 2300, 1800)}
game = lambda n: games[n]
stop, done = multiprocessing.Event(), multiprocessing.Value("i", 0)
hammers = [multiprocessing.Process(target=hammer, args=(stop, done)) for _ in range(4)]
for h in hammers:
    h.start()
s = socket.create_connection(("127.0.0.1", uhp), timeout=20)
f = s.makefile("rb")
def answer():
    while f.readline().strip() != b"ok":
        pass
answer()                  # the greeting
# The daemon's loop is its main thread. What the machine's load costs a round trip
# (the loop's and this client's waits for a CPU) is not counted against the loop:
# at a load of 16 on 2 cores a waiting thread alone can take 20 ms.
daemon, me = int(sys.argv[3]), os.getpid()
lat, raw = [], []
end = time.time() + 3
while time.time() < end:
    d0, m0 = run_delay(daemon, daemon), run_delay(me, me)
    t = time.perf_counter()
    s.sendall(b"info\n")
    answer()
    ms = (time.perf_counter() - t) * 1000
    waited = (run_delay(daemon, daemon) - d0 + run_delay(me, me) - m0) / 1e6
    raw.append(ms)
    lat.append(max(ms - waited, 0))
stop.set()
for h in hammers:
    h.join(timeout=60)
    assert h.exitcode == 0, h.exitcode
p50 = statistics.median(lat)
print(f"bystander info: p50 {p50:.2f} ms, p90 {sorted(lat)[len(lat) * 9 // 10]:.2f} ms over {len(lat)}"
      f" less the waits for a CPU (as measured: p50 {statistics.median(raw):.2f} ms);"
      f" {done.value} position requests meanwhile")
assert p50 < 20, f"bystander p50 {p50:.2f} ms"
