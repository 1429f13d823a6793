# web_flood.py: part of web_flood.sh.
import json, os, resource, socket, sys, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from harness import wait_for, proc_fds as fds
http, uhp, pid, err, trace = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
tick = os.sysconf("SC_CLK_TCK")

def cpu():
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / tick        # utime + stime

def half_sent(src, n):
    out = []
    for _ in range(n):
        s = socket.socket()
        s.setblocking(False)
        s.bind((src, 0))
        try:
            s.connect(("127.0.0.1", http))
        except BlockingIOError:
            pass
        out.append(s)
    # Whatever connected sends its half request; the rest stays in the backlog.
    time.sleep(0.5)
    for s in out:
        try:
            s.send(b"GET / HTTP/1.1\r\n")
        except OSError:
            pass
    return out

def uhp_info():
    t = time.time()
    s = socket.create_connection(("127.0.0.1", uhp), timeout=10)
    f = s.makefile("rb")
    lines = []
    while not lines or lines[-1] != b"ok":      # the greeting
        lines.append(f.readline().strip())
    s.sendall(b"info\n")
    lines = []
    while not lines or lines[-1] != b"ok":
        l = f.readline()
        assert l, "UHP closed"
        lines.append(l.strip())
    s.close()
    assert lines[0].startswith(b"id "), lines
    return time.time() - t

def http_get(src):
    s = socket.create_connection(("127.0.0.1", http), timeout=10, source_address=(src, 0))
    s.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % http)
    buf = b""
    try:
        while True:
            d = s.recv(65536)
            if not d:
                break
            buf += d
    except ConnectionResetError:
        pass
    s.close()
    head, _, body = buf.partition(b"\r\n\r\n")
    return int(head.split()[1]) if head else 0, body

def sizes():
    return os.path.getsize(err), os.path.getsize(trace)

def quiet_and_cool(what):
    """Over 3 s: little CPU, little log."""
    c0, (e0, t0) = cpu(), sizes()
    time.sleep(3)
    used, (e1, t1) = cpu() - c0, sizes()
    print(f"{what}: {used / 3 * 100:.0f} % of a core, log +{t1 - t0} bytes, stderr +{e1 - e0} bytes")
    assert used < 0.9, f"{what}: the daemon used {used:.2f} s of CPU in 3 s"
    assert t1 - t0 < 65536 and e1 - e0 < 65536, f"{what}: logs grew {t1 - t0}, {e1 - e0} bytes"

base = fds(pid)
# One address, more connections than the daemon has descriptors.
flood = half_sent("127.0.0.2", 300)
quiet_and_cool("one address")
dt = uhp_info()
print(f"UHP info during the flood: {dt * 1000:.1f} ms")
st, body = http_get("127.0.0.3")
assert st == 200 and b'"games"' in body, (st, body[:200])
assert fds(pid) < 100, f"{fds(pid)} descriptors"
for s in flood:
    s.close()
wait_for(lambda: fds(pid) <= base, 30, f"descriptors back to {base} (now {fds(pid)})")
print("one address: ok")

# Many addresses: the HTTP connections are all taken; UHP still answers.
flood = []
for a in range(2, 12):
    flood += half_sent(f"127.0.0.{a}", 40)
quiet_and_cool("ten addresses")
dt = uhp_info()
print(f"UHP info during the flood: {dt * 1000:.1f} ms")
st, body = http_get("127.0.0.20")
assert st in (0, 503), (st, body[:200])
assert st == 0 or json.loads(body) == {"error": "too many connections"}, body
for s in flood:
    s.close()
wait_for(lambda: fds(pid) <= base, 30, f"descriptors back to {base} (now {fds(pid)})")
st, body = http_get("127.0.0.20")
assert st == 200, (st, body[:200])
print("ten addresses: ok")
