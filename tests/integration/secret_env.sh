#!/bin/sh
# secret_env.sh: the Redis password given in $HIVEBRIDGE_REDIS_PASSWORD reaches no
# engine. A worker (and the coordinator) get it from the environment; the worker's
# engine is a script of its [engine spy] profile that writes its own environment and
# its parent's /proc/PPID/environ (the worker's, readable by any process of the same
# user) to files, then runs the fake UHP engine. The password is in neither, nor in
# the /proc/PID/environ of the worker and the coordinator, and the game is played
# (so the password did reach Redis).
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
. tests/lib/procs.sh
need python3 redis-server
tmp=$(mktemp -d)
procs_trap
fail() { fail_logs "$@"; }
top=$(pwd)
umask 077
pw=$(python3 -c 'import secrets; print("hbpw" + secrets.token_hex(12))')
echo "$pw" >"$tmp/pw"
mkdir "$tmp/spy"
cat >"$tmp/redis.conf" <<EOF
requirepass $pw
EOF
cat >"$tmp/spy.sh" <<EOF
#!/bin/sh
env >"$tmp/spy/env.\$\$"
cat /proc/\$PPID/environ >"$tmp/spy/ppid.\$\$" || echo unreadable >"$tmp/spy/ppid.\$\$"
# The bridge waits here until the test has looked at its /proc (then the match runs).
while [ ! -e "$tmp/go" ]; do sleep 0.05; done
exec "$TOOLS/fake_uhp_engine"
EOF
chmod +x "$tmp/spy.sh"
cat >"$tmp/worker.conf" <<EOF
[engine spy]
kind = uhp
command = $tmp/spy.sh
EOF

. tests/lib/redis.sh
redis_start --conf "$tmp/redis.conf"
url=redis://127.0.0.1:$port/sec

export HIVEBRIDGE_REDIS_PASSWORD="$pw"
spawn "$HIVEBRIDGE" match --games 2 --depth 1 --max-plies 20 --queue "$url" --results "$tmp/res.jsonl" \
	builtin:depth=1 spy >"$tmp/coord.out" 2>"$tmp/coord.err"
coord=$spawned
spawn "$HIVEBRIDGE" worker --queue "$url" --config "$tmp/worker.conf" --name wsec >"$tmp/w.out" 2>"$tmp/w.err"
worker=$spawned
unset HIVEBRIDGE_REDIS_PASSWORD

wait_for '[ -n "$(ls "$tmp/spy")" ]' 60 || fail "the spy engine never ran"
for p in $coord $worker; do
	procs_alive $p && [ -r /proc/$p/environ ] || fail "process $p ended before its environment was checked"
	grep -qsF -f "$tmp/pw" /proc/$p/environ && fail "/proc/$p/environ of the bridge shows the password"
	grep -qsF HIVEBRIDGE_REDIS_PASSWORD=h /proc/$p/environ && fail "/proc/$p/environ keeps a piece of the password"
done
: >"$tmp/go"
wait_for '! procs_alive $coord' 120 || fail "the match did not end"
wait $coord || fail "coordinator exit status $?"
[ "$(wc -l <"$tmp/res.jsonl")" = 2 ] || fail "2 games not played"
n=0
for f in "$tmp"/spy/*; do
	n=$((n + 1))
	grep -q unreadable "$f" && fail "$f: /proc/PPID/environ not readable: nothing checked"
	grep -qsF -f "$tmp/pw" "$f" && fail "the engine saw the password: $f"
done
[ $n -ge 2 ] || fail "the spy engine wrote $n files"
grep -q '^PATH=' "$tmp"/spy/env.* || fail "the spy's environment was not written"
echo "secret_env: ok ($n files checked)"
