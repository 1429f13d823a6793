#!/bin/sh
# match_queue_hostile.sh: the coordinator (match --queue) against a fake Redis (a
# small RESP server in Python, on a free loopback port) that answers every command
# with replies of the wrong shape, in turn: XREAD streams named by an integer or a
# nil, entries whose ID or fields are integers, arrays where strings go, integers
# where arrays go, nils; HSETNX, HMGET, XRANGE, XADD and EXISTS likewise; an event
# whose worker is an escape sequence. Nothing crashes, each is said (escaped) and
# skipped, and SIGINT still stops the coordinator with status 1.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail_files="$tmp/fake.log"
fail() { fail_logs "$@"; }

spawn python3 tests/integration/match_queue_hostile.py "$tmp/fake.log" >"$tmp/fake.out"
wait_for '[ -s "$tmp/fake.out" ]' 10 || fail "the fake Redis did not start"
port=$(cat "$tmp/fake.out")

spawn "$HIVEBRIDGE" match --games 2 --depth 1 --queue "redis://127.0.0.1:$port/h" builtin builtin \
	>"$tmp/coord.out" 2>"$tmp/coord.err"
coord=$spawned
# Every XREAD answer twice, and each other command's every answer.
wait_for '[ $(count "^XREAD" "$tmp/fake.log") -ge 18 ] && [ $(count "^XADD" "$tmp/fake.log") -ge 5 ] &&
	[ $(count "^EXISTS" "$tmp/fake.log") -ge 3 ] || ! procs_alive $coord' 60 || fail "the coordinator did not go through the answers"
procs_alive $coord || fail "the coordinator died"
grep -q "redis: .*ignored" "$tmp/coord.err" || fail "no malformed reply was said"
grep -q "redis refused a job: OOM fake \\\\x1b\[2J" "$tmp/coord.err" || fail "the refused XADD was not said (escaped)"
grep -q 'worker \\x1b\[31mred: \\x1b\]0;x\\x07hi' "$tmp/coord.err" || fail "the event was not said escaped"
kill -INT $coord
wait_for '! procs_alive $coord' 20 || fail "the coordinator did not stop on SIGINT"
wait $coord
st=$?
[ $st = 1 ] || fail "exit status $st after SIGINT (not 1)"
! grep -q "AddressSanitizer\|runtime error" "$tmp/coord.err" || fail "a sanitizer spoke"
! grep -q "$(printf '\033')" "$tmp/coord.out" "$tmp/coord.err" || fail "an escape sequence reached the terminal"
echo "match_queue_hostile: ok ($(count "^XREAD" "$tmp/fake.log") hostile XREAD answers, $(count "ignored" "$tmp/coord.err") said)"
