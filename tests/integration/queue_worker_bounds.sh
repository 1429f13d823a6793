#!/bin/sh
# queue_worker_bounds.sh: what a job may not do to a worker, with jobs written
# straight into a real Redis.
# 1. --max-move-ms bounds every move: a builtin:depth=64 seat (no deadline of its
#    own) answers under the cap and its game ends; a job whose engine asks for a
#    movetime over the cap (builtin:movetime=MS) is set aside with that reason.
# 2. A job field of 32 MiB is not buffered whole: the worker drops the connection
#    at its 1 MiB bound, says why, and plays the next job.
# 3. A worker that dies (a job names a profile it lacks) while a game of its own
#    runs, with the stop key set to "paused" in the same transaction (read by the
#    heartbeat GETRANGE queued behind its XREADGROUP): it exits with status 1 and frees
#    its jobs once (before: a double free of the running game's job).
# 4. A stop key of 2 MiB ("over" and 2 MiB more) is read bounded (its first 256
#    bytes): the worker sees the match over and exits, no connection dropped
#    (before: a GET over the 1 MiB bound, reconnecting every 200 ms forever).
# 5. A post whose answer is lost: writes paused (CLIENT PAUSE WRITE), the worker's
#    post of game 1 waits; the same result and its XACK, by another client, wait
#    behind it; the worker's connection is killed, it comes back and posts again
#    (held behind the other): the results hold game 1 once (before: once more per
#    reconnection).
# 6. A job over the bound claimed again and again: the back-off grows.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 redis-server redis-cli timeout
tmp=$(mktemp -d)
procs_trap
fail() { fail_logs "$@"; }
. tests/lib/queue_jobs.sh
redis_start

# job NAME ID GAME ENGINE_A ENGINE_B MOVETIME MAX_PLIES: XADD's arguments of a job.
job() {
	echo XADD "hivebridge:$1:jobs" "$2" game "$3" white a opening "''" type Base depth 0 movetime "$6" \
		clock 0 inc 0 max_plies "$7" repetition 3 engine_a "$4" engine_b "$5"
}

# 1. The cap.
queue_new b
echo "$(job b 0-1 1 builtin:depth=64 builtin:depth=1 0 4)" | rcli >/dev/null || fail "XADD 0-1"
echo "$(job b 0-2 2 builtin:movetime=5000 builtin 0 4)" | rcli >/dev/null || fail "XADD 0-2"
spawn "$HIVEBRIDGE" worker --queue "redis://127.0.0.1:$port/b" --name wb --max-move-ms 1000 \
	>"$tmp/wb.out" 2>"$tmp/wb.err"
wb=$spawned
wait_for 'grep -q "^Finished game 1 " "$tmp/wb.out" && [ "$(rcli XLEN hivebridge:b:dead)" = 1 ]' 60 ||
	fail "the depth-64 game did not end under --max-move-ms, or the long movetime was not set aside"
rcli XRANGE hivebridge:b:dead - + | grep -q "engine_a's movetime is over 900 ms, this worker's --max-move-ms 1000" ||
	fail "dead stream: $(rcli XRANGE hivebridge:b:dead - +)"
procs_alive $wb || fail "the worker wb stopped"
kill -TERM $wb
wait_for '! procs_alive $wb' 20 || fail "wb did not stop on SIGTERM"

# 2. A job field of 32 MiB: the worker drops the connection once the reply passes
#    its 1 MiB bound (its peak memory grows by far less than the field), says why,
#    comes back and plays the next job.
hwm() { sed -n 's/^VmHWM:[^0-9]*\([0-9]*\) kB/\1/p' "/proc/$1/status"; }
queue_new h
spawn "$HIVEBRIDGE" worker --queue "redis://127.0.0.1:$port/h" --name wh >"$tmp/wh.out" 2>"$tmp/wh.err"
wh=$spawned
wait_for 'rcli CLIENT LIST | grep -q "name=.*cmd=xreadgroup"' 30 || fail "wh never waited for a job"
before=$(hwm $wh)
head -c 33554432 /dev/zero | tr '\0' a | rcli -x XADD hivebridge:h:jobs 0-1 game 1 white a engine_a builtin:depth=1 \
	engine_b builtin:depth=1 max_plies 4 opening >/dev/null || fail "XADD of the 32 MiB job"
