# engine_tree_crash.py: part of engine_tree.sh (its failure: "serve: the crash session").
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=50)
f = s.makefile("rb")
s.sendall(b"newgame Base\nbestmove depth 1\n")
oks, err = 0, False
while oks < 3:           # info, newgame, bestmove
    line = f.readline()
    assert line, "connection closed"
    err = err or line.startswith(b"err ")
    oks += line == b"ok\n"
assert err, "no err after the crash"
s.sendall(b"info\n")     # the session goes on
while f.readline() != b"ok\n":
    pass
