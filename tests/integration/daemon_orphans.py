# daemon_orphans.py: part of daemon_orphans.sh.
import socket, sys
port = int(sys.argv[1])
held = []
for i in range(2):
    s = socket.create_connection(("127.0.0.1", port), timeout=100)
    s.sendall(b"newgame Base\nbestmove depth 1\n")
    held.append(s)
for s in held:
    while s.recv(4096):     # until the daemon is gone
        pass
