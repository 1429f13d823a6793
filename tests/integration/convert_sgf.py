# convert_sgf.py: part of convert.sh. ORIGINAL OURS: the cells of BoardSpace's own
# SGF (ORIGINAL, its actions as a person or a robot made them: Pick/Dropb, Pickb,
# Move, pieces put back or picked up again before Done) and of ours (`convert --to
# sgf`: one Move and Done a ply) are the same, ply by ply, counted from the first
# piece's cell (a person may put it anywhere; BoardSpace's robots and we use N 13);
# ours is one Move (or PMove) and one Done a ply and nothing else.
import re, sys

ACT = re.compile(r"P([01])\[(\d+) ((?:[^\]\\]|\\.)*)\]")


def actions(text):
    return [(int(m.group(1)), int(m.group(2)), re.sub(r"\\(.)", r"\1", m.group(3)).split())
            for m in ACT.finditer(text)]


def cells(text):
    """Each ply's cell as BoardSpace wrote it: the last drop before its Done."""
    out, pend, frm = [], None, None
    for _, _, t in actions(text):
        if not t:
            continue
        v = t[0].lower()
        if v in ("move", "pmove", "movedone", "pmovedone"):
            pend = (t[3], t[4])
            if v.endswith("done"):
                out.append(pend)
                pend = None
        elif v in ("dropb", "pdropb"):
            c = (t[2], t[3])
            pend = None if c == frm else c       # put back where it was
        elif v == "pickb":
            c = (t[1], t[2])
            if pend == c:
                pend = None                      # the drop picked up again
            else:
                frm = c
        elif v == "pick":
            frm = None
        elif v == "done":
            if pend:
                out.append(pend)
            pend = None
    if pend:
        out.append(pend)
    c0, r0 = ord(out[0][0]), int(out[0][1])
    return [(ord(c) - c0, int(r) - r0) for c, r in out]


orig, ours = open(sys.argv[1]).read(), open(sys.argv[2]).read()
a, b = cells(orig), cells(ours)
assert a == b, next((i, x, y) for i, (x, y) in enumerate(zip(a + [None], b + [None])) if x != y)
acts = actions(ours)
assert acts[0] == (0, 0, ["Start", "P0"]), acts[0]
for k, (p, n, t) in enumerate(acts[1:], 1):
    assert n == k, f"action {n}, want {k}"
    if k % 2 == 0:
        assert t == ["Done"], (n, t)
    elif t[0] in ("Move", "PMove"):
        assert len(t) == 6 and t[1] in "WB" and re.match(r"^[wb][QSBGAMLP][1-3]?$", t[2]), t
        assert "A" <= t[3] <= "Z" and 1 <= int(t[4]) <= 26, t
    else:
        assert t in (["Pass"], ["Resign"], ["OfferDraw"], ["AcceptDraw"]), t
