# redis.sh: a real redis-server for the integration tests of match --queue (sourced
# after procs.sh, with $tmp set and fail defined).
#
#   redis_start [same] [ARGS...]  redis-server on $port (picked free once; "same": the
#                                 port it had) with its files in $tmp/redis and ARGS
#                                 (default: no persistence at all); $redis is its PID.
port=
redis_start() {
	_same=
	[ "${1:-}" = same ] && { _same=1; shift; }
	mkdir -p "$tmp/redis"
	for _try in 1 2 3 4 5; do
		[ -n "$port" ] || port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
		: >"$tmp/redis.log"
		spawn redis-server --bind 127.0.0.1 --port "$port" --dir "$tmp/redis" --save '' --appendonly no \
			--daemonize no --logfile "$tmp/redis.log" "$@"
		redis=$spawned
		wait_for '! procs_alive $redis || grep -q "Ready to accept" "$tmp/redis.log"' 20 ||
			fail "redis-server did not start"
		procs_alive $redis && return 0
		grep -q "Address already in use" "$tmp/redis.log" || { cat "$tmp/redis.log" >&2; fail "redis-server died"; }
		[ -n "$_same" ] && sleep 0.2 || port=   # our own port: it frees soon
	done
	fail "no port for redis-server after 5 tries"
}
