# web_api.py: part of web_api.sh (its failure: "the endpoints of serve").
import json, os, socket, subprocess, sys, time, urllib.parse, urllib.request, urllib.error
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from web_client import schema_validator
from harness import wait_for
port, mode, schemas = int(sys.argv[1]), sys.argv[2], sys.argv[3]
base = f"http://127.0.0.1:{port}"
valid = schema_validator(schemas, ["web-position", "web-games", "web-game", "web-match", "web-error", "web-engines"])
tokens = {}      # game id: its owner token, from the answer that started it
def req(path, body=None, method=None, raw=None):
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    r = urllib.request.Request(base + path, data=data, method=method or ("POST" if data is not None else "GET"),
                               headers={"Content-Type": "application/json"})
    gid = path.split("/")[3] if path.startswith("/api/games/") else None
    if gid in tokens:
        r.add_header("X-Game-Token", tokens[gid])
    try:
        with urllib.request.urlopen(r, timeout=20) as f:
            o = json.load(f)
            if isinstance(o, dict) and "token" in o:
                tokens[str(o["id"])] = o["token"]
            return f.status, o
    except urllib.error.HTTPError as e:
        body = e.read()
        if e.code == 413 and not body.startswith(b"{"):
            return e.code, None        # evhttp's own answer, before any route runs
        return e.code, valid(json.loads(body), "web-error")

def lines_until(sock, buf, done):
    """Lines from sock until done(line); returns (lines, rest of buf)."""
    out = []
    end = time.time() + 30
    while time.time() < end:
        while b"\n" in buf:
            l, buf = buf.split(b"\n", 1)
            out.append(l.decode())
            if done(out[-1]):
                return out, buf
        d = sock.recv(4096)
        if not d:
            break
        buf += d
    sys.exit(f"no answer: {out}")
def find_game(kind, cond, what, where="games"):
    def look():
        st, gl = req("/api/games"); valid(gl, "web-games")
        for x in gl[where]:
            if x["kind"] == kind:
                st, g = req(f"/api/games/{x['id']}"); valid(g, "web-game")
                if cond(g):
                    return g
        return None
    return wait_for(look, 30, what)
def same_moves(g):
    st, p = req("/api/position?game=" + urllib.parse.quote(g["gamestring"]))
    assert st == 200 and p["moves"] == g["moves"] and len(g["moves"]) == g["plies"], (g, p)

if mode == "queue":
    want = set(sys.argv[4:])
    def workers():
        st, m = req("/api/match")
        if st != 200 or not m["workers"]:
            return None
        valid(m, "web-match")
        names = {w["name"] for w in m["workers"]}
        busy = {w["name"] for w in m["workers"] if w["in_flight"] > 0}
        return m if names >= want and busy >= want else None
    m = wait_for(workers, 60, "the workers, each with a game in flight")
    m = wait_for(lambda: (lambda r: r[1] if r[0] == 200 and r[1]["played"] >= 2 and
                          any(w["games"] > 0 and w["games_per_min"] for w in r[1]["workers"]) else None)(req("/api/match")),
                 120, "results and a rate from a worker")
    valid(m, "web-match")
    assert sum(w["games"] for w in m["workers"]) == m["played"], m["workers"]
    assert len(m["finished"]) == m["played"], m
    for g in m["finished"]:
        st, p = req("/api/position?game=" + urllib.parse.quote(g["gamestring"]))
        assert st == 200 and len(p["moves"]) == g["plies"], (st, p)
    print("queue: ok", [(w["name"], w["games"], w["in_flight"], w["games_per_min"]) for w in m["workers"]])
    sys.exit(0)

