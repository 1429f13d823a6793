#!/bin/sh
# remote_engines.sh: remote play's engine model (protocol uhp-player) and spectators
# (protocol uhp-spectate), over real sockets against the real daemon:
#  - two `hivebridge uhp` engines connect in (tests/tools/uhp_connect runs each with
#    the connection as its stdio) and are driven through a game: newgame, play,
#    bestmove with the listener's time, as the proposal's three-session example;
#  - spectators list the games, attach (the position at once, then a GameString
#    after every move, then "over N RESULT REASON"), detach; the per-game bound
#    (max_spectators) and the total one (max_spectators_total) refuse with err;
#  - a faulty engine (fake_uhp_engine --fault illegal-move, then crash-on-bestmove)
#    against `hivebridge uhp` loses with the reason;
#  - an engine that disconnects while it waits is dropped from the queue at once
#    (never paired), and one that disconnects while its opponent thinks loses at
#    once ("white disconnected");
#  - the viewer model's refusals: max_games, max_waiting; hints = yes answers bestmove;
#  - the results file validated against schemas/match-result.json.
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
. tests/lib/procs.sh
need python3 timeout jsonschema
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -x "$TOOLS/uhp_connect" ] && [ -x "$TOOLS/fake_uhp_engine" ] || fail "test tools missing in $TOOLS"

cat >"$tmp/conf" <<EOF
[daemon]
log = $tmp/trace
max_sessions_per_peer = 100
[listen players]
protocol = uhp-player
port = 0
move_time = 1
max_plies = 8
max_spectators = 1
results = $tmp/results.jsonl
[listen faulty]
protocol = uhp-player
port = 0
move_time = 1
max_spectators_total = 1
results = $tmp/results.jsonl
[listen gone]
protocol = uhp-player
port = 0
move_time = 2
max_plies = 2
results = $tmp/gone.jsonl
[listen watch]
protocol = uhp-spectate
port = 0
watch = players
[listen watchf]
protocol = uhp-spectate
port = 0
watch = faulty
[listen full]
protocol = uhp-remote
port = 0
max_games = 1
max_waiting = 1
hints = yes
EOF
printf '[listen w]\nprotocol = uhp-spectate\nport = 0\nwatch = nope\n' >"$tmp/bad1"
timeout 10 "$HIVEBRIDGE" serve --config "$tmp/bad1" 2>"$tmp/bad.err" && fail "watch = nope accepted"
grep -q 'watch: no \[listen nope\]' "$tmp/bad.err" || fail "bad watch: $(cat "$tmp/bad.err")"
printf '[listen w]\nprotocol = uhp-player\nport = 0\ngame_type = Chess\n' >"$tmp/bad2"
timeout 10 "$HIVEBRIDGE" serve --config "$tmp/bad2" 2>"$tmp/bad.err" && fail "game_type = Chess accepted"
grep -q 'game_type must be a GameTypeString' "$tmp/bad.err" || fail "bad game_type: $(cat "$tmp/bad.err")"

spawn "$HIVEBRIDGE" serve --config "$tmp/conf" 2>"$tmp/err"
daemon=$spawned
wait_listening "$tmp/err" $daemon 6
pport=$(listen_port "$tmp/err" uhp-player 1)
fport=$(listen_port "$tmp/err" uhp-player 2)
wport=$(listen_port "$tmp/err" uhp-spectate 1)
wfport=$(listen_port "$tmp/err" uhp-spectate 2)
rport=$(listen_port "$tmp/err" uhp-remote 1)
gport=$(listen_port "$tmp/err" uhp-player 3)

cat >"$tmp/lib.py" <<'EOF'
import socket, sys
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import Conn, expect, valid_rows
class C(Conn):
    def __init__(s, port, greeting):
        Conn.__init__(s, port)
        g = s.answer()
        assert g[0] == greeting and g[-1] == "ok", g
SPEC = "id hivebridge v0.1.0 (spectator)"
EOF

