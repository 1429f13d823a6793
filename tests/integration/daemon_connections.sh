#!/bin/sh
# daemon_connections.sh: connection budgets of `hivebridge serve`.
#   - max_sessions_per_peer: one address holding its limit is refused on every
#     listener, each refusal in the listener's own protocol (UHP err + ok, a Hub
#     error line, a Trylobot error frame), while a client from another loopback
#     address (127.0.0.2) is still served;
#   - idle_timeout / game_idle_timeout: a silent session with no game is closed after
#     idle_timeout, one with a game in progress only after game_idle_timeout, an
#     active one never; the daemon's descriptors (/proc/PID/fd) go back to where
#     they were;
#   - max_sessions: once the daemon holds that many, a client from any address is
#     refused in the listener's own protocol.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$tmp/conf" <<EOF
[daemon]
log = $tmp/trace.log
max_sessions_per_peer = 4
[engine builtin]
hash_mb = 1
[listen uhp]
port = 0
idle_timeout = 0
game_idle_timeout = 0
[listen hub]
protocol = hub
port = 0
[listen trylobot]
protocol = trylobot
port = 0
# idle_timeout 2 s: the active client below talks every 0.2 s, so a loaded machine
# has 1.8 s to schedule it before its session would be taken for idle.
[listen idle]
port = 0
idle_timeout = 2
game_idle_timeout = 5
EOF
spawn "$HIVEBRIDGE" serve --config "$tmp/conf" 2>"$tmp/err"
daemon=$spawned
wait_listening "$tmp/err" "$daemon" 4
ports="$(listen_port "$tmp/err" uhp 1) $(listen_port "$tmp/err" hub) $(listen_port "$tmp/err" trylobot) \
$(listen_port "$tmp/err" uhp 2)"

timeout 120 python3 tests/integration/daemon_connections_clients.py "$daemon" $ports || { cat "$tmp/trace.log"; fail "clients"; }
procs_alive "$daemon" || fail "the daemon died"
grep -q 'idle time-out' "$tmp/trace.log" || fail "no idle time-out in the log"
kill "$daemon"
wait "$daemon" || fail "daemon exit status $?"

# max_sessions (daemon-wide): once it is reached, every listener refuses in its own
# protocol, whatever the address.
cat >"$tmp/conf2" <<EOF
[daemon]
max_sessions = 2
max_sessions_per_peer = 100
[engine builtin]
hash_mb = 1
[listen uhp]
port = 0
[listen hub]
protocol = hub
port = 0
[listen trylobot]
protocol = trylobot
port = 0
EOF
spawn "$HIVEBRIDGE" serve --config "$tmp/conf2" 2>"$tmp/err2"
daemon=$spawned
wait_listening "$tmp/err2" "$daemon" 3
ports="$(listen_port "$tmp/err2" uhp) $(listen_port "$tmp/err2" hub) $(listen_port "$tmp/err2" trylobot)"
timeout 60 python3 tests/integration/daemon_connections_max_sessions.py $ports || fail "max_sessions refusals"
echo "daemon_connections: ok"
