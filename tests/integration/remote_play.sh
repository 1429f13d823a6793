#!/bin/sh
# remote_play.sh: remote play's viewer model (protocol uhp-remote, docs/remote-play.md)
# over real sockets against the real daemon:
#  - two clients find each other with newgame and play a whole game to WhiteWins
#    (the proposal's play answer exactly: GameString, then the opponent's MoveString,
#    GameString and ok); an illegal move, a pass while moves exist, undo, newgame
#    GameString and bestmove get invalidmove/err and leave the game untouched;
#  - a Base+P game with White's forced pass, then Black resigns with a reason;
#  - a time loss (the waiting opponent is told at once, the loser at its next play);
#  - a disconnect resumed with the token (the new connection gets the position and
#    plays on), and a disconnect not resumed (lost after the grace period);
#  - no opponent within wait_time; a client against house engines of each protocol
#    (built-in, UHP and Hub programs, a Trylobot module, an OTEP engine), as White,
#    and as Black against the built-in one;
#  - every finished game in the results file, valid against schemas/match-result.json,
#    with the result and reason each game should have.
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
. tests/lib/procs.sh
need python3 timeout jsonschema
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -x "$TOOLS/fake_trylobot_module" ] && [ -x "$TOOLS/fake_otep_engine" ] || fail "test tools missing in $TOOLS"

# The Trylobot house engine is a module listening on a port of its own.
spawn "$TOOLS/fake_trylobot_module" --port-file "$tmp/module.port" --log "$tmp/module.log" 2>"$tmp/module.err"
module=$spawned
wait_for '[ -s "$tmp/module.port" ] || ! procs_alive $module' 30 && [ -s "$tmp/module.port" ] ||
	fail "the Trylobot module did not start: $(cat "$tmp/module.err")"

cat >"$tmp/conf" <<EOF
[daemon]
log = $tmp/trace
max_sessions_per_peer = 100
[engine uhpprog]
command = $HIVEBRIDGE uhp
[engine hubprog]
kind = hub
command = $HIVEBRIDGE hub
[engine quick]
kind = builtin
[engine module]
kind = trylobot
host = 127.0.0.1
port = $(cat "$tmp/module.port")
[engine oteprog]
kind = otep
command = $TOOLS/fake_otep_engine --delay-ms 5
[listen pvp]
protocol = uhp-remote
port = 0
wait_time = 20
clock = 60+1
grace = 1
results = $tmp/results.jsonl
[listen fast]
protocol = uhp-remote
port = 0
clock = 1
results = $tmp/results.jsonl
[listen lonely]
protocol = uhp-remote
port = 0
wait_time = 0.3
[listen house_builtin]
protocol = uhp-remote
port = 0
house_engine = quick
clock = 30+1
results = $tmp/results.jsonl
[listen house_uhp]
protocol = uhp-remote
port = 0
house_engine = uhpprog
move_time = 2
results = $tmp/results.jsonl
[listen house_hub]
protocol = uhp-remote
port = 0
house_engine = hubprog
move_time = 2
results = $tmp/results.jsonl
[listen house_trylobot]
protocol = uhp-remote
port = 0
house_engine = module
move_time = 2
results = $tmp/results.jsonl
[listen house_otep]
protocol = uhp-remote
port = 0
house_engine = oteprog
move_time = 2
results = $tmp/results.jsonl
EOF

# Bad keys are refused with the reason.
printf '[listen r]\nprotocol = uhp-remote\nport = 0\nclock = 5+x\n' >"$tmp/bad1"
printf '[listen r]\nprotocol = uhp-remote\nport = 0\nhouse_engine = nope\n' >"$tmp/bad2"
timeout 10 "$HIVEBRIDGE" serve --config "$tmp/bad1" 2>"$tmp/bad.err" && fail "clock = 5+x accepted"
grep -q 'clock must be SECONDS or SECONDS+INCREMENT' "$tmp/bad.err" || fail "bad clock: $(cat "$tmp/bad.err")"
timeout 10 "$HIVEBRIDGE" serve --config "$tmp/bad2" 2>"$tmp/bad.err" && fail "house_engine = nope accepted"
grep -q 'house_engine: no \[engine nope\]' "$tmp/bad.err" || fail "bad house_engine: $(cat "$tmp/bad.err")"

spawn "$HIVEBRIDGE" serve --config "$tmp/conf" 2>"$tmp/err"
daemon=$spawned
wait_listening "$tmp/err" $daemon 8 uhp-remote
ports=
for k in 1 2 3 4 5 6 7 8; do ports="$ports $(listen_port "$tmp/err" uhp-remote $k)"; done

timeout 120 python3 tests/integration/remote_play_sessions.py $ports || fail "remote play sessions"

# 7. The results file: one valid line per finished game, written as each ended.
wait_for '[ $(count . "$tmp/results.jsonl") -ge 10 ]' 10 || fail "results: $(count . "$tmp/results.jsonl") lines"
python3 tests/integration/remote_play_results.py schemas/match-result.json "$tmp/results.jsonl" || fail "results file"

# No engine outlives the daemon's clean shutdown.
kill -TERM $daemon
wait_for '! procs_alive $daemon' 10 || fail "the daemon did not stop"
[ "$(children_left $daemon 1)" = 0 ] || fail "engines left behind"
echo "remote_play: ok"
