#!/bin/sh
# peers_trylobot.sh: the peer matrix, the Trylobot listener in front of nokamute and
# MzingaCpp (tests/lib/peers.sh), tools/trylobot_client acting as the Trylobot core.
# Budgets: the listener's depth = 2 (a whole game, the bridge playing both sides,
# to its end or 20 plies), think_time = 1 and think_time = 2 (a few moves), and a
# response_deadline of 2.5 s set by the client (think_time 1 behind it: nokamute's
# second took 1.5 s at a load of 16 on 2 cores, past a deadline of 1.5 s). Trylobot
# has no clocks. Every answer must be the engine's own move: no fallback, no
# signal (tests/lib/peers_trace.py on each daemon's trace log).
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
. tests/lib/peers.sh

# daemon NAME KEY=VALUE: a daemon with a trylobot listener per engine, KEY=VALUE
# in each; $port_nk and $port_mz.
daemon() {
	peers_conf "$tmp/$1.conf"
	for e in nokamute mzinga; do
		printf '[listen %s]\nprotocol = trylobot\nport = 0\nengine = %s\n%s\n' "$e" "$e" "$2" >>"$tmp/$1.conf"
	done
	spawn "$HIVEBRIDGE" serve --config "$tmp/$1.conf" --log "$tmp/$1.log" 2>"$tmp/$1.err"
	wait_listening "$tmp/$1.err" $spawned 2 trylobot
	port_nk=$(listen_port "$tmp/$1.err" trylobot 1)
	port_mz=$(listen_port "$tmp/$1.err" trylobot 2)
}
client() { timeout 120 "$TOOLS/trylobot_client" play "$@"; }

daemon d "depth = 2"
peers_case depth-nokamute client "$port_nk" --sides both --plies 20 --seed 1
peers_case depth-mzinga client "$port_mz" --sides both --plies 20 --seed 2
peers_case depth-trace peers_trace "$tmp/d.log" 20

daemon t1 "think_time = 1"
peers_case 1s-nokamute client "$port_nk" --sides white --plies 4 --seed 3
peers_case 1s-mzinga client "$port_mz" --sides white --plies 4 --seed 4
peers_case 1s-trace peers_trace "$tmp/t1.log" 4

daemon t2 "think_time = 2"
peers_case 2s-nokamute client "$port_nk" --sides white --plies 2 --seed 5
peers_case 2s-mzinga client "$port_mz" --sides white --plies 2 --seed 6
peers_case 2s-trace peers_trace "$tmp/t2.log" 2

daemon dl "think_time = 1"
peers_case deadline-nokamute client "$port_nk" --sides black --plies 4 --deadline 2500 --seed 7
peers_case deadline-mzinga client "$port_mz" --sides black --plies 4 --deadline 2500 --seed 8
peers_case deadline-trace peers_trace "$tmp/dl.log" 4

peers_end peers_trylobot
