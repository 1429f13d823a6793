# daemon_connections_max_sessions.py: part of daemon_connections.sh;
# its failure: "max_sessions refusals".
import socket, sys

uhp, hub, tb = (int(p) for p in sys.argv[1:4])
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import connect
held = []
for src in ("127.0.0.1", "127.0.0.2"):
    s, f = connect(uhp, src)
    while f.readline() not in (b"ok\n", b""):
        pass
    held.append((s, f))
s, f = connect(uhp, "127.0.0.3")
data = f.read()
assert data == b"err Too many sessions.\nok\n", data
s, f = connect(hub, "127.0.0.3")
data = f.read()
assert data == b'error message="Too many sessions."\n', data
s, f = connect(tb, "127.0.0.3")
data = f.read()
want = b'{"success":false,"error":"Error: Too many sessions."}'
assert data == b"%d#%s" % (len(want), want), data
print("max_sessions refusals in each protocol: ok")
