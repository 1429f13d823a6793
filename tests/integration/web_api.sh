#!/bin/sh
# web_api.sh: the web page's JSON endpoints against a real daemon (serve --http),
# each answer validated against its schema in schemas/: the games list, a game
# against the built-in engine started, played (a move checked by the core, an illegal
# one refused with 422, one out of turn with 409) and resigned, positions and legal
# moves for any GameString and ply, the event stream (a move shows up in it), and
# malformed requests (bad JSON, a huge header, an unknown path or method, raw
# garbage) answered with an HTTP error while the daemon lives on. Then
# `match --http` answers /api/match.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 jsonschema timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$tmp/conf" <<EOF
[listen uhp]
protocol = uhp
port = 0
engine = builtin
EOF
spawn "$HIVEBRIDGE" serve --config "$tmp/conf" --http 127.0.0.1:0 2>"$tmp/err"
pid=$spawned
wait_listening "$tmp/err" $pid 2
http=$(listen_port "$tmp/err" http)
[ -n "$http" ] || fail "no http port"

cat >"$tmp/check.py" <<'EOF'
import json, socket, sys, time, urllib.request, urllib.error, http.client
import jsonschema, referencing
port, mode, schemas = int(sys.argv[1]), sys.argv[2], sys.argv[3]
base = f"http://127.0.0.1:{port}"
res = []
for n in ["web-position", "web-games", "web-game", "web-match", "web-error", "web-engines"]:
    s = json.load(open(f"{schemas}/{n}.json"))
    res.append((f"{n}.json", referencing.Resource.from_contents(s)))
    res.append((s["$id"], referencing.Resource.from_contents(s)))
reg = referencing.Registry().with_resources(res)
def valid(obj, name):
    s = json.load(open(f"{schemas}/{name}.json"))
    jsonschema.Draft202012Validator(s, registry=reg).validate(obj)
    return obj
def req(path, body=None, method=None, raw=None):
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    r = urllib.request.Request(base + path, data=data, method=method or ("POST" if data is not None else "GET"))
    try:
        with urllib.request.urlopen(r, timeout=20) as f:
            return f.status, json.load(f)
    except urllib.error.HTTPError as e:
        body = e.read()
        if e.code == 413 and not body.startswith(b"{"):
            return e.code, None        # evhttp's own answer, before any route runs
        return e.code, valid(json.loads(body), "web-error")
def deadline(cond, secs, what):
    end = time.time() + secs
    while time.time() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.05)
    sys.exit(f"timed out: {what}")

if mode == "match":
    st, m = deadline(lambda: (lambda r: r if r[0] == 200 and r[1]["played"] >= 2 else None)(req("/api/match")), 120, "two games")
    valid(m, "web-match")
    assert m["sprt"] and len(m["sprt"]["history"]) == m["played"], m
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
sse.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
st, g = req("/api/games", {"engine": "builtin", "color": "white", "depth": 1})
assert st == 201, (st, g); valid(g, "web-game")
gid = g["id"]
assert g["human"] == "w" and g["plies"] == 0 and len(g["position"]["legal"]) > 0, g
g = deadline(lambda: (lambda r: r[1] if r[1]["playable"] else None)(req(f"/api/games/{gid}")), 20, "engine start")
st, e = req(f"/api/games/{gid}/move", {"move": "wQ wS1-"}); assert st == 422, (st, e)
st, g = req(f"/api/games/{gid}/move", {"move": "wS1"}); assert st == 200, (st, g); valid(g, "web-game")
assert g["moves"][0] == "wS1", g
st, e = req(f"/api/games/{gid}/move", {"move": "bS1 wS1-"})
assert st in (409, 422), (st, e)    # out of turn while the engine thinks, or its move is in
g = deadline(lambda: (lambda r: r[1] if r[1]["plies"] == 2 else None)(req(f"/api/games/{gid}")), 20, "engine reply")
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
EOF
timeout 120 python3 "$tmp/check.py" "$http" serve schemas || fail "the endpoints of serve"
procs_alive $pid || fail "the daemon died"
kill -TERM $pid
wait $pid || { st=$?; tail -n 30 "$tmp/err"; fail "serve exit status $st"; }
pid=

spawn "$HIVEBRIDGE" match --games 4 --depth 1 --max-plies 60 --sprt 0,50 --http 127.0.0.1:0 builtin builtin:depth=2 \
	>"$tmp/mout" 2>"$tmp/merr"
mpid=$spawned
wait_listening "$tmp/merr" $mpid 1 http
mhttp=$(listen_port "$tmp/merr" http)
timeout 150 python3 "$tmp/check.py" "$mhttp" match schemas || fail "the endpoints of match"
wait_for '[ $(count "played out" "$tmp/merr") -ge 1 ]' 120 || fail "the match did not play out"
kill -TERM $mpid
wait $mpid || { st=$?; tail -n 30 "$tmp/merr"; fail "match exit status $st after SIGTERM"; }
mpid=
echo "web_api: ok"
