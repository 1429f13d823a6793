# web_lobby.py: part of web_lobby.sh (its failure: "the lobby API").
import json, socket, sys, time, http.client
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from web_client import schema_validator
from harness import wait_for, proc_fds as fds
port, remp, schemas, pid = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
valid = schema_validator(schemas, ["web-position", "web-games", "web-game", "web-error", "web-lobbies", "web-seat"])
def req(path, body=None, method=None, raw=None, src="127.0.0.1"):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=20, source_address=(src, 0))
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    c.request(method or ("POST" if data is not None else "GET"), path, body=data,
              headers={"Connection": "close", "Content-Type": "application/json"})
    r = c.getresponse()
    text = r.read()
    c.close()
    o = json.loads(text)
    if r.status >= 400:
        valid(o, "web-error")
    return r.status, o, text
def lob(action, body, src="127.0.0.1"):
    st, o, _ = req("/api/lobby/" + action, body, src=src)
    if st < 300:
        valid(o, "web-seat")
    return st, o
def game(gid):
    st, g, _ = req(f"/api/games/{gid}")
    assert st == 200, g
    return valid(g, "web-game")
def join(name, lobby="remote", typ="Base", src="127.0.0.1"):
    st, s = lob("join", {"lobby": lobby, "type": typ, "name": name}, src=src)
    assert st == 201 and s["state"] == "waiting" and len(s["token"]) == 32, (st, s)
    return s["token"]
def seat(tok):
    st, s = lob("seat", {"token": tok})
    assert st == 200, (st, s)
    return s
def playing(tok):
    return wait_for(lambda: (lambda s: s if s["state"] == "playing" else None)(seat(tok)), 20, "paired")
def play_legal(tok):
    """The seat's move: the first legal move the core offers for the position."""
    s = wait_for(lambda: (lambda s: s if s["to_move"] else None)(seat(tok)), 20, "its turn")
    g = game(s["game"])
    mv = g["position"]["legal"][0]["move"]
    st, s2 = lob("move", {"token": tok, "move": mv})
    assert st == 200, (st, s2)
    return mv

class Uhp:
    def __init__(self):
        self.s = socket.create_connection(("127.0.0.1", remp), timeout=30)
        self.buf = b""
        self.until_ok()        # the id block
    def send(self, line):
        self.s.sendall((line + "\n").encode())
    def until_ok(self):
        out = []
        while True:
            while b"\n" in self.buf:
                l, self.buf = self.buf.split(b"\n", 1)
                l = l.decode()
                if l == "ok":
                    return out
                out.append(l)
            d = self.s.recv(4096)
            if not d:
                sys.exit(f"uhp closed: {out}")
            self.buf += d
    def close(self):
        self.s.close()

base_fds = fds(pid)
st, ls, _ = req("/api/lobbies")
valid(ls, "web-lobbies")
assert st == 200 and sorted(l["name"] for l in ls["lobbies"]) == ["quick", "remote"], ls

# Two web persons: the one who waited plays White.
ta = join("alice")
tb = join("bob")
sa, sb = playing(ta), playing(tb)
assert sa["color"] == "w" and sb["color"] == "b" and sa["game"] == sb["game"], (sa, sb)
assert sa["opponent"] == "web:bob" and sb["opponent"] == "web:alice", (sa, sb)
gid = sa["game"]
moves = []
for i in range(6):
    moves.append(play_legal(ta if i % 2 == 0 else tb))
g = game(gid)
assert g["moves"] == moves and g["plies"] == 6 and g["kind"] == "uhp-remote", (g["moves"], moves)
assert g["white"] == "web:alice" and g["black"] == "web:bob" and g["clocks"], g
# Illegal and out of turn: refused, the game untouched.
st, e = lob("move", {"token": ta, "move": "wQ wQ-"})
assert st == 422, (st, e)
st, e = lob("move", {"token": ta, "move": "garbage!"})
assert st == 422, (st, e)
st, e = lob("move", {"token": tb, "move": g["position"]["legal"][0]["move"]})
assert st == 409 and "turn" in e["error"], (st, e)
assert game(gid)["moves"] == moves
# No token where other viewers read.
for path in ["/api/games", f"/api/games/{gid}", "/api/lobbies"]:
    _, _, text = req(path)
    assert ta.encode() not in text and tb.encode() not in text, path
