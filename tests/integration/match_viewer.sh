#!/bin/sh
# match_viewer.sh: `hivebridge match --viewer 127.0.0.1:0`. A client that connects
# while the match runs receives a GameString line after every move; every line must
# parse with the core, each line must extend the previous one of its game by one
# move (or start a new game), and the last position of every game it watched to the
# end must be the one in the results file. The match closes the connection at its end.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

# Engine A is the built-in engine behind `hivebridge uhp`, started only once the
# gate file given as its argument exists: the viewer client opens the gate when it
# is connected, so no game can move (or end) before it watches, however busy the
# machine. Both search to depth 1: a UHP engine's bestmove time is one second at
# least, and 30 of those would make the test slow for nothing.
cat >"$tmp/gated" <<EOF
#!/bin/sh
while [ ! -e "\$1" ]; do sleep 0.02; done
exec "$HIVEBRIDGE" uhp
EOF
chmod +x "$tmp/gated"

spawn "$HIVEBRIDGE" match --games 2 --depth 1 --max-plies 30 --viewer 127.0.0.1:0 \
	--results "$tmp/results.jsonl" "$tmp/gated $tmp/gate1" builtin:depth=1 >"$tmp/out" 2>"$tmp/err"
pid=$spawned
wait_for '[ $(count "^viewer listening on" "$tmp/err") -ge 1 ] || ! procs_alive $pid' 30
port=$(sed -n 's/^viewer listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$tmp/err")
[ -n "$port" ] || { cat "$tmp/err"; fail "no viewer port"; }

timeout 60 python3 - "$port" "$tmp/gate1" >"$tmp/seen" <<'EOF' || fail "viewer client"
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=30)
open(sys.argv[2], "w").close()
data = b""
while True:
    chunk = s.recv(65536)
    if not chunk:
        break
    data += chunk
sys.stdout.write(data.decode())
EOF
wait "$pid" || fail "match exit status $?"
pid=
n=$(wc -l <"$tmp/seen")
[ "$n" -ge 5 ] || { cat "$tmp/seen"; fail "viewer saw only $n lines"; }
while IFS= read -r gs; do
	"$HIVEBRIDGE" perft --game "$gs" 0 >/dev/null 2>&1 || fail "viewer line does not parse: $gs"
done <"$tmp/seen"
python3 - "$tmp/seen" "$tmp/results.jsonl" <<'EOF' || fail "viewer stream"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
moves = lambda gs: gs.split(";")[3:]
ends = []
for prev, cur in zip(lines, lines[1:]):
    a, b = moves(prev), moves(cur)
    if len(b) == len(a) + 1 and b[:-1] == a:
        continue
    ends.append(prev)            # a new game began: prev was the last of its game
    assert len(b) <= 1, "jump from %r to %r" % (prev, cur)
ends.append(lines[-1])
finals = [json.loads(l)["gamestring"] for l in open(sys.argv[2])]
for e in ends:
    assert moves(e) in [moves(f) for f in finals], "watched game ended at %r" % e
print("viewer: %d lines, %d game ends seen" % (len(lines), len(ends)))
EOF
# Two games at once: a viewer that attaches to game 2 sees that game only.
spawn "$HIVEBRIDGE" match --games 2 --concurrency 2 --depth 1 --max-plies 40 --viewer 127.0.0.1:0 \
	--results "$tmp/results2.jsonl" "$tmp/gated $tmp/gate2" builtin:depth=1 >"$tmp/out2" 2>"$tmp/err2"
pid=$spawned
wait_for '[ $(count "^viewer listening on" "$tmp/err2") -ge 1 ] || ! procs_alive $pid' 30
port=$(sed -n 's/^viewer listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$tmp/err2")
timeout 60 python3 - "$port" "$tmp/gate2" >"$tmp/seen2" <<'EOF' || fail "attached viewer client"
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=30)
# Junk first (an overlong line, an unknown word): ignored, the attach still counts.
s.sendall(b"x" * 1000 + b"\nnonsense\nattach two\nattach 2\n")
open(sys.argv[2], "w").close()
data = b""
while True:
    chunk = s.recv(65536)
    if not chunk:
        break
    data += chunk
sys.stdout.write(data.decode())
EOF
wait "$pid" || fail "second match exit status $?"
pid=
python3 - "$tmp/seen2" "$tmp/results2.jsonl" <<'EOF' || fail "attached viewer stream"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
moves = lambda gs: gs.split(";")[3:]
finals = {json.loads(l)["game"]: json.loads(l)["gamestring"] for l in open(sys.argv[2])}
# Before the attach lands the viewer may see both games; from the last jump on, game 2 only.
start = 0
for i, (prev, cur) in enumerate(zip(lines, lines[1:])):
    a, b = moves(prev), moves(cur)
    if not (len(b) == len(a) + 1 and b[:-1] == a):
        start = i + 1
tail = lines[start:]
assert len(tail) >= 3, "attached viewer saw %d lines of one game" % len(tail)
for prev, cur in zip(tail, tail[1:]):
    assert moves(cur)[:-1] == moves(prev), "not one game: %r then %r" % (prev, cur)
assert moves(tail[-1]) == moves(finals[2]), "game 2 ended at %r, viewer saw %r" % (finals[2], tail[-1])
print("attached viewer: %d lines of game 2" % len(tail))
EOF
echo "match_viewer: ok"
