#!/bin/sh
# remote_engines.sh: remote play's engine model (protocol uhp-player) and spectators
# (protocol uhp-spectate), over real sockets against the real daemon:
#  - two `hivebridge uhp` engines connect in (tests/tools/uhp_connect runs each with
#    the connection as its stdio) and are driven through a game: newgame, play,
#    bestmove with the listener's time, as the proposal's three-session example;
#  - spectators list the games, attach (the position at once, then a GameString
#    after every move, then "over N RESULT REASON"), detach; the per-game bound
#    (max_spectators) and the total one (max_spectators_total) refuse with err;
#  - a faulty engine (fake_uhp_engine --fault illegal-move, then crash-on-bestmove)
#    against `hivebridge uhp` loses with the reason;
#  - an engine that disconnects while it waits is dropped from the queue at once
#    (never paired), and one that disconnects while its opponent thinks loses at
#    once ("white disconnected");
#  - the viewer model's refusals: max_games, max_waiting; hints = yes answers bestmove;
#  - the results file validated against schemas/match-result.json.
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
. tests/lib/procs.sh
need python3 timeout jsonschema
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -x "$TOOLS/uhp_connect" ] && [ -x "$TOOLS/fake_uhp_engine" ] || fail "test tools missing in $TOOLS"

cat >"$tmp/conf" <<EOF
[daemon]
log = $tmp/trace
max_sessions_per_peer = 100
[listen players]
protocol = uhp-player
port = 0
move_time = 1
max_plies = 8
max_spectators = 1
results = $tmp/results.jsonl
[listen faulty]
protocol = uhp-player
port = 0
move_time = 1
max_spectators_total = 1
results = $tmp/results.jsonl
[listen gone]
protocol = uhp-player
port = 0
move_time = 2
max_plies = 2
results = $tmp/gone.jsonl
[listen watch]
protocol = uhp-spectate
port = 0
watch = players
[listen watchf]
protocol = uhp-spectate
port = 0
watch = faulty
[listen full]
protocol = uhp-remote
port = 0
max_games = 1
max_waiting = 1
hints = yes
EOF
printf '[listen w]\nprotocol = uhp-spectate\nport = 0\nwatch = nope\n' >"$tmp/bad1"
timeout 10 "$HIVEBRIDGE" serve --config "$tmp/bad1" 2>"$tmp/bad.err" && fail "watch = nope accepted"
grep -q 'watch: no \[listen nope\]' "$tmp/bad.err" || fail "bad watch: $(cat "$tmp/bad.err")"
printf '[listen w]\nprotocol = uhp-player\nport = 0\ngame_type = Chess\n' >"$tmp/bad2"
timeout 10 "$HIVEBRIDGE" serve --config "$tmp/bad2" 2>"$tmp/bad.err" && fail "game_type = Chess accepted"
grep -q 'game_type must be a GameTypeString' "$tmp/bad.err" || fail "bad game_type: $(cat "$tmp/bad.err")"

spawn "$HIVEBRIDGE" serve --config "$tmp/conf" 2>"$tmp/err"
daemon=$spawned
wait_listening "$tmp/err" $daemon 6
pport=$(listen_port "$tmp/err" uhp-player 1)
fport=$(listen_port "$tmp/err" uhp-player 2)
wport=$(listen_port "$tmp/err" uhp-spectate 1)
wfport=$(listen_port "$tmp/err" uhp-spectate 2)
rport=$(listen_port "$tmp/err" uhp-remote 1)
gport=$(listen_port "$tmp/err" uhp-player 3)


# 1. Spectators before any game: an empty list, refused attach, unknown command.
timeout 30 python3 tests/integration/remote_engines_no_game.py "$wport" "$wfport" || fail "spectator with no game"

# 2. Two engines connect in and play; spectators watch.
spawn "$TOOLS/uhp_connect" "$pport" "$HIVEBRIDGE" uhp
e1=$spawned
spawn "$TOOLS/uhp_connect" "$pport" "$HIVEBRIDGE" uhp
e2=$spawned
timeout 60 python3 tests/integration/remote_engines_spectators.py "$wport" "$tmp/seen" || fail "spectators of an engine game"
wait_for '! procs_alive $e1 && ! procs_alive $e2' 10 || fail "engines not closed after their game"
python3 tests/integration/remote_engines_stream.py "$tmp/seen" || fail "spectator stream"

# 3. A faulty engine loses, with the reason.
for fault in illegal-move crash-on-bestmove; do
	n=$(count ' is FakeUhp' "$tmp/trace")
	spawn "$TOOLS/uhp_connect" "$fport" "$TOOLS/fake_uhp_engine" --fault "$fault"
	f=$spawned
	# The faulty one connects first: it waits, so it plays White.
	wait_for "[ \$(count ' is FakeUhp' \"$tmp/trace\") -gt $n ]" 10 || fail "$fault: not waiting"
	spawn "$TOOLS/uhp_connect" "$fport" "$HIVEBRIDGE" uhp
	g=$spawned
	wait_for '! procs_alive $f && ! procs_alive $g' 20 || fail "$fault: players not closed"
done

# 3b. Engines that go while nobody asks them anything. One waits and leaves: it is
# out of the queue at once, so the next two engines play each other. Then one
# (White) leaves while its opponent thinks: the game is lost at once, not when
# Black's time (move_time 2) is up.
timeout 60 python3 tests/integration/remote_engines_gone_waiting.py "$gport" "$tmp/trace" || fail "an engine gone while waiting"
spawn "$TOOLS/uhp_connect" "$gport" "$HIVEBRIDGE" uhp
e1=$spawned
spawn "$TOOLS/uhp_connect" "$gport" "$HIVEBRIDGE" uhp
e2=$spawned
wait_for '! procs_alive $e1 && ! procs_alive $e2' 20 || fail "the engines after a gone one did not play"
timeout 60 python3 tests/integration/remote_engines_gone_thinking.py "$gport" "$tmp/trace" || fail "an engine gone while its opponent thinks"
wait_for '[ $(count . "$tmp/gone.jsonl") -ge 2 ]' 10 || fail "gone: $(count . "$tmp/gone.jsonl") results"
python3 tests/integration/remote_engines_gone_results.py "$tmp/gone.jsonl" || fail "the games after gone engines"

# 4. The viewer model's bounds and hints.
timeout 60 python3 tests/integration/remote_engines_limits.py "$rport" "$tmp/trace" || fail "max_waiting, max_games, hints"

# 5. The results file: the watched game and the two faulty games, all valid.
wait_for '[ $(count . "$tmp/results.jsonl") -ge 3 ]' 10 || fail "results: $(count . "$tmp/results.jsonl") lines"
python3 tests/integration/remote_engines_results.py schemas/match-result.json "$tmp/results.jsonl" || fail "results file"

kill -TERM $daemon
wait_for '! procs_alive $daemon' 10 || fail "the daemon did not stop"
[ "$(children_left $daemon 1)" = 0 ] || fail "engines left behind"
echo "remote_engines: ok"