# Bob resigns: White wins.
st, s = lob("resign", {"token": tb})
assert st == 200 and s["state"] == "over" and s["reason"].startswith("1-0 black resigned"), s
s = seat(ta)
assert s["state"] == "over" and "black resigned" in s["reason"], s
g = game(gid)
assert g["finished"] and g["result"] == "1-0" and g["reason"] == "black resigned", g
st, e = lob("move", {"token": ta, "move": "wQ"})
assert st == 409, (st, e)
print("web vs web: ok")

# A UHP client waits first (White), a web person comes (Black).
u = Uhp()
u.send("newgame Base")
def lobby_waiting():
    st, ls, _ = req("/api/lobbies")
    return [l for l in valid(ls, "web-lobbies")["lobbies"] if l["name"] == "remote"][0]["waiting"] == 1
wait_for(lobby_waiting, 20, "the UHP client waits")
tc = join("carol")
ans = u.until_ok()
assert ans[0].startswith("remote game=") and "color=White" in ans[0] and "opponent=web:carol" in ans[0], ans
sc = playing(tc)
assert sc["color"] == "b" and sc["opponent"].startswith("remote#"), sc
u.send("play wS1")        # answered with the opponent's move
mv = play_legal(tc)
reply = u.until_ok()
assert reply[1] == mv, (reply, mv)
g = game(sc["game"])
assert g["moves"] == ["wS1", mv], g
u.send("resign")
u.until_ok()
s = wait_for(lambda: (lambda s: s if s["state"] == "over" else None)(seat(tc)), 20, "carol told")
assert s["reason"].startswith("0-1 white resigned"), s
assert game(sc["game"])["result"] == "0-1"
u.close()
# The web person waits first (White), the UHP client comes (Black).
td = join("dave")
u = Uhp()
u.send("newgame Base")
sd = playing(td)
assert sd["color"] == "w" and sd["opponent"].startswith("remote#"), sd
mv = play_legal(td)
ans = u.until_ok()
assert "color=Black" in ans[0] and "opponent=web:dave" in ans[0] and ans[1].endswith(mv), ans
u.send("play " + game(sd["game"])["position"]["legal"][0]["move"])
s = wait_for(lambda: (lambda s: s if s["to_move"] else None)(seat(td)), 20, "dave's turn after the client")
assert game(sd["game"])["plies"] == 2
st, s = lob("resign", {"token": td})
assert st == 200 and s["reason"].startswith("0-1 white resigned"), s
u.close()
print("web vs uhp: ok")

# Presence: a stream names the seat; closing it leaves the seat, resume takes it back.
def stream(tok):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    c.request("GET", "/api/events?seat=" + tok)
    r = c.getresponse()
    assert r.status == 200
    buf = b""
    while b"event: seat" not in buf:
        buf += r.read1(4096) if hasattr(r, "read1") else r.read(1)
    return c, r
def paired_then_left(a, b, lobby):
    """Persons a and b paired; a's event stream opened, then closed: (ta, tb, a's seat)."""
    ta, tb = join(a, lobby), join(b, lobby)
    sa = playing(ta)
    playing(tb)
    c, r = stream(ta)
    c.close(); r.close()
    return ta, tb, sa
te, tf = join("erin"), join("frank")
se = playing(te)
ce, re_ = stream(te)
ce.close(); re_.close()
wait_for(lambda: seat(te)["state"] == "away", 20, "away after the stream closed")
st, s = lob("move", {"token": te, "move": "wS1"})
assert st == 409 and "away" in s["error"], (st, s)
st, s = lob("resume", {"token": te})
assert st == 200 and s["state"] == "playing" and s["game"] == se["game"], (st, s)
play_legal(te)
play_legal(tf)
assert game(se["game"])["plies"] == 2
st, s = lob("resign", {"token": te})
assert st == 200
# Not back within the grace (lobby quick: 1 s): the game is lost.
tg, th, sg = paired_then_left("gina", "hal", "quick")
g = wait_for(lambda: (lambda g: g if g["finished"] else None)(game(sg["game"])), 20, "lost by leaving")
assert g["result"] == "0-1" and g["reason"] == "white disconnected", g
st, s = lob("resume", {"token": tg})
assert st in (404, 410), (st, s)
if st == 410:
    assert s["error"] == "0-1 white disconnected", s
