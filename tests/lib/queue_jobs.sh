# queue_jobs.sh: helpers for the tests that write jobs into a real Redis by hand,
# as a coordinator (or anyone who can write to Redis) would (sourced after procs.sh,
# with $tmp set and fail defined).
#
#   redis_start              redis-server on a free loopback port ($port), no
#                            persistence; $redis is its PID (tests/lib/redis.sh).
#   rcli ARGS...             redis-cli on it (--raw: one value a line).
#   queue_new NAME           the jobs stream of match NAME with its group "workers",
#                            and its results stream (a coordinator makes both).
#   job_add NAME ID GAME OPENING ENGINE_A ENGINE_B [FIELD VALUE]...
#                            XADD of a job with coord_enqueue's fields (Base, depth 0,
#                            12 plies at most); extra pairs are appended.

. tests/lib/redis.sh

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
