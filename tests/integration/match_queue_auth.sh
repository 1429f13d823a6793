#!/bin/sh
# match_queue_auth.sh: match --queue and worker against a real Redis that wants a
# password (requirepass in its config file, on a free loopback port, in a
# temporary directory), started only after the bridge's processes:
#   - Redis down: the coordinator and the workers say so once each, retry with a
#     doubling back-off (their trace logs show 200, 400, 800 ms) and connect once
#     it is up;
#   - AUTH: the coordinator's password from $HIVEBRIDGE_REDIS_PASSWORD, one
#     worker's from its config's [queue] password, the other's from the
#     environment; the password is in no /proc/PID/cmdline of any process, nor in
#     the environment of the engines the workers run; a wrong password and a
#     missing one are clear errors (exit status 1, said once);
#   - --sprt with --queue: the SPRT decides after a few of 400 games (not before
#     --sprt-min-games), the coordinator stops, the workers leave, and the remaining
#     jobs are never played.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 redis-server redis-cli
tmp=$(mktemp -d)
procs_trap
fail() { fail_logs "$@"; }
top=$(pwd)
games=400
pw=$(python3 -c 'import secrets; print("hbpw" + secrets.token_hex(12))')
. tests/lib/redis.sh
# Redis starts late, on a port everyone is told now: held until then (bound, so
# that connecting is refused and nothing else takes it; outside the ephemeral range).
spawn python3 tests/lib/harness.py hold-port "$tmp/port"
holder=$spawned
wait_for '[ -s "$tmp/port" ] || ! procs_alive $holder' 10 && [ -s "$tmp/port" ] || fail "no port held"
port=$(cat "$tmp/port")
url=redis://127.0.0.1:$port/s1
# The password lives in files only (mode 600), never on a command line.
umask 077
echo "$pw" >"$tmp/pw"    # the pattern of the greps below: their own argv stays clean
cat >"$tmp/redis.conf" <<EOF
requirepass $pw
EOF
# The workers' engines: the built-in one at depth 1, and an external UHP engine
# (this very binary) at the match's depth 4, which the SPRT tells apart at once.
cat >"$tmp/w1.conf" <<EOF
[queue]
password = $pw
[engine ext]
kind = uhp
command = $HIVEBRIDGE uhp --engine builtin
EOF
grep -v -e '^\[queue\]' -e '^password' "$tmp/w1.conf" >"$tmp/w2.conf"

# --- Redis down: everyone starts first, and waits --------------------------------------
# (A prefix assignment to a function is not portable: exported around the spawn.)
export HIVEBRIDGE_REDIS_PASSWORD="$pw"
spawn "$HIVEBRIDGE" match --openings "$top/conf/openings-base.txt" \
	--games $games --depth 4 --max-plies 80 --sprt -50,0 --sprt-min-games 30 --queue "$url" --results "$tmp/res.jsonl" \
	--log "$tmp/coord.log" builtin:depth=1 ext >"$tmp/coord.out" 2>"$tmp/coord.err"
coord=$spawned
spawn "$HIVEBRIDGE" worker --queue "$url" --config "$tmp/w2.conf" \
	--name w2 --claim-after 3000 >"$tmp/w2.out" 2>"$tmp/w2.err"
w2=$spawned
unset HIVEBRIDGE_REDIS_PASSWORD
spawn "$HIVEBRIDGE" worker --queue "$url" --config "$tmp/w1.conf" \
	--name w1 --claim-after 3000 --log "$tmp/w1.log" >"$tmp/w1.out" 2>"$tmp/w1.err"
w1=$spawned
for who in coord w1; do
	wait_for 'grep -qs "retry in 800 ms" "$tmp/$who.log"' 20 || fail "$who: no back-off up to 800 ms"
	ms=$(sed -n 's/.*retry in \([0-9]*\) ms.*/\1/p' "$tmp/$who.log" | head -n 3 | tr '\n' ' ')
	[ "$ms" = "200 400 800 " ] || fail "$who: back-off $ms, want 200 400 800"
done
for who in coord w1 w2; do
	[ $(count "retrying with back-off" "$tmp/$who.err") = 1 ] || fail "$who: the outage not said once"
	grep -q "redis 127.0.0.1:$port: .*retrying with back-off (up to 5 s)" "$tmp/$who.err" ||
		fail "$who: no clear message for Redis down"
