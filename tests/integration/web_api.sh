#!/bin/sh
# web_api.sh: the web page's JSON endpoints against a real daemon (serve --http),
# each answer validated against its schema in schemas/: the games list, a game
# against the built-in engine started, played (a move checked by the core, an illegal
# one refused with 422, one out of turn with 409) and resigned, positions and legal
# moves for any GameString and ply, the event stream (a move shows up in it), and
# malformed requests (bad JSON, a huge header, an unknown path or method, raw
# garbage) answered with an HTTP error while the daemon lives on. The sessions of
# the other front ends show up too, with their kind and moves: a Hub session (and
# the built-in engine's analysis), a Trylobot core's game (tools/trylobot_client),
# a uhp-remote game against the house engine (clocks, then its result when the
# client leaves). Then `match --http` answers /api/match, and `match --queue --http`
# (a real redis-server and two workers) lists the workers.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
. tests/lib/web.sh
need python3 jsonschema timeout redis-server
: "${TOOLS:?}"
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$tmp/conf" <<EOF
[listen uhp]
protocol = uhp
port = 0
engine = builtin

[listen hub]
protocol = hub
port = 0
engine = builtin

[listen trylobot]
protocol = trylobot
port = 0
engine = builtin
depth = 1

[listen otep]
protocol = otep
port = 0
engine = builtin

[listen remote]
protocol = uhp-remote
port = 0
house_engine = builtin
house_wait = 0
clock = 60+1
grace = 1
EOF
web_serve 6
hubp=$(listen_port "$tmp/err" hub)
tbp=$(listen_port "$tmp/err" trylobot)
remp=$(listen_port "$tmp/err" uhp-remote)
otepp=$(listen_port "$tmp/err" otep)
[ -n "$hubp" ] && [ -n "$tbp" ] && [ -n "$remp" ] && [ -n "$otepp" ] || fail "no ports: $(cat "$tmp/err")"

timeout 120 python3 tests/integration/web_api.py "$http" serve schemas || fail "the endpoints of serve"
TOOLS=$TOOLS timeout 200 python3 tests/integration/web_api.py "$http" fronts schemas "$hubp" "$tbp" "$remp" "$otepp" ||
	fail "the other front ends' games"
procs_alive $pid || fail "the daemon died"
kill -TERM $pid
wait $pid || { st=$?; cat "$tmp/err"; fail "serve exit status $st"; }
pid=

spawn "$HIVEBRIDGE" match --games 4 --depth 1 --max-plies 60 --sprt 0,50 --sprt-min-games 3 --http 127.0.0.1:0 builtin builtin:depth=2 \
	>"$tmp/mout" 2>"$tmp/merr"
mpid=$spawned
wait_listening "$tmp/merr" $mpid 1 http
mhttp=$(listen_port "$tmp/merr" http)
timeout 150 python3 tests/integration/web_api.py "$mhttp" match schemas || fail "the endpoints of match"
wait_for '[ $(count "played out" "$tmp/merr") -ge 1 ]' 120 || fail "the match did not play out"
kill -TERM $mpid
wait $mpid || { st=$?; cat "$tmp/merr"; fail "match exit status $st after SIGTERM"; }
mpid=

# match --queue --http: the coordinator lists the workers it hears of.
web_redis web
# Games of about 10 s each (32 plies at 300 ms): the coordinator polls the jobs held
# every second, so each worker is seen with one in flight, even where a loaded machine
# starts the second worker seconds after the first (3 s games were all played before
# both were seen at once, at load 16).
web_queue_match --games 4 --max-plies 32 --movetime 300 builtin builtin
timeout 250 python3 tests/integration/web_api.py "$qhttp" queue schemas w1 w2 ||
	{ cat "$tmp/qerr" "$tmp/w1.err" >&2; fail "/api/match of match --queue"; }
wait_for 'grep -q "played out" "$tmp/qerr"' 120 || fail "match --queue did not play out: $(cat "$tmp/qerr")"
kill -TERM $qpid
wait $qpid || { st=$?; cat "$tmp/qerr"; fail "match --queue exit status $st after SIGTERM"; }
qpid=
echo "web_api: ok"
