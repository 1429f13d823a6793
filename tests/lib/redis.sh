# redis.sh: a real redis-server for the integration tests of match --queue (sourced
# after procs.sh, with $tmp set and fail defined).
#
#   redis_start [same] [--conf FILE] [ARGS...]
#       redis-server on $port with its files in $tmp/redis, FILE first (a password
#       stays off the command line) and ARGS after (default: no persistence at all;
#       a later option wins); $redis is its PID. $port, when empty, is picked outside
#       the kernel's ephemeral range (tests/lib/harness.py port), where no outgoing
#       connection takes it meanwhile; one taken all the same (Address already in use)
#       is picked again, up to 5 times. "same" keeps the port it had (clients know it;
#       a caller that holds a port until now sets $port: see hold-port in harness.py):
#       it is tried again while it frees.
#
#   queue_kill_in_game W PID
#       worker W (its stdout in $tmp/W.out, its PID PID) stopped while a game of its
#       own runs (a stopped process cannot finish it), then SIGKILLed: $killed is that
#       game's number (another worker must claim its job and play it again).
#   queue_coord_again [ARGS...]
#       once a result reached the coordinator $coord ($tmp/coord.out), it is
#       SIGKILLed and started again by the caller's function coord ARGS...; it must
#       come back, resuming from the streams: $n is the games it found played.
port=
queue_kill_in_game() {
	killed= _qwo=$tmp/$1.out   # wait_for's eval sees its own $1
	while [ -z "$killed" ]; do
		wait_for '[ $(count "^Started" "$_qwo") -gt $(count "^Finished" "$_qwo") ]' 60 ||
			fail "$1 never started a game"
		kill -STOP "$2"
		# A game started and not finished: with two at once, not always the last
		# started (tournament_queue's w1 had finished that one and posted it).
		killed=$(sed -n 's/^Started game \([0-9]*\) .*/\1/p' "$_qwo" | while read -r _g; do
			grep -q "^Finished game $_g " "$_qwo" || echo "$_g"
		done | tail -n 1)
		if [ -n "$killed" ]; then
			kill -KILL "$2"
		else
			kill -CONT "$2"
		fi
	done
}

queue_coord_again() {
	wait_for '[ $(count "^Finished" "$tmp/coord.out") -ge 1 ]' 60 || fail "no result reached the coordinator"
	kill -KILL $coord
	wait $coord 2>/dev/null
	coord "$@"
	wait_for '[ $(count "already played" "$tmp/coord.out") = 2 ]' 30 || fail "the coordinator did not come back"
	n=$(sed -n 's/.*(\([0-9]*\) already played).*/\1/p' "$tmp/coord.out" | tail -n 1)
	[ "$n" -ge 1 ] || fail "the restarted coordinator counted $n old games"
}

redis_start() {
	_same= _conf=
	[ "${1:-}" = same ] && { _same=1; shift; }
	[ "${1:-}" = --conf ] && { _conf=$2; shift 2; }
	mkdir -p "$tmp/redis"
	for _try in 1 2 3 4 5; do
		[ -n "$port" ] || port=$(python3 tests/lib/harness.py port) || fail "no free port for redis-server"
		: >"$tmp/redis.log"
		spawn redis-server ${_conf:+"$_conf"} --bind 127.0.0.1 --port "$port" --dir "$tmp/redis" --save '' \
			--appendonly no --daemonize no --logfile "$tmp/redis.log" "$@"
		redis=$spawned
		wait_for '! procs_alive $redis || grep -q "Ready to accept" "$tmp/redis.log"' 20 ||
			{ cat "$tmp/redis.log" >&2; fail "redis-server did not start in 20 s"; }
		procs_alive $redis && return 0
		grep -q "Address already in use" "$tmp/redis.log" || { cat "$tmp/redis.log" >&2; fail "redis-server died"; }
		echo "redis.sh: port $port taken (try $_try): $(grep 'Address already in use' "$tmp/redis.log")" >&2
		[ -n "$_same" ] && sleep 0.2 || port=   # our own port: it frees soon
	done
	cat "$tmp/redis.log" >&2
	fail "no port for redis-server after 5 tries"
}
