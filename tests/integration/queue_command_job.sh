#!/bin/sh
# queue_command_job.sh: a job written straight into a real Redis whose ENGINE is a
# command (uhp:/bin/sh -c 'touch MARKER; exec ...') is refused by a plain worker:
# MARKER never appears, the job is acknowledged onto the dead stream with its
# reason, and the worker goes on to play the next job. Text from Redis reaches its
# terminal escaped (a job's ENGINE with an escape sequence, the stop key). A worker
# started with --allow-engine-commands runs the same kind of command.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 redis-server redis-cli timeout
tmp=$(mktemp -d)
procs_trap
fail() { fail_logs "$@"; }
. tests/lib/queue_jobs.sh
redis_start
esc=$(printf '\033')

# A plain worker: the command job, a job whose ENGINE holds an escape sequence, then a good one.
queue_new m1
job_add m1 0-1 1 "" "uhp:/bin/sh -c 'touch $tmp/MARKER; exec $HIVEBRIDGE uhp'" builtin:depth=1
job_add m1 0-2 2 "" "${esc}]0;owned${esc}\\builtin" builtin:depth=1
job_add m1 0-3 3 "" builtin:depth=1 builtin:depth=1
spawn "$HIVEBRIDGE" worker --queue "redis://127.0.0.1:$port/m1" --name plain --claim-after 1000 \
	>"$tmp/plain.out" 2>"$tmp/plain.err"
plain=$spawned
wait_for 'grep -q "^Finished game 3 " "$tmp/plain.out"' 60 || fail "the plain worker did not play the good job"
[ ! -e "$tmp/MARKER" ] || fail "the job's command ran on a plain worker"
procs_alive $plain || fail "the plain worker stopped"
wait_for '[ "$(rcli XPENDING hivebridge:m1:jobs workers | head -n 1)" = 0 ]' 20 ||
	fail "jobs left pending: $(rcli XPENDING hivebridge:m1:jobs workers | head -n 1)"
[ "$(rcli XLEN hivebridge:m1:dead)" = 2 ] || fail "dead stream: $(rcli XLEN hivebridge:m1:dead) entries, not 2"
# Each entry: game, worker, reason, id (the fields in that order).
rcli XRANGE hivebridge:m1:dead - + >"$tmp/dead.txt"
python3 tests/integration/queue_command_job.py "$tmp/dead.txt" || fail "dead stream entries: $(cat "$tmp/dead.txt")"
grep -q "set aside" "$tmp/plain.err" || fail "the worker did not say it set jobs aside"
# The stop key, with an escape sequence: the worker says so, escaped, and leaves.
rcli SET hivebridge:m1:stop "over: ${esc}[2Jgone" >/dev/null
wait_for '! procs_alive $plain' 20 || fail "the plain worker did not leave once the match was over"
wait $plain
[ $? = 0 ] || fail "the plain worker's exit status was not 0"
grep -q 'is over: \\x1b\[2Jgone' "$tmp/plain.out" || fail "the stop key was not shown escaped"
if grep -q "$esc" "$tmp/plain.out" "$tmp/plain.err"; then fail "an escape byte from Redis reached the terminal"; fi

# With --allow-engine-commands the operator asked for commands: it runs.
queue_new m2
job_add m2 0-1 1 "" "uhp:/bin/sh -c 'touch $tmp/MARKER2; exec $HIVEBRIDGE uhp --engine builtin:depth=1'" builtin:depth=1
spawn "$HIVEBRIDGE" worker --queue "redis://127.0.0.1:$port/m2" --name open --allow-engine-commands \
	>"$tmp/open.out" 2>"$tmp/open.err"
wait_for 'grep -q "^Finished game 1 " "$tmp/open.out"' 60 || fail "the worker with --allow-engine-commands did not play"
[ -e "$tmp/MARKER2" ] || fail "the command did not run with --allow-engine-commands"
grep -q "allow-engine-commands: a job's ENGINE may be any command" "$tmp/open.err" ||
	fail "no warning for --allow-engine-commands"
[ "$(rcli EXISTS hivebridge:m2:dead)" = 0 ] || fail "a job was set aside with --allow-engine-commands"
echo "queue_command_job: ok (a command job refused and set aside, the next job played; commands run only with --allow-engine-commands)"
