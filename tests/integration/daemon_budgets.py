# daemon_budgets.py: part of daemon_budgets.sh (its failure: "budgets").
import json, os, socket, sys, threading, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from harness import wait_for

pid = int(sys.argv[1]); frames = sys.argv[2]
P_UHP, P_LOOSE, P_TB, P_HUB, P_TBSHORT = map(int, sys.argv[3:8])
POOL = 2

def stats():
    st = {}
    with open(f"/proc/{pid}/status") as f:
        for l in f:
            k, _, v = l.partition(":")
            st[k] = v.strip()
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return {"rss_kb": int(st["VmRSS"].split()[0]), "threads": int(st["Threads"]),
            "tasks": len(os.listdir(f"/proc/{pid}/task")),
            "fds": len(os.listdir(f"/proc/{pid}/fd")),
            "cpu": int(fields[11]) + int(fields[12])}

def show(what, s):
    print(f"  {what}: RSS {s['rss_kb'] / 1024:.1f} MB, threads {s['threads']} "
          f"(tasks {s['tasks']}), fds {s['fds']}")

def idle():
    """True once the daemon burns no CPU over 300 ms (clock ticks are 10 ms)."""
    a = stats()["cpu"]; time.sleep(0.3); return stats()["cpu"] - a <= 2

class Uhp:
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.f = self.s.makefile("rb")
        self.answer()
    def send(self, line):
        self.s.sendall(line.encode() + b"\n")
    def answer(self):
        out = []
        while True:
            l = self.f.readline()
            if not l:
                raise SystemExit(f"FAIL: connection closed after {out}")
            l = l.decode().rstrip("\n")
            if l == "ok":
                return out
            out.append(l)
    def cmd(self, line):
        self.send(line); return self.answer()
    def close(self):
        self.f.close(); self.s.close()

def tb_frame(name, deadline_ms):
    raw = open(os.path.join(frames, name), "rb").read().decode()
    req = json.loads(raw.split("#", 1)[1])
    req["response_deadline"] = req["request_timestamp"] + deadline_ms
    j = json.dumps(req, ensure_ascii=True)
    return f"{len(j)}#{j}".encode()

base = stats()
show("at start", base)

# 1. Work that outlives its client.
def abandon(what, port, start):
    s0 = stats()
    conn = start(port)
    # The search is under way: the CPU is busy.
    wait_for(lambda: stats()["cpu"] - s0["cpu"] > 50, 20, what + ": search running", detail=stats)
    during = stats()
    conn.close()
    t0 = time.monotonic()
    wait_for(lambda: idle() and stats()["fds"] <= base["fds"] and
             stats()["threads"] <= base["threads"] + POOL, 5, what + ": work stopped and released",
             detail=stats)
    t = time.monotonic() - t0
    after = stats()
    show(what + ", during", during); show(what + f", after (quiet in {t:.2f} s)", after)
    if after["rss_kb"] > base["rss_kb"] + 8 * 1024:
        raise SystemExit(f"FAIL: {what}: RSS stayed at {after['rss_kb']} kB (start {base['rss_kb']})")

def uhp_depth(port):
    c = Uhp(port)
    c.cmd("options set HashMB 256"); c.cmd("newgame Base+MLP"); c.send("bestmove depth 64")
    return c
def uhp_time(port):
    c = Uhp(port)
    c.cmd("newgame Base+MLP"); c.send("bestmove time 23:59:59")
    return c
