# trylobot_back.py: part of trylobot_back.sh (its failure: "trylobot back end").
import atexit, os, select, signal, subprocess, sys, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from harness import wait_for

bridge, fake, tmp = sys.argv[1], sys.argv[2], sys.argv[3]
errors = []
COMMAND_TIMEOUT = 1.0

modules = []

@atexit.register
def stop_modules():
    """A failed assertion must not leave a module behind (it holds our output open)."""
    for p in modules:
        if p.poll() is None:
            p.kill()
            p.wait()

class Module:
    def __init__(self, name, *args):
        self.portfile = os.path.join(tmp, name + ".port")
        self.log = os.path.join(tmp, name + ".log")
        self.p = subprocess.Popen([fake, "--port-file", self.portfile, "--log", self.log] + list(args),
                                  stderr=open(os.path.join(tmp, name + ".err"), "w"))
        modules.append(self.p)
        wait_for(lambda: os.path.exists(self.portfile) or self.p.poll() is not None, 30, name + ": module port file")
        self.port = int(open(self.portfile).read())
    def lines(self):
        return open(self.log).read().splitlines() if os.path.exists(self.log) else []
    def stop(self):
        self.p.kill()
        self.p.wait()

class Uhp:
    def __init__(self, name, port, start_timeout=2, stderr=None, expansions=None):
        conf = os.path.join(tmp, name + ".conf")
        with open(conf, "w") as f:
            f.write("[engine fake]\nkind = trylobot\nhost = 127.0.0.1\nport = %d\n"
                    "start_timeout = %g\ncommand_timeout = %g\nstop_timeout = 1\n"
                    % (port, start_timeout, COMMAND_TIMEOUT))
            if expansions is not None:
                f.write("expansions = %s\n" % expansions)
        self.name = name
        self.p = subprocess.Popen([bridge, "uhp", "--profile", "fake", "--config", conf,
                                   "--log", os.path.join(tmp, name + ".trace")],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
        self.buf = b""
    def reply(self, limit):
        """Lines up to "ok"; fails the test on a hang."""
        end = time.time() + limit
        lines = []
        while True:
            while b"\n" not in self.buf:
                left = end - time.time()
                r = select.select([self.p.stdout], [], [], max(left, 0))[0] if left > 0 else []
                if not r:
                    raise RuntimeError("%s: no ok within %.1f s (got %r)" % (self.name, limit, lines))
                chunk = os.read(self.p.stdout.fileno(), 65536)
                if not chunk:
                    raise RuntimeError("%s: bridge exited (got %r)" % (self.name, lines))
                self.buf += chunk
            line, self.buf = self.buf.split(b"\n", 1)
            line = line.decode().rstrip("\r")
            if line == "ok":
                return lines
            lines.append(line)
    def ask(self, cmd, limit=10):
        self.p.stdin.write(cmd.encode() + b"\n")
        self.p.stdin.flush()
        return self.reply(limit)
    def close(self):
        try:
            self.p.stdin.write(b"exit\n")
            self.p.stdin.flush()
        except BrokenPipeError:
            pass
        try:
            self.p.wait(5)
        except subprocess.TimeoutExpired:
            self.p.kill()
            errors.append(self.name + ": bridge did not exit")
        if self.p.returncode not in (0, None):
            errors.append("%s: bridge exit status %s" % (self.name, self.p.returncode))

def check(cond, msg):
    if not cond:
        errors.append(msg)
    return cond

def good_move(u, what):
    """bestmove must give a move from validmoves, which is then played."""
    valid = set(u.ask("validmoves")[-1].split(";"))
    r = u.ask("bestmove depth 1")
    if not check(len(r) == 1 and not r[0].startswith(("err", "invalidmove")) and r[0] in valid,
                 "%s: bestmove gave %r" % (what, r)):
        return None
    g = u.ask("play " + r[0])
    check(len(g) == 1 and not g[0].startswith(("err", "invalidmove")), "%s: play gave %r" % (what, g))
    return g[-1]

def engine_err(u, what, limit):
    t0 = time.time()
    r = u.ask("bestmove depth 1", limit)
    dt = time.time() - t0
    check(len(r) == 1 and r[0].startswith("err Engine failed:"), "%s: expected err, got %r" % (what, r))
    print("%-10s err after %.2f s: %s" % (what, dt, r[0] if r else "?"))
    return r[0] if r else ""

# 0. A module is announced with the expansions its profile gives, Base only by
#    default, and a game of another type is an engine error, not the module's.
m = Module("caps")
u = Uhp("caps", m.port)
info = u.reply(5)
check(info == ["id Fake module v0.0.1", ""], "caps: default info block %r" % info)
u.ask("newgame Base+M")
r = u.ask("bestmove depth 1")
check(r == ["err engine fake plays Base only (profile key expansions)"],
      "caps: Base+M with a Base module gave %r" % r)
u.close()
u = Uhp("capsLP", m.port, expansions="LP")
info = u.reply(5)
check(info == ["id Fake module v0.0.1", "Ladybug;Pillbug"], "caps: expansions = LP info block %r" % info)
u.close()
check(not any(l.startswith("request") for l in m.lines()), "caps: the module was asked %r" % m.lines())
m.stop()

# 1. A game through a well-behaved module, Base+MLP, up to the end or 60 plies.
m = Module("ok")
u = Uhp("ok", m.port, expansions="MLP")
info = u.reply(5)
check(info == ["id Fake module v0.0.1", "Mosquito;Ladybug;Pillbug"], "ok: info block %r" % info)
u.ask("newgame Base+MLP")
plies, state = 0, ""
while plies < 60:
    gs = good_move(u, "ok ply %d" % plies)
    if gs is None:
        break
    plies += 1
    state = gs.split(";")[1]
    if state != "InProgress":
        break
u.close()
requests = [l for l in m.lines() if l.startswith("request")]
check(len(requests) == plies, "ok: %d requests for %d plies" % (len(requests), plies))
check(m.lines().count("connection") == 1, "ok: %d connections, expected 1" % m.lines().count("connection"))
check(os.path.getsize(os.path.join(tmp, "ok.err")) == 0, "ok: the module found bad requests: " +
      open(os.path.join(tmp, "ok.err")).read())
print("ok: %d plies through the module (%s), one connection" % (plies, state))
m.stop()

# 2. One fault on the third request, then a good module again: err, then recovery.
for mode, extra, limit in [("garbage", [], 5), ("badjson", [], 5), ("error", [], 5),
                           ("illegal", [], 5), ("rules", [], 5), ("greeting", [], 5), ("close", [], 5),
                           ("silence", [], COMMAND_TIMEOUT + 3), ("slow", ["--slow-ms", "2500"], COMMAND_TIMEOUT + 3)]:
    m = Module(mode, "--mode", mode, "--after", "2", "--count", "1", *extra)
    u = Uhp(mode, m.port, start_timeout=5)
    u.reply(5)
    u.ask("newgame Base")
    good_move(u, mode + " 1")
    good_move(u, mode + " 2")
    why = engine_err(u, mode, limit)
    # A turn naming nothing is refused when read; one naming a move the rules forbid
    # by the engine interface's one check (the back end does not check it first).
    if mode == "illegal":
        check("module chose an illegal turn: Placement Queen Bee at 40,40" in why and "not next to the hive" in why,
              "illegal: %r" % why)
    if mode == "rules":
        check("module chose an illegal turn: Placement" in why and ": illegal move: w" in why,
              "rules: %r" % why)
    # The back end reconnects; the module answers well again.
    good_move(u, mode + " after the fault")
    u.close()
    m.stop()
    check(m.lines().count("connection") == 2, "%s: %d connections, expected 2" % (mode, m.lines().count("connection")))

# 2b. A module's multi-line error reads as one line, its lines joined with " / ".
m = Module("errorlines", "--mode", "errorlines", "--after", "1", "--count", "1")
u = Uhp("errorlines", m.port)
u.reply(5)
u.ask("newgame Base")
good_move(u, "errorlines 1")
r = u.ask("bestmove depth 1")
want = ("err Engine failed: module answered with an error: Error: TypeError: Cannot read properties of "
        "undefined (reading 'Mosquito') / at chooseTurn (/opt/module/her.js:12:7) / "
        "at Socket.<anonymous> (/opt/module/server.js:40:3)")
check(r == [want], "errorlines: got %r" % r)
u.close()
m.stop()
trace = open(os.path.join(tmp, "errorlines.trace")).read()
check("module answered with an error: Error: TypeError: Cannot read properties of undefined (reading 'Mosquito') / at chooseTurn" in trace,
      "errorlines: no one-line note in the trace log")

# 3. Slow but within the time-out: a move.
m = Module("slowok", "--mode", "slow", "--slow-ms", "300")
u = Uhp("slowok", m.port)
u.reply(5)
u.ask("newgame Base")
good_move(u, "slow within the time-out")
u.close()
m.stop()

# 4. A second answer nobody asked for: the move counts, the connection is dropped,
#    the next request reconnects.
m = Module("extra", "--mode", "extra", "--after", "1", "--count", "1")
u = Uhp("extra", m.port)
u.reply(5)
u.ask("newgame Base")
good_move(u, "extra 1")
good_move(u, "extra 2")
# The unasked-for frame must have been seen (and the connection dropped) first.
trace = os.path.join(tmp, "extra.trace")
wait_for(lambda: b"frame nobody asked for" in open(trace, "rb").read(), 30, "extra: the second answer")
good_move(u, "extra 3")
u.close()
m.stop()
check(m.lines().count("connection") == 2, "extra: %d connections, expected 2" % m.lines().count("connection"))

# 5. Modules that cannot start: inactive, mute, nothing listening. `hivebridge uhp`
# exits 1 before it announces anything (a viewer would take it for a working
# engine), with the reason on stderr; the input is still open.
def no_start(mode, port, limit):
    err = os.path.join(tmp, mode + ".stderr")
    u = Uhp(mode, port, start_timeout=1, stderr=open(err, "w"))
    try:
        rc = u.p.wait(limit)
    except subprocess.TimeoutExpired:
        u.p.kill()
        u.p.wait()
        check(False, "%s: the bridge did not exit within %d s" % (mode, limit))
        return
    out = u.p.stdout.read()
    said = open(err).read()
    check(rc == 1, "%s: exit status %d, want 1" % (mode, rc))
    check(out == b"", "%s: printed %r before exiting" % (mode, out[:80]))
    check(said.startswith('hivebridge uhp: engine "fake": '), "%s: stderr %r" % (mode, said))
    print("%-10s exit %d: %s" % (mode, rc, said.strip()))

for mode, limit in [("inactive", 5), ("mute", 5)]:
    m = Module(mode, "--mode", mode)
    no_start(mode, m.port, limit)
    m.stop()
m = Module("closed")
port = m.port
m.stop()
no_start("refused", port, 5)

for e in errors:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
