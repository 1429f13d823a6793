#!/bin/sh
# queue_refused_post.sh: Redis refuses a worker's posts (here the dead stream's key
# holds a string, so every XADD to it is WRONGTYPE; OOM or MISCONF look the same to
# the worker). The jobs it sets aside are kept and sent again with back-off: the
# refusal is said once, the worker stops taking jobs while 64 are held (its memory
# stays bounded however often it reclaims its own pending entries), and once the key
# is freed every job reaches the dead stream once and nothing stays pending.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 redis-server redis-cli timeout
tmp=$(mktemp -d)
procs_trap
fail() { fail_logs "$@"; }
. tests/lib/queue_jobs.sh
redis_start
queue_new r
rcli SET hivebridge:r:dead notastream >/dev/null || fail "SET"
# 200 jobs whose ENGINE is a command: a plain worker sets each aside.
python3 tests/integration/queue_refused_post.py "$port" | redis-cli -p "$port" >/dev/null || fail "XADD jobs"
[ "$(rcli XLEN hivebridge:r:jobs)" = 200 ] || fail "jobs: $(rcli XLEN hivebridge:r:jobs)"
spawn "$HIVEBRIDGE" worker --queue "redis://127.0.0.1:$port/r" --name w1 --claim-after 100 \
	>"$tmp/w1.out" 2>"$tmp/w1.err"
w1=$spawned
# It takes 64 jobs, then holds them; its own reclaims (every 100 ms) add nothing.
wait_for '[ $(count "set aside" "$tmp/w1.err") -ge 64 ]' 30 || fail "no jobs set aside"
rss() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' /proc/$w1/status; }
wait_for '[ "$(rcli XPENDING hivebridge:r:jobs workers | head -n 1)" -ge 64 ]' 20 || fail "not pending"
r0=$(rss)
# Several rounds of posts sent again with back-off (Redis counts the refused XADDs),
# past claim-after many times over: nothing more is taken or said.
refused() { rcli INFO commandstats | sed -n 's/^cmdstat_xadd:.*failed_calls=\([0-9]*\).*/\1/p'; }
wait_for '[ "$(refused)" -ge $((64 * 5)) ]' 30 || fail "the held jobs were not posted again: $(refused) refused XADDs"
procs_alive $w1 || fail "the worker stopped"
r1=$(rss)
taken=$(count "set aside" "$tmp/w1.err")
said=$(count "cannot post" "$tmp/w1.err")
lines=$(wc -l <"$tmp/w1.err")
echo "held: $taken jobs set aside, $(refused) refused posts, the refusal said $said times, $lines stderr lines, RSS $r0 -> $r1 kB"
[ "$taken" -le 64 ] || fail "$taken jobs taken while posts were refused (64 at most)"
[ "$said" = 1 ] || fail "the refusal was said $said times"
[ "$lines" -le 70 ] || fail "$lines lines on stderr"
[ $((r1 - r0)) -lt 4096 ] || fail "RSS grew from $r0 to $r1 kB"
# The key freed: every job reaches the dead stream once, none stays pending.
rcli DEL hivebridge:r:dead >/dev/null
wait_for '[ "$(rcli XPENDING hivebridge:r:jobs workers | head -n 1)" = 0 ] &&
	[ "$(rcli XLEN hivebridge:r:jobs)" = 200 ] && [ "$(rcli XLEN hivebridge:r:dead)" -ge 200 ]' 60 ||
	fail "after the key was freed: $(rcli XLEN hivebridge:r:dead) dead, $(rcli XPENDING hivebridge:r:jobs workers | head -n 1) pending"
n=$(rcli XRANGE hivebridge:r:dead - + | grep -c '^id$')
u=$(rcli XRANGE hivebridge:r:dead - + | awk 'p { print; p = 0 } $0 == "id" { p = 1 }' | sort -u | wc -l)
[ "$n" = 200 ] && [ "$u" = 200 ] || fail "dead stream: $n entries, $u jobs"
grep -q "redis takes our posts again" "$tmp/w1.err" || fail "the recovery was not said"
procs_alive $w1 || fail "the worker stopped"
echo "queue_refused_post: ok (64 held while refused, 200 set aside once each after)"
