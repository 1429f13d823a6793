# match_viewer_stream.py: part of match_viewer.sh (its failure: "viewer stream").
import json, sys
lines = open(sys.argv[1]).read().splitlines()
moves = lambda gs: gs.split(";")[3:]
ends = []
for prev, cur in zip(lines, lines[1:]):
    a, b = moves(prev), moves(cur)
    if len(b) == len(a) + 1 and b[:-1] == a:
        continue
    ends.append(prev)            # a new game began: prev was the last of its game
    assert len(b) <= 1, "jump from %r to %r" % (prev, cur)
ends.append(lines[-1])
finals = [json.loads(l)["gamestring"] for l in open(sys.argv[2])]
for e in ends:
    assert moves(e) in [moves(f) for f in finals], "watched game ended at %r" % e
print("viewer: %d lines, %d game ends seen" % (len(lines), len(ends)))
