#!/bin/sh
# time_play.sh: the built-in engine's time limits through the real binary.
# `bestmove time 00:00:00` (one thread) answers a legal move, ply after ply; and a
# clock match of the built-in engine against itself loses no game on time. Nothing
# is asserted on how long a search took. The clock is 3000 + 100 over 30 plies: a
# move's hard limit is at most about 300 ms, so a loss on time needs the process kept
# from running for seconds at once (a margin of about ten times the limit).
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

# --- time 00:00:00: a searched legal move, every ply (Base+MLP, 16 plies) ---------
timeout 120 python3 - "$HIVEBRIDGE" <<'EOF' || fail "bestmove time 00:00:00"
import os, select, subprocess, sys, time

p = subprocess.Popen([sys.argv[1], "uhp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     bufsize=0)
buf = b""

# Lines up to "ok", read straight from the pipe (a buffered reader would hide lines
# from select), 30 s at most.
def until_ok(what):
    global buf
    got, deadline = [], time.monotonic() + 30
    while True:
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            line = line.decode()
            if line == "ok":
                return got
            got.append(line)
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([p.stdout], [], [], left)[0]:
            sys.exit("no answer to %s in 30 s: %r" % (what, got))
        data = os.read(p.stdout.fileno(), 65536)
        if not data:
            sys.exit("uhp ended during %s: %r" % (what, got))
        buf += data

def cmd(c):
    p.stdin.write((c + "\n").encode())
    got = until_ok(c)
    if any(l.startswith("err") or l.startswith("invalidmove") for l in got):
        sys.exit("%s: %r" % (c, got))
    return got

until_ok("banner")
cmd("newgame Base+MLP")
for ply in range(16):
    state = cmd("validmoves")
    valid = state[0].split(";")
    move = cmd("bestmove time 00:00:00")
    if len(move) != 1 or move[0] not in valid:
        sys.exit("ply %d: bestmove %r not in validmoves %r" % (ply, move, valid))
    if cmd("play " + move[0])[0].split(";")[1] != "InProgress":
        break
p.stdin.close()
if p.wait(30) != 0:
    sys.exit("uhp exit status %d" % p.returncode)
print("time 00:00:00: %d legal moves" % (ply + 1))
EOF

# --- a clock match: no loss on time -------------------------------------------------
timeout 300 "$HIVEBRIDGE" match --clock 3000+100 --games 2 --max-plies 30 \
	--results "$tmp/clock.jsonl" builtin builtin >"$tmp/clock.out" 2>&1 ||
	{ cat "$tmp/clock.out"; fail "clock match exit status"; }
python3 - "$tmp/clock.jsonl" <<'EOF' || { cat "$tmp/clock.out"; fail "clock match results"; }
import json, sys
games = [json.loads(l) for l in open(sys.argv[1])]
assert len(games) == 2, "%d results, want 2" % len(games)
for g in games:
    assert "time" not in g["reason"], "game %d: %s" % (g["game"], g["reason"])
    assert g["plies"] > 0 and len(g["times_ms"]) == g["plies"], "game %d: plies" % g["game"]
print("clock 3000+100: %s" % ", ".join("%d plies, %s (%s), most %d ms a move" %
      (g["plies"], g["result"], g["reason"], max(g["times_ms"])) for g in games))
EOF
echo "time_play: ok"
