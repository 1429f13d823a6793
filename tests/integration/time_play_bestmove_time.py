# time_play_bestmove_time.py: part of time_play.sh (its failure: "bestmove time 00:00:00").
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