done
procs_alive $coord && procs_alive $w1 && procs_alive $w2 || fail "a process gave up while Redis was down"

kill $holder
wait_for '! procs_alive $holder' 10 || fail "the port holder did not exit"
redis_start same --conf "$tmp/redis.conf"
for who in coord w1 w2; do
	wait_for 'grep -q "connected again" "$tmp/$who.err"' 20 || fail "$who did not connect once Redis was up"
done

# --- the password shows in no command line, nor in the engines' environment ------------
# While the workers play, their external engines run: each live one is checked,
# until one of each worker was (w2's password came from the environment).
seen1=0 seen2=0
check_engines() {
	_f=$(grep -lsF -f "$tmp/pw" /proc/[0-9]*/cmdline) && fail "the password is on the command line of $_f"
	for _w in 1 2; do
		eval procs_children \$w$_w
		for k in $procs_kids; do
			grep -qsF -- "uhp" /proc/$k/cmdline && [ -r /proc/$k/environ ] || continue
			grep -qsF -f "$tmp/pw" /proc/$k/environ && fail "engine $k has the password in its environment"
			grep -qsF -- "uhp" /proc/$k/cmdline && eval seen$_w=1   # still that engine
		done
	done
	[ $seen1 = 1 ] && [ $seen2 = 1 ]
}
wait_for check_engines 30 || fail "engines of the workers checked: w1 $seen1, w2 $seen2"

# --- --sprt with --queue: decided, stopped, the rest never played ----------------------
wait_for '! procs_alive $coord' 120 || fail "the coordinator did not stop"
wait $coord
[ $? = 0 ] || fail "coordinator exit status not 0"
at=$(sed -n 's/^SPRT: H0 accepted after \([0-9]*\) games.*/\1/p' "$tmp/coord.out")
[ -n "$at" ] || fail "the SPRT did not decide"
# Without --sprt-min-games it decides after about 13 games (depth 1 against depth 4).
[ "$at" -ge 30 ] || fail "--sprt-min-games 30: decided after $at games"
for w in $w1 $w2; do
	wait_for '! procs_alive $w' 20 || fail "worker $w did not leave once the SPRT decided"
	wait $w
	[ $? = 0 ] || fail "worker $w: exit status not 0"
done
grep -q "is over: the SPRT decided" "$tmp/w1.out" || fail "w1 was not told why the match is over"
decided=$(wc -l <"$tmp/res.jsonl")
# Each worker plays one game at a time: past the decision, at most the game under
# way and one it fetched meanwhile, each dropped at its next look at the stop key.
started=$(cat "$tmp/w1.out" "$tmp/w2.out" | grep -c "^Started game")
highest=$(cat "$tmp/w1.out" "$tmp/w2.out" | sed -n 's/^Started game \([0-9]*\) .*/\1/p' | sort -n | tail -n 1)
[ "$decided" -ge 1 ] && [ "$decided" -lt $games ] || fail "$decided results of $games"
[ "$started" -le $((decided + 4)) ] || fail "$started games started for $decided results: jobs kept being played"
[ "$highest" -le $((decided + 4)) ] || fail "game $highest was started after the SPRT decided at $decided"
# Jobs go out in order and nobody died: every one delivered was played, once (a
# job fetched and then dropped would wait --claim-after for someone to take it).
cat "$tmp/w1.out" "$tmp/w2.out" | sed -n 's/^Started game \([0-9]*\) .*/\1/p' | sort -n | tr '\n' ' ' >"$tmp/started"
[ "$(cat "$tmp/started")" = "$(seq 1 "$highest" | tr '\n' ' ')" ] || fail "games started: $(cat "$tmp/started")"
[ "$(REDISCLI_AUTH=$pw redis-cli -p $port GET hivebridge:s1:stop)" = "over: the SPRT decided" ] ||
	fail "the stop key does not say the SPRT decided"

# --- the streams: deleted once the results file has them, unless --keep --------------
rcli() { REDISCLI_AUTH=$pw redis-cli -p $port "$@"; }
[ "$(rcli EXISTS hivebridge:s1:jobs hivebridge:s1:results hivebridge:s1:events)" = 0 ] ||
	fail "the streams of a finished match are still there"
