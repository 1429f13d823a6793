# match_viewer_attached_stream.py: part of match_viewer.sh (its failure: "attached viewer stream").
import json, sys
lines = open(sys.argv[1]).read().splitlines()
moves = lambda gs: gs.split(";")[3:]
finals = {json.loads(l)["game"]: json.loads(l)["gamestring"] for l in open(sys.argv[2])}
# Before the attach lands the viewer may see both games; from the last jump on, game 2 only.
start = 0
for i, (prev, cur) in enumerate(zip(lines, lines[1:])):
    a, b = moves(prev), moves(cur)
    if not (len(b) == len(a) + 1 and b[:-1] == a):
        start = i + 1
tail = lines[start:]
assert len(tail) >= 3, "attached viewer saw %d lines of one game" % len(tail)
for prev, cur in zip(tail, tail[1:]):
    assert moves(cur)[:-1] == moves(prev), "not one game: %r then %r" % (prev, cur)
assert moves(tail[-1]) == moves(finals[2]), "game 2 ended at %r, viewer saw %r" % (finals[2], tail[-1])
print("attached viewer: %d lines of game 2" % len(tail))
