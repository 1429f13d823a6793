#!/bin/sh
# match_queue_refused.sh: Redis refuses every write (maxmemory 1 with noeviction:
# OOM) while the coordinator starts: the refusal is said once, the match's setup
# and its jobs are sent again with back-off, and once memory is given back
# (maxmemory 0) the coordinator says so and a worker plays the match to its end.
# Then a second match whose XADDs alone are refused (an ACL without XADD, as a
# read-only replica or a full disk refuses writes): the same, for the jobs.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 redis-server redis-cli timeout
tmp=$(mktemp -d)
procs_trap
fail() { fail_logs "$@"; }
. tests/lib/redis.sh
redis_start
rc() { redis-cli -p "$port" "$@"; }
url=redis://127.0.0.1:$port/oom
rc CONFIG SET maxmemory-policy noeviction >/dev/null
rc CONFIG SET maxmemory 1 >/dev/null

spawn "$HIVEBRIDGE" match --games 2 --depth 1 --max-plies 20 --queue "$url" --results "$tmp/res.jsonl" \
	builtin:depth=1 builtin >"$tmp/coord.out" 2>"$tmp/coord.err"
coord=$spawned
wait_for 'grep -q "redis refused .*OOM" "$tmp/coord.err"' 20 || fail "the refusal was not said"
# Refused again and again (the back-off runs: rejected_calls grows), said once.
calls() { rc INFO commandstats | tr -d '\r' | sed -n 's/^cmdstat_hsetnx:.*rejected_calls=\([0-9]*\).*/\1/p'; }
wait_for '[ "$(calls)" -ge 3 ]' 20 || fail "the setup was not sent again"
[ "$(count "redis refused" "$tmp/coord.err")" = 1 ] || fail "the refusal was said more than once"
procs_alive $coord || fail "the coordinator gave up"
rc CONFIG SET maxmemory 0 >/dev/null
wait_for 'grep -q "redis takes writes again" "$tmp/coord.err"' 20 || fail "the recovery was not said"
wait_for '[ "$(rc XLEN hivebridge:oom:jobs)" = 2 ]' 20 || fail "the jobs were not queued after the refusal"
spawn "$HIVEBRIDGE" worker --queue "$url" --name w1 >"$tmp/w1.out" 2>"$tmp/w1.err"
wait_for '! procs_alive $coord' 60 || fail "the match did not end"
wait $coord
st=$?
[ $st = 0 ] || fail "exit status $st"
[ "$(wc -l <"$tmp/res.jsonl")" = 2 ] || fail "not 2 results"

# The jobs alone refused: the setup goes through, every XADD is refused.
rc ACL SETUSER default -xadd >/dev/null || fail "ACL SETUSER"
spawn "$HIVEBRIDGE" match --games 2 --depth 1 --max-plies 20 --queue "${url}2" builtin:depth=1 builtin \
	>"$tmp/coord2.out" 2>"$tmp/coord2.err"
coord=$spawned
wait_for 'grep -q "redis refused a job: NOPERM" "$tmp/coord2.err"' 20 || fail "the refused job was not said"
calls() { rc INFO commandstats | tr -d '\r' | sed -n 's/^cmdstat_xadd:.*rejected_calls=\([0-9]*\).*/\1/p'; }
wait_for '[ "$(calls)" -ge 6 ]' 20 || fail "the jobs were not sent again"
[ "$(count "redis refused" "$tmp/coord2.err")" = 1 ] || fail "the refusal was said more than once"
rc ACL SETUSER default +xadd >/dev/null
wait_for 'grep -q "redis takes writes again" "$tmp/coord2.err"' 20 || fail "the recovery was not said"
spawn "$HIVEBRIDGE" worker --queue "${url}2" --name w2 >"$tmp/w2.out" 2>"$tmp/w2.err"
wait_for '! procs_alive $coord' 60 || fail "the second match did not end"
wait $coord
st=$?
[ $st = 0 ] || fail "second match: exit status $st"
echo "match_queue_refused: ok (writes refused, said once, sent again, both matches played out)"
