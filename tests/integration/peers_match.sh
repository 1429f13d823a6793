#!/bin/sh
# peers_match.sh: the peer matrix, `hivebridge match` refereeing nokamute against
# MzingaCpp (tests/lib/peers.sh). Budgets: --depth 2 (two whole games, each to its
# end or 40 plies), --movetime 1000 and 2000 (a few plies), --clock 10000+100.
# Every game must end by the rules or by --max-plies (never a crash, an illegal
# move, a stall or a time loss), and every move must be the engine's own
# (tests/lib/peers_trace.py on the trace log). --repetition stays at its default:
# nokamute applies its own threefold-repetition rule and exits (status 101) when
# asked for a move in a position it calls drawn; match adjudicates it first.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
. tests/lib/peers.sh
peers_conf "$tmp/conf"

# match NAME MIN ARGS...: a match of ARGS, its results and its trace log.
match() {
	_n=$1 _m=$2
	shift 2
	timeout 120 "$HIVEBRIDGE" match --config "$tmp/conf" --log "$tmp/$_n.log" --results "$tmp/$_n.jsonl" \
		"$@" nokamute mzinga || { echo "match exited with status $?"; return 1; }
	python3 tests/integration/peers_match.py "$tmp/$_n.jsonl" || return 1
	peers_trace "$tmp/$_n.log" "$_m"
}
peers_case depth match depth 20 --depth 2 --games 2 --max-plies 40
peers_case movetime-1s match t1 4 --movetime 1000 --games 1 --max-plies 4
peers_case movetime-2s match t2 2 --movetime 2000 --games 1 --max-plies 2
peers_case clock match clock 8 --clock 10000+100 --games 1 --max-plies 8

peers_end peers_match
