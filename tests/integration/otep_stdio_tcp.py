# otep_stdio_tcp.py: part of otep_stdio.sh (its failure: "TCP session").
import socket, sys

port = int(sys.argv[1])
s = socket.create_connection(("127.0.0.1", port), timeout=20)
f = s.makefile("rb")
def read():
    while True:
        l = f.readline().decode().rstrip("\r\n")
        if not l.startswith("status "):
            return l
assert read() == "hello"
assert read() == "simple-moves on"
# A second client while the first holds the only session: refused in OTEP's words.
t = socket.create_connection(("127.0.0.1", port), timeout=20)
got = t.makefile("rb").readline().decode()
assert got.startswith("error -1 "), got
t.close()
s.sendall(b"rules Base+MLP\nopponent-move - Base+MLP;NotStarted;White[1]\nplay white\nclock 5000 5000 0 0 0\n")
l = read()
assert l.startswith("move "), l
s.sendall(b"goodbye\n")
assert f.readline() == b""
print("ok tcp: %s; refused: %s" % (l, got.strip()))
