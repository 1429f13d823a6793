#!/bin/sh
# peers_web.sh: the peer matrix, the web page's play endpoint: POST /api/games with
# an engine profile (nokamute, then MzingaCpp: tests/lib/peers.sh), the person's
# moves posted with the owner token (X-Game-Token, application/json, same origin)
# and chosen by the built-in engine. Budgets: depth 2 (a game to its end or 30
# plies, then resigned if it still runs) and depth 0, the page's 1 s a move (two
# engine moves, then resigned). The page has no other budget. Every engine move
# must be its own (tests/lib/peers_trace.py on the daemon's trace log).
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
. tests/lib/web.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }
. tests/lib/peers.sh

peers_conf "$tmp/conf"
printf '[listen u]\nprotocol = uhp\nport = 0\n' >>"$tmp/conf"

# play PROFILE DEPTH PLIES: one page game, the person White.
cat >"$tmp/play.py" <<'EOP'
import json, subprocess, sys, time, http.client
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
ref = subprocess.Popen([hb, "uhp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
def ask(c):
    if c:
        ref.stdin.write(c.encode() + b"\n")
    out = []
    while True:
        l = ref.stdout.readline().decode().rstrip("\n")
        if l == "ok":
            return out
        out.append(l)
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
    if depth == 0 and worst > 2.5:
        sys.exit("FAIL: an engine move took %.3f s at 1 s a move" % worst)
    n += 2
if g["state"] in ("NotStarted", "InProgress"):
    st, g = req("POST", "/api/games/%s/resign" % gid, {}, tok)
    assert st == 200, (st, g)
print("%s depth %d: %d plies, %s %s, slowest engine move %.3f s" % (engine, depth, g["plies"], g["result"], g["reason"], worst))
ref.stdin.close()
ref.wait()
EOP
play() { timeout 120 python3 "$tmp/play.py" "$http" "$HIVEBRIDGE" "$@"; }

spawn "$HIVEBRIDGE" serve --config "$tmp/conf" --http 127.0.0.1:0 --log "$tmp/d.log" 2>"$tmp/err"
pid=$spawned
wait_listening "$tmp/err" $pid 2
http=$(listen_port "$tmp/err" http)
peers_case depth-nokamute play nokamute 2 20
peers_case depth-mzinga play mzinga 2 20
peers_case depth-trace peers_trace "$tmp/d.log" 10
: >"$tmp/d.log"
peers_case 1s-nokamute play nokamute 0 4
peers_case 1s-mzinga play mzinga 0 4
peers_case 1s-trace peers_trace "$tmp/d.log" 4
kill -TERM $pid
wait $pid

peers_end peers_web
