# web_caps.py: part of web_caps.sh (its failure: "the caps").
import json, socket, sys
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from harness import wait_for, proc_fds as fds
port, pid = int(sys.argv[1]), sys.argv[2]

class Conn:
    """One HTTP/1.1 connection from address src, kept open unless told to close."""
    def __init__(self, src):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=20, source_address=(src, 0))
        self.buf = b""
    def fill(self):
        d = self.s.recv(65536)
        if not d:
            raise EOFError
        self.buf += d
    def until(self, mark):
        while mark not in self.buf:
            self.fill()
    def send(self, method, path, body=None, close=False):
        data = json.dumps(body).encode() if body is not None else b""
        head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: {len(data)}\r\n"
                "Content-Type: application/json\r\n")
        if close:
            head += "Connection: close\r\n"
        self.s.sendall(head.encode() + b"\r\n" + data)
        self.until(b"\r\n\r\n")
        h, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = h.decode().split("\r\n")
        self.status = int(lines[0].split()[1])
        self.headers = {l.split(":", 1)[0].lower(): l.split(":", 1)[1].strip() for l in lines[1:]}
        return self.status
    def body(self):
        n = int(self.headers["content-length"])
        while len(self.buf) < n:
            self.fill()
        b, self.buf = self.buf[:n], self.buf[n:]
        return json.loads(b)
    def eof(self):
        """The server closed it (and so let go of it)."""
        try:
            while True:
                self.fill()
        except EOFError:
            pass
        self.close()
    def close(self):
        self.s.close()

def refused(c, why):
    """A 503 with its JSON reason; the connection closes."""
    assert c.status == 503, (c.status, c.buf)
    e = c.body()
    assert e == {"error": why}, e
    c.eof()

def stream(src, seat=None):
    """An event stream from src: the open Conn, or None after a 503 (and its reason)."""
    c = Conn(src)
    st = c.send("GET", "/api/events" + (f"?seat={seat}" if seat else ""), close=True)
    if st != 200:
        e = c.body()
        c.eof()
        return None, e["error"]
    c.until(b"event: seat" if seat else b"event: hello")
    return c, None

def keep(src):
    """A kept-alive connection that made one request: the Conn, or None and why."""
    c = Conn(src)
    st = c.send("GET", "/api/games")
    e = c.body()
    if st != 200:
        assert st == 503, (st, e)
        c.eof()
        return None, e["error"]
    return c, None

def req(src, method, path, body=None):
    c = Conn(src)
    st = c.send(method, path, body, close=True)
    o = c.body()
    c.eof()
    return st, o

def opened(results, ok, why):
    got = [c for c, _ in results if c]
    errs = [e for c, e in results if not c]
    assert len(got) == ok and all(e == why for e in errs) and errs, (len(got), ok, errs)
    return got

base = fds(pid)

# One address takes what it can: 16 streams, then 32 connections in all.
s1 = opened([stream("127.0.0.1") for _ in range(24)], 16, "too many event streams from your address")
k1 = opened([keep("127.0.0.1") for _ in range(24)], 16, "too many connections from your address")
# Another address is still served.
s2, e = stream("127.0.0.2")
assert s2, e
st, g = req("127.0.0.2", "GET", "/api/games")
assert st == 200 and "games" in g, (st, g)
print("per peer: ok")
for c in s1 + k1 + [s2]:
    c.close()
wait_for(lambda: fds(pid) <= base, 30, f"descriptors back to {base} (now {fds(pid)})")
print("descriptors after the hostile peer: ok")

# Two web persons play; then spectators (several peers) take every shared stream and
# other peers every connection: the persons' streams still come in.
def join(name, src):
    st, s = req(src, "POST", "/api/lobby/join", {"lobby": "remote", "type": "Base", "name": name})
    assert st == 201 and s["state"] == "waiting", (st, s)
    return s["token"]
def seat(tok, src):
    st, s = req(src, "POST", "/api/lobby/seat", {"token": tok})
    assert st == 200, (st, s)
    return s
ta, tb = join("alice", "127.0.0.5"), join("bob", "127.0.0.6")
wait_for(lambda: seat(ta, "127.0.0.5")["state"] == "playing", 20, "paired")
spect = [stream(f"127.0.0.{a}") for a in (2, 3) for _ in range(16)]
assert all(c for c, _ in spect), [e for _, e in spect]
spect = [c for c, _ in spect]
c, e = stream("127.0.0.4")
assert not c and e == "too many event streams", e
kept = [keep(f"127.0.0.{a}") for a in (7, 8) for _ in range(16)]
assert all(c for c, _ in kept), [e for _, e in kept]
kept = [c for c, _ in kept]
c, e = keep("127.0.0.9")
assert not c and e == "too many connections", e
sa, e = stream("127.0.0.5", ta)
assert sa, e
assert b'"state":"playing"' in sa.buf, sa.buf
sb, e = stream("127.0.0.6", tb)
assert sb, e
# One reserved stream per seat, for a connection as for a stream.
c, e = stream("127.0.0.5", ta)
assert not c and e == "too many connections", e
for c in kept:
    c.close()
def second():
    c, e = stream("127.0.0.5", ta)
    assert not c, "a second reserved stream"
    return e if e != "too many connections" else None
e = wait_for(second, 20, "connections free again")
assert e == "too many event streams", e
print("seats' reserve: ok")
for c in spect:
    c.close()
# The persons are still seated, their streams open.
c, e = stream("127.0.0.5", "0" * 32)
assert c and b'"state":"unknown"' in c.buf, (e, c and c.buf)
c.close()
assert seat(ta, "127.0.0.5")["state"] == "playing"
assert seat(tb, "127.0.0.6")["state"] == "playing"
st, s = req("127.0.0.5", "POST", "/api/lobby/resign", {"token": ta})
assert st == 200 and s["state"] == "over", (st, s)
sa.close()
sb.close()
wait_for(lambda: fds(pid) <= base, 30, f"descriptors back to {base} (now {fds(pid)})")
print("descriptors: ok")