s = seat(th)
assert s["state"] == "over" and "white disconnected" in s["reason"], s
# Away (grace 30 s) when the opponent resigns: the seat is over with the result at
# once, not "away" (and counted against the caps) until its grace ran out.
tm, tn, _ = paired_then_left("mia", "ned", "remote")
wait_for(lambda: seat(tm)["state"] == "away", 20, "mia away")
st, s = lob("resign", {"token": tn})
assert st == 200 and s["state"] == "over", (st, s)
s = seat(tm)
assert s["state"] == "over" and s["reason"] == "1-0 black resigned", s
st, s = lob("resume", {"token": tm})
assert st == 410 and s["error"] == "1-0 black resigned", (st, s)
# Back by /api/lobby/resume (no stream): present for the idle time from then on, not
# detached again by the timer of its leaving (grace + 1 s: here 2 s, then lost at 3 s).
# Only the game is watched meanwhile: a request on the seat would count as presence.
tk, tl, sk = paired_then_left("kim", "lou", "quick")
wait_for(lambda: seat(tk)["state"] == "away", 20, "kim away")
st, s = lob("resume", {"token": tk})
assert st == 200 and s["state"] == "playing", (st, s)
end = time.time() + 5
while time.time() < end:
    g = game(sk["game"])
    assert not g["finished"], ("lost after coming back", g)
    time.sleep(0.1)
s = seat(tk)
assert s["state"] == "playing", s
assert lob("resign", {"token": tk})[0] == 200
print("presence and resume: ok")

# Cancel while waiting: nobody pairs with a cancelled seat.
ti = join("ivy", typ="Base+M")
st, s = lob("cancel", {"token": ti})
assert st == 200 and s["state"] == "over" and s["reason"] == "cancelled", s
st, s = lob("cancel", {"token": ti})
assert st == 409, (st, s)
tj = join("jay", typ="Base+M")
assert seat(tj)["state"] == "waiting"
st, s = lob("cancel", {"token": tj})
assert st == 200
print("cancel: ok")

# Caps: 4 per peer address, 32 in all (waiting, playing or away). At its cap, an
# address's new join takes the place of its oldest seat waiting with no page (no
# stream): four stray joins never lock the address's own page out.
mine = [join(f"p{i}", typ=t) for i, t in enumerate(["Base+M", "Base+L", "Base+P", "Base+MLP"])]
t5 = join("p4", typ="Base+ML")
s = seat(mine[0])
assert s["state"] == "over" and "newer join" in s["reason"], s
for t in mine[1:] + [t5]:
    assert lob("cancel", {"token": t})[0] == 200
many = []
for a in range(2, 10):
    for k in range(4):
        many.append(join(f"n{a}x{k}", src=f"127.0.0.{a}"))
st, e = lob("join", {"lobby": "remote"}, src="127.0.0.10")
assert st == 429 and e["error"] == "too many web players", (st, e)
# Four seats in games: nothing to give way, the address is at its cap.
st, e = lob("join", {"lobby": "remote"}, src="127.0.0.2")
assert st == 429 and e["error"] == "too many web players from your address", (st, e)
for t in many:
    s = seat(t)
    assert s["state"] in ("playing", "over"), s     # paired at once; over once White resigned
    if s["state"] == "playing" and s["color"] == "w":
        assert lob("resign", {"token": t})[0] == 200
assert join("again", typ="Base+M")
print("caps: ok")

# Malformed requests: 4xx with a JSON reason.
for path, body, raw, method, want in [
        ("/api/lobby/join", None, b"{nope", None, 400),
        ("/api/lobby/join", {"lobby": "nope"}, None, None, 404),
        ("/api/lobby/join", {"lobby": 7}, None, None, 400),
        ("/api/lobby/join", {"lobby": "remote", "type": "Chess"}, None, None, 400),
        ("/api/lobby/join", {"lobby": "remote", "name": ["x"]}, None, None, 400),
        ("/api/lobby/move", {"move": "wS1"}, None, None, 400),
        ("/api/lobby/move", {"token": "0" * 32, "move": "wS1"}, None, None, 404),
        ("/api/lobby/seat", {"token": "x"}, None, None, 404),
        ("/api/lobby/move", {"token": ta}, None, None, 400),
        ("/api/lobby/nope", {"token": ta}, None, None, 404),
        ("/api/lobby/join", None, None, "GET", 405),
        ("/api/lobby/join", None, b"[1,2]", None, 400)]:
    st, e, _ = req(path, body, method=method, raw=raw)
    assert st == want, (path, body, raw, st, e)
print("malformed: ok")
# Every stream and seat gone: the descriptors come back to their baseline.
wait_for(lambda: fds(pid) <= base_fds, 30, f"descriptors back to {base_fds} (now {fds(pid)})")
print("descriptors: ok")
