#!/bin/sh
# engine_escapes.sh: text from an engine never reaches a terminal raw. A UHP engine
# (a script) names itself, refuses a command and answers bestmove with escape
# sequences (ESC, BEL, a C1 CSI in UTF-8); `hivebridge uhp` (its answers to the
# client and its stderr), `match` (its terminal output and the results file) and the
# trace log must carry none of those bytes, and the game goes on.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

evil=$tmp/evil.sh
cat >"$evil" <<'EOF2'
#!/bin/sh
esc=$(printf '\033')
bel=$(printf '\007')
csi=$(printf '\302\233')
printf 'id evil%s]0;owned%s %s[2J\nMosquito;Ladybug;Pillbug\nok\n' "$esc" "$bel" "$csi"
while IFS= read -r cmd; do
	case $cmd in
	newgame*InProgress*|play*) printf 'err no%s[31m red %s[0m\nok\n' "$esc" "$esc" ;;
	newgame*) printf 'Base;NotStarted;White[1]\nok\n' ;;
	bestmove*) printf 'w%s[5mS1\nok\n' "$esc" ;;
	exit) exit 0 ;;
	*) printf 'ok\n' ;;
	esac
	echo "engine stderr$esc[1m bold" >&2
done
EOF2
chmod +x "$evil"
# no ESC (0x1b), BEL (0x07) or C1 CSI (0xc2 0x9b) in FILE...
clean() {
	python3 tests/integration/engine_escapes_client.py "$@"
}

printf 'info\nnewgame Base\nbestmove depth 1\nplay wS1\nbestmove depth 1\nvalidmoves\n' |
	timeout 60 "$HIVEBRIDGE" uhp --engine "$evil" --log "$tmp/trace.log" >"$tmp/uhp.out" 2>"$tmp/uhp.err" ||
	fail "uhp: exit status $?"
grep -q '^err .*red' "$tmp/uhp.out" || { cat "$tmp/uhp.out"; fail "uhp: the engine's refusal not passed on"; }
grep -q '^err .*move' "$tmp/uhp.out" || { cat "$tmp/uhp.out"; fail "uhp: the bad move not refused"; }
[ "$(grep -c '^ok$' "$tmp/uhp.out")" -ge 6 ] || { cat "$tmp/uhp.out"; fail "uhp: answers missing"; }
clean "$tmp/uhp.out" "$tmp/uhp.err" "$tmp/trace.log" || fail "uhp: raw engine bytes reached the output"
grep -q 'engine stderr\\x1b\[1m bold' "$tmp/trace.log" || fail "uhp: the engine's stderr not logged, escaped"

timeout 120 "$HIVEBRIDGE" match --games 2 --depth 1 --results "$tmp/res.jsonl" builtin:depth=1 "$evil" \
	>"$tmp/match.out" 2>"$tmp/match.err" || { cat "$tmp/match.out" "$tmp/match.err"; fail "match: exit status $?"; }
[ "$(wc -l <"$tmp/res.jsonl")" = 2 ] || fail "match: 2 games not played"
clean "$tmp/match.out" "$tmp/match.err" "$tmp/res.jsonl" || fail "match: raw engine bytes reached the output"
python3 tests/integration/engine_escapes_results.py "$tmp/res.jsonl" || fail "match: the results file carries control characters"
echo "engine_escapes: ok"
