# queue_jobs.sh: helpers for the tests that write jobs into a real Redis by hand,
# as a coordinator (or anyone who can write to Redis) would (sourced after procs.sh,
# with $tmp set and fail defined).
#
#   redis_start              redis-server on a free loopback port ($port), no
#                            persistence; $redis is its PID.
#   rcli ARGS...             redis-cli on it (--raw: one value a line).
#   queue_new NAME           the jobs stream of match NAME with its group "workers",
#                            and its results stream (a coordinator makes both).
#   job_add NAME ID GAME OPENING ENGINE_A ENGINE_B [FIELD VALUE]...
#                            XADD of a job with coord_enqueue's fields (Base, depth 0,
#                            12 plies at most); extra pairs are appended.

redis_start() {
	port=
	for _try in 1 2 3 4 5; do
		port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
		mkdir -p "$tmp/redis"
		: >"$tmp/redis.log"
		spawn redis-server --bind 127.0.0.1 --port "$port" --dir "$tmp/redis" --appendonly no \
			--save '' --daemonize no --logfile "$tmp/redis.log"
		redis=$spawned
		wait_for '! procs_alive $redis || grep -q "Ready to accept" "$tmp/redis.log"' 20 ||
			fail "redis-server did not start"
		procs_alive $redis && return 0
		grep -q "Address already in use" "$tmp/redis.log" || { cat "$tmp/redis.log" >&2; fail "redis-server died"; }
	done
	fail "no port for redis-server after 5 tries"
}

rcli() {
	redis-cli --raw -p "$port" "$@"
}

queue_new() {
	rcli XGROUP CREATE "hivebridge:$1:jobs" workers 0 MKSTREAM >/dev/null || fail "XGROUP CREATE"
	rcli XADD "hivebridge:$1:results" 0-1 made by-test >/dev/null || fail "XADD results"
}

job_add() {
	_jn=$1 _jid=$2 _jg=$3 _jo=$4 _ja=$5 _jb=$6
	shift 6
	rcli XADD "hivebridge:$_jn:jobs" "$_jid" game "$_jg" white a opening "$_jo" type Base depth 0 \
		movetime 0 clock 0 inc 0 max_plies 12 repetition 3 engine_a "$_ja" engine_b "$_jb" "$@" \
		>/dev/null || fail "XADD job $_jid"
}
