# otep_stdio_game.py: part of otep_stdio.sh;
# its failure: "full game OTEP host -> bridge -> UHP engine".
import subprocess, sys
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from peers_common import referee

hb = sys.argv[1]
eng = subprocess.Popen([hb, "otep", "--engine", "uhp:%s uhp --engine builtin:depth=1" % hb],
                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
ref, ref_ask = referee(hb)

def send(line):
    eng.stdin.write(line.encode() + b"\n")

def read():
    while True:
        l = eng.stdout.readline()
        if not l:
            raise SystemExit("the bridge closed")
        l = l.decode().rstrip("\n")
        if not l.startswith("status "):
            return l

ref_ask("")                      # the id block
assert read() == "hello"
assert read() == "simple-moves on"
gs = ref_ask("newgame Base")[-1]
send("rules Base")
me = "white"
last = "-"
for ply in range(400):
    state = gs.split(";")[1]
    if state not in ("NotStarted", "InProgress"):
        break
    side = gs.split(";")[2].split("[")[0].lower()
    if side == me:
        send("opponent-move %s %s" % (last, gs.replace(" ", "_")))
        send("play " + me)
        send("clock 2000 2000 0 0 0")
        l = read()
        if not l.startswith("move "):
            raise SystemExit("ply %d: %r" % (ply, l))
        mv = l[5:].replace("_", " ")
        r = ref_ask("play " + mv)
        if r[-1].startswith(("err", "invalidmove")):
            raise SystemExit("the bridge played an illegal move %r: %r" % (mv, r))
        gs = r[-1]
        send("move " + gs.replace(" ", "_"))
    else:
        mv = ref_ask("bestmove depth 1")[-1]
        gs = ref_ask("play " + mv)[-1]
        last = mv.replace(" ", "_")
state = gs.split(";")[1]
code = {"WhiteWins": 2, "BlackWins": 3, "Draw": 1}.get(state, 0)
send("finish %d" % code)
send("goodbye")
eng.stdin.close()
assert eng.wait(10) == 0
ref.stdin.close()
ref.wait(10)
print("ok full game OTEP host -> bridge -> UHP engine: %d plies, %s" % (ply, state))
if code == 0:
    raise SystemExit("the game did not end in 400 plies")
