#!/bin/sh
# queue_poison_job.sh: jobs that cannot be played, written straight into a real
# Redis among good ones (an opening that does not parse, a missing engine_b, a
# depth that is not a number, an entry without a game number), with three workers:
# each bad job is acknowledged onto the dead stream once, with its reason; every
# worker keeps running and the good jobs are all played, once.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 redis-server redis-cli timeout
tmp=$(mktemp -d)
procs_trap
fail() { fail_logs "$@"; }
. tests/lib/queue_jobs.sh
redis_start
top=$(pwd)
opening=$(grep -v '^#' "$top/conf/openings-base.txt" | grep . | head -n 1)
[ -n "$opening" ] || fail "no opening in conf/openings-base.txt"
e=builtin:depth=1
queue_new p
job_add p 0-1 1 "" $e $e
job_add p 0-2 2 "Base;InProgress;White[2];wS1;bG1 -wS1;wA1 zz" $e $e
job_add p 0-3 3 "$opening" $e $e
rcli XADD hivebridge:p:jobs 0-4 game 4 white a opening "" engine_a $e >/dev/null || fail "XADD 0-4"
rcli XADD hivebridge:p:jobs 0-5 game 5 white b depth x engine_a $e engine_b $e >/dev/null || fail "XADD 0-5"
rcli XADD hivebridge:p:jobs 0-6 white b engine_a $e engine_b $e >/dev/null || fail "XADD 0-6"
job_add p 0-7 7 "" $e $e
job_add p 0-8 8 "$opening" $e $e
job_add p 0-9 9 "" $e $e
pids=
for w in w1 w2 w3; do
	spawn "$HIVEBRIDGE" worker --queue "redis://127.0.0.1:$port/p" --name $w --claim-after 500 \
		>"$tmp/$w.out" 2>"$tmp/$w.err"
	pids="$pids $spawned"
done
finished() { cat "$tmp"/w?.out | grep -c "^Finished game"; }
wait_for '[ $(finished) -ge 5 ] && [ "$(rcli XLEN hivebridge:p:dead)" -ge 4 ]' 60 ||
	fail "$(finished) good games played, $(rcli XLEN hivebridge:p:dead) jobs set aside"
wait_for '[ "$(rcli XPENDING hivebridge:p:jobs workers | head -n 1)" = 0 ]' 20 ||
	fail "jobs left pending: $(rcli XPENDING hivebridge:p:jobs workers | head -n 1)"
for pid in $pids; do
	procs_alive $pid || fail "a worker stopped (pid $pid)"
done
# Once each: the good games, and the bad jobs on the dead stream.
[ "$(cat "$tmp"/w?.out | sed -n 's/^Finished game \([0-9]*\) .*/\1/p' | sort -n | tr '\n' ' ')" = "1 3 7 8 9 " ] ||
	fail "games played: $(cat "$tmp"/w?.out | grep "^Finished")"
rcli XRANGE hivebridge:p:dead - + >"$tmp/dead.txt"
python3 tests/integration/queue_poison_job.py "$tmp/dead.txt" || fail "dead stream: $(cat "$tmp/dead.txt")"
[ $(cat "$tmp"/w?.err | grep -c "set aside") = 4 ] || fail "not one line per job set aside"
echo "queue_poison_job: ok (4 bad jobs set aside once each, 5 good games played, 3 workers still running)"
