"""queue_worker_bounds: PORT STOPKEY XADD-ARGS... (job's words; '' is empty): once a worker's connection is blocked
in XREADGROUP with a command queued behind it (the heartbeat's GETRANGE), at once,
in the same round trip, one transaction adds the job and sets STOPKEY to "paused".
The worker's block lasts 1 s: with a redis-cli process between the look and the
transaction, a loaded machine let it end first (the worker then paused, and never
read the job). Prints nothing; exits non-zero saying why."""
import socket, sys, time

port, stopkey = int(sys.argv[1]), sys.argv[2]
xadd = ["" if w == "''" else w for w in sys.argv[3:]]   # job's words, redis-cli's '' empty

def command(*words):
    out = b"*%d\r\n" % len(words)
    for w in words:
        w = w.encode()
        out += b"$%d\r\n%s\r\n" % (len(w), w)
    return out

s = socket.create_connection(("127.0.0.1", port), timeout=20)
f = s.makefile("rb")

def reply():
    line = f.readline()
    kind, rest = line[:1], line[1:].strip()
    if kind == b"$":
        n = int(rest)
        return None if n < 0 else f.read(n + 2)[:-2]
    if kind == b"*":
        return [reply() for _ in range(int(rest))]
    if kind == b"-":
        sys.exit("redis: " + rest.decode())
    return rest

end = time.monotonic() + 30
while True:
    s.sendall(command("CLIENT", "LIST"))
    clients = reply().decode()
    if any("cmd=xreadgroup" in c and " flags=b " in c and " qbuf=0 " not in c
           for c in clients.splitlines()):
        break
    if time.monotonic() > end:
        sys.exit("no heartbeat queued behind the worker's XREADGROUP: " + clients)
    time.sleep(0.005)
s.sendall(command("MULTI") + command(*xadd) + command("SET", stopkey, "paused") + command("EXEC"))
got = [reply() for _ in range(4)]
if not isinstance(got[3], list) or len(got[3]) != 2:
    sys.exit(f"the transaction: {got}")
