# hub_engine.py: part of hub_engine.sh (its failure: "UHP client against the Hub engine").
import sys
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import uhp_process

p, reply, ask = uhp_process([sys.argv[1], "uhp", "--config", sys.argv[2], "--profile", "good"])

info = reply()
assert info[0] == "id FakeHubEngine 1.0", info
assert info[1] == "Mosquito;Ladybug;Pillbug", info
ask("newgame Base+MLP")
for ply in range(12):
    r = ask("bestmove depth 2" if ply % 2 else "bestmove time 00:00:01")
    move = r[-1]
    if move.startswith("err"):
        raise SystemExit("bestmove: %r" % r)
    # The engine writes "wa1  \wq"; the bridge must say it the canonical way.
    if move != move.strip() or "  " in move or move[0] not in "wb" or not move[1].isupper():
        raise SystemExit("move not canonical: %r" % move)
    g = ask("play " + move)
    if g[-1].startswith(("err", "invalidmove")):
        raise SystemExit("the bridge's own rules refused %r: %r" % (move, g))
print("ok 12 plies against the Hub engine, last %s" % move)
opts = ask("options")
assert "style;enum;wild;calm;calm;wild" in opts, opts      # set from the profile
assert "hash;int;8;16;1;4096" in opts, opts                 # hash_mb of the profile
assert ask("options set style calm") == ["style;enum;calm;calm;calm;wild"]
r = ask("options set style bogus")
assert len(r) == 1 and r[0].startswith("err "), r
assert ask("options get book") == ["book;bool;True;True"]
r = ask("options get nonesuch")
assert r and r[0].startswith("err "), r
print("ok options: %d listed, set, refused, get" % len(opts))
p.stdin.write(b"exit\n")
p.stdin.close()
assert p.wait(10) == 0
