#!/bin/sh
# daemon_signals.sh: `hivebridge serve` handles its signals from its first "listening
# on" line on. A supervisor (or a test) that reads that line may signal at once: a
# SIGHUP then reopens the log (its default action would kill the daemon) and a
# SIGTERM ends it with status 0. The signal is sent the moment the first of three
# listeners is announced, 20 times each.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$tmp/conf" <<EOF2
[daemon]
log = $tmp/trace.log
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
EOF2
timeout 120 python3 tests/integration/daemon_signals.py "$HIVEBRIDGE" "$tmp/conf" || fail "signals at start-up"
echo "daemon_signals: ok"
