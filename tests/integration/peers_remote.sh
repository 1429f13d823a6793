#!/bin/sh
# peers_remote.sh: the peer matrix, remote play's engine model (protocol
# uhp-player): nokamute and MzingaCpp (tests/lib/peers.sh) connect in as players
# (tools/uhp_connect runs each with the connection as its stdio) and the daemon
# drives them, one game per listener, all three at once: move_time = 1 (4 plies),
# move_time = 2 (2 plies) and clock = 10+0.1 (8 plies). uhp-player has no depth.
# Each game must end by max_plies (never a crash, an illegal move, a stall or a
# time loss), and every move must be the engine's own (tests/lib/peers_trace.py).
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
. tests/lib/peers.sh

# One daemon per budget, so that each trace log tells one.
for b in t1 t2 clock; do
	case $b in
	t1) budget="move_time = 1" plies=4 ;;
	t2) budget="move_time = 2" plies=2 ;;
	clock) budget="clock = 10+0.1" plies=8 ;;
	esac
	printf '[listen players]\nprotocol = uhp-player\nport = 0\n%s\nmax_plies = %s\nresults = %s\n' \
		"$budget" $plies "$tmp/$b.jsonl" >"$tmp/$b.conf"
	spawn "$HIVEBRIDGE" serve --config "$tmp/$b.conf" --log "$tmp/$b.log" 2>"$tmp/$b.err"
	wait_listening "$tmp/$b.err" $spawned 1 uhp-player
	port=$(listen_port "$tmp/$b.err" uhp-player)
	# nokamute waits first: it plays White.
	spawn "$TOOLS/uhp_connect" "$port" $NOKAMUTE
	wait_for "grep -q 'engine nokamute' '$tmp/$b.log' || grep -q 'id nokamute' '$tmp/$b.log'" 20 ||
		procs_fail "nokamute did not connect to $b"
	spawn "$TOOLS/uhp_connect" "$port" $MZINGA
done

result() {   # BUDGET MIN
	wait_for "[ -s '$tmp/$1.jsonl' ]" 60 || { echo "no result after 60 s"; cat "$tmp/$1.log"; return 1; }
	python3 tests/integration/peers_remote.py "$tmp/$1.jsonl" || return 1
	peers_trace "$tmp/$1.log" "$2"
}
peers_case move-time-1s result t1 4
peers_case move-time-2s result t2 2
peers_case clock result clock 8

peers_end peers_remote
