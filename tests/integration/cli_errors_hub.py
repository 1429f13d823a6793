# cli_errors_hub.py: part of cli_errors.sh (its failure: "hub client").
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=20)
s.sendall(b"hub\n")
f = s.makefile("rb")
while True:
    l = f.readline()
    assert l, "closed before wait"
    if l.strip() == b"wait":
        break
