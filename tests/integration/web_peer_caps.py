# web_peer_caps.py: part of web_peer_caps.sh (its failure: "the per-address caps").
import json, sys, http.client
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from harness import wait_for
port = int(sys.argv[1])
def req(method, path, body=None, src="127.0.0.1", headers=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=20, source_address=(src, 0))
    h = {"Connection": "close", "Content-Type": "application/json"}
    h.update(headers or {})
    c.request(method, path, body=json.dumps(body).encode() if body is not None else None, headers=h)
    r = c.getresponse()
    text = r.read()
    c.close()
    return r.status, (json.loads(text) if r.getheader("Content-Type") == "application/json" else text)
def start(src):
    return req("POST", "/api/games", {"depth": 1}, src=src)

# One address takes what it may of the 16 page games: 4.
games = []
for i in range(16):
    st, g = start("127.0.0.2")
    if st != 201:
        break
    games.append(g)
assert len(games) == 4, f"one address started {len(games)} of the 16 page games"
assert st == 429 and g["error"] == "too many games from your address", (st, g)
# Another address still gets a game.
st, other = start("127.0.0.3")
assert st == 201, (st, other)
# The capped address's page still loads, and it plays in its own games.
st, page = req("GET", "/", src="127.0.0.2")
assert st == 200 and b"<svg" in page, st
g = games[0]
tok = {"X-Game-Token": g.get("token", "")}
wait_for(lambda: req("GET", f"/api/games/{g['id']}", src="127.0.0.2", headers=tok)[1]["playable"], 20, "its move")
st, v = req("POST", f"/api/games/{g['id']}/move", {"move": "wS1"}, src="127.0.0.2", headers=tok)
assert st == 200 and v["moves"] == ["wS1"], (st, v)
# One game over: room for the next.
st, v = req("POST", f"/api/games/{g['id']}/resign", {}, src="127.0.0.2", headers=tok)
assert st == 200 and v["finished"], (st, v)
st, g5 = start("127.0.0.2")
assert st == 201, (st, g5)
print("page games per address: ok")

# The lobby: four joins of one address that no page watches, then its own page's.
toks = []
for i, t in enumerate(["Base+M", "Base+L", "Base+P", "Base+MLP"]):
    st, s = req("POST", "/api/lobby/join", {"lobby": "remote", "type": t, "name": f"stray{i}"}, src="127.0.0.4")
    assert st == 201, (st, s)
    toks.append(s["token"])
st, s = req("POST", "/api/lobby/join", {"lobby": "remote", "type": "Base+ML", "name": "me"}, src="127.0.0.4")
assert st == 201 and s["state"] == "waiting", ("the address's own page locked out", st, s)
st, old = req("POST", "/api/lobby/seat", {"token": toks[0]}, src="127.0.0.4")
assert st == 200 and old["state"] == "over" and "newer join" in old["reason"], (st, old)
for t in toks[1:]:
    st, o = req("POST", "/api/lobby/seat", {"token": t}, src="127.0.0.4")
    assert st == 200 and o["state"] == "waiting", (st, o)
print("lobby seats per address: ok")
