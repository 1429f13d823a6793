#!/bin/sh
# trace_log.sh: the trace log's escaping. A client's literal backslash is written
# as \\, so a literal "\x0a" cannot be read as an escaped newline; control bytes
# are \xNN.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

printf 'play wS1\\x0a\nplay \001x\n' | timeout 30 "$HIVEBRIDGE" uhp --log "$tmp/trace.log" >"$tmp/out" ||
	fail "hivebridge uhp failed"
# uhp has exited: the log is complete.
grep -qF 'client->bridge play wS1\\x0a' "$tmp/trace.log" || { cat "$tmp/trace.log"; fail "backslash not escaped"; }
grep -qF 'client->bridge play \x01x' "$tmp/trace.log" || { cat "$tmp/trace.log"; fail "control byte not escaped"; }
echo "trace_log: ok"
