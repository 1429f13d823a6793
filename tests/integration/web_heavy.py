# web_heavy.py: part of web_heavy.sh (its failure: "the heavy requests").
import json, socket, statistics, sys, threading, time, urllib.parse
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

stop = False
done = [0]
def hammer():
    # Each request on a connection of its own: a refusal closes it.
    while not stop:
        for n in (13400, 2300, 1800):
            try:
                position(game(n))
                done[0] += 1
            except (OSError, EOFError):
                pass
games = {n: game(n) for n in (13400, 2300, 1800)}
game = lambda n: games[n]
threads = [threading.Thread(target=hammer) for _ in range(4)]
for t in threads:
    t.start()
s = socket.create_connection(("127.0.0.1", uhp), timeout=20)
f = s.makefile("rb")
def answer():
    while f.readline().strip() != b"ok":
        pass
answer()                  # the greeting
lat = []
end = time.time() + 3
while time.time() < end:
    t = time.perf_counter()
    s.sendall(b"info\n")
    answer()
    lat.append((time.perf_counter() - t) * 1000)
stop = True
for t in threads:
    t.join()
p50 = statistics.median(lat)
print(f"bystander info: p50 {p50:.2f} ms, p90 {sorted(lat)[len(lat) * 9 // 10]:.2f} ms over {len(lat)};"
      f" {done[0]} position requests meanwhile")
assert p50 < 20, f"bystander p50 {p50:.2f} ms"
