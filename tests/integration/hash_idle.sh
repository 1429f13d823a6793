#!/bin/sh
# hash_idle.sh: a session's hash table is given back once no search has used it for
# hash_idle_timeout seconds, read from /proc: a 1 s search makes the table's pages
# resident (tens of MB of a 64 MB table); with hash_idle_timeout = 1 the daemon's RSS
# falls back near its start and the trace log says why, and the session still
# searches (with a new table) and keeps its HashMB. Commands other than a search do
# not keep a table. A session's helper searchers (Threads 2) go with its table, given
# back or taken back by another session's search. With hash_idle_timeout = 0 the
# table stays until newgame (checked after the other daemon's seconds of giving
# back: a negative can only be checked after a wait).
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

for idle in 1 0; do
	cat >"$tmp/conf$idle" <<EOF
[daemon]
log = $tmp/log$idle
hash_idle_timeout = $idle
hash_budget_mb = 100
search_threads = 2
[engine builtin]
hash_mb = 64
[listen uhp]
port = 0
EOF
	spawn "$HIVEBRIDGE" serve --config "$tmp/conf$idle" 2>"$tmp/err$idle"
	eval "pid$idle=\$spawned"
	eval "wait_listening \"$tmp/err$idle\" \"\$pid$idle\" 1"
	eval "port$idle=\$(listen_port \"$tmp/err$idle\" uhp)"
done

timeout 150 python3 tests/integration/hash_idle.py "$pid1" "$port1" "$tmp/log1" "$pid0" "$port0" || fail "hash_idle_timeout"
for idle in 1 0; do
	eval "kill \$pid$idle"
	eval "wait \$pid$idle" || fail "daemon (hash_idle_timeout $idle) exit status $?"
done
echo "hash_idle: ok"