wait_for 'grep -q "a reply string of more than 1048576 bytes" "$tmp/wh.err"' 60 ||
	fail "wh did not drop the 32 MiB reply: $(cat "$tmp/wh.err")"
after=$(hwm $wh)
[ $((after - before)) -lt 8192 ] || fail "wh's peak memory grew by $((after - before)) kB on a 32 MiB job"
echo "$(job h 0-2 2 builtin:depth=1 builtin:depth=1 0 4)" | rcli >/dev/null || fail "XADD h 0-2"
wait_for 'grep -q "^Finished game 2 " "$tmp/wh.out"' 60 || fail "wh did not play on after the dropped reply"
procs_alive $wh || fail "wh stopped"
kill -TERM $wh

# 3. Death and a pause at once, while a game runs on the other slot.
queue_new d
echo "$(job d 0-1 1 builtin:movetime=900 builtin:movetime=900 0 60)" | rcli >/dev/null || fail "XADD d 0-1"
# Freed memory is scribbled on, so a second free of it shows in a plain build too.
spawn env MALLOC_PERTURB_=165 "$HIVEBRIDGE" worker --queue "redis://127.0.0.1:$port/d" --name wd --concurrency 2 --claim-after 1500 \
	>"$tmp/wd.out" 2>"$tmp/wd.err"
wd=$spawned
wait_for 'grep -q "^Started game 1 " "$tmp/wd.out"' 60 || fail "wd did not start game 1"
# Its connection blocked in XREADGROUP with a command (the heartbeat's GETRANGE) behind
# it: then at once the job and the pause, in one transaction.
# shellcheck disable=SC2046
python3 tests/integration/queue_worker_bounds_race.py "$port" hivebridge:d:stop \
	$(job d 0-2 2 nosuch builtin 0 60) || fail "the job and the pause"
wait_for '! procs_alive $wd' 30 || fail "wd did not stop once a job named a profile it lacks"
wait $wd
st=$?
[ $st = 1 ] || fail "wd's exit status was $st, not 1: $(cat "$tmp/wd.err")"
grep -q 'engine "nosuch"' "$tmp/wd.err" || fail "wd did not say which engine it lacks"

# 4. A huge stop key.
queue_new s
{ printf 'over '; head -c 2097152 /dev/zero | tr '\0' a; } | rcli -x SET hivebridge:s:stop >/dev/null || fail "SET the 2 MiB stop key"
spawn "$HIVEBRIDGE" worker --queue "redis://127.0.0.1:$port/s" --name ws >"$tmp/ws.out" 2>"$tmp/ws.err"
ws=$spawned
wait_for '! procs_alive $ws' 30 || fail "ws did not see the match over in a 2 MiB stop key: $(cat "$tmp/ws.err")"
grep -q "^Match s is over" "$tmp/ws.out" || fail "ws did not say the match is over: $(cat "$tmp/ws.out")"
! grep -q "reply" "$tmp/ws.err" || fail "ws dropped its connection on the stop key: $(cat "$tmp/ws.err")"
# 5. A post sent again after its answer was lost.
queue_new p
echo "$(job p 0-1 1 builtin:movetime=300 builtin:movetime=300 0 8)" | rcli >/dev/null || fail "XADD p 0-1"
spawn "$HIVEBRIDGE" worker --queue "redis://127.0.0.1:$port/p" --name wp >"$tmp/wp.out" 2>"$tmp/wp.err"
wp=$spawned
wait_for 'grep -q "^Started game 1 " "$tmp/wp.out"' 60 || fail "wp did not start game 1"
rcli CLIENT PAUSE 60000 WRITE >/dev/null || fail "CLIENT PAUSE"
evals() { rcli CLIENT LIST | grep -c "cmd=eval"; }
wait_for '[ "$(evals)" = 1 ]' 60 || fail "wp's post was not held: $(rcli CLIENT LIST)"
wid=$(rcli CLIENT LIST | sed -n 's/^id=\([0-9]*\) .*cmd=eval.*/\1/p')
# The same post by another client, one command held before the worker's next.
rcli EVAL "redis.call('XADD', KEYS[1], '*', 'game', '1', 'worker', 'other', 'line', 'x')
	redis.call('XACK', KEYS[2], 'workers', '0-1')" 2 hivebridge:p:results hivebridge:p:jobs >"$tmp/other.out" 2>&1 &