if mode == "fronts":
    hubp, tbp, remp, otepp = (int(a) for a in sys.argv[4:8])
    # An OTEP host's game: its position and clocks, then the host's finish.
    o = socket.create_connection(("127.0.0.1", otepp), timeout=30)
    o.sendall(b"rules Base\nopponent-move bS1_wS1- Base;InProgress;White[2];wS1;bS1_wS1-\nclock 3000 2500 0 0 0\n")
    g = find_game("otep", lambda g: g["moves"] == ["wS1", "bS1 wS1-"] and g["clocks"], "the otep session's game")
    assert g["white"] == "host" and g["clocks"]["white_ms"] <= 3000 and g["clocks"]["running"] == "w", g
    same_moves(g)
    o.sendall(b"finish 2\n")
    g = find_game("otep", lambda g: g["finished"], "the otep game finished by its host", "finished")
    assert g["result"] == "1-0" and g["reason"] == "the host's finish", g
    o.sendall(b"goodbye\n")
    o.close()
    # A Hub session: its position on the page, then the engine's analysis.
    h = socket.create_connection(("127.0.0.1", hubp), timeout=30)
    h.sendall(b'hub\ninit\npos variant=Base moves="wS1;bS1 wS1-"\n')
    _, hb = lines_until(h, b"", lambda l: l == "ready")
    g = find_game("hub", lambda g: g["moves"] == ["wS1", "bS1 wS1-"], "the hub session's game")
    assert g["white"] == "client" and g["black"] == "builtin" and not g["finished"], g
    same_moves(g)
    h.sendall(b"level depth=2\ngo think\n")
    _, hb = lines_until(h, hb, lambda l: l.startswith("done"))
    g = find_game("hub", lambda g: g["analysis"] is not None, "the hub session's analysis")
    h.close()
    find_game("hub", lambda g: g["reason"] == "abandoned", "the hub game kept after its session", "finished")
    # A Trylobot core's game, the bridge on both sides, cut after 6 plies.
    r = subprocess.run([os.environ["TOOLS"] + "/trylobot_client", "play", str(tbp), "--plies", "6"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    g = find_game("trylobot", lambda g: g["plies"] >= 5, "the trylobot game", "finished")
    assert g["white"] == "core" and g["moves"][0].startswith("w"), g
    same_moves(g)
    # uhp-remote against the house engine: the client waited, so it plays White.
    c = socket.create_connection(("127.0.0.1", remp), timeout=30)
    _, cb = lines_until(c, b"", lambda l: l == "ok")
    c.sendall(b"newgame\n")
    ans, cb = lines_until(c, cb, lambda l: l == "ok")
    assert ans[0].startswith("remote ") and "color=White" in ans[0], ans
    g = find_game("uhp-remote", lambda g: g["clocks"] and g["clocks"]["running"] == "w", "the remote game and its clock")
    c.sendall(b"play wS1\n")
    ans, cb = lines_until(c, cb, lambda l: l == "ok")
    g = find_game("uhp-remote", lambda g: g["plies"] == 2, "the house engine's reply")
    assert g["moves"][0] == "wS1" and g["clocks"]["running"] == "w", g
    assert g["clocks"]["white_ms"] <= 61000 and g["clocks"]["black_ms"] <= 61000, g
    same_moves(g)
    c.close()
    g = find_game("uhp-remote", lambda g: g["finished"] and g["result"] == "0-1", "the result after grace", "finished")
    assert g["reason"] == "white disconnected" and g["plies"] == 2, g
    print("fronts: ok")
    sys.exit(0)

if mode == "match":
    st, m = wait_for(lambda: (lambda r: r if r[0] == 200 and r[1]["played"] >= 2 else None)(req("/api/match")), 120, "two games")
    valid(m, "web-match")
    assert m["sprt"] and len(m["sprt"]["history"]) == m["played"], m
    assert m["sprt"]["min_games"] == 3, m["sprt"]
    for g in m["finished"]:
        st, p = req("/api/position?game=" + urllib.parse.quote(g["gamestring"]))
        assert st == 200 and len(p["moves"]) == g["plies"], (st, p)
    st, gl = req("/api/games"); valid(gl, "web-games")
    print("match: ok", m["played"], "games")
    sys.exit(0)

st, e = req("/api/engines"); assert st == 200; valid(e, "web-engines")
assert [x["name"] for x in e["engines"]] == ["builtin"], e
# The event stream, read in the background of this one thread: opened first.
sse = socket.create_connection(("127.0.0.1", port), timeout=20)
sse.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
st, g = req("/api/games", {"engine": "builtin", "color": "white", "depth": 1})
assert st == 201, (st, g); valid(g, "web-game")
gid = g["id"]
assert g["human"] == "w" and g["plies"] == 0 and len(g["position"]["legal"]) > 0, g
g = wait_for(lambda: (lambda r: r[1] if r[1]["playable"] else None)(req(f"/api/games/{gid}")), 20, "engine start")
st, e = req(f"/api/games/{gid}/move", {"move": "wQ wS1-"}); assert st == 422, (st, e)
st, g = req(f"/api/games/{gid}/move", {"move": "wS1"}); assert st == 200, (st, g); valid(g, "web-game")
assert g["moves"][0] == "wS1", g
st, e = req(f"/api/games/{gid}/move", {"move": "bS1 wS1-"})
assert st in (409, 422), (st, e)    # out of turn while the engine thinks, or its move is in
g = wait_for(lambda: (lambda r: r[1] if r[1]["plies"] == 2 else None)(req(f"/api/games/{gid}")), 20, "engine reply")
valid(g, "web-game"); valid(g["position"], "web-position")
assert g["playable"], g
# Legal moves at ply 1 of this game, from the core, for any GameString.
st, p = req("/api/position?game=" + urllib.parse.quote(g["gamestring"]) + "&ply=1")
assert st == 200 and p["ply"] == 1 and p["to_move"] == "b" and len(p["pieces"]) == 1, p
valid(p, "web-position")
assert all(m["move"].startswith("b") for m in p["legal"]) and len(p["legal"]) > 0, p
st, e = req("/api/position?game=Base;InProgress;White[1];zz"); assert st == 400, st
st, e = req("/api/position?game=" + urllib.parse.quote(g["gamestring"]) + "&ply=99"); assert st == 400, st
st, gl = req("/api/games"); assert st == 200; valid(gl, "web-games")
assert any(x["id"] == gid for x in gl["games"]), gl
st, g = req(f"/api/games/{gid}/resign", {}); assert st == 200, (st, g); valid(g, "web-game")
assert g["finished"] and g["result"] == "0-1" and g["reason"] == "resigned", g
st, e = req(f"/api/games/{gid}/move", {"move": "wQ"}); assert st == 409, (st, e)
# Bad requests: HTTP errors, never a crash.
assert req("/api/games", raw=b"{not json")[0] == 400
assert req("/api/games", raw=b"[1,2]")[0] == 400
assert req("/api/games", {"engine": "nosuch"})[0] == 400
assert req("/api/games", {"engine": "builtin", "color": "green"})[0] == 400
assert req("/api/games", {"engine": "builtin", "depth": 99})[0] == 400
assert req("/api/games/424242")[0] == 404
assert req("/api/games/424242/move", {"move": "wQ"})[0] == 404
assert req("/api/nothing")[0] == 404
assert req("/nothing.html")[0] == 404
assert req("/api/engines", raw=b"x")[0] == 405
assert req("/api/match")[0] == 404
assert req("/api/games", raw=b"x" * 10000)[0] == 413
for junk in [b"\x00\x01garbage\r\n\r\n", b"GET /" + b"a" * 200000 + b" HTTP/1.1\r\n\r\n", b"GET / HTTP/1.1\r\nHost: x\r\nX: " + b"y" * 200000 + b"\r\n\r\n"]:
    s = socket.create_connection(("127.0.0.1", port), timeout=20)
    try:
        s.sendall(junk)
        s.shutdown(socket.SHUT_WR)
        ans = s.recv(100)
    except OSError:
        ans = b"(reset)"
    s.close()
    assert ans == b"" or ans.startswith(b"HTTP/1.1 4") or ans == b"(reset)", ans[:60]
st, page = 0, None
with urllib.request.urlopen(base + "/", timeout=20) as f:
    assert f.status == 200 and b"<svg id=\"board\"" in f.read()
# The stream saw the game start and its first move.
buf = b""
end = time.time() + 20
while b'"plies":1' not in buf and time.time() < end:
    buf += sse.recv(65536)
assert b"event: hello" in buf and b"event: game" in buf and b'"plies":1' in buf, buf[:400]
# A stream whose reader went away: the next events fail on it and it is dropped
# (under ASan, a leak of its unfinished reply would fail the daemon's exit).
sse.close()
for i in range(3):
    st, g2 = req("/api/games", {"engine": "builtin", "depth": 1}); assert st == 201, (st, g2)
    st, g2 = req(f"/api/games/{g2['id']}/resign", {}); assert st == 200, (st, g2)
    time.sleep(0.1)
print("serve: ok")
