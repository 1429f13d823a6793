# daemon_signals.py: part of daemon_signals.sh (its failure: "signals at start-up").
import signal, subprocess, sys, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from harness import wait_for
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
    def reopened():
        if p.poll() is not None:
            raise SystemExit("run %d: SIGHUP right after 'listening on' killed serve (status %d)"
                             % (i, p.returncode))
        return b"SIGHUP: log reopened" in open(conf.rsplit("/", 1)[0] + "/trace.log", "rb").read()
    wait_for(reopened, 20, "run %d: SIGHUP handled" % i)
    stop(p, "run %d after SIGHUP" % i)
    open(conf.rsplit("/", 1)[0] + "/trace.log", "wb").close()
print("SIGHUP right after the first 'listening on', 20 times: the log reopened: ok")

for i in range(20):
    stop(started(), "run %d, SIGTERM right after 'listening on'" % i)
print("SIGTERM right after the first 'listening on', 20 times: exit status 0: ok")
