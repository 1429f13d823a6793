#!/bin/sh
# trylobot_front.sh: `hivebridge serve` with a trylobot listener on a free loopback
# port, the built-in engine behind it, and tools/trylobot_client acting as the
# Trylobot core: the real frames, framing and request faults, full games (Base and
# Base+MLP, the bridge playing White, Black or both), two games interleaved on one
# connection and two connections at once. Every answer is checked against its
# request's possible_turns by the client. Then SIGTERM must end the daemon cleanly
# (status 0: under ASan, nothing leaked).
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
DATA=${HIVE_DATA:-../shared/data}
client="$TOOLS/trylobot_client"
. tests/lib/procs.sh
need timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; [ -f "$tmp/err" ] && cat "$tmp/err" >&2; exit 1; }

[ -x "$client" ] || fail "no $client"
cat >"$tmp/conf" <<EOF
[engine builtin]
hash_mb = 2
[listen uhp]
port = 0
[listen tb]
protocol = trylobot
address = 127.0.0.1
port = 0
engine = builtin
; Without a response_deadline the bridge thinks this long (the real core never sends one).
think_time = 0.03
EOF

spawn "$HIVEBRIDGE" serve --config "$tmp/conf" --log "$tmp/log" 2>"$tmp/err"
daemon=$spawned
wait_listening "$tmp/err" "$daemon" 1 trylobot
port=$(listen_port "$tmp/err" trylobot)
[ -n "$port" ] || fail "no 'listening on 127.0.0.1:PORT (trylobot)' line"

run() {
	echo "== trylobot_client $*"
	timeout 300 "$client" "$@" || fail "trylobot_client $*"
}

run frames "$port" "$DATA/trylobot"
run faults "$port"
run play "$port" --games 3 --type Base --sides white --deadline 60 --plies 300 --seed 1
run play "$port" --games 3 --type Base+MLP --sides black --deadline 60 --plies 300 --seed 2
run play "$port" --games 2 --type Base+M --sides white --deadline 0 --plies 300 --seed 3
run play "$port" --games 1 --type Base+MLP --sides both --deadline 40 --plies 120 --seed 4
run interleave "$port" --type Base+MLP --deadline 40 --plies 80 --seed 5

# Two connections at once.
spawn timeout 300 "$client" play "$port" --games 2 --type Base+LP --sides white --deadline 50 --seed 6 >"$tmp/c1" 2>&1
c1=$spawned
spawn timeout 300 "$client" interleave "$port" --type Base+ML --deadline 50 --plies 60 --seed 7 >"$tmp/c2" 2>&1
c2=$spawned
wait $c1 || { cat "$tmp/c1"; fail "concurrent play"; }
wait $c2 || { cat "$tmp/c2"; fail "concurrent interleave"; }
cat "$tmp/c1" "$tmp/c2"

# The trace log has both directions of the Trylobot frames.
grep -q ' client->bridge {"request_type":"Choose Turn"' "$tmp/log" || fail "no client->bridge frame in the log"
grep -q ' bridge->client {"turn_type":' "$tmp/log" || fail "no bridge->client frame in the log"

stop_daemon() {
	kill -TERM "$daemon"
	wait "$daemon"
	status=$?
	[ $status -eq 0 ] || fail "serve exited with status $status after SIGTERM"
}
stop_daemon

# A failing engine behind the front end: the bridge's own trylobot back end driving
# tools/fake_trylobot_module. Whatever the module does (garbage, or answering after
# the request's deadline), every request still gets one listed, sendable answer.
fake="$TOOLS/fake_trylobot_module"
for mode in garbage slow; do
	rm -f "$tmp/fport"
	spawn "$fake" --port-file "$tmp/fport" --mode $mode --slow-ms 800 --after 2 --count 3 2>"$tmp/ferr"
	fpid=$spawned
	wait_for '[ -s "$tmp/fport" ] || ! procs_alive $fpid' 30 && [ -s "$tmp/fport" ] ||
		fail "the fake module did not start: $(cat "$tmp/ferr")"
	cat >"$tmp/conf2" <<EOF
[engine fake]
kind = trylobot
host = 127.0.0.1
port = $(cat "$tmp/fport")
start_timeout = 2
command_timeout = 1
[listen uhp]
port = 0
[listen tb]
protocol = trylobot
port = 0
engine = fake
EOF
	: >"$tmp/err"
	spawn "$HIVEBRIDGE" serve --config "$tmp/conf2" --log "$tmp/log2" 2>"$tmp/err"
	daemon=$spawned
	wait_listening "$tmp/err" "$daemon" 1 trylobot
	port=$(listen_port "$tmp/err" trylobot)
	[ -n "$port" ] || fail "no trylobot listener"
	run play "$port" --games 1 --type Base --sides white --deadline 400 --plies 24 --seed 8
	stop_daemon
	kill "$fpid" 2>/dev/null
	wait "$fpid" 2>/dev/null
	case $mode in
	garbage) want="engine failed: garbage from the module" ;;
	slow) want="engine time-out; answering the best sendable move" ;;
	esac
	grep -q "$want" "$tmp/log2" || { grep note "$tmp/log2"; fail "$mode: no '$want' in the log"; }
	echo "$mode module: answered without the engine ($want)"
done
echo "trylobot_front: ok"
