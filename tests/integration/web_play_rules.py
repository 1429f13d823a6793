# web_play_rules.py PORT SCHEMAS: run by web_play_rules.sh against a daemon with
# http_play_move_time = 1 and http_play_max_plies = 2.
import json, sys, time, http.client
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from web_client import schema_validator
from harness import wait_for
port, schemas = int(sys.argv[1]), sys.argv[2]
valid = schema_validator(schemas, ["web-position", "web-game", "web-error"])


def req(method, path, body=None, token=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    h = {"Connection": "close", "Content-Type": "application/json"}
    if token:
        h["X-Game-Token"] = token
    c.request(method, path, json.dumps(body) if body is not None else None, h)
    r = c.getresponse()
    o = json.loads(r.read())
    c.close()
    valid(o, "web-error" if r.status >= 400 else "web-game")
    return r.status, o


def finished(gid):
    st, g = req("GET", f"/api/games/{gid}")
    assert st == 200, (st, g)
    return g if g["finished"] else None


# The ply cap: the person's move, the engine's, and the game is a draw.
st, g = req("POST", "/api/games", {"depth": 1})
assert st == 201, (st, g)
gid, tok = g["id"], g["token"]
wait_for(lambda: req("GET", f"/api/games/{gid}", token=tok)[1]["playable"], 20, "the person's turn")
mv = req("GET", f"/api/games/{gid}")[1]["position"]["legal"][0]["move"]
st, g = req("POST", f"/api/games/{gid}/move", {"move": mv}, tok)
assert st == 200 and g["plies"] >= 1, (st, g)
g = wait_for(lambda: finished(gid), 20, "the ply cap")
assert g["plies"] == 2 and g["result"] == "1/2-1/2" and g["reason"] == "adjudicated: 2 plies played", g
print("ply cap: ok")

# The person's time: White does not move, and loses one second after its turn began.
t0 = time.time()
st, g = req("POST", "/api/games", {"depth": 1})
assert st == 201, (st, g)
gid, tok = g["id"], g["token"]
g = wait_for(lambda: finished(gid), 20, "the flag")
assert time.time() - t0 >= 1.0, time.time() - t0
assert g["plies"] == 0 and g["result"] == "0-1" and g["reason"] == "white lost on time", g
# Too late for a move now.
st, e = req("POST", f"/api/games/{gid}/move", {"move": "wS1"}, tok)
assert st == 409, (st, e)
print("the person's time: ok")
