# engine_notation.py: part of engine_notation.sh.
import os, subprocess, sys
hb, fake, csv = sys.argv[1:4]

def session(argv):
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
    def ask(cmd):
        if cmd:
            p.stdin.write(cmd + "\n")
        out = []
        while True:
            line = p.stdout.readline()
            if line == "":
                sys.exit("FAIL: %s ended during %r" % (argv, cmd))
            line = line.rstrip("\n")
            if line == "ok":
                return out
            out.append(line)
    ask(None)
    return p, ask

positions = []
for line in open(csv, encoding="utf-8-sig"):
    if line.startswith("#") or "\t" not in line:
        continue
    gs = line.split("\t")[0]
    if ";InProgress;" in gs:
        positions.append(gs)
positions = positions[::4]

raw_p, raw = session([fake, "--sloppy"])
canon_p, canon = session([hb, "uhp", "--engine", fake])
fixed_p, fixed = session([hb, "uhp", "--engine", fake + " --sloppy"])
rewritten = 0
for gs in positions:
    for ask in (raw, canon, fixed):
        r = ask("newgame " + gs)
        assert not r[0].startswith("err"), (gs, r)
    want = canon("bestmove depth 1")
    got = fixed("bestmove depth 1")
    sloppy = raw("bestmove depth 1")[-1]
    if got[-1] != want[-1]:
        sys.exit("FAIL: %s\n  engine said %r, bridge passed on %r, canonical is %r" % (gs, sloppy, got, want))
    # The answer must also be playable as is.
    r = fixed("play " + got[-1])
    assert not r[0].startswith(("err", "invalidmove")), (gs, got, r)
    rewritten += sloppy.strip() != got[-1]
for p in (raw_p, canon_p, fixed_p):
    p.stdin.write("exit\n")
    p.stdin.close()
    p.wait(timeout=10)
if rewritten < len(positions) // 2:
    sys.exit("FAIL: only %d of %d answers needed rewriting: the fake is not sloppy enough" % (rewritten, len(positions)))
print("ok engine notation: %d positions, %d non-canonical answers rewritten" % (len(positions), rewritten))
