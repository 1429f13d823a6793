#!/bin/sh
# daemon_budgets.sh: no client, and no number of clients, holds the daemon's search
# resources. Read from /proc (RSS, threads, descriptors, CPU time):
#  - a client that leaves mid-search (UHP depth and time, Trylobot far deadline) stops
#    its work at once, and its table, thread work, session and descriptor are freed;
#  - a listener's max_depth / max_think_time refuse (UHP err, Hub error) or clamp
#    (Trylobot) what is beyond them;
#  - hash tables come out of hash_budget_mb: idle sessions' tables are taken back
#    (oldest first) before a request beyond what is left gets a smaller table, and
#    `options` says so;
#  - searches run on search_threads workers: many clients add no threads, and a
#    queued search is answered by its deadline (an error rather than a late move),
#    also while the workers stay busy beyond it;
#  - newgame gives the table back: idle sessions stay small after any commands;
#  - perft runs on the pool, not the loop, and stops with its client.
set -u
: "${HIVEBRIDGE:?}"
DATA=${HIVE_DATA:-../shared/data}
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$tmp/conf" <<EOF
[daemon]
max_sessions = 100
max_sessions_per_peer = 100
search_threads = 2
hash_budget_mb = 300
[engine builtin]
hash_mb = 16
hash_mb_max = 256
[listen uhp]
port = 0
[listen loose]
port = 0
max_depth = 64
max_think_time = 86400
[listen tb]
protocol = trylobot
port = 0
max_think_time = 86400
[listen hub]
protocol = hub
port = 0
[listen tbshort]
protocol = trylobot
port = 0
max_think_time = 1
EOF
[ -f "$DATA/trylobot/choose-turn-mlp-stack-abilities.frame" ] || fail "no $DATA/trylobot/choose-turn-mlp-stack-abilities.frame"
spawn "$HIVEBRIDGE" serve --config "$tmp/conf" 2>"$tmp/err"
daemon=$spawned
wait_listening "$tmp/err" "$daemon" 5
# In the order of the configuration: uhp, loose, tb, hub, tbshort.
ports="$(listen_port "$tmp/err" uhp 1) $(listen_port "$tmp/err" uhp 2) $(listen_port "$tmp/err" trylobot 1) \
$(listen_port "$tmp/err" hub) $(listen_port "$tmp/err" trylobot 2)"

timeout 240 python3 tests/integration/daemon_budgets.py "$daemon" "$DATA/trylobot" $ports || { cat "$tmp/err"; fail "budgets"; }
kill "$daemon"
wait "$daemon" || fail "daemon exit status $?"
echo "daemon_budgets: ok"