# 1. Spectators before any game: an empty list, refused attach, unknown command.
LIB=$tmp/lib.py timeout 30 python3 - "$wport" "$wfport" <<'EOF' || fail "spectator with no game"
import sys
exec(open(__import__("os").environ["LIB"]).read())
# max_spectators_total = 1 on faulty: a second spectator is refused and closed.
one = C(int(sys.argv[2]), SPEC)
two = socket.create_connection(("127.0.0.1", int(sys.argv[2])), timeout=30)
got = b""
while True:
    d = two.recv(4096)
    if not d:
        break
    got += d
expect(got, b"err Too many spectators (1); try again later.\nok\n", "max_spectators_total")
s = C(int(sys.argv[1]), SPEC)
expect(s.cmd("list"), ["ok"], "empty list")
expect(s.cmd("attach 7"), ["err No game 7 is in progress.", "ok"], "attach to nothing")
expect(s.cmd("attach x"), ["err attach needs a game number (list shows them).", "ok"], "bad attach")
expect(s.cmd("undo"), ["err Invalid command. Try 'help' to see a list of valid commands.", "ok"], "unknown")
s.send("exit")
assert s.s.recv(10) == b"", "exit did not close"
EOF

# 2. Two engines connect in and play; spectators watch.
spawn "$TOOLS/uhp_connect" "$pport" "$HIVEBRIDGE" uhp
e1=$spawned
spawn "$TOOLS/uhp_connect" "$pport" "$HIVEBRIDGE" uhp
e2=$spawned
LIB=$tmp/lib.py timeout 60 python3 - "$wport" "$tmp/seen" <<'EOF' || fail "spectators of an engine game"
import sys, time
exec(open(__import__("os").environ["LIB"]).read())
port = int(sys.argv[1])
a = C(port, SPEC)
deadline = time.time() + 20
while True:
    l = a.cmd("list")
    if len(l) > 1:
        break
    assert time.time() < deadline, "no game listed"
    time.sleep(0.05)
assert len(l) == 2 and l[0].startswith("game 1 Base white=player#") and "black=player#" in l[0], l
assert l[0].endswith(" spectators=0"), l
r = a.cmd("attach 1")
assert r[-1] == "ok" and r[0].startswith("Base;"), r
seen = [r[0]]
# max_spectators = 1: a second spectator of game 1 is refused; detached, it may.
b = C(port, SPEC)
expect(b.cmd("attach 1"), ["err Game 1 has 1 spectators already.", "ok"], "second spectator")
l = b.cmd("list")
assert l[0].endswith(" spectators=1"), l
# a detaches: b may attach now and gets the position at once.
a.send("detach")
while True:
    x = a.line()
    if x == "ok":
        break
    seen.append(x)                      # a move that raced the detach
r = b.cmd("attach 1")
assert r[-1] == "ok" and r[0].startswith("Base;"), r
seen.append(r[0])
over = None
while over is None:
    x = b.line()
    if x.startswith("over "):
        over = x
    else:
        seen.append(x)
assert over.startswith("over 1 1/2-1/2 adjudicated: 8 plies played"), over
expect(a.cmd("list"), ["ok"], "list after the game")
open(sys.argv[2], "w").write("\n".join(seen) + "\n")
EOF
wait_for '! procs_alive $e1 && ! procs_alive $e2' 10 || fail "engines not closed after their game"
python3 - "$tmp/seen" <<'EOF' || fail "spectator stream"
import sys
lines = [l for l in open(sys.argv[1]).read().splitlines()]
moves = lambda gs: gs.split(";")[3:]
seq = sorted(set(lines), key=lambda g: len(moves(g)))
for p, c in zip(seq, seq[1:]):
    assert moves(c)[:-1] == moves(p) or len(moves(c)) == len(moves(p)), (p, c)
assert len(moves(seq[-1])) == 8, seq[-1]
EOF

