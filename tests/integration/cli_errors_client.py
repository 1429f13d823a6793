# cli_errors_client.py: part of cli_errors.sh (its failure: "client").
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=20)
s.sendall(b"newgame\n")
buf = b""
while b"ok\n" not in buf:
    d = s.recv(4096)
    if not d:
        break
    buf += d
assert b"err" in buf, buf
