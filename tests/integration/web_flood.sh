#!/bin/sh
# web_flood.sh: half-sent HTTP requests at the descriptor limit. The daemon runs
# under `ulimit -n 128` with a UHP listener and the web page; clients open more
# connections than it has descriptors, each sending only "GET / HTTP/1.1", and hold
# them:
#   - from one address (127.0.0.2): the address's share is taken at accept time and
#     the rest refused; the UHP listener and HTTP from another address still answer;
#   - from many addresses: every HTTP connection is taken (others get a 503 JSON
#     "too many connections" or are closed), the UHP listener still answers;
# and all the while the daemon does not spin (its CPU time from /proc/PID/stat over
# 3 s under 30 % of one core) nor flood its logs (under 64 KB each), and its
# descriptors come back once the clients go.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$tmp/conf" <<EOF
[daemon]
log = $tmp/trace.log
[engine builtin]
hash_mb = 1
[listen uhp]
port = 0
EOF
# dash and bash both set the soft and the hard limit: the daemon cannot raise it.
spawn sh -c 'ulimit -n 128 && exec "$0" serve --config "$1" --http 127.0.0.1:0' "$HIVEBRIDGE" "$tmp/conf" \
	2>"$tmp/err"
pid=$spawned
wait_listening "$tmp/err" $pid 2
http=$(listen_port "$tmp/err" http)
uhp=$(listen_port "$tmp/err" uhp)
[ -n "$http" ] && [ -n "$uhp" ] || fail "no ports: $(cat "$tmp/err")"

cat >"$tmp/check.py" <<'EOF'
import json, os, resource, socket, sys, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from web_client import deadline, fds
http, uhp, pid, err, trace = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
tick = os.sysconf("SC_CLK_TCK")

def cpu():
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / tick        # utime + stime

def half_sent(src, n):
    out = []
    for _ in range(n):
        s = socket.socket()
        s.setblocking(False)
        s.bind((src, 0))
        try:
            s.connect(("127.0.0.1", http))
        except BlockingIOError:
            pass
        out.append(s)
    # Whatever connected sends its half request; the rest stays in the backlog.
    time.sleep(0.5)
    for s in out:
        try:
            s.send(b"GET / HTTP/1.1\r\n")
        except OSError:
            pass
    return out

def uhp_info():
    t = time.time()
    s = socket.create_connection(("127.0.0.1", uhp), timeout=10)
    f = s.makefile("rb")
    lines = []
    while not lines or lines[-1] != b"ok":      # the greeting
        lines.append(f.readline().strip())
    s.sendall(b"info\n")
    lines = []
    while not lines or lines[-1] != b"ok":
        l = f.readline()
        assert l, "UHP closed"
        lines.append(l.strip())
    s.close()
    assert lines[0].startswith(b"id "), lines
    return time.time() - t

def http_get(src):
    s = socket.create_connection(("127.0.0.1", http), timeout=10, source_address=(src, 0))
    s.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % http)
    buf = b""
    try:
        while True:
            d = s.recv(65536)
            if not d:
                break
            buf += d
    except ConnectionResetError:
        pass
    s.close()
    head, _, body = buf.partition(b"\r\n\r\n")
    return int(head.split()[1]) if head else 0, body

def sizes():
    return os.path.getsize(err), os.path.getsize(trace)

def quiet_and_cool(what):
    """Over 3 s: little CPU, little log."""
    c0, (e0, t0) = cpu(), sizes()
    time.sleep(3)
    used, (e1, t1) = cpu() - c0, sizes()
    print(f"{what}: {used / 3 * 100:.0f} % of a core, log +{t1 - t0} bytes, stderr +{e1 - e0} bytes")
    assert used < 0.9, f"{what}: the daemon used {used:.2f} s of CPU in 3 s"
    assert t1 - t0 < 65536 and e1 - e0 < 65536, f"{what}: logs grew {t1 - t0}, {e1 - e0} bytes"

base = fds(pid)
# One address, more connections than the daemon has descriptors.
flood = half_sent("127.0.0.2", 300)
quiet_and_cool("one address")
dt = uhp_info()
print(f"UHP info during the flood: {dt * 1000:.1f} ms")
st, body = http_get("127.0.0.3")
assert st == 200 and b'"games"' in body, (st, body[:200])
assert fds(pid) < 100, f"{fds(pid)} descriptors"
for s in flood:
    s.close()
deadline(lambda: fds(pid) <= base, 30, f"descriptors back to {base} (now {fds(pid)})")
print("one address: ok")

# Many addresses: the HTTP connections are all taken; UHP still answers.
flood = []
for a in range(2, 12):
    flood += half_sent(f"127.0.0.{a}", 40)
quiet_and_cool("ten addresses")
dt = uhp_info()
print(f"UHP info during the flood: {dt * 1000:.1f} ms")
st, body = http_get("127.0.0.20")
assert st in (0, 503), (st, body[:200])
assert st == 0 or json.loads(body) == {"error": "too many connections"}, body
for s in flood:
    s.close()
deadline(lambda: fds(pid) <= base, 30, f"descriptors back to {base} (now {fds(pid)})")
st, body = http_get("127.0.0.20")
assert st == 200, (st, body[:200])
print("ten addresses: ok")
EOF
timeout 200 python3 "$tmp/check.py" "$http" "$uhp" "$pid" "$tmp/err" "$tmp/trace.log" ||
	{ tail -n 5 "$tmp/err"; tail -n 5 "$tmp/trace.log"; fail "the flood"; }
procs_alive $pid || fail "the daemon died"
kill -TERM $pid
wait $pid || fail "the daemon's exit status $? after SIGTERM: $(tail -n 30 "$tmp/err")"
echo "web_flood: ok"
