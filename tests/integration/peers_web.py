# peers_web.py: part of peers_web.sh.
import json, sys, time, http.client
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from peers_common import referee
port, hb, engine, depth, plies = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
me = "127.0.0.1:%d" % port
def req(method, path, body=None, token=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    h = {"Host": me, "Origin": "http://" + me, "Content-Type": "application/json"}
    if token:
        h["X-Game-Token"] = token
    c.request(method, path, json.dumps(body) if body is not None else None, h)
    r = c.getresponse()
    o = json.loads(r.read())
    c.close()
    return r.status, o
ref, ask = referee(hb)
ask("")
st, g = req("POST", "/api/games", {"engine": engine, "color": "white", "type": "Base", "depth": depth})
assert st == 201, (st, g)
gid, tok = g["id"], g["token"]
n, worst, t0 = 0, 0.0, time.monotonic()
while not g["playable"]:          # the engine starts first
    assert time.monotonic() - t0 < 30, "not playable within 30 s: %r" % g
    time.sleep(0.05)
    st, g = req("GET", "/api/games/%s" % gid, None, tok)
while n < plies:
    if g["state"] not in ("NotStarted", "InProgress"):
        break
    gs = g["gamestring"]
    ask("newgame " + gs)
    mv = ask("bestmove depth 1")[-1]
    st, g = req("POST", "/api/games/%s/move" % gid, {"move": mv}, tok)
    assert st == 200, (st, g)
    t0, ply = time.monotonic(), g["plies"]
    while g["state"] in ("NotStarted", "InProgress") and not g["playable"]:
        assert time.monotonic() - t0 < 30, "no engine move within 30 s: %r" % g
        time.sleep(0.05)
        st, g = req("GET", "/api/games/%s" % gid, None, tok)
    worst = max(worst, time.monotonic() - t0)
    if depth == 0 and worst > 4:    # 1 s a move, and a loaded machine's margin
        sys.exit("FAIL: an engine move took %.3f s at 1 s a move" % worst)
    n += 2
if g["state"] in ("NotStarted", "InProgress"):
    st, g = req("POST", "/api/games/%s/resign" % gid, {}, tok)
    assert st == 200, (st, g)
print("%s depth %d: %d plies, %s %s, slowest engine move %.3f s" % (engine, depth, g["plies"], g["result"], g["reason"], worst))
ref.stdin.close()
ref.wait()