wait_for '[ "$(evals)" = 2 ]' 20 || fail "the other post was not held"
rcli CLIENT KILL ID "$wid" >/dev/null || fail "CLIENT KILL"
wait_for '! rcli CLIENT LIST | grep -q "^id=$wid " && [ "$(evals)" = 2 ]' 30 ||
	fail "wp did not post again: $(rcli CLIENT LIST)"
rcli CLIENT UNPAUSE >/dev/null
wait_for '[ "$(rcli XPENDING hivebridge:p:jobs workers | head -n 1)" = 0 ] && [ "$(evals)" = 0 ]' 20 ||
	fail "game 1 not acknowledged"
kill -TERM $wp
wait_for '! procs_alive $wp' 20 || fail "wp did not stop"
posts=$(rcli XRANGE hivebridge:p:results - + | grep -c '^game$')
[ "$posts" = 1 ] || fail "game 1 posted $posts times: $(rcli XRANGE hivebridge:p:results - +)"

# 6. A job over the bound, claimed again after each reconnection (--claim-after
#    100): the back-off doubles from drop to drop (200 ms, 400, 800, 1600, 3200), so
#    the sixth drop comes 6.2 s after the first at the earliest (before: 200 ms each).
queue_new g
head -c 2097152 /dev/zero | tr '\0' a | rcli -x XADD hivebridge:g:jobs 0-1 game 1 white a engine_a builtin:depth=1 \
	engine_b builtin:depth=1 max_plies 4 opening >/dev/null || fail "XADD of the 2 MiB job"
drops() { grep -c "a reply string of more than" "$tmp/wg.err"; }
spawn "$HIVEBRIDGE" worker --queue "redis://127.0.0.1:$port/g" --name wg --claim-after 100 >"$tmp/wg.out" 2>"$tmp/wg.err"
wg=$spawned
wait_for '[ "$(drops)" -ge 1 ]' 30 || fail "wg did not drop the 2 MiB job: $(cat "$tmp/wg.err")"
t0=$(date +%s%N)
wait_for '[ "$(drops)" -ge 6 ]' 60 || fail "wg did not come back for the job: $(cat "$tmp/wg.err")"
ms=$((($(date +%s%N) - t0) / 1000000))
[ $ms -ge 5000 ] || fail "6 drops in $ms ms: the back-off did not grow"
kill -TERM $wg
wait_for '! procs_alive $wg' 20 || fail "wg did not stop"
! grep -q "AddressSanitizer\|runtime error\|double free\|free()" "$tmp/wd.err" "$tmp/wb.err" "$tmp/ws.err" "$tmp/wp.err" "$tmp/wg.err" ||
	fail "memory misused: $(cat "$tmp/wd.err")"
echo "queue_worker_bounds: ok (a depth-64 seat bounded by --max-move-ms, a long movetime set aside, a 32 MiB job dropped at 1 MiB (peak +$((after - before)) kB), a worker dying paused frees once, a 2 MiB stop key read bounded, a post whose answer was lost posted once, 6 drops on a poisoned job in $ms ms)"
