"""harness.py: what every Python part of the integration tests shares (imported from
the top of the tree, as tests/lib/procs.sh is sourced by the shell parts):

    import sys; sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
    from harness import wait_for, poll, Daemon, exchange, proc_status, proc_fds, proc_tasks, proc_state

  wait_for(cond, seconds, what, tick=None, detail=None)
        polls cond() until it returns a true value, and returns that value; past the
        deadline the script fails, saying what it waited for (and detail(), if given).
        tick() runs between polls. The one waiting loop: never sleep to synchronise.
  poll(cond, seconds, tick=None)
        the same, returning None at the deadline (for a caller that says more itself).
  Daemon(argv, err)
        `hivebridge serve ...` with its stderr in the file err: .pid; .wait_listening(n)
        waits for n "listening on" lines and returns the ports; .port(proto, k=1);
        .said() its stderr so far; .stop(what) sends SIGTERM and returns the exit
        status (still running 20 s later fails); .kill() ends it if it still runs.
  proc_status(pid, key), proc_fds(pid), proc_tasks(pid), proc_state(pid)
        /proc/PID/status's value of key (its number, kB for the Vm* keys), the open
        descriptors, the threads and the state letter ("" once gone).
  Starvation(root=None)
        the time a test's processes spent runnable but waiting for a CPU (a loaded
        machine): .mark() starts a span, .seconds() is the most any one thread of root
        and its descendants waited since (from /proc/*/task/*/schedstat). root is
        $TEST_ROOT_PID (the test script's shell: procs.sh exports it), else the parent.
        A time limit is checked as elapsed - seconds() <= limit + slack: a bridge that
        passes on the wrong budget still fails on an idle machine and a starved one.
  read_to_close(sock)
        all that sock receives until the peer closes it.
  exchange(port, data, timeout=20)
        sends data to 127.0.0.1:port and returns all it got until the peer closed
        (a whole HTTP/1.1 request with "Connection: close", say).
  free_port()
        a loopback port free now, outside the kernel's ephemeral range, so that no
        outgoing connection takes it before its server binds it.

As a program: `python3 tests/lib/harness.py port` prints free_port(); `... hold-port
FILE` binds one and holds it (connections to it are refused) until killed, its number
in FILE: a port a server is to take later, that nothing takes meanwhile."""
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time


def poll(cond, seconds, tick=None):
    end = time.monotonic() + seconds
    while True:
        v = cond()
        if v:
            return v
        if time.monotonic() > end:
            return None
        if tick:
            tick()
        time.sleep(0.02)


def wait_for(cond, seconds, what, tick=None, detail=None):
    v = poll(cond, seconds, tick)
    if v:
        return v
    more = ": " + str(detail()) if detail else ""
    sys.exit(f"FAIL: {what} (not within {seconds} s){more}")


def proc_status(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    sys.exit(f"FAIL: no {key} in /proc/{pid}/status")


def proc_fds(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def proc_tasks(pid):
    return len(os.listdir(f"/proc/{pid}/task"))


def proc_state(pid):
    """The state letter of /proc/PID/stat ("Z": a zombie), "" once the process is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return ""


def _tree_delays(root):
    """Run-queue delay in ns of every thread of root and its descendants, by thread id."""
    kids = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        kids.setdefault(ppid, []).append(int(d))
    delays, todo = {}, [root]
    while todo:
        pid = todo.pop()
        todo.extend(kids.get(pid, []))
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for t in tids:
            try:
                with open(f"/proc/{pid}/task/{t}/schedstat") as f:
                    delays[int(t)] = int(f.read().split()[1])
            except (OSError, ValueError, IndexError):
                pass
    return delays


class Starvation:
    def __init__(self, root=None):
        self.root = root or int(os.environ.get("TEST_ROOT_PID") or os.getppid())
        self.mark()

    def mark(self):
        self.before = _tree_delays(self.root)

    def seconds(self):
        after = _tree_delays(self.root)
        return max([after[t] - self.before.get(t, 0) for t in after] + [0]) / 1e9


def read_to_close(s):
    buf = b""
    while True:
        d = s.recv(65536)
        if not d:
            return buf
        buf += d


def exchange(port, data, timeout=20):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    s.sendall(data)
    buf = read_to_close(s)
    s.close()
    return buf


def _bind_outside_ephemeral():
    """A socket bound to a free loopback port below (or above) the ephemeral range."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            lo, hi = (int(x) for x in f.read().split())
    except OSError:
        lo, hi = 32768, 60999
    ranges = [r for r in ((10000, lo - 1), (hi + 1, 65535)) if r[1] - r[0] > 1000]
    for _ in range(200):
        a, b = random.choice(ranges)
        s = socket.socket()
        try:
            s.bind(("127.0.0.1", random.randint(a, b)))
            return s
        except OSError:
            s.close()
    sys.exit("FAIL: no free port outside the ephemeral range after 200 tries")


def free_port():
    s = _bind_outside_ephemeral()
    port = s.getsockname()[1]
    s.close()
    return port


class Daemon:
    """`hivebridge serve` (argv without the binary's own "serve" added: give it all)."""

    def __init__(self, argv, err):
        self.err = err
        self.p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=open(err, "w"))
        self.pid = self.p.pid

    def said(self):
        with open(self.err) as f:
            return f.read()

    def wait_listening(self, n=1, seconds=30):
        def up():
            if self.p.poll() is not None:
                sys.exit(f"FAIL: serve exited ({self.p.returncode}): {self.said()}")
            return len(re.findall(r"^listening on ", self.said(), re.M)) >= n
        wait_for(up, seconds, f"{n} listeners", detail=self.said)
        return [int(p) for p in re.findall(r"^listening on \S+:(\d+) ", self.said(), re.M)]

    def port(self, proto, k=1):
        ports = re.findall(r"^listening on \S+:(\d+) \(" + re.escape(proto) + r"\)$", self.said(), re.M)
        return int(ports[k - 1]) if len(ports) >= k else None

    def stop(self, what="", seconds=20):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
        try:
            return self.p.wait(seconds)
        except subprocess.TimeoutExpired:
            self.kill()
            sys.exit(f"FAIL: serve still running {seconds} s after SIGTERM {what}: {self.said()}")

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()


def _main(argv):
    if argv[1:] == ["port"]:
        print(free_port())
    elif len(argv) == 3 and argv[1] == "hold-port":
        s = _bind_outside_ephemeral()        # bound, not listening: connecting is refused
        with open(argv[2] + ".part", "w") as f:
            f.write(f"{s.getsockname()[1]}\n")
        os.rename(argv[2] + ".part", argv[2])
        signal.sigwait({signal.SIGTERM, signal.SIGINT})
    else:
        sys.exit("usage: harness.py port | hold-port FILE")


if __name__ == "__main__":
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
    _main(sys.argv)
