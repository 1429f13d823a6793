#!/bin/sh
# peers_hub.sh: the peer matrix, Hub front ends: `hivebridge hub --engine` on stdio
# and serve's hub listener, in front of nokamute and MzingaCpp (tests/lib/peers.sh),
# the bridge playing both sides (tests/lib/peers_hub.py). Budgets: level depth=2
# (a whole game to its end or 20 plies), move-time=1 and move-time=2 (a few moves),
# and Fischer clocks of 10 s + 0.1 s (level time=S inc=0.1). Every move must be
# the engine's own (tests/lib/peers_trace.py on the trace log).
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
. tests/lib/peers.sh

gui() { timeout 120 python3 tests/lib/peers_hub.py "$HIVEBRIDGE" "$@"; }

stdio() {   # ENGINE LOG MIN GUI_ARGS...
	_e=$1 _l=$2 _m=$3
	shift 3
	gui "$@" --cmd "$HIVEBRIDGE" hub --engine "$_e" --log "$_l" && peers_trace "$_l" "$_m"
}
for e in nokamute mzinga; do
	[ $e = nokamute ] && cmd=$NOKAMUTE || cmd=$MZINGA
	peers_case stdio-$e-depth stdio "$cmd" "$tmp/s-$e-d.log" 10 --depth 2 --plies 20
	peers_case stdio-$e-1s stdio "$cmd" "$tmp/s-$e-1.log" 3 --move-time 1 --plies 3
	peers_case stdio-$e-2s stdio "$cmd" "$tmp/s-$e-2.log" 1 --move-time 2 --plies 1
	peers_case stdio-$e-clock stdio "$cmd" "$tmp/s-$e-c.log" 4 --clock 10+0.1 --plies 4
done

# The listener: a whole game at depth 2 and two moves at 1 s, per engine.
peers_conf "$tmp/d.conf"
cat >>"$tmp/d.conf" <<EOC
[listen nk]
protocol = hub
port = 0
engine = nokamute
[listen mz]
protocol = hub
port = 0
engine = mzinga
EOC
spawn "$HIVEBRIDGE" serve --config "$tmp/d.conf" --log "$tmp/d.log" 2>"$tmp/d.err"
daemon=$spawned
wait_listening "$tmp/d.err" $daemon 2 hub
peers_case tcp-nokamute-depth gui --port "$(listen_port "$tmp/d.err" hub 1)" --depth 2 --plies 20
peers_case tcp-mzinga-depth gui --port "$(listen_port "$tmp/d.err" hub 2)" --depth 2 --plies 20
peers_case tcp-depth-trace peers_trace "$tmp/d.log" 20
: >"$tmp/d.log"
peers_case tcp-nokamute-1s gui --port "$(listen_port "$tmp/d.err" hub 1)" --move-time 1 --plies 2
peers_case tcp-mzinga-1s gui --port "$(listen_port "$tmp/d.err" hub 2)" --move-time 1 --plies 2
peers_case tcp-1s-trace peers_trace "$tmp/d.log" 4
kill -TERM $daemon
wait $daemon

peers_end peers_hub