# 3. A faulty engine loses, with the reason.
for fault in illegal-move crash-on-bestmove; do
	n=$(count ' is FakeUhp' "$tmp/trace")
	spawn "$TOOLS/uhp_connect" "$fport" "$TOOLS/fake_uhp_engine" --fault "$fault"
	f=$spawned
	# The faulty one connects first: it waits, so it plays White.
	wait_for "[ \$(count ' is FakeUhp' \"$tmp/trace\") -gt $n ]" 10 || fail "$fault: not waiting"
	spawn "$TOOLS/uhp_connect" "$fport" "$HIVEBRIDGE" uhp
	g=$spawned
	wait_for '! procs_alive $f && ! procs_alive $g' 20 || fail "$fault: players not closed"
done

# 3b. Engines that go while nobody asks them anything. One waits and leaves: it is
# out of the queue at once, so the next two engines play each other. Then one
# (White) leaves while its opponent thinks: the game is lost at once, not when
# Black's time (move_time 2) is up.
LIB=$tmp/lib.py timeout 60 python3 - "$gport" "$tmp/trace" <<'EOF' || fail "an engine gone while waiting"
import sys, time
exec(open(__import__("os").environ["LIB"]).read())
port, trace = int(sys.argv[1]), sys.argv[2]
def wait_log(text):
    deadline = time.time() + 10
    while text not in open(trace).read():
        assert time.time() < deadline, "not in the log: " + text
        time.sleep(0.05)
gone = socket.create_connection(("127.0.0.1", port), timeout=30)
gone.sendall(b"id Gone 1\nMosquito;Ladybug;Pillbug\nok\n")
wait_log(" is Gone 1")
gone.close()
wait_log("disconnected while waiting")
EOF
spawn "$TOOLS/uhp_connect" "$gport" "$HIVEBRIDGE" uhp
e1=$spawned
spawn "$TOOLS/uhp_connect" "$gport" "$HIVEBRIDGE" uhp
e2=$spawned
wait_for '! procs_alive $e1 && ! procs_alive $e2' 20 || fail "the engines after a gone one did not play"
LIB=$tmp/lib.py timeout 60 python3 - "$gport" "$tmp/trace" <<'EOF' || fail "an engine gone while its opponent thinks"
import sys, time
exec(open(__import__("os").environ["LIB"]).read())
port, trace = int(sys.argv[1]), sys.argv[2]
class E(C):
    def __init__(s, name):
        s.s = socket.create_connection(("127.0.0.1", port), timeout=30)
        s.buf = b""
        s.s.sendall(("id %s\nMosquito;Ladybug;Pillbug\nok\n" % name).encode())
    def reply(s, *lines):
        s.s.sendall(("\n".join(lines + ("ok",)) + "\n").encode())
leaver = E("Leaver 1")
deadline = time.time() + 10
while " is Leaver 1" not in open(trace).read():
    assert time.time() < deadline, "the leaver is not waiting"
    time.sleep(0.05)
thinker = E("Thinker 1")
# The leaver waited: White. It plays its first move, then leaves while Black thinks.
l = leaver.line()
assert l.startswith("newgame Base;NotStarted"), l
leaver.reply(l.split(" ", 1)[1])
l = leaver.line()
assert l.startswith("bestmove"), l
leaver.reply("wS1")
l = thinker.line()
assert l.startswith("newgame Base;InProgress;Black[1];wS1"), l
thinker.reply(l.split(" ", 1)[1])
l = thinker.line()
assert l.startswith("bestmove"), l
leaver.s.close()
# Black is not asked to finish: the game is over, it gets exit and is closed.
rest = b""
while True:
    d = thinker.s.recv(4096)
    if not d:
        break
    rest += d
assert rest in (b"exit\n", b""), rest
EOF
wait_for '[ $(count . "$tmp/gone.jsonl") -ge 2 ]' 10 || fail "gone: $(count . "$tmp/gone.jsonl") results"
python3 - "$tmp/gone.jsonl" <<'EOF' || fail "the games after gone engines"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 2, rows
a, b = rows
assert a["white_id"].startswith("hivebridge") and a["black_id"].startswith("hivebridge"), a
assert a["reason"] == "adjudicated: 2 plies played", a
assert b["white_id"] == "Leaver 1" and b["black_id"] == "Thinker 1", b
assert (b["result"], b["reason"], b["plies"]) == ("0-1", "white disconnected", 1), b
EOF

