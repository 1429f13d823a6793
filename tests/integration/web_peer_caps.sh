#!/bin/sh
# web_peer_caps.sh: the web API's per-address caps (issue 27, finding 2), against a
# real daemon, other loopback addresses (127.0.0.2, .3, .4) as other peers: one
# address holds at most 4 of the 16 page games (429 "too many games from your
# address"), another address still gets one, and the capped address's own page still
# loads and plays in its games; once one of its games ends it may start another. In
# the lobby, four seats of one address that nobody watches (joined with no event
# stream) never lock that address out: its next join takes the oldest one's place.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
. tests/lib/web.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$tmp/conf" <<EOF
[listen remote]
protocol = uhp-remote
port = 0
clock = 300+5
grace = 30
wait_time = 60
EOF
web_serve 2

cat >"$tmp/check.py" <<'EOF'
import json, sys, http.client
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from web_client import deadline
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
deadline(lambda: req("GET", f"/api/games/{g['id']}", src="127.0.0.2", headers=tok)[1]["playable"], 20, "its move")
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
EOF
timeout 120 python3 "$tmp/check.py" "$http" || { tail -n 30 "$tmp/err"; fail "the per-address caps"; }
procs_alive $pid || fail "the daemon died"
kill -TERM $pid
wait $pid || fail "the daemon's exit status $? after SIGTERM: $(tail -n 30 "$tmp/err")"
echo "web_peer_caps: ok"
