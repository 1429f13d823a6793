#!/bin/sh
# trylobot_honest.sh: a Trylobot listener never passes the bridge's own move off as
# the engine's. With an engine that crashes on every search, each answer (the best
# sendable move by one ply) is a warning on stderr and in the trace log with its
# reason, the web page counts it (`substitutions`, `substitution`), and the next
# Greetings on the connection says so (long_name and description). With an engine that cannot start, the
# Greetings' long_name names no engine as playing and the module is inactive.
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
DATA=${HIVE_DATA:-../shared/data}
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; [ -f "$tmp/err" ] && cat "$tmp/err" >&2; exit 1; }
[ -s "$DATA/trylobot/choose-turn-first.frame" ] || fail "no $DATA/trylobot/choose-turn-first.frame"

cat >"$tmp/conf" <<EOF
[engine crashes]
command = $TOOLS/fake_uhp_engine --fault crash-on-bestmove
command_timeout = 2
[engine dead]
command = $TOOLS/fake_uhp_engine --fault exit-at-start
[listen tb]
protocol = trylobot
port = 0
engine = crashes
think_time = 0.1
[listen tbdead]
protocol = trylobot
port = 0
engine = dead
EOF
spawn "$HIVEBRIDGE" serve --config "$tmp/conf" --log "$tmp/log" --http 127.0.0.1:0 2>"$tmp/err"
daemon=$spawned
wait_listening "$tmp/err" "$daemon" 2 trylobot
wait_listening "$tmp/err" "$daemon" 1 http
tb=$(listen_port "$tmp/err" trylobot 1)
dead=$(listen_port "$tmp/err" trylobot 2)
http=$(listen_port "$tmp/err" http)

timeout 60 python3 tests/integration/trylobot_honest.py "$tb" "$dead" "$http" "$DATA/trylobot" || fail "trylobot client"

grep -q 'hivebridge: substitution 1: engine failed: .*; answering the best sendable move by one ply instead of the engine' "$tmp/err" ||
	fail "no substitution warning on stderr"
grep -q ' note substitution 1: engine failed: ' "$tmp/log" || { grep note "$tmp/log" | tail; fail "no substitution note in the trace log"; }
kill -TERM "$daemon"
wait "$daemon" || fail "serve exit status $? after SIGTERM"
echo "trylobot_honest: ok"
