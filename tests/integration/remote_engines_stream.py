# remote_engines_stream.py: part of remote_engines.sh (its failure: "spectator stream").
import sys
lines = [l for l in open(sys.argv[1]).read().splitlines()]
moves = lambda gs: gs.split(";")[3:]
seq = sorted(set(lines), key=lambda g: len(moves(g)))
for p, c in zip(seq, seq[1:]):
    assert moves(c)[:-1] == moves(p) or len(moves(c)) == len(moves(p)), (p, c)
assert len(moves(seq[-1])) == 8, seq[-1]
