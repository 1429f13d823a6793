#!/bin/sh
# peers_uhp.sh: the peer matrix, UHP front ends: `hivebridge uhp --engine` on stdio
# and serve's uhp listener (TCP), in front of nokamute and MzingaCpp
# (tests/lib/peers.sh). Per engine and front end: a whole game at a depth budget
# (to its end or 20 plies), a bare newgame after it (MzingaCpp keeps the previous
# game on one: the bridge must start a new one), and `bestmove time` of 1 s, 1 s
# and 2 s, each from a position the engine has not seen yet, answered in time.
# Every move must be the engine's own (tests/lib/peers_trace.py on the trace log).
# UHP has no clocks.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
. tests/lib/peers.sh

drive() { timeout 120 python3 tests/lib/peers_uhp.py "$@"; }

# stdio: drive LOG ARGS, then the log.
stdio() {   # ENGINE_CMD LOG MIN DRIVER_ARGS...
	_e=$1 _l=$2 _m=$3
	shift 3
	drive "$@" --cmd "$HIVEBRIDGE" uhp --engine "$_e" --log "$_l" && peers_trace "$_l" "$_m"
}
peers_case stdio-nokamute-depth stdio "$NOKAMUTE" "$tmp/s-nk-d.log" 10 --depth 2 --plies 20 --bare
peers_case stdio-mzinga-depth stdio "$MZINGA" "$tmp/s-mz-d.log" 10 --depth 2 --plies 20 --bare
peers_case stdio-nokamute-time stdio "$NOKAMUTE" "$tmp/s-nk-t.log" 3 --timed 1 --timed 1 --timed 2
peers_case stdio-mzinga-time stdio "$MZINGA" "$tmp/s-mz-t.log" 3 --timed 1 --timed 1 --timed 2

# TCP: one daemon for the depth games and one for the timed moves, so that each
# trace log tells one budget.
tcp() {   # NAME MIN DRIVER_ARGS...: both engines on daemon NAME's two listeners
	_n=$1 _m=$2
	shift 2
	peers_conf "$tmp/$_n.conf"
	cat >>"$tmp/$_n.conf" <<EOC
[listen nk]
protocol = uhp
port = 0
engine = nokamute
[listen mz]
protocol = uhp
port = 0
engine = mzinga
EOC
	spawn "$HIVEBRIDGE" serve --config "$tmp/$_n.conf" --log "$tmp/$_n.log" 2>"$tmp/$_n.err"
	_d=$spawned
	wait_listening "$tmp/$_n.err" $_d 2 uhp
	drive --port "$(listen_port "$tmp/$_n.err" uhp 1)" "$@" &&
		drive --port "$(listen_port "$tmp/$_n.err" uhp 2)" "$@" &&
		peers_trace "$tmp/$_n.log" $((_m * 2))
	_rc=$?
	kill -TERM $_d
	wait $_d 2>/dev/null
	return $_rc
}
peers_case tcp-depth tcp tcp-d 10 --depth 2 --plies 20 --bare
peers_case tcp-time tcp tcp-t 2 --timed 1 --timed 2

peers_end peers_uhp
