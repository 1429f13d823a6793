#!/bin/sh
# web_heavy.sh: requests whose cost grows with their input, against a real daemon.
#   - /api/position with a GameString over 16384 bytes is refused with 413 and a JSON
#     reason naming the limit (one of 107 KB, over the 32 KB head limit, with 431),
#     while a valid game of 1,800 plies (14 KB, longer than match's 1,000-ply
#     adjudication) is answered;
#   - while four clients repeat the long requests, a bystander UHP session's `info`
#     keeps a median under 20 ms (an accepted request costs the loop about 1.5 ms;
#     the bound is generous for the ASan build), the time the machine's load kept
#     the daemon's loop or the client from a CPU not counted.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$tmp/conf" <<EOF
[engine builtin]
hash_mb = 1
[listen uhp]
port = 0
EOF
spawn "$HIVEBRIDGE" serve --config "$tmp/conf" --http 127.0.0.1:0 2>"$tmp/err"
pid=$spawned
wait_listening "$tmp/err" $pid 2
http=$(listen_port "$tmp/err" http)
uhp=$(listen_port "$tmp/err" uhp)
[ -n "$http" ] && [ -n "$uhp" ] || fail "no ports: $(cat "$tmp/err")"

timeout 200 python3 tests/integration/web_heavy.py "$http" "$uhp" "$pid" || { cat "$tmp/err"; fail "the heavy requests"; }
procs_alive $pid || fail "the daemon died"
kill -TERM $pid
wait $pid || fail "the daemon's exit status $? after SIGTERM: $(cat "$tmp/err")"
echo "web_heavy: ok"
