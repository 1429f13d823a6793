#!/bin/sh
# daemon_busy_poll.sh: [daemon] busy_poll_us keeps the loop awake after activity, and
# never when idle or while a search runs. Read from /proc: the loop thread's
# voluntary context switches (each time it slept), its state and CPU time, and the
# daemon's CPU time.
#  - request-reply, the client thinking 1 ms between an answer and its next request:
#    with busy_poll_us = 0 the loop sleeps before nearly every request (which shows
#    the count sees sleeps); with 10000 it sleeps before few;
#  - idle, after the last answer, with 500 idle connections, and after a client that
#    trickled a line byte by byte left mid-line: no CPU time to speak of;
#  - during each search on a worker the loop thread sleeps (it would take CPU time
#    from the nicer worker);
#  - while one client trickles, another is answered as usual;
#  - SIGTERM ends the daemon with status 0 while it spins and while it sleeps.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

for us in 10000 0; do
	cat >"$tmp/conf$us" <<EOF
[daemon]
log = $tmp/log$us
busy_poll_us = $us
max_sessions_per_peer = 600
[engine builtin]
hash_mb = 1
[listen uhp]
port = 0
EOF
done

timeout 300 python3 tests/integration/daemon_busy_poll.py "$HIVEBRIDGE" "$tmp" || fail "busy_poll_us"
echo "daemon_busy_poll: ok"
