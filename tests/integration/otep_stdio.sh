#!/bin/sh
# otep_stdio.sh: the bridge as an OTEP engine (docs/otep-hive.md, section 5):
#   - a scripted session through `hivebridge otep` with the built-in engine: hello
#     at once, a move for every play (after its clock), analyze, and bad input
#     (garbage, an overlong line, wrong order, a wrong side, an illegal host move,
#     a command of the engine's direction) each answered "error 0 <reason>" with
#     the session going on; the host refusing our move twice: "error -1";
#   - a full game, OTEP host -> bridge -> UHP engine (the built-in one behind
#     `hivebridge uhp`, started as an external UHP engine), refereed by the core;
#   - an otep listener of `hivebridge serve` on port 0, and its refusal when full.
set -u
: "${HIVEBRIDGE:?}"
tmp=$(mktemp -d)
daemon=
trap '[ -n "$daemon" ] && kill "$daemon" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# --- a scripted session -----------------------------------------------------------
long=$(head -c 70000 /dev/zero | tr '\0' x)
{
	printf 'play white\n'                               # wrong order: no rules yet
	printf 'rules Base\n'
	printf 'opponent-move - Base;NotStarted;White[1]\nplay white\nclock 3000 3000 0 0 0\n'
	printf 'move Base;InProgress;Black[1];wS1\n'
	printf 'play white\n'                               # wrong side: Black is to move
	printf '\001\002garbage\n'
	printf '%s\n' "$long"                                # overlong
	printf 'opponent-move bQ_wS1- Base;InProgress;White[2];wS1;bS1_wS1-\n'   # list != position
	printf 'position Base;InProgress;White[2];wS1;wQ_wS1-\n'                  # illegal
	printf 'analysis 1 wS1 0\n'                          # the engine's command
	printf 'opponent-move bS1_wS1- Base;InProgress;White[2];wS1;bS1_wS1-\nplay white\nclock 2000 2000 0 0 0\n'
	printf 'analyze 2 1\n'
	printf 'finish 0\ngoodbye\n'
} | timeout 30 "$HIVEBRIDGE" otep --engine builtin:depth=2 >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/out" "$tmp/err"; fail "hivebridge otep: exit status $?"; }
expect() {  # expect LINE-NUMBER REGEX
	sed -n "$1p" "$tmp/out" | grep -q -- "$2" || { cat -n "$tmp/out"; fail "line $1 is not /$2/"; }
}
grep -v '^status ' "$tmp/out" >"$tmp/out2" && mv "$tmp/out2" "$tmp/out"
expect 1 '^hello$'
expect 2 '^simple-moves on$'
expect 3 '^error 0 play: no game yet'
expect 4 '^move wS1$'
expect 5 "^error 0 play white: it is black's move"
expect 6 '^error 0 unknown command'
expect 7 '^error 0 line too long'
expect 8 '^error 0 opponent-move: '
expect 9 '^error 0 position: '
expect 10 "^error 0 'analysis' is sent by the engine"
expect 11 '^move [wb][A-Z]'
expect 12 '^analysis [12] [wb][A-Z]'
[ "$(wc -l <"$tmp/out")" = 12 ] || { cat -n "$tmp/out"; fail "more lines than expected"; }
echo "ok scripted session: $(sed -n 12p "$tmp/out")"

# The host refuses our move twice in the same position: rules disagree.
printf 'rules Base\nopponent-move - Base;NotStarted;White[1]\nplay white\nclock 1000 1000 0 0 0\nerror 2\nopponent-move - Base;NotStarted;White[1]\nplay white\nclock 1000 1000 0 0 0\nerror 2\ngoodbye\n' |
	timeout 30 "$HIVEBRIDGE" otep --engine builtin:depth=1 | grep -v '^status' >"$tmp/ref"
[ "$(grep -c '^move ' "$tmp/ref")" = 2 ] && grep -q '^error -1 the host refuses a legal move' "$tmp/ref" ||
	{ cat "$tmp/ref"; fail "refused twice: want two moves then error -1"; }
echo "ok refused twice: $(tail -n 1 "$tmp/ref")"

# --- a full game: OTEP host -> bridge -> UHP engine -------------------------------
timeout 300 python3 tests/integration/otep_stdio_game.py "$HIVEBRIDGE" || fail "full game OTEP host -> bridge -> UHP engine"

# --- serve: an otep listener on port 0 --------------------------------------------
conf=$tmp/otep.conf
printf '[daemon]\nmax_sessions = 1\n[listen otep]\nprotocol = otep\nport = 0\nengine = builtin\n' >"$conf"
"$HIVEBRIDGE" serve --config "$conf" 2>"$tmp/serve.err" &
daemon=$!
i=0
while ! grep -q '(otep)' "$tmp/serve.err" && [ $i -lt 100 ]; do
	kill -0 "$daemon" 2>/dev/null || { cat "$tmp/serve.err"; fail "serve died at start"; }
	sleep 0.1
	i=$((i + 1))
done
port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\) (otep).*/\1/p' "$tmp/serve.err")
[ -n "$port" ] || { cat "$tmp/serve.err"; fail "no otep listener"; }
timeout 60 python3 tests/integration/otep_stdio_tcp.py "$port" || fail "TCP session"
kill "$daemon"
wait "$daemon"
daemon=
echo "otep_stdio: ok"