def tb_far(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.sendall(tb_frame("choose-turn-mlp-stack-abilities.frame", 3600 * 1000))
    return s
print("a client that leaves mid-search:")
abandon("UHP bestmove depth 64, HashMB 256", P_LOOSE, uhp_depth)
abandon("UHP bestmove time 23:59:59", P_LOOSE, uhp_time)
abandon("Trylobot, deadline in an hour", P_TB, tb_far)

# 2. Per-listener bounds.
c = Uhp(P_UHP)
c.cmd("newgame")
a = c.cmd("bestmove depth 1000")
assert len(a) == 1 and a[0].startswith("err Depth 1000 is beyond"), a
a = c.cmd("bestmove time 99:59:59")
assert len(a) == 1 and a[0].startswith("err A search of 359999 s is beyond"), a
a = c.cmd("bestmove depth 2")
assert len(a) == 1 and not a[0].startswith("err"), a
c.close()
h = socket.create_connection(("127.0.0.1", P_HUB), timeout=30)
hf = h.makefile("rb")
h.sendall(b"hub\n")
while True:
    l = hf.readline()
    assert l, "hub: closed before wait"
    if l.strip() == b"wait":
        break
h.sendall(b"init\nlevel depth=1000\nping\n")
got = []
while True:
    l = hf.readline().decode().strip()
    got.append(l)
    if l == "pong" or not l:
        break
assert any(l.startswith("error message=") and "depth=1000" in l for l in got), got
h.close()
s = socket.create_connection(("127.0.0.1", P_TBSHORT), timeout=30)
t0 = time.monotonic()
s.sendall(tb_frame("choose-turn-mlp-stack-abilities.frame", 3600 * 1000))
buf = b""
while not buf.endswith(b"}"):
    d = s.recv(65536)
    assert d, "tbshort: closed"
    buf += d
el = time.monotonic() - t0
assert el < 10, f"Trylobot deadline not clamped to max_think_time (1 s, the request asked an hour): {el:.1f} s"
assert b'"turn_type"' in buf, buf[:200]
s.close()
print(f"bounds: UHP and Hub refusals; a Trylobot deadline an hour away answered in {el:.2f} s")

# 3. Memory budget (300 MB). A session searching holds its 256 MB: the next 256 MB
#    request gets 32. Tables of sessions not searching are taken back, least recently
#    searched first, before a request is made smaller.
big = Uhp(P_LOOSE)
big.cmd("options set HashMB 256"); big.cmd("newgame Base+MLP")
s0 = stats()
big.send("bestmove time 00:00:03")
wait_for(lambda: stats()["cpu"] - s0["cpu"] > 20, 10, "big search running", detail=stats)
small = Uhp(P_LOOSE)
small.cmd("options set HashMB 256"); small.cmd("newgame"); small.cmd("bestmove depth 1")
a = small.cmd("options get HashMB")
assert a and a[0].startswith("HashMB;int;32;"), a
a = big.answer()        # its search ends; it keeps its table, now idle
assert len(a) == 1 and not a[0].startswith("err"), a
small.cmd("newgame"); small.cmd("bestmove depth 1")
a = small.cmd("options get HashMB")
assert a and a[0].startswith("HashMB;int;256;"), f"idle table not taken back: {a}"
# Hogging: sessions that searched once and went idle never lock later ones out.
hogs = [Uhp(P_LOOSE) for _ in range(4)]
for h in hogs:
    h.cmd("options set HashMB 128"); h.cmd("newgame"); h.cmd("bestmove depth 1")
    a = h.cmd("options get HashMB")
    assert a and a[0].startswith("HashMB;int;128;"), f"a later session got {a}"
a = small.cmd("bestmove depth 1")
assert len(a) == 1 and not a[0].startswith("err"), a
a = small.cmd("options get HashMB")
assert a and a[0].startswith("HashMB;int;256;"), a
for c in hogs + [big, small]:
    c.close()
print("budget: 256 + 32 MB of 300 while searching; idle tables taken back, oldest first")

# 4. A fixed pool: 12 clients ask for 2 s searches at once.
n = 12
conns = [Uhp(P_LOOSE) for _ in range(n)]
for c in conns:
    c.cmd("newgame Base+MLP")
res = [None] * n
def ask(i):
    t0 = time.monotonic()
    a = conns[i].cmd("bestmove time 00:00:02")
    res[i] = (time.monotonic() - t0, a)
ths = [threading.Thread(target=ask, args=(i,)) for i in range(n)]
for t in ths:
    t.start()
peak = stats()
while any(t.is_alive() for t in ths):
    s = stats()
    if s["threads"] > peak["threads"] or s["rss_kb"] > peak["rss_kb"]:
        peak = s
    time.sleep(0.05)
moves = [r for r in res if not r[1][0].startswith("err")]
errs = [r for r in res if r[1][0].startswith("err")]
late = [r for r in res if r[0] > 3.5]     # queued ones would answer at 4, 6, ... s
show(f"{n} concurrent 2 s searches, peak", peak)
print(f"  {len(moves)} moves, {len(errs)} refused, slowest answer {max(r[0] for r in res):.2f} s")
assert peak["threads"] <= base["threads"] + POOL, f"threads grew to {peak['threads']}"
assert len(moves) >= POOL, res
assert not late, f"late answers: {late}"
assert all("busy" in r[1][0] for r in errs), errs
for c in conns:
    c.close()

# 4b. A queued search whose time runs out before a worker is free is answered at its
#     deadline with an error, not when a worker comes free.
long = [Uhp(P_LOOSE) for _ in range(POOL)]
for c in long:
    c.cmd("newgame Base+MLP")
wait_for(idle, 5, "quiet before the queue test", detail=stats)
s0 = stats()
for c in long:
    c.send("bestmove time 00:00:08")
wait_for(lambda: stats()["cpu"] - s0["cpu"] > 40, 10, "both workers busy", detail=stats)
q = Uhp(P_LOOSE)
q.cmd("newgame Base+MLP")
t0 = time.monotonic()
a = q.cmd("bestmove time 00:00:01")
el = time.monotonic() - t0
print(f"queued 1 s search behind {POOL} 8 s searches: answered in {el:.2f} s: {a}")
assert len(a) == 1 and a[0].startswith("err") and "busy" in a[0], a
# The workers come free some 8 s on: half of that is a loaded machine's margin.
assert el < 4.5, f"the queued search was answered after {el:.2f} s, not at its deadline"
for c in long:
    a = c.answer()
    assert len(a) == 1 and not a[0].startswith("err"), a
    c.close()
q.close()

# 5. newgame gives the table back; idle sessions stay small.
wait_for(idle, 5, "quiet before the newgame test", detail=stats)
s0 = stats()
conns = [Uhp(P_LOOSE) for _ in range(50)]
for c in conns:
    c.cmd("newgame"); c.cmd("newgame"); c.cmd("bestmove depth 3"); c.cmd("newgame")
held = stats()
for c in conns:
    c.close()
wait_for(lambda: stats()["fds"] <= s0["fds"], 5, "sessions closed", detail=stats)
after = stats()
per = (held["rss_kb"] - s0["rss_kb"]) / 50
show("before 50 sessions", s0)
show("50 sessions held after newgame, newgame, bestmove, newgame", held)
show("after they closed", after)
print(f"  {per:.1f} kB per idle session")
assert per < 100, f"{per:.0f} kB per idle session"
assert after["rss_kb"] < s0["rss_kb"] + 5 * 1024, "RSS not back within 5 MB"

# 6. perft runs on the pool: a bystander is answered at once, and perft stops when
#    its client goes.
by = Uhp(P_UHP)
by.cmd("newgame")
a = Uhp(P_LOOSE)
a.cmd("newgame Base+MLP")
# A middle game where each perft 12 takes seconds (up to the interior-node cap).
for m in ["wS1", "bG1 -wS1", "wQ wS1/", "bQ /bG1", "wA1 wQ/", "bA1 -bG1", "wA2 wS1\\", "bA2 /bA1"]:
    r = a.cmd("play " + m)
    assert r and not r[0].startswith(("err", "invalidmove")), (m, r)
s0 = stats()
a.send("perft 12\nperft 12\nperft 12")
wait_for(lambda: stats()["cpu"] - s0["cpu"] > 50, 20, "perft running", detail=stats)
lat = []
for _ in range(20):
    t0 = time.monotonic(); by.cmd("info"); lat.append(time.monotonic() - t0)
    time.sleep(0.02)
a.close()
t0 = time.monotonic()
wait_for(idle, 5, "perft stopped", detail=stats)
t = time.monotonic() - t0
by.close()
print(f"perft: bystander's info while 3 perft 12 run: worst {max(lat) * 1000:.1f} ms; "
      f"quiet {t:.2f} s after the client left")
assert max(lat) < 1.0, f"bystander waited {max(lat):.2f} s"
