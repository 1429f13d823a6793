#!/bin/sh
# queue_reclaim.sh: a dead worker's game is taken over within --claim-after plus
# one poll, however many other jobs are pending. Twelve jobs are held by a live
# consumer (its entries claimed again every 0.2 s, as a playing worker does); the
# thirteenth is read by a consumer that then vanishes, as a SIGKILLed worker
# does. XAUTOCLAIM looks at ten pending entries a call: a worker that does not
# follow its cursor never reaches the dead worker's job.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 redis-server redis-cli timeout
tmp=$(mktemp -d)
procs_trap
fail() { fail_logs "$@"; }
. tests/lib/queue_jobs.sh
redis_start
claim=1500        # --claim-after, ms
poll=1000         # the worker's XREADGROUP BLOCK: one poll
slack=4000        # a loaded machine's delays
e=builtin:depth=1
queue_new r
ids=
for g in 1 2 3 4 5 6 7 8 9 10 11 12; do
	job_add r 0-$g $g "" $e $e
	ids="$ids 0-$g"
done
[ "$(rcli XREADGROUP GROUP workers live COUNT 12 STREAMS hivebridge:r:jobs '>' | grep -c '^0-')" = 12 ] ||
	fail "the live consumer did not take its twelve jobs"
# The live consumer's heartbeat: its jobs never go idle.
spawn sh -c "while :; do redis-cli -p $port XCLAIM hivebridge:r:jobs workers live 0$ids JUSTID >/dev/null 2>&1; sleep 0.2; done"
job_add r 0-13 13 "" $e $e
[ "$(rcli XREADGROUP GROUP workers gone COUNT 1 STREAMS hivebridge:r:jobs '>' | grep -c '^0-13$')" = 1 ] ||
	fail "the vanishing consumer did not take job 13"
procs_now
t0=$procs_cs
spawn "$HIVEBRIDGE" worker --queue "redis://127.0.0.1:$port/r" --name taker --claim-after $claim \
	>"$tmp/taker.out" 2>"$tmp/taker.err"
bound=$(( (claim + poll + slack) / 1000 + 1 ))
wait_for 'grep -q "^Started game 13 " "$tmp/taker.out"' $bound ||
	fail "job 13 was not taken over within $bound s (--claim-after $claim ms, a poll $poll ms)"
procs_now
ms=$(( (procs_cs - t0) * 10 ))
[ $ms -ge $((claim - 200)) ] || fail "job 13 taken over after $ms ms, before --claim-after $claim"
[ $ms -le $((claim + poll + slack)) ] || fail "job 13 taken over after $ms ms"
# Only the dead consumer's job moved; the live one keeps its twelve.
wait_for 'grep -q "^Finished game 13 " "$tmp/taker.out"' 60 || fail "job 13 was not played"
wait_for '[ "$(rcli XPENDING hivebridge:r:jobs workers - + 100 gone | grep -c "^0-")" = 0 ]' 20 || fail "job 13 still pending"
[ "$(rcli XPENDING hivebridge:r:jobs workers - + 100 live | grep -c '^0-')" = 12 ] ||
	fail "the live consumer's jobs were taken"
grep -q "^Started game [0-9]* " "$tmp/taker.out" && [ "$(grep -c "^Started" "$tmp/taker.out")" = 1 ] ||
	fail "the worker took another job: $(grep "^Started" "$tmp/taker.out")"
echo "queue_reclaim: ok (job 13 taken over after $ms ms behind 12 pending jobs, --claim-after $claim ms)"
