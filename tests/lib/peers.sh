# peers.sh: the real engines for the peer matrix (tests/integration/peers_*.sh),
# sourced after procs.sh from the top of the tree.
#
#   $PEERS         where they are: ${PEERS:-$top/../shared/peers}; a missing or
#                  unrunnable engine fails the test naming the path looked at
#   $NOKAMUTE      nokamute's command line: "PATH uhp --num-threads=1"
#   $MZINGA        MzingaCpp's: "PATH"
#   peers_trace LOG MIN [WHAT]
#                  fails unless every bestmove the bridge sent an engine in LOG
#                  was answered with the engine's own move (at least MIN of them),
#                  with no err, no fallback, no signal and no engine failure in
#                  LOG (tests/lib/peers_trace.py)
# Depth games stop at 20 plies: nokamute applies its own threefold-repetition rule
# and exits (status 101) when asked for a move in a position it calls drawn, which
# only match adjudicates (its --repetition); few games repeat a position that early.
_top=$(pwd)
PEERS=${PEERS:-$_top/../shared/peers}
for _pe in nokamute mzingacpp; do
	[ -x "$PEERS/$_pe" ] ||
		procs_fail "no real engine at $PEERS/$_pe (the peer matrix needs ../shared/peers, or PEERS=DIR)"
done
NOKAMUTE="$PEERS/nokamute uhp --num-threads=1"
MZINGA="$PEERS/mzingacpp"

peers_trace() {
	python3 tests/lib/peers_trace.py "$@"
}

# peers_case NAME CMD...: runs CMD (its output in $tmp/NAME.out, shown); a failure
# is counted in $peers_fails and named in $peers_failed, and the next case runs.
peers_fails=0 peers_failed=
peers_case() {
	_pcn=$1
	shift
	echo "== $_pcn"
	if "$@" >"$tmp/$_pcn.out" 2>&1; then
		cat "$tmp/$_pcn.out"
	else
		cat "$tmp/$_pcn.out"
		echo "FAIL: $_pcn"
		peers_fails=$((peers_fails + 1))
		peers_failed="$peers_failed $_pcn"
	fi
}

# peers_conf FILE: the two engines as profiles "nokamute" and "mzinga", then
# whatever the caller appends.
peers_conf() {
	cat >"$1" <<EOC
[engine nokamute]
command = $NOKAMUTE
[engine mzinga]
command = $MZINGA
EOC
}

# peers_end NAME: the verdict line (run.sh wants "NAME: ok ..." last).
peers_end() {
	if [ "$peers_fails" != 0 ]; then
		echo "FAIL: $1: $peers_fails case(s) failed:$peers_failed"
		exit 1
	fi
	echo "$1: ok"
}
