#!/bin/sh
# queue_acl.sh: the Redis ACL user for workers that the README gives (read jobs,
# post results, events, progress and dead entries, read the stop key; nothing
# else), set up on a real redis-server: a worker that logs in as that user
# ($HIVEBRIDGE_REDIS_USER, its password from $HIVEBRIDGE_REDIS_PASSWORD) plays a
# whole match and sets a planted bad job aside; that user cannot add a job, set
# the stop key, read the results or touch another match's keys.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 redis-server redis-cli timeout
tmp=$(mktemp -d)
procs_trap
fail() { fail_logs "$@"; }
. tests/lib/queue_jobs.sh
redis_start
pw=$(python3 -c 'import secrets; print("hbw" + secrets.token_hex(12))')
k=hivebridge:a1
# The README's lines (match NAME a1), sent as they are written there.
rcli ACL SETUSER hb-worker on ">$pw" resetkeys resetchannels -@all +ping +getrange +xreadgroup +xautoclaim \
	+xclaim +xack +xpending +eval '+xgroup|create' "~$k:jobs" "%R~$k:stop" \
	"(+xadd %W~$k:results %W~$k:events %W~$k:progress %W~$k:dead)" >"$tmp/acl.txt" 2>&1
[ "$(cat "$tmp/acl.txt")" = OK ] || fail "ACL SETUSER: $(cat "$tmp/acl.txt")"

spawn "$HIVEBRIDGE" match --games 2 --max-plies 12 --queue "redis://127.0.0.1:$port/a1" \
	--results "$tmp/res.jsonl" --keep builtin:depth=1 builtin:depth=1 >"$tmp/coord.out" 2>"$tmp/coord.err"
coord=$spawned
wait_for '[ "$(rcli XLEN $k:jobs)" = 2 ]' 20 || fail "the coordinator did not queue its jobs"
rcli XADD $k:jobs '*' game 3 white a opening "Base;InProgress;White[2];zz" engine_a builtin \
	engine_b builtin >/dev/null || fail "planting a job"
HIVEBRIDGE_REDIS_USER=hb-worker HIVEBRIDGE_REDIS_PASSWORD=$pw \
	spawn "$HIVEBRIDGE" worker --queue "redis://127.0.0.1:$port/a1" --name wacl >"$tmp/w.out" 2>"$tmp/w.err"
w=$spawned
wait_for '! procs_alive $coord' 60 || fail "the match did not end"
wait $coord || fail "coordinator exit status $?"
wait_for '! procs_alive $w' 20 || fail "the worker did not leave"
wait $w || fail "worker exit status $?"
[ "$(grep -c '"game"' "$tmp/res.jsonl")" = 2 ] || fail "results: $(cat "$tmp/res.jsonl")"
grep -q NOPERM "$tmp/w.err" && fail "the worker was refused a command"
[ "$(rcli XLEN $k:dead)" = 1 ] || fail "the planted job was not set aside"

# What the user may not do.
set -f    # the words below hold a literal *
as_worker() { redis-cli --raw -p "$port" --user hb-worker --pass "$pw" --no-auth-warning "$@" 2>&1; }
for cmd in "XADD $k:jobs * game 9 white a engine_a x engine_b y" "SET $k:stop over" "XRANGE $k:results - +" \
	"DEL $k:jobs" "XADD hivebridge:other:results * a b" "XGROUP DESTROY $k:jobs workers" "FLUSHALL"; do
	as_worker $cmd | grep -q NOPERM || fail "the worker user may: $cmd"
done
set +f
echo "queue_acl: ok (a worker as the README's ACL user played the match and set a job aside; 7 other commands refused)"
