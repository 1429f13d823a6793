#!/bin/sh
# trylobot_budgets.sh: the Trylobot listener's edges.
#   - ids holding \u0000 are echoed exactly (request_id in a Greetings answer,
#     request_id and game_id in a Choose Turn answer), not cut at the NUL;
#   - a frame whose payload outgrows the bound in bytes (N counts UTF-16 units, up
#     to three bytes each) is refused with an error frame once the bound is passed,
#     not buffered up to 3 MiB, and the connection is closed;
#   - a possible_turns of 8192 repeated entries is answered with a listed turn; one
#     of 8193 is refused with an error frame (the bound), and the session goes on.
set -u
: "${HIVEBRIDGE:?}"
DATA=${HIVE_DATA:-../shared/data}
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

[ -f "$DATA/trylobot/choose-turn-first.frame" ] || fail "no $DATA/trylobot/choose-turn-first.frame"
cat >"$tmp/conf" <<EOF
[engine builtin]
hash_mb = 1
[listen uhp]
port = 0
[listen tb]
protocol = trylobot
port = 0
depth = 1
EOF
spawn "$HIVEBRIDGE" serve --config "$tmp/conf" --log "$tmp/log" 2>"$tmp/err"
daemon=$spawned
wait_listening "$tmp/err" "$daemon" 1 trylobot
port=$(listen_port "$tmp/err" trylobot)
[ -n "$port" ] || { cat "$tmp/err"; fail "no trylobot port"; }

timeout 60 python3 tests/integration/trylobot_budgets.py "$port" "$DATA/trylobot/choose-turn-first.frame" || { cat "$tmp/log"; fail "client"; }
procs_alive "$daemon" || fail "the daemon died"
echo "trylobot_budgets: ok"