[ -n "$(rcli HGET hivebridge:s1:match deleted)" ] || fail "the match hash does not say its streams are gone"
grep -q "^Deleted the streams of s1: the results are in $tmp/res.jsonl" "$tmp/coord.out" || fail "deletion not said"
# The same command again would play the whole match again: refused, the file untouched.
sum=$(cksum <"$tmp/res.jsonl")
HIVEBRIDGE_REDIS_PASSWORD=$pw timeout 30 "$HIVEBRIDGE" match --openings "$top/conf/openings-base.txt" \
	--games $games --depth 4 --max-plies 80 --sprt -50,0 --sprt-min-games 30 --queue "$url" --results "$tmp/res.jsonl" \
	builtin:depth=1 ext >"$tmp/again.out" 2>"$tmp/again.err"
[ $? = 1 ] || fail "a deleted match started again: want exit status 1"
grep -q "this match is over and its streams were deleted" "$tmp/again.err" || fail "no clear error for a deleted match"
[ "$(cksum <"$tmp/res.jsonl")" = "$sum" ] || fail "the results file of a deleted match was rewritten"
[ "$(rcli EXISTS hivebridge:s1:jobs hivebridge:s1:results)" = 0 ] || fail "a refused start brought streams back"
# --keep: the streams stay.
export HIVEBRIDGE_REDIS_PASSWORD="$pw"
spawn "$HIVEBRIDGE" match --games 2 --depth 1 --keep --queue "redis://127.0.0.1:$port/k1" \
	--results "$tmp/k1.jsonl" builtin builtin >"$tmp/k1.out" 2>"$tmp/k1.err"
k1=$spawned
spawn "$HIVEBRIDGE" worker --queue "redis://127.0.0.1:$port/k1" --name wk >"$tmp/wk.out" 2>"$tmp/wk.err"
wk=$spawned
unset HIVEBRIDGE_REDIS_PASSWORD
wait_for '! procs_alive $k1 && ! procs_alive $wk' 60 || fail "the --keep match did not end"
wait $k1 || fail "the --keep match failed"
[ "$(rcli XLEN hivebridge:k1:results)" = 2 ] && [ "$(rcli XLEN hivebridge:k1:jobs)" = 2 ] ||
	fail "--keep: the streams are gone"

# --- a wrong password, none at all: clear errors, no retrying ---------------------------
export HIVEBRIDGE_REDIS_PASSWORD="wrong-$pw"
spawn "$HIVEBRIDGE" worker --queue "$url" --name wx >"$tmp/wx.out" 2>"$tmp/wx.err"
wx=$spawned
unset HIVEBRIDGE_REDIS_PASSWORD
printf '[queue]\npassword = not-%s\n' "$pw" >"$tmp/bad.conf"
spawn "$HIVEBRIDGE" match --games 2 --depth 1 --queue "$url" \
	--config "$tmp/bad.conf" builtin builtin >"$tmp/cx.out" 2>"$tmp/cx.err"
cx=$spawned
spawn "$HIVEBRIDGE" worker --queue "$url" --name wn >"$tmp/wn.out" 2>"$tmp/wn.err"
wn=$spawned
for p in $wx $cx $wn; do
	wait_for '! procs_alive $p' 20 || fail "process $p kept going with a bad password"
	wait $p
	[ $? = 1 ] || fail "process $p: want exit status 1 for a bad password"
done
for f in wx cx; do
	grep -q "redis 127.0.0.1:$port: the password was refused: WRONGPASS" "$tmp/$f.err" || fail "$f: no clear error"
	[ $(grep -c redis "$tmp/$f.err") = 1 ] || fail "$f: said more than once"
done
grep -q "it wants a password: put it in \$HIVEBRIDGE_REDIS_PASSWORD" "$tmp/wn.err" || fail "wn: no clear error"
grep -q retrying "$tmp/wx.err" "$tmp/cx.err" "$tmp/wn.err" && fail "a refused password was retried"
echo "match_queue_auth: ok (back-off 200 400 800 ms, SPRT decided after $at of $games games, $decided results, $started started)"
