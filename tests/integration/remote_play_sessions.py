# remote_play_sessions.py: part of remote_play.sh (its failure: "remote play sessions").
import select, socket, sys, time
pvp, fast, lonely, hb, hu, hh, ht, ho = (int(p) for p in sys.argv[1:9])

sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import Conn, expect

class C(Conn):
    def __init__(s, port):
        Conn.__init__(s, port)
        assert s.answer() == ["id hivebridge v0.1.0 (remote play)", "Mosquito;Ladybug;Pillbug", "ok"]

def seat(lines):
    """The remote line of a newgame/resume answer as a dict, and the GameString."""
    assert len(lines) == 3 and lines[0].startswith("remote ") and lines[2] == "ok", lines
    kv = dict(w.split("=", 1) for w in lines[0].split()[1:])
    return kv, lines[1]

def pair(port, typ=""):
    """Two clients ask for a game: whichever is answered first plays White (the
    lobby gives White to the one that waited); returns (white, black, ...)."""
    a, b = C(port), C(port)
    a.send(("newgame " + typ).strip())
    b.send(("newgame " + typ).strip())
    while True:
        ready, _, _ = select.select([a.s, b.s], [], [], 30)
        assert ready, "no newgame answer"
        w = a if a.s in ready else b
        d = w.s.recv(4096)
        assert d, "connection closed"
        w.buf += d
        if w.buf.endswith(b"\nok\n"):
            break
    kw, gw = seat(w.answer())
    assert kw["color"] == "White" and len(kw["token"]) == 32, kw
    return w, (b if w is a else a), kw, gw

