#!/bin/sh
# web_slowloris.sh: requests that never finish. With http_head_timeout = 2:
#   - 20 connections send 24 KB of header lines, then one byte every 0.5 s: each is
#     answered 408 (or closed) within the deadline plus slack, from its first byte,
#     although bytes keep coming (an idle time-out alone would never fire);
#   - 320 connections from 8 addresses each send 28 KB of header lines (half of them
#     100 KB, over the 32 KB head limit) and hold: the daemon's VmRSS grows by less
#     than 24 MB while they are held, and is back within 8 MB of where it was once
#     they are gone (memory given back), descriptors back at their baseline.
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
http_head_timeout = 2
[engine builtin]
hash_mb = 1
[listen uhp]
port = 0
EOF
# Under ASan, freed blocks wait in a quarantine (256 MB by default) that RSS would
# count, and its allocator gives memory back only when told to.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:allocator_release_to_os_interval_ms=0"
export ASAN_OPTIONS
spawn "$HIVEBRIDGE" serve --config "$tmp/conf" --http 127.0.0.1:0 2>"$tmp/err"
pid=$spawned
wait_listening "$tmp/err" $pid 2
http=$(listen_port "$tmp/err" http)
[ -n "$http" ] || fail "no http port: $(cat "$tmp/err")"

cat >"$tmp/check.py" <<'EOF'
import select, socket, sys, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from web_client import deadline, fds
port, pid = int(sys.argv[1]), int(sys.argv[2])

def rss():
    for l in open(f"/proc/{pid}/status"):
        if l.startswith("VmRSS:"):
            return int(l.split()[1]) * 1024
    raise SystemExit("no VmRSS")

def head(n):
    """About n bytes of a request head without its end."""
    h = b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % port
    i = 0
    while len(h) < n:
        h += b"X-Pad-%d: %s\r\n" % (i, b"y" * 48)
        i += 1
    return h

def opener(src, data):
    s = socket.socket()
    s.bind((src, 0))
    s.settimeout(5)
    try:
        s.connect(("127.0.0.1", port))
        s.setblocking(False)
        s.send(data)
    except OSError:
        pass
    return s

def get(path):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % port)
    buf = b""
    while True:
        d = s.recv(65536)
        if not d:
            break
        buf += d
    s.close()
    return buf

get(b"/api/games")
base_fds, before = fds(pid), rss()

# The slow ones: a byte every 0.5 s after the header lines.
conns = {}
t0 = time.time()
for i in range(20):
    s = opener("127.0.0.2", head(24 * 1024))
    conns[s] = None
answers = {}
while conns and time.time() - t0 < 15:
    for s in list(conns):
        try:
            s.send(b"z")
        except OSError:
            pass
    r, _, _ = select.select(list(conns), [], [], 0.5)
    for s in r:
        try:
            d = s.recv(4096)
        except OSError:
            d = b""
        answers[s] = (time.time() - t0, d[:12])
        del conns[s]
        s.close()
worst = max(t for t, _ in answers.values()) if answers else None
print(f"slow requests closed: {len(answers)} of 20, the last after {worst and round(worst, 1)} s;"
      f" answers {sorted(set(a for _, a in answers.values()))}")
assert not conns, f"{len(conns)} slow requests still open after 15 s"
assert worst < 6, f"a slow request lasted {worst:.1f} s (the deadline is 2 s)"
assert all(a in (b"", b"HTTP/1.1 408") for _, a in answers.values()), answers.values()

# Many big heads at once.
held = []
for a in range(2, 10):
    for i in range(40):
        held.append(opener(f"127.0.0.{a}", head(100 * 1024 if i % 2 else 28 * 1024)))
during, nfds = rss(), fds(pid)
for s in held:
    s.close()
deadline(lambda: fds(pid) <= base_fds, 30, f"descriptors back to {base_fds} (now {fds(pid)})")
get(b"/api/games")
after = rss()
mb = lambda x: round(x / 1048576, 1)
print(f"VmRSS before {mb(before)} MB, during {mb(during)} MB ({nfds} descriptors), after {mb(after)} MB")
assert during - before < 24 << 20, "memory during the heads"
assert after - before < 8 << 20, "memory after the heads"
EOF
timeout 200 python3 "$tmp/check.py" "$http" "$pid" || { tail -n 5 "$tmp/err"; fail "the slow requests"; }
procs_alive $pid || fail "the daemon died"
kill -TERM $pid
wait $pid || fail "the daemon's exit status $? after SIGTERM: $(tail -n 30 "$tmp/err")"
echo "web_slowloris: ok"
