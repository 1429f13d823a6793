# hub_stdio_stdio.py: part of hub_stdio.sh (its failure: "stdio session").
import os, select, subprocess, sys, time

binary, tmp = sys.argv[1], sys.argv[2]
p = subprocess.Popen([binary, "hub", "--log", tmp + "/trace.log"],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
pending = b""

def send(line):
    p.stdin.write(line.encode() + b"\n")

def lines_until(pred, timeout=20.0, what="?"):
    """Lines up to and including the first that satisfies pred."""
    global pending
    got, end = [], time.time() + timeout
    while True:
        while b"\n" in pending:
            raw, pending = pending.split(b"\n", 1)
            line = raw.decode("utf-8", "replace")
            got.append(line)
            if pred(line):
                return got
        left = end - time.time()
        if left <= 0:
            raise SystemExit("timed out waiting for %s; got %r" % (what, got))
        r, _, _ = select.select([p.stdout], [], [], left)
        if r:
            chunk = os.read(p.stdout.fileno(), 65536)
            if not chunk:
                raise SystemExit("EOF waiting for %s; got %r" % (what, got))
            pending += chunk

def quiet(seconds):
    """Nothing may arrive for a while."""
    r, _, _ = select.select([p.stdout], [], [], seconds)
    if r or pending:
        raise SystemExit("unexpected output: %r" % (pending + os.read(p.stdout.fileno(), 4096)))

def value(line, name):
    """The value of name= in a Hub line (quotes undone)."""
    i = line.find(" " + name + "=")
    if i < 0:
        return None
    v = line[i + len(name) + 2:]
    if not v.startswith('"'):
        return v.split(" ")[0]
    out, j = "", 1
    while j < len(v):
        if v[j] == '"':
            if v[j + 1:j + 2] == '"':
                out += '"'; j += 2; continue
            break
        out += v[j]; j += 1
    return out

def expect_error(cmd, needle):
    send(cmd)
    send("ping")
    got = lines_until(lambda l: l == "pong", what="pong after " + cmd)
    errs = [l for l in got if l.startswith("error ")]
    if len(errs) != 1 or needle not in errs[0]:
        raise SystemExit("%r answered %r, wanted one error with %r" % (cmd, got, needle))
    print("ok error: %s -> %s" % (cmd[:50], errs[0][:100]))

def search(what, stop_after=None):
    """Lines of one search up to its done; checks that exactly one done comes."""
    got = lines_until(lambda l: l.startswith("done "), what=what)
    quiet(0.2)
    return got

# Initialisation.
send("hub")
init = lines_until(lambda l: l == "wait", what="wait")
assert init[0].startswith("id name=hivebridge "), init
params = {value(l, "name"): l for l in init if l.startswith("param ")}
assert "variant" in params and "hash" in params, init
assert value(params["variant"], "value") == "Base+MLP", params["variant"]
assert value(params["variant"], "values").split() == \
    "Base Base+M Base+L Base+P Base+ML Base+MP Base+LP Base+MLP".split(), params["variant"]
assert value(params["hash"], "type") == "int", params["hash"]
send("set-param name=variant value=Base")
send("set-param name=hash value=32")
send("init")
got = lines_until(lambda l: l == "ready", what="ready")
assert got == ["ready"], got
print("ok initialisation: %d params" % len(params))

# think: the position comes from the variant parameter plus moves.
send("new-game")
send('pos moves="wG1;bG1 wG1-"')
send("level depth=3")
send("go think")
got = search("done of go think")
done = got[-1]
move, ponder = value(done, "move"), value(done, "ponder")
assert move, done
infos = [l for l in got if l.startswith("info ")]
assert infos and all(value(l, "depth") for l in infos), got
with open(tmp + "/played", "w") as f:
    f.write("newgame Base\nplay wG1\nplay bG1 wG1-\nplay %s\n" % move)
    if ponder:
        f.write("play %s\n" % ponder)
print("ok go think: %s (ponder %s, %d info lines)" % (move, ponder, len(infos)))

# analyze until stop; ping answered during the search; refused commands too.
send('pos pos="Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"')
send("level infinite")
send("go analyze")
lines_until(lambda l: l.startswith("info ") and value(l, "pv"), what="info with a pv")
send("ping")
lines_until(lambda l: l == "pong", what="pong during analyze")
send("new-game")
got = lines_until(lambda l: l.startswith("error "), what="error during search")
assert all(not l.startswith("done") for l in got), got
time.sleep(0.3)
t0 = time.time()
send("stop")
got = search("done after stop")
# An analyze that missed its stop would never end: 10 s is for a loaded machine.
assert time.time() - t0 < 10, "stop took too long"
print("ok go analyze + stop: %s after %.3f s" % (got[-1], time.time() - t0))
send("stop")               # outside a search: ignored, no answer
send("ponder-hit")
quiet(0.3)

# ponder, then ponder-hit: the clock starts at ponder-hit.
send('pos pos="Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-" moves="wA1 \\wQ;bA1 \\bQ"')
send("level move-time=0.4")
send("go ponder")
lines_until(lambda l: l.startswith("info "), what="info while pondering")
send("ping")
got = lines_until(lambda l: l == "pong", what="pong while pondering")
assert not any(l.startswith("done") for l in got), got
time.sleep(0.5)
t0 = time.time()
send("ponder-hit")
got = search("done after ponder-hit")
took = time.time() - t0
assert 0.3 < took < 10, "ponder-hit to done took %.3f s" % took
with open(tmp + "/played2", "w") as f:
    f.write("newgame Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-\n"
            "play wA1 \\wQ\nplay bA1 \\bQ\nplay %s\n" % value(got[-1], "move"))
print("ok go ponder + ponder-hit: %s after %.3f s" % (got[-1], took))

# ponder, then stop (the opponent played something else).
send("level time=30 inc=1")
send("go ponder")
lines_until(lambda l: l.startswith("info "), what="info while pondering")
send("stop")
search("done after stopping a ponder")
print("ok go ponder + stop")

# Sudden death and nodes levels finish on their own.
send('pos variant=Base+M moves="wM;bM wM-"')
send("level time=1")
send("go think")
search("done of level time")
send("level nodes=2000")
send("go think")
search("done of level nodes")
print("ok level time= and nodes=")

# Bad input: one error each, nothing else, and the session goes on.
expect_error('pos pos="Base+MLP;InProgress;White[2];wS1', "unbalanced quote")
expect_error('go "think"', "cannot be quoted")
expect_error("set-param name=book value=", "missing value")
expect_error("level inc=2", "needs time=")
expect_error("level depth=0", "bad depth")
expect_error("go", "think, ponder or analyze")
expect_error("set-param name=variant value=Base+X", "unknown variant")
expect_error("set-param name=nonesuch value=1", "unknown parameter")
expect_error('pos pos="Base+MLP;InProgress;White[2];wS1;bS1 wS1-" moves="wQ wS1-"', "invalid move 'wQ wS1-'")
expect_error("go think", "no position")
expect_error('pos pos="Base+MLP;InProgress;White[9];wS1"', "bad position")
expect_error('pos pos=Base+M variant=Base+L', "variant")
expect_error("pos pos=\"Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;"
             "wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1\"\ngo think",
             "the game is over")
expect_error("x" * 70000, "too long")
expect_error("pos moves=\"" + "wS1;" * 20000 + "\"", "too long")
send("frobnicate now=yes")     # unknown commands are ignored without an answer
send("ping extra=1 flag")
got = lines_until(lambda l: l == "pong", what="pong")
assert got == ["pong"], got
print("ok unknown command and arguments ignored")

# EOF during an endless search stops it as stop does: its done, then exit 0.
send("pos pos=Base+MLP")
send("level infinite")
send("go analyze")
lines_until(lambda l: l.startswith("info "), what="info before EOF")
p.stdin.close()
t0 = time.time()
rest = p.stdout.read().decode()
rc = p.wait(10)
assert rc == 0, rc
assert sum(l.startswith("done move=") for l in (pending.decode() + rest).splitlines()) == 1, rest
print("ok EOF during an endless search: done, exit %d after %.3f s" % (rc, time.time() - t0))