# 4. The viewer model's bounds and hints.
LIB=$tmp/lib.py timeout 60 python3 - "$rport" "$tmp/trace" <<'EOF' || fail "max_waiting, max_games, hints"
import sys, time
exec(open(__import__("os").environ["LIB"]).read())
port, trace = int(sys.argv[1]), sys.argv[2]
def seen(text):
    return open(trace).read().count(text)
R = "id hivebridge v0.1.0 (remote play)"
def C2():
    c = C.__new__(C); c.s = socket.create_connection(("127.0.0.1", port), timeout=30); c.buf = b""
    c.answer(); return c
a, b, c = C2(), C2(), C2()
# max_waiting = 1: a waits (Base+M), so b asking for Base cannot wait too. The daemon
# logs a line before it acts on it, in the same turn of its loop: once a's newgame is
# in the trace, a is waiting by the time b's line is read.
before = seen(" newgame Base+M\n")
a.send("newgame Base+M")
deadline = time.time() + 10
while seen(" newgame Base+M\n") == before:
    assert time.time() < deadline, "a's newgame never reached the daemon"
    time.sleep(0.02)
r = b.cmd("newgame Base")
expect(r, ["err Too many players waiting (1); try again later.", "ok"], "max_waiting")
b.send("newgame Base+M")
# The one that waited plays White; Black's answer comes after White's first move.
ra = a.answer()
assert ra[0].startswith("remote game=") and "color=White" in ra[0] and ra[1:] == ["Base+M;NotStarted;White[1]", "ok"], ra
w = a
# max_games = 1: the one game runs, c is refused.
expect(c.cmd("newgame"), ["err Too many games in progress (1); try again later.", "ok"], "max_games")
# hints = yes: bestmove is answered by the listener's engine, the game untouched.
h = w.cmd("bestmove depth 1")
assert len(h) == 2 and h[1] == "ok" and not h[0].startswith("err"), h
v = w.cmd("validmoves")
assert h[0] in v[0].split(";"), (h, v)
w.send("play " + h[0])
assert w.line().startswith("Base+M;InProgress;Black[1];"), "play after the hint"
rb = b.answer()
assert "color=Black" in rb[0] and rb[1].startswith("Base+M;InProgress;Black[1];"), rb
EOF

# 5. The results file: the watched game and the two faulty games, all valid.
wait_for '[ $(count . "$tmp/results.jsonl") -ge 3 ]' 10 || fail "results: $(count . "$tmp/results.jsonl") lines"
LIB=$tmp/lib.py python3 - schemas/match-result.json "$tmp/results.jsonl" <<'EOF' || fail "results file"
import sys
exec(open(__import__("os").environ["LIB"]).read())
rows = valid_rows(sys.argv[1], sys.argv[2])
for r in rows:
    assert r["source"] == "remote" and r["time_control"] == "1/move", r
assert [r["listener"] for r in rows] == ["players", "faulty", "faulty"], rows
g = rows[0]
assert g["result"] == "1/2-1/2" and g["plies"] == 8 and g["white"].startswith("player#"), g
assert g["white_id"].startswith("hivebridge") and g["black_id"].startswith("hivebridge"), g
for r, why in zip(rows[1:], ["illegal move", "engine crashed: closed the connection"]):
    fake = "white" if r["white_id"].startswith("FakeUhp") else "black"
    assert r[fake + "_id"].startswith("FakeUhp") and not r[("black" if fake == "white" else "white") + "_id"].startswith("FakeUhp"), r
    assert r["result"] == ("0-1" if fake == "white" else "1-0"), r
    assert r["reason"].startswith(fake + " " + why), (r["reason"], why)
print("results: %d games, reasons: %s" % (len(rows), [r["reason"] for r in rows]))
EOF

kill -TERM $daemon
wait_for '! procs_alive $daemon' 10 || fail "the daemon did not stop"
[ "$(children_left $daemon 1)" = 0 ] || fail "engines left behind"
echo "remote_engines: ok"
