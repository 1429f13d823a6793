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

timeout 60 python3 tests/integration/match_viewer_client.py "$port" "$tmp/gate1" >"$tmp/seen" || fail "viewer client"
wait "$pid" || fail "match exit status $?"
pid=
n=$(wc -l <"$tmp/seen")
[ "$n" -ge 5 ] || { cat "$tmp/seen"; fail "viewer saw only $n lines"; }
while IFS= read -r gs; do
	"$HIVEBRIDGE" perft --game "$gs" 0 >/dev/null 2>&1 || fail "viewer line does not parse: $gs"
done <"$tmp/seen"
python3 tests/integration/match_viewer_stream.py "$tmp/seen" "$tmp/results.jsonl" || fail "viewer stream"
# Two games at once: a viewer that attaches to game 2 sees that game only.
spawn "$HIVEBRIDGE" match --games 2 --concurrency 2 --depth 1 --max-plies 40 --viewer 127.0.0.1:0 \
	--results "$tmp/results2.jsonl" "$tmp/gated $tmp/gate2" builtin:depth=1 >"$tmp/out2" 2>"$tmp/err2"
pid=$spawned
wait_for '[ $(count "^viewer listening on" "$tmp/err2") -ge 1 ] || ! procs_alive $pid' 30
port=$(sed -n 's/^viewer listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$tmp/err2")
timeout 60 python3 tests/integration/match_viewer_client.py "$port" "$tmp/gate2" attach >"$tmp/seen2" || fail "attached viewer client"
wait "$pid" || fail "second match exit status $?"
pid=
python3 tests/integration/match_viewer_attached_stream.py "$tmp/seen2" "$tmp/results2.jsonl" || fail "attached viewer stream"
echo "match_viewer: ok"
