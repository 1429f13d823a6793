# otep_engine.py: part of otep_engine.sh (its failure: "UHP client against the OTEP engine").
import sys
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import uhp_process

p, reply, ask = uhp_process([sys.argv[1], "uhp", "--config", sys.argv[2], "--profile", "good"])

info = reply()
assert info[0] == "id Fake OTEP Hive engine", info       # the .ini's name
ask("newgame Base+MLP")
ply = 0
state = "InProgress"
while state in ("InProgress", "NotStarted") and ply < 200:
    r = ask("bestmove time 00:00:01" if ply % 2 else "bestmove depth 1")
    move = r[-1]
    if move.startswith("err"):
        raise SystemExit("bestmove at ply %d: %r" % (ply, r))
    g = ask("play " + move)
    if g[-1].startswith(("err", "invalidmove")):
        raise SystemExit("the bridge's own rules refused %r: %r" % (move, g))
    state = g[-1].split(";")[1]
    ply += 1
print("ok %d plies against the OTEP engine: %s" % (ply, state))
p.stdin.write(b"exit\n")
p.stdin.close()
assert p.wait(10) == 0
