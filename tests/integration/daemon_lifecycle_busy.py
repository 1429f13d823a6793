# daemon_lifecycle_busy.py: part of daemon_lifecycle.sh.
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=30)
s.sendall(b"newgame Base\nbestmove depth 1\n")
f = s.makefile("rb")
while f.readline():
    pass
