#!/bin/sh
# trylobot_honest.sh: a Trylobot listener never passes the bridge's own move off as
# the engine's. With an engine that crashes on every search, each answer (the best
# sendable move by one ply) is a warning on stderr and in the trace log with its
# reason, the web page counts it (`substitutions`, `substitution`), and the next
# Greetings on the connection says so (long_name and description). With an engine that cannot start, the
# Greetings' long_name names no engine as playing and the module is inactive.
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
DATA=${HIVE_DATA:-../shared/data}
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; [ -f "$tmp/err" ] && tail -n 20 "$tmp/err" >&2; exit 1; }
[ -s "$DATA/trylobot/choose-turn-first.frame" ] || fail "no $DATA/trylobot/choose-turn-first.frame"

cat >"$tmp/conf" <<EOF
[engine crashes]
command = $TOOLS/fake_uhp_engine --fault crash-on-bestmove
command_timeout = 2
[engine dead]
command = $TOOLS/fake_uhp_engine --fault exit-at-start
[listen tb]
protocol = trylobot
port = 0
engine = crashes
think_time = 0.1
[listen tbdead]
protocol = trylobot
port = 0
engine = dead
EOF
spawn "$HIVEBRIDGE" serve --config "$tmp/conf" --log "$tmp/log" --http 127.0.0.1:0 2>"$tmp/err"
daemon=$spawned
wait_listening "$tmp/err" "$daemon" 2 trylobot
wait_listening "$tmp/err" "$daemon" 1 http
tb=$(listen_port "$tmp/err" trylobot 1)
dead=$(listen_port "$tmp/err" trylobot 2)
http=$(listen_port "$tmp/err" http)

timeout 60 python3 - "$tb" "$dead" "$http" "$DATA/trylobot" <<'EOF' || fail "trylobot client"
import json, socket, sys, time, urllib.request

tb, dead, http, data = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]

class Conn:
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.buf = b""
    def send_file(self, name):
        self.s.sendall(open(data + "/" + name, "rb").read().strip())
    def send(self, obj):
        j = json.dumps(obj)
        self.s.sendall(("%d#%s" % (len(j), j)).encode())
    def frame(self):
        while b"#" not in self.buf:
            self.buf += self.s.recv(65536)
        n, rest = self.buf.split(b"#", 1)
        while len(rest) < int(n):
            rest += self.s.recv(65536)
        self.buf = rest[int(n):]
        return json.loads(rest[:int(n)])

def get(path):
    return json.load(urllib.request.urlopen("http://127.0.0.1:%d%s" % (http, path), timeout=10))

# 1. An engine that cannot start: inactive, and long_name claims no engine.
c = Conn(dead)
c.send({"request_type": "Greetings", "request_id": "g1", "system_version": "0.1.0"})
g = c.frame()
assert g["active"] is False, g
assert "not answering" in g["long_name"] and "dead" in g["long_name"], g["long_name"]
assert "cannot play" in g["description"], g["description"]
print("dead engine: long_name %r" % g["long_name"])

# 2. An engine that crashes on every search: the answer is the bridge's, and said.
c = Conn(tb)
c.send({"request_type": "Greetings", "request_id": "g1", "system_version": "0.1.0"})
g = c.frame()
assert g["active"] is True, g
assert "own move" not in g["description"], g["description"]
c.send_file("choose-turn-first.frame")
t = c.frame()
assert t.get("turn_type") in ("Placement", "Movement"), t
c.send({"request_type": "Greetings", "request_id": "g2", "system_version": "0.1.0"})
g = c.frame()
assert "1 answer on this connection was the bridge's own move" in g["description"], g["description"]
assert g["long_name"].endswith("not answering (the bridge answers for it)"), g["long_name"]
assert "engine failed" in g["description"], g["description"]
print("crashing engine: Greetings says %r" % g["description"])

games = [x for x in get("/api/games")["games"] if x["kind"] == "trylobot"]
assert len(games) == 1 and games[0]["substitutions"] == 1, games
full = get("/api/games/%d" % games[0]["id"])
assert full["substitutions"] == 1 and "engine failed" in full["substitution"], full
print("web page: substitutions %d (%s)" % (full["substitutions"], full["substitution"]))
EOF

grep -q 'hivebridge: substitution 1: engine failed: .*; answering the best sendable move by one ply instead of the engine' "$tmp/err" ||
	fail "no substitution warning on stderr"
grep -q ' note substitution 1: engine failed: ' "$tmp/log" || { grep note "$tmp/log" | tail; fail "no substitution note in the trace log"; }
kill -TERM "$daemon"
wait "$daemon" || fail "serve exit status $? after SIGTERM"
echo "trylobot_honest: ok"
