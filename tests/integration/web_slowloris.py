# web_slowloris.py: part of web_slowloris.sh (its failure: "the slow requests").
import select, socket, sys, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from harness import wait_for, exchange, proc_status, proc_fds as fds
port, pid = int(sys.argv[1]), int(sys.argv[2])

def rss():
    return proc_status(pid, "VmRSS") * 1024

def head(n):
    """About n bytes of a request head without its end."""
    h = b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % port
    i = 0
    while len(h) < n:
        h += b"X-Pad-%d: %s\r\n" % (i, b"y" * 48)
        i += 1
    return h

def opener(src, data):
    s = socket.socket()
    s.bind((src, 0))
    s.settimeout(5)
    try:
        s.connect(("127.0.0.1", port))
        s.setblocking(False)
        s.send(data)
    except OSError:
        pass
    return s

def get(path):
    return exchange(port, b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % port,
                    10)

get(b"/api/games")
base_fds, before = fds(pid), rss()

# The slow ones: a byte every 0.5 s after the header lines.
conns = {}
t0 = time.time()
for i in range(20):
    s = opener("127.0.0.2", head(24 * 1024))
    conns[s] = None
answers = {}
while conns and time.time() - t0 < 15:
    for s in list(conns):
        try:
            s.send(b"z")
        except OSError:
            pass
    r, _, _ = select.select(list(conns), [], [], 0.5)
    for s in r:
        try:
            d = s.recv(4096)
        except OSError:
            d = b""
        answers[s] = (time.time() - t0, d[:12])
        del conns[s]
        s.close()
worst = max(t for t, _ in answers.values()) if answers else None
print(f"slow requests closed: {len(answers)} of 20, the last after {worst and round(worst, 1)} s;"
      f" answers {sorted(set(a for _, a in answers.values()))}")
assert not conns, f"{len(conns)} slow requests still open after 15 s"
assert worst < 6, f"a slow request lasted {worst:.1f} s (the deadline is 2 s)"
assert all(a in (b"", b"HTTP/1.1 408") for _, a in answers.values()), answers.values()

# Many big heads at once.
held = []
for a in range(2, 10):
    for i in range(40):
        held.append(opener(f"127.0.0.{a}", head(100 * 1024 if i % 2 else 28 * 1024)))
during, nfds = rss(), fds(pid)
for s in held:
    s.close()
wait_for(lambda: fds(pid) <= base_fds, 30, f"descriptors back to {base_fds} (now {fds(pid)})")
get(b"/api/games")
after = rss()
mb = lambda x: round(x / 1048576, 1)
print(f"VmRSS before {mb(before)} MB, during {mb(during)} MB ({nfds} descriptors), after {mb(after)} MB")
assert during - before < 24 << 20, "memory during the heads"
assert after - before < 8 << 20, "memory after the heads"
