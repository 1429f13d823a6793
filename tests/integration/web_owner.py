# web_owner.py: part of web_owner.sh (its failure: "who may act").
import json, sys, http.client
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from web_client import schema_validator
from harness import wait_for
port, schemas = int(sys.argv[1]), sys.argv[2]
valid = schema_validator(schemas, ["web-position", "web-game", "web-error", "web-seat"])
me = f"127.0.0.1:{port}"
def req(method, path, body=None, src="127.0.0.1", headers=None, raw=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=20, source_address=(src, 0))
    h = {"Host": me, "Connection": "close", "Content-Type": "application/json"}
    h.update(headers or {})
    h = {k: v for k, v in h.items() if v is not None}
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    h["Content-Length"] = str(len(data or b""))
    c.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    for k, v in h.items():
        c.putheader(k, v)
    c.endheaders(data)
    r = c.getresponse()
    o = json.loads(r.read())
    c.close()
    if r.status >= 400:
        valid(o, "web-error")
    return r.status, o

# The owner starts a game against the built-in engine.
st, g = req("POST", "/api/games", {"depth": 1})
assert st == 201, (st, g)
# (read leniently here, so that a daemon without owners fails on the stranger's move)
gid, tok = g["id"], g.get("token", "")
mine = {"X-Game-Token": tok}
wait_for(lambda: req("GET", f"/api/games/{gid}", headers=mine)[1]["playable"], 20, "the person to move")

# A stranger sees it read-only and cannot act in it: no token, a wrong one, another
# address; the game stays as it was.
for src, hd in [("127.0.0.1", {}), ("127.0.0.2", {}), ("127.0.0.2", {"X-Game-Token": "0" * 32}),
                ("127.0.0.1", {"X-Game-Token": tok[:-1]}), ("127.0.0.1", {"X-Game-Token": tok + "0"})]:
    gst, v = req("GET", f"/api/games/{gid}", src=src, headers=hd)
    st, e = req("POST", f"/api/games/{gid}/move", {"move": "wS1"}, src=src, headers=hd)
    assert st == 403 and "not your game" in e["error"], (st, e)
    st, e = req("POST", f"/api/games/{gid}/resign", {}, src=src, headers=hd)
    assert st == 403 and "not your game" in e["error"], (st, e)
    assert gst == 200 and not v.get("owned") and not v["playable"] and "token" not in v, (gst, v)
    valid(v, "web-game")
st, v = req("GET", f"/api/games/{gid}")
assert v["plies"] == 0 and not v["finished"], v
# No token anywhere a stranger reads.
st, gl = req("GET", "/api/games")
assert tok not in json.dumps(gl), gl
assert len(tok) == 32 and g["owned"], g
valid(g, "web-game")
print("stranger: ok")

# The owner moves, from another address too (the token is the key, not the address).
st, v = req("POST", f"/api/games/{gid}/move", {"move": "wS1"}, src="127.0.0.3", headers=mine)
assert st == 200 and v["moves"] == ["wS1"] and v["owned"], (st, v)
print("owner move: ok")

# Cross-origin and rebinding requests: refused, the game unchanged.
wait_for(lambda: req("GET", f"/api/games/{gid}", headers=mine)[1]["playable"], 20, "the engine's reply")
evil = {"Origin": "http://evil.example"}
for hd, raw, want in [
        ({**mine, **evil}, None, 403),
        ({**mine, "Origin": "null"}, None, 403),
        ({**mine, "Origin": f"http://{me}.evil.example"}, None, 403),
        ({**mine, "Sec-Fetch-Site": "cross-site"}, None, 403),
        ({**mine, "Content-Type": "text/plain"}, b'{"move": "bS1 wS1-"}', 415),
        ({**mine, "Content-Type": "application/x-www-form-urlencoded"}, b'{"move": "bS1 wS1-"}', 415),
        ({**mine, "Content-Type": None}, b'{"move": "bS1 wS1-"}', 415),
        ({**mine, "Host": f"evil.example:{port}"}, None, 421),
        ({**mine, "Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}, None, 421)]:
    st, e = req("POST", f"/api/games/{gid}/move", {"move": "bS1 wS1-"}, headers=hd, raw=raw)
    assert st == want, (hd, st, e)
    st, e = req("POST", f"/api/games/{gid}/resign", {}, headers=hd, raw=raw)
    assert st == want, (hd, st, e)
st, e = req("POST", "/api/games", {"depth": 1}, headers=evil)
assert st == 403, (st, e)
st, e = req("POST", "/api/games", raw=b'{"depth": 1}', headers={"Content-Type": "text/plain"})
assert st == 415 and "application/json" in e["error"], (st, e)
st, e = req("POST", "/api/lobby/join", {"lobby": "remote"}, headers=evil)
assert st == 403, (st, e)
st, e = req("POST", "/api/lobby/join", raw=b'{"lobby": "remote"}', headers={"Content-Type": "text/plain"})
assert st == 415, (st, e)
# DNS rebinding: the attacker's name in Host, reads refused too.
for path in ["/", "/api/games", f"/api/games/{gid}", "/api/lobbies", "/api/events"]:
    st, e = req("GET", path, headers={"Host": f"evil.example:{port}"})
    assert st == 421 and "Host" in e["error"], (path, st, e)
st, v = req("GET", f"/api/games/{gid}")
assert st == 200 and v["plies"] == 2 and not v["finished"], v
print("cross-origin and rebinding: ok")

# Same-origin requests work: the page's own Origin, by address or by localhost.
mv = v["position"]["legal"][0]["move"]
st, v = req("POST", f"/api/games/{gid}/move", {"move": mv}, headers={**mine, "Origin": f"http://{me}",
            "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json; charset=utf-8"})
assert st == 200 and v["plies"] == 3, (st, v)
lh = f"localhost:{port}"
st, v = req("POST", f"/api/games/{gid}/resign", {}, headers={**mine, "Host": lh, "Origin": f"http://{lh}"})
assert st == 200 and v["finished"] and v["reason"] == "resigned", (st, v)
st, s = req("POST", "/api/lobby/join", {"lobby": "remote", "name": "ann"}, headers={"Origin": f"http://{me}"})
assert st == 201 and s["state"] == "waiting", (st, s)
st, s = req("POST", "/api/lobby/cancel", {"token": s["token"]}, headers={"Origin": f"http://{me}"})
assert st == 200 and s["reason"] == "cancelled", (st, s)
print("same origin: ok")
