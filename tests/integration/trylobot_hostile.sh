#!/bin/sh
# trylobot_hostile.sh: hostile Choose Turn requests against `hivebridge serve`'s
# Trylobot listener (the built-in engine at depth 1, so that answers are repeatable).
#   - each request below (repeated keys, reordered possible_turns sections, 1e400 and
#     -0, \u0000 and lone surrogates, nesting 5,000 deep, an id after \v or \f) gets
#     the same answer on a connection that has just played a normal request of the
#     same game (its parse cache and kept game primed) as alone on a fresh one: a
#     listed turn or the protocol's error frame, and that connection then answers a
#     normal request as it did before;
#   - frames whose length prefix lies (too long, too short, huge) or whose bytes are
#     not UTF-8 draw the same error frames on both kinds of connection before the
#     close; a client that leaves mid-frame (FIN or RST) is let go; after every case
#     a fresh connection is answered as at first;
#   - 1,000 connections that each send one mid-game request and stay idle: the
#     daemon's RSS (/proc/PID/status VmRSS) comes down to less than a bound per
#     connection (see the client) once hash_idle_timeout (1 s here) has given back
#     the hash tables their searches made resident (16 MB each by default; the budget
#     would take none back), its thread count (/proc/PID/task) does not grow,
#     and its descriptors (/proc/PID/fd) come back to the baseline once they close.
set -u
: "${HIVEBRIDGE:?}"
DATA=${HIVE_DATA:-../shared/data}
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; [ -f "$tmp/err" ] && cat "$tmp/err" >&2; exit 1; }

frame="$DATA/trylobot/choose-turn-mlp-stack-abilities.frame"
[ -f "$frame" ] || fail "no $frame"
cat >"$tmp/conf" <<EOF
[daemon]
max_sessions = 2000
max_sessions_per_peer = 2000
; Each session's engine has a table of its own (the default 16 MB), and the budget
; holds all 1,000 (mapped, not resident): only hash_idle_timeout gives them back, 1 s
; after their search, so that RSS per connection below measures what the connection
; itself keeps once idle.
hash_budget_mb = 20000
hash_idle_timeout = 1
[listen uhp]
port = 0
[listen tb]
protocol = trylobot
address = 127.0.0.1
port = 0
depth = 1
idle_timeout = 0
game_idle_timeout = 0
EOF
# Under ASan, freed blocks wait in a quarantine (256 MB by default) that RSS would
# count against the connections; without it RSS shows what is live, redzones and
# shadow included, and the build still checks every access (a plain build ignores it).
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0"
export ASAN_OPTIONS
spawn "$HIVEBRIDGE" serve --config "$tmp/conf" --log "$tmp/log" 2>"$tmp/err"
daemon=$spawned
wait_listening "$tmp/err" "$daemon" 1 trylobot
port=$(listen_port "$tmp/err" trylobot)
[ -n "$port" ] || fail "no 'listening on 127.0.0.1:PORT (trylobot)' line"

timeout 600 python3 tests/integration/trylobot_hostile.py "$port" "$daemon" "$frame" "$tmp/log" || { cat "$tmp/log"; fail "client"; }
procs_alive "$daemon" || fail "the daemon died"
kill -TERM "$daemon"
wait "$daemon"
status=$?
[ $status -eq 0 ] || fail "serve exited with status $status after SIGTERM"
echo "trylobot_hostile: ok"
