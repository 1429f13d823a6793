#!/bin/sh
# peers_otep.sh: the peer matrix, OTEP front ends: `hivebridge otep --engine` on
# stdio and serve's otep listener, in front of nokamute and MzingaCpp
# (tests/lib/peers.sh), playing White against the built-in engine
# (tests/lib/peers_otep.py). Budgets: the listener's depth (a whole game to its
# end or 20 plies), an overtime period of 1 s and of 2 s a move (a few moves), and
# a Fischer clock of 10 s + 0.1 s kept by the host. Every move must be the
# engine's own (tests/lib/peers_trace.py on the trace log).
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
. tests/lib/peers.sh

host() { timeout 120 python3 tests/lib/peers_otep.py "$HIVEBRIDGE" "$@"; }

stdio() {   # ENGINE LOG MIN HOST_ARGS...
	_e=$1 _l=$2 _m=$3
	shift 3
	host "$@" --cmd "$HIVEBRIDGE" otep --engine "$_e" --log "$_l" && peers_trace "$_l" "$_m"
}
for e in nokamute mzinga; do
	[ $e = nokamute ] && cmd=$NOKAMUTE || cmd=$MZINGA
	peers_case stdio-$e-1s stdio "$cmd" "$tmp/s-$e-1.log" 2 --overtime 1 --plies 4
	peers_case stdio-$e-2s stdio "$cmd" "$tmp/s-$e-2.log" 1 --overtime 2 --plies 2
	peers_case stdio-$e-clock stdio "$cmd" "$tmp/s-$e-c.log" 3 --fischer 10000+100 --plies 6
done

# The listener: depth 2, a whole game per engine.
peers_conf "$tmp/d.conf"
cat >>"$tmp/d.conf" <<EOC
[listen nk]
protocol = otep
port = 0
engine = nokamute
depth = 2
[listen mz]
protocol = otep
port = 0
engine = mzinga
depth = 2
EOC
spawn "$HIVEBRIDGE" serve --config "$tmp/d.conf" --log "$tmp/d.log" 2>"$tmp/d.err"
daemon=$spawned
wait_listening "$tmp/d.err" $daemon 2 otep
peers_case tcp-nokamute-depth host --port "$(listen_port "$tmp/d.err" otep 1)" --plies 20
peers_case tcp-mzinga-depth host --port "$(listen_port "$tmp/d.err" otep 2)" --plies 20
peers_case tcp-depth-trace peers_trace "$tmp/d.log" 10
kill -TERM $daemon
wait $daemon

peers_end peers_otep
