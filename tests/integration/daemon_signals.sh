#!/bin/sh
# daemon_signals.sh: `hivebridge serve` handles its signals from its first "listening
# on" line on. A supervisor (or a test) that reads that line may signal at once: a
# SIGHUP then reopens the log (its default action would kill the daemon) and a
# SIGTERM ends it with status 0. The signal is sent the moment the first of three
# listeners is announced, 20 times each.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$tmp/conf" <<EOF2
[daemon]
log = $tmp/trace.log
[engine builtin]
hash_mb = 1
[listen uhp]
port = 0
[listen hub]
protocol = hub
port = 0
[listen trylobot]
protocol = trylobot
port = 0
EOF2
timeout 120 python3 - "$HIVEBRIDGE" "$tmp/conf" <<'PY' || fail "signals at start-up"
import signal, subprocess, sys, time
exe, conf = sys.argv[1], sys.argv[2]

def started():
    p = subprocess.Popen([exe, "serve", "--config", conf], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    line = p.stderr.readline()
    if not line.startswith(b"listening on "):
        p.kill(); p.wait()
        raise SystemExit("serve said %r" % line)
    return p

def stop(p, what):
    p.send_signal(signal.SIGTERM)
    try:
        rc = p.wait(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill(); p.wait()
        raise SystemExit("%s: serve still running 20 s after SIGTERM" % what)
    if rc != 0:
        raise SystemExit("%s: serve exit status %d after SIGTERM" % (what, rc))

for i in range(20):
    p = started()
    p.send_signal(signal.SIGHUP)
    # The daemon notes the reopening in the log once it has handled the signal.
    deadline = time.monotonic() + 20
    while b"SIGHUP: log reopened" not in open(conf.rsplit("/", 1)[0] + "/trace.log", "rb").read():
        if p.poll() is not None:
            raise SystemExit("run %d: SIGHUP right after 'listening on' killed serve (status %d)"
                             % (i, p.returncode))
        if time.monotonic() > deadline:
            raise SystemExit("run %d: SIGHUP not handled within 20 s" % i)
        time.sleep(0.01)
    stop(p, "run %d after SIGHUP" % i)
    open(conf.rsplit("/", 1)[0] + "/trace.log", "wb").close()
print("SIGHUP right after the first 'listening on', 20 times: the log reopened: ok")

for i in range(20):
    stop(started(), "run %d, SIGTERM right after 'listening on'" % i)
print("SIGTERM right after the first 'listening on', 20 times: exit status 0: ok")
PY
echo "daemon_signals: ok"
