# shutdown_games.py: part of shutdown_games.sh (its failure: "the games at SIGTERM").
import json, os, signal, socket, sys, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import Conn, expect, valid_rows
from harness import wait_for, exchange
pvp, watch, http, pid = (int(a) for a in sys.argv[1:5])
results = sys.argv[5]
REASON = "aborted: server shutdown"

def req(path, body=None):
    data = json.dumps(body).encode() if body is not None else b""
    head = f"{'POST' if body is not None else 'GET'} {path} HTTP/1.1\r\nHost: 127.0.0.1:{http}\r\n" \
           f"Connection: close\r\nContent-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
    buf = exchange(http, head.encode() + data)
    head, _, body = buf.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    return status, json.loads(body)

def waiting():
    st, ls = req("/api/lobbies")
    return [l for l in ls["lobbies"] if l["name"] == "pvp"][0]["waiting"]

class Client(Conn):
    def __init__(s):
        Conn.__init__(s, pvp)
        expect(s.answer()[-1], "ok", "greeting")
    def rest(s):
        """Every line up to EOF."""
        out = []
        try:
            while True:
                out.append(s.line())
        except EOFError as e:
            if e.args[0]:
                out.append(e.args[0].decode())
        return out

import random
rng = random.Random(27)

def play_game(n):
    """A game of n plies: (the client to move, the client waiting for its play's answer, game no)."""
    w, b = Client(), Client()
    w.send("newgame Base")
    wait_for(lambda: waiting() == 1, 20, "the first client waits")
    b.send("newgame Base")
    ans = w.answer()
    assert "color=White" in ans[0], ans
    no = int(ans[0].split("game=")[1].split()[0])
    mover, other = w, b
    for ply in range(n):
        # A fixed sequence of pseudo-random moves: the first legal ones surround a queen by ply 15.
        moves = mover.cmd("validmoves")[0].split(";")
        mv = moves[rng.randrange(len(moves))]
        mover.send("play " + mv)
        gs = mover.line()
        assert ";InProgress;" in gs, gs
        other.answer()       # its newgame's or play's answer: the opponent moved
        mover, other = other, mover
    return mover, other, no

games = [play_game(n) for n in (6, 13, 20)]
lone = Client()
lone.send("newgame Base+M")
wait_for(lambda: waiting() == 1, 20, "the lone client waits")

spec = socket.create_connection(("127.0.0.1", watch), timeout=30)
sf = spec.makefile("rb")
spec.sendall(b"attach %d\n" % games[1][2])
while sf.readline().rstrip(b"\r\n") != b"ok":
    pass            # the greeting's ok
while sf.readline().rstrip(b"\r\n") != b"ok":
    pass            # the attach's: the GameString, ok

# Two web persons in the same lobby, White has moved.
st, sa = req("/api/lobby/join", {"lobby": "pvp", "type": "Base", "name": "alice"})
assert st == 201, (st, sa)
st, sb = req("/api/lobby/join", {"lobby": "pvp", "type": "Base", "name": "bob"})
assert st == 201, (st, sb)
ta, tb = sa["token"], sb["token"]
sa = wait_for(lambda: (lambda s: s if s["state"] == "playing" and s["to_move"] else None)(
    req("/api/lobby/seat", {"token": ta})[1]), 20, "alice to move")
st, g = req(f"/api/games/{sa['game']}")
st, s = req("/api/lobby/move", {"token": ta, "move": g["position"]["legal"][0]["move"]})
assert st == 200, (st, s)
web_lobby_game = sa["game"]

# A game on the page: the engine (White) has moved, the person is to move.
st, pg = req("/api/games", {"engine": "builtin", "color": "black", "depth": 1})
assert st == 201, (st, pg)
page_game = pg["id"]
wait_for(lambda: req(f"/api/games/{page_game}")[1]["plies"] == 1, 30, "the engine's first move")

def stream(query=""):
    s = socket.create_connection(("127.0.0.1", http), timeout=30)
    s.sendall(f"GET /api/events{query} HTTP/1.1\r\nHost: 127.0.0.1:{http}\r\n\r\n".encode())
    buf = b""
    while b"event: hello" not in buf:
        buf += s.recv(65536)
    return s

def events(s):
    """The (event, data) pairs a stream got up to EOF."""
    buf = b""
    while True:
        try:
            d = s.recv(65536)
        except socket.timeout:
            raise SystemExit("an event stream was not closed")
        if not d:
            break
        buf += d
    out, ev = [], None
    for line in buf.decode().split("\r\n"):
        for l in line.split("\n"):
            if l.startswith("event: "):
                ev = l[7:]
            elif l.startswith("data: ") and ev:
                out.append((ev, json.loads(l[6:])))
                ev = None
    return out

plain, seat_a, seat_b = stream(), stream("?seat=" + ta), stream("?seat=" + tb)

t0 = time.monotonic()
os.kill(pid, signal.SIGTERM)

for n, (mover, other, no) in zip((6, 13, 20), games):
    for who, c in (("to move", mover), ("waiting", other)):
        got = c.rest()
        assert len(got) == 3 and got[0] == "remote over * " + REASON and \
            got[1].startswith("Base;InProgress;") and got[2] == "ok", (n, who, got)
        plies = got[1].count(";") - 2
        assert plies == n, (n, who, got[1])
print("UHP clients of the three games told: ok")
got = lone.rest()
expect(got, ["err The server is shutting down.", "ok"], "the client waiting for an opponent")
rest = [l.decode().rstrip("\r\n") for l in sf.readlines()]
assert f"over {games[1][2]} * {REASON}" in rest, rest
print("the waiting client and the spectator told: ok")

for tok, s in ((ta, seat_a), (tb, seat_b)):
    seats = [d for e, d in events(s) if e == "seat"]
    assert seats and seats[-1]["state"] == "over" and seats[-1]["reason"] == "* " + REASON, seats
ev = [d for e, d in events(plain) if e == "game"]
for gid in (page_game, web_lobby_game):
    last = [d for d in ev if d["id"] == gid]
    assert last and last[-1]["reason"] == REASON and last[-1]["result"] is None and \
        last[-1]["finished"], (gid, last)
print("the event streams: every game ended with the reason: ok")

wait_for(lambda: not os.path.exists(f"/proc/{pid}") or
         open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] == "Z", 15, "the daemon's exit")
took = time.monotonic() - t0
print(f"the daemon exited {took:.2f} s after SIGTERM")
assert took < 20, took    # every client told: not the 60 s grace (20: a loaded machine's margin)

rows = valid_rows("schemas/match-result.json", results)
assert len(rows) == 4, rows
assert sorted(r["plies"] for r in rows) == [1, 6, 13, 20], rows
for r in rows:
    assert r["result"] == "*" and r["reason"] == REASON and "a_score" not in r, r
    assert r["gamestring"].startswith("Base;InProgress;"), r
print("results: four games, result * with the reason: ok")