def gs(typ, moves, state=None):
    turn = "White" if len(moves) % 2 == 0 else "Black"
    st = state or ("InProgress" if moves else "NotStarted")
    return ";".join([typ, st, "%s[%d]" % (turn, len(moves) // 2 + 1)] + moves)

def play_game(a, b, typ, moves, final_state):
    """White a and Black b play moves; b's newgame answer comes after the first move."""
    side = [a, b]
    done = []
    for i, mv in enumerate(moves):
        me, other = side[i % 2], side[1 - i % 2]
        last = i == len(moves) - 1
        me.send("play " + mv)
        done.append(mv)
        want = gs(typ, done, final_state if last else None)
        expect(me.line(), want, "play %s" % mv)
        if i == 0:
            kb, gb = seat(other.answer())
            assert kb["color"] == "Black", kb
            expect(gb, want, "black's newgame answer")
        else:
            expect(other.answer(), [mv, want, "ok"], "the reply to ply %d" % i)
        if last and final_state:
            expect(me.line(), "ok", "the last play's ok")

# 1. A whole game to WhiteWins, with refused commands that change nothing.
a, b, ka, ga = pair(pvp)
expect(ga, "Base;NotStarted;White[1]", "white's newgame answer")
win = ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wA1 -wQ", "bG1 bQ-", "wA2 wA1\\", "bG2 \\bG1",
       "wG1 /wA1", "bG3 bQ\\", "wG2 -wG1", "bB1 bS1\\", "wA1 -bG2"]
play_game(a, b, "Base", win[:4], None)
r = a.cmd("play bQ wS1/")
assert r[0].startswith("invalidmove") and r[1] == "ok", r
r = a.cmd("pass")
assert r[0].startswith("invalidmove") and r[1] == "ok", r
expect(a.cmd("undo"), ["err Moves cannot be taken back in a remote game.", "ok"], "undo")
r = a.cmd("newgame Base;InProgress;White[2];wS1;bS1 wS1-")
assert r[0].startswith("err ") and r[1] == "ok", r
r = a.cmd("bestmove depth 1")
assert r[0].startswith("err Hints are off") and r[1] == "ok", r
r = a.cmd("validmoves")
assert r[1] == "ok" and "wA1 -wQ" in r[0].split(";"), r
for i, mv in enumerate(win[4:]):
    me, other = (a, b) if i % 2 == 0 else (b, a)
    n = 4 + i + 1
    last = n == len(win)
    want = gs("Base", win[:n], "WhiteWins" if last else None)
    me.send("play " + mv)
    expect(me.line(), want, "play " + mv)
    if last:
        expect(me.line(), "ok", "the winning play's ok")
    expect(other.answer(), [mv, want, "ok"], "reply " + mv)
r = b.cmd("play bQ -bS1")
assert r[0].startswith("err The game is over (1-0 black queen surrounded)"), r
a.close(); b.close()

# 2. Base+P: White's forced pass, then Black resigns with a reason.
pmoves = ["wP", "bS1 wP-", "wQ /wP", "bQ bS1-", "wB1 -wQ", "bB1 bS1\\", "wG1 wB1\\", "bB1 wP\\",
          "wS1 wG1\\", "bQ bS1/", "wB1 -wP", "bB1 wQ", "wG2 wS1\\", "bB1 wB1", "wG3 wG2\\", "bA1 bQ\\",
          "wS2 wG3-", "bA1 bS1\\", "wA1 wS2/", "bA1 bQ\\", "wA2 wA1/", "bA1 bS1\\", "wA3 wA2/",
          "bA1 bQ\\", "wB2 wA3/", "bA1 wB2/"]
a, b, ka, ga = pair(pvp, "Base+P")
expect(ga, "Base+P;NotStarted;White[1]", "Base+P newgame")
play_game(a, b, "Base+P", pmoves, None)
r = a.cmd("validmoves")
expect(r, ["pass", "ok"], "white has nothing but pass")
a.send("pass")
expect(a.line(), gs("Base+P", pmoves + ["pass"]), "pass")
expect(b.answer(), ["pass", gs("Base+P", pmoves + ["pass"]), "ok"], "black sees the pass")
expect(b.cmd("resign lost in thought"), [gs("Base+P", pmoves + ["pass"], "WhiteWins"), "ok"], "resign")
expect(a.answer(), ["remote over 1-0 black resigned: lost in thought",
                    gs("Base+P", pmoves + ["pass"], "WhiteWins"), "ok"], "white told of the resignation")
a.close(); b.close()

# 3. A time loss: White never moves on a 1 s clock.
a, b, ka, ga = pair(fast)
t0 = time.time()
expect(b.answer(), ["remote over 0-1 white lost on time", "Base;BlackWins;White[1]", "ok"], "time loss")
assert 0.9 < time.time() - t0 < 10, time.time() - t0
r = a.cmd("play wS1")
assert r[0].startswith("err The game is over (0-1 white lost on time)"), r
a.close(); b.close()

# 4. White leaves and comes back with its token; then leaves for good.
a, b, ka, ga = pair(pvp)
a.send("play wS1")
expect(a.line(), "Base;InProgress;Black[1];wS1", "play before leaving")
seat(b.answer())
a.close()
b.send("play bS1 wS1-")
expect(b.line(), "Base;InProgress;White[2];wS1;bS1 wS1-", "black plays while white is away")
a2 = C(pvp)
r = a2.cmd("resume 0123456789abcdef0123456789abcdef")
assert r[0].startswith("err No game"), r
k2, g2 = seat(a2.cmd("resume " + ka["token"]))
expect((k2["color"], k2["token"], g2), ("White", ka["token"], "Base;InProgress;White[2];wS1;bS1 wS1-"), "resume")
a2.send("play wQ -wS1")
expect(a2.line(), "Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1", "play after resuming")
expect(b.line(), "wQ -wS1", "black sees the resumed player's move")
expect(b.line(), "Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1", "black's position")
expect(b.line(), "ok", "ok")
b.send("play bQ bS1-")
b.line()
expect(a2.answer(), ["bQ bS1-", "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-", "ok"], "reply")
a2.close()       # for good: lost after the grace period (1 s), black is told at once
t0 = time.time()
expect(b.answer(), ["remote over 0-1 white disconnected",
                    "Base;BlackWins;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-", "ok"], "disconnect")
assert 0.9 < time.time() - t0 < 10, time.time() - t0
a3 = C(pvp)
r = a3.cmd("resume " + ka["token"])
assert r[0].startswith("err No game"), r
b.close(); a3.close()

# 5. Nobody else asks for a game in time.
c = C(lonely)
r = c.cmd("newgame")
expect(r, ["err No opponent for Base came within 1 s.", "ok"], "no opponent")
c.close()

# 6. House engines of each protocol: White against each, three moves of the loop
# (play, the engine's reply in the proposal's form), then resigns; a second client
# plays Black against the built-in one and gets the engine's first move in its
# newgame answer.
for port in (hb, hu, hh, ht, ho):
    c = C(port)
    k, g = seat(c.cmd("newgame"))
    assert k["color"] == "White" and k["opponent"].startswith("house:"), k
    moves = []
    for n in range(3):
        v = c.cmd("validmoves")
        assert len(v) == 2 and v[1] == "ok", v
        mv = sorted(v[0].split(";"))[0]
        c.send("play " + mv)
        moves.append(mv)
        expect(c.line(), gs("Base", moves), "play %s against the house (%d)" % (mv, port))
        r = c.answer()
        assert len(r) == 3 and r[2] == "ok", r
        moves.append(r[0])
        expect(r[1], gs("Base", moves), "the house's reply (%d)" % port)
    game = gs("Base", moves)
    expect(c.cmd("resign"), [game.replace("InProgress", "BlackWins"), "ok"], "resign against the house")
    c.close()
c = C(hb)
k, g = seat(c.cmd("newgame"))
assert k["color"] == "Black" and g.startswith("Base;InProgress;Black[1];w"), (k, g)
c.send("resign")
r = c.answer()
assert r[0].startswith("Base;WhiteWins;Black[1];w") and r[1] == "ok", r
c.close()
