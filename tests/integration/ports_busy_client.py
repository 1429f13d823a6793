# ports_busy_client.py: part of ports_busy.sh;
# its failure: "a UHP client on the configured listener".
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=20)
f = s.makefile("rb")
lines = []
while True:
    line = f.readline()
    assert line, "closed after %r" % lines
    line = line.rstrip(b"\r\n").decode()
    if line == "ok":
        break
    lines.append(line)
assert lines[0].startswith("id hivebridge"), lines
