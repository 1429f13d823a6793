#!/bin/sh
# web_analyse.sh: POST /api/analyse (docs/web.md): a position searched by the built-in
# engine (its move legal there, its line replayable, a depth and a score; valid under
# schemas/web-analyse.json); the ply of a longer game; refusals (a bad GameString, an unknown profile, a GET, a bad ply); one
# analysis per address at a time (429 while one runs, served again once it ended);
# a client that hangs up stops its search (the next one is served at once); the
# daemon alive after it all.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
. tests/lib/web.sh
need python3 jsonschema
tmp=$(mktemp -d)
procs_trap
fail() { fail_logs "$*"; }
printf '[listen uhp]\nprotocol = uhp\nport = 0\nengine = builtin\n' >"$tmp/conf"
web_serve 2
HTTP=$http timeout 120 python3 - <<'PY' || fail "the analyses"
import json, os, socket, threading, time, urllib.parse, urllib.request, urllib.error
import jsonschema
schema = json.load(open("schemas/web-analyse.json"))
base = "http://127.0.0.1:%s" % os.environ["HTTP"]
def post(body, timeout=30):
    req = urllib.request.Request(base + "/api/analyse", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)
def legal(gs):
    q = urllib.parse.urlencode({"game": gs})
    with urllib.request.urlopen(base + "/api/position?" + q, timeout=30) as r:
        return [m["move"] for m in json.load(r)["legal"]]
gs = "Base;InProgress;White[2];wS1;bG1 -wS1"
st, a = post({"game": gs, "engine": "builtin", "ms": 500, "depth": 3})
assert st == 200, (st, a)
assert a["engine"] == "builtin" and a["ply"] == 2 and a["to_move"] == "w", a
assert a["bestmove"] in legal(gs), a
assert a["depth"] >= 1 and isinstance(a["score"], int) and a["pv"], a
jsonschema.validate(a, schema)
print("analysed:", a)
st, a = post({"game": gs, "ply": 1, "ms": 300})
assert st == 200 and a["ply"] == 1 and a["to_move"] == "b", (st, a)
jsonschema.validate(a, schema)
for body, code in [({"game": "Base;junk"}, 400), ({"game": gs, "engine": "nosuch"}, 400),
                   ({"game": gs, "ply": 9}, 400), ({"game": gs, "ms": -1}, 400), ({}, 400)]:
    st, a = post(body)
    assert st == code and a.get("error"), (body, st, a)
with urllib.request.urlopen(base + "/api/games", timeout=30):
    pass
try:
    urllib.request.urlopen(base + "/api/analyse", timeout=30)
    raise AssertionError("a GET was served")
except urllib.error.HTTPError as e:
    assert e.code == 405, e.code
print("refusals: 400 x5, 405")
# One at a time from an address: a second one while the first runs is refused.
# (The long one asks again while a probe of ours holds the address.)
first = {}
def long_one():
    while True:
        r = post({"game": gs, "ms": 3000})
        if r[0] != 429:
            first["r"] = r
            return
t = threading.Thread(target=long_one)
t.start()
deadline = time.time() + 20
while True:
    st, a = post({"game": gs, "ms": 50})
    if st == 429:
        break
    assert st == 200 and time.time() < deadline and "r" not in first, ("never 429 while one runs", st, a, first)
t.join(60)
assert first["r"][0] == 200, first
st, a = post({"game": gs, "ms": 100})
assert st == 200, (st, a)
print("429 while one ran; served after it")
# A client that hangs up: its search stops, and the address is served again at once.
body = json.dumps({"game": gs, "ms": 3000}).encode()
s = socket.create_connection(("127.0.0.1", int(os.environ["HTTP"])))
s.sendall(b"POST /api/analyse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
          b"Content-Length: %d\r\n\r\n" % len(body) + body)
s.close()
t0 = time.time()
while True:
    st, a = post({"game": gs, "ms": 100})
    if st == 200:
        break
    assert st == 429 and time.time() - t0 < 2.5, ("the hung-up search went on", st, a)
print("a hung-up analysis stopped after %.2f s" % (time.time() - t0))
PY
procs_alive $pid || fail "the daemon died"
echo "web_analyse: ok"
