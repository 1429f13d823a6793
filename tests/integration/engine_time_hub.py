# engine_time_hub.py: part of engine_time.sh.
import subprocess, sys, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from harness import wait_for
hb, engine, log = sys.argv[1:]
p = subprocess.Popen([hb, "hub", "--engine", engine, "--log", log],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def send(line):
    p.stdin.write(line.encode() + b"\n")
    p.stdin.flush()
def until(prefix):
    while True:
        line = p.stdout.readline().decode().rstrip("\n")
        if not line:
            sys.exit("hub output ended, waiting for " + prefix)
        if line.startswith(prefix):
            return line
def slices():
    with open(log) as f:
        return sum(1 for l in f if l.rstrip("\n").endswith("bridge->engine bestmove time 00:00:01"))
send("hub")
until("wait")
send("init")
until("ready")
send('pos pos="Base;InProgress;Black[1];wS1"')
send("go analyze")
wait_for(lambda: slices() >= 2, 30, "the second slice running")
t0 = time.monotonic()
send("stop")
done = until("done")
print("hub: %s, %.0f ms after stop" % (done, (time.monotonic() - t0) * 1000))
send("quit")
p.wait(timeout=20)
