#!/bin/sh
# match_basic.sh: `hivebridge match` between two built-in engines. The match must
# finish, print its summary, and write one valid JSON line per game whose GameString
# the core parses, whose ply count and timings agree with the GameString, and whose
# result agrees with the GameString's state or a stated adjudication. Then the same
# with openings and two games at once, and an SPRT that must stop early.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }
top=$(pwd)

# Checks a results file: N lines, games numbered 1..N once each, every field sane.
check_results() {
	python3 tests/integration/match_basic_check.py "$1" "$2" "$3" || exit 1
	# Every GameString must parse with the core (perft at depth 0 loads it).
	python3 -c 'import json,sys; [print(json.loads(l)["gamestring"]) for l in open(sys.argv[1])]' "$1" |
	while IFS= read -r gs; do
		"$HIVEBRIDGE" perft --game "$gs" 0 >/dev/null 2>&1 || fail "GameString does not parse: $gs"
	done || exit 1
}

# --- four games, fixed depths ---------------------------------------------------------
out=$tmp/basic.out
timeout 120 "$HIVEBRIDGE" match --games 4 --depth 1 --results "$tmp/basic.jsonl" \
	builtin:depth=1 builtin:depth=2 >"$out" 2>"$tmp/basic.err" ||
	{ cat "$out" "$tmp/basic.err"; fail "match exit status $?"; }
check_results "$tmp/basic.jsonl" 4 builtin:depth=1
grep -q '^Match finished: 4 games played now, 4 of 4' "$out" || { cat "$out"; fail "no summary"; }
grep -q '^Score of builtin:depth=1 vs builtin:depth=2: [0-9]* - [0-9]* - [0-9]*  \[[01]\.[0-9]*\] 4$' "$out" ||
	{ cat "$out"; fail "no score line"; }
grep -q '^Elo difference: ' "$out" || { cat "$out"; fail "no Elo line"; }
[ "$(grep -c '^Finished game' "$out")" = 4 ] || { cat "$out"; fail "expected 4 finished games"; }
echo "basic: $(tail -n 2 "$out" | tr '\n' ' ')"

# --- openings, two games at once, a short clock -----------------------------------------
head -n 6 "$top/conf/openings-base.txt" >"$tmp/openings.txt"   # two openings, comments first
nopen=$(grep -c '^Base' "$tmp/openings.txt")
timeout 120 "$HIVEBRIDGE" match --openings "$tmp/openings.txt" --concurrency 2 --clock 5000+50 \
	--max-plies 60 --results "$tmp/open.jsonl" builtin:depth=2 builtin:depth=1 >"$tmp/open.out" 2>&1 ||
	{ cat "$tmp/open.out"; fail "openings match failed"; }
check_results "$tmp/open.jsonl" $((nopen * 2)) builtin:depth=2
# Each opening twice, colours swapped: games 2k-1 and 2k start from opening k.
python3 tests/integration/match_basic_openings.py "$tmp/open.jsonl" || fail "openings not paired"
echo "openings: $(grep '^Score' "$tmp/open.out" | tail -n 1)"

# --- a bad opening is refused before any game ---------------------------------------
printf 'Base;InProgress;White[2];wQ;bQ wQ-\n' >"$tmp/bad.txt"
"$HIVEBRIDGE" match --openings "$tmp/bad.txt" builtin builtin >/dev/null 2>"$tmp/bad.err" &&
	fail "a bad opening was accepted"
grep -q 'line 1' "$tmp/bad.err" || { cat "$tmp/bad.err"; fail "bad opening: no line number"; }

# --- repetition: the opening's positions count, and Ants are told apart by bug only ----
# White's Ants trade places while Black's Ant goes back and forth: the opening ends on
# the position after its ply 8, with wA1 and wA2 swapped.
# Canonical moves, as the results file prints them.
printf '%s%s\n' 'Base;InProgress;White[9];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bQ-;wA2 wA1\;' \
	'bA1 bQ\;wA1 \wQ;bA1 bQ-;wA2 /wA1;bA1 bQ\;wA1 \wS1;bA1 bQ-;wA1 wA2\;bA1 bQ\' >"$tmp/swap.txt"
timeout 60 "$HIVEBRIDGE" match --openings "$tmp/swap.txt" --depth 1 --repetition 2 \
	--results "$tmp/swap2.jsonl" builtin builtin >"$tmp/swap2.out" 2>&1 ||
	{ cat "$tmp/swap2.out"; fail "repetition match failed"; }
check_results "$tmp/swap2.jsonl" 2 builtin
python3 tests/integration/match_basic_repetition2.py "$tmp/swap2.jsonl" || fail "--repetition 2: the opening's repetition was not seen"
timeout 60 "$HIVEBRIDGE" match --openings "$tmp/swap.txt" --depth 1 --repetition 3 --max-plies 17 \
	--results "$tmp/swap3.jsonl" builtin builtin >"$tmp/swap3.out" 2>&1 ||
	{ cat "$tmp/swap3.out"; fail "repetition 3 match failed"; }
check_results "$tmp/swap3.jsonl" 2 builtin
python3 tests/integration/match_basic_repetition3.py "$tmp/swap3.jsonl" || fail "--repetition 3: adjudicated too soon"
echo "repetition: the opening's swap counts at 2, not at 3"

# --- SPRT: depth 3 against depth 1 is decided long before 400 games -----------------
timeout 300 "$HIVEBRIDGE" match --openings "$top/conf/openings-base.txt" --games 400 --depth 1 \
	--max-plies 80 --sprt -50,0 --results "$tmp/sprt.jsonl" builtin:depth=1 builtin:depth=3 \
	>"$tmp/sprt.out" 2>&1 || { tail "$tmp/sprt.out"; fail "sprt match failed"; }
grep -q '^SPRT: H0 accepted after [0-9]* games' "$tmp/sprt.out" ||
	{ tail "$tmp/sprt.out"; fail "SPRT did not accept H0 (elo <= -50)"; }
n=$(wc -l <"$tmp/sprt.jsonl")
[ "$n" -lt 400 ] || fail "SPRT did not stop early"
grep -q '^SPRT: llr -[0-9.]* (-2.944, 2.944)' "$tmp/sprt.out" || { tail "$tmp/sprt.out"; fail "no LLR line"; }
echo "sprt: stopped after $n games: $(grep '^SPRT: llr' "$tmp/sprt.out" | tail -n 1)"

# --- --sprt-min-games: the same test, decided after n games, gives no verdict before ---
# min; with depth 3 that much stronger it decides at or soon after it
min=$((n + 6))
timeout 300 "$HIVEBRIDGE" match --openings "$top/conf/openings-base.txt" --games 400 --depth 1 \
	--max-plies 80 --sprt -50,0 --sprt-min-games $min --results "$tmp/sprtmin.jsonl" \
	builtin:depth=1 builtin:depth=3 >"$tmp/sprtmin.out" 2>&1 ||
	{ tail "$tmp/sprtmin.out"; fail "sprt-min-games match failed"; }
at=$(sed -n 's/^SPRT: H0 accepted after \([0-9]*\) games.*/\1/p' "$tmp/sprtmin.out")
[ -n "$at" ] && [ "$at" -ge "$min" ] && [ "$at" -lt 400 ] ||
	{ tail "$tmp/sprtmin.out"; fail "--sprt-min-games $min: decided after '$at' games"; }
[ "$(wc -l <"$tmp/sprtmin.jsonl")" = "$at" ] || fail "--sprt-min-games $min: results"
echo "sprt-min-games $min: decided after $at games (without it: $n)"

# --- a --movetime a UHP engine cannot take (whole seconds only): one warning, first ------
timeout 60 "$HIVEBRIDGE" match --games 1 --movetime 300 --max-plies 2 "$HIVEBRIDGE uhp" builtin \
	>/dev/null 2>"$tmp/step.err" || { cat "$tmp/step.err"; fail "UHP match at 300 ms: exit status"; }
want="hivebridge match: warning: engine \"$HIVEBRIDGE uhp\" (UHP) counts time in steps of 1000 ms:"
want="$want --movetime 300 gives it 1000 ms a move"
[ "$(head -n 1 "$tmp/step.err")" = "$want" ] && [ "$(grep -c 'steps of' "$tmp/step.err")" = 1 ] ||
	{ cat "$tmp/step.err"; fail "no time-step warning at the start"; }
timeout 60 "$HIVEBRIDGE" match --games 1 --movetime 1000 --max-plies 1 "$HIVEBRIDGE uhp" builtin \
	>/dev/null 2>"$tmp/step.err" || { cat "$tmp/step.err"; fail "UHP match at 1000 ms: exit status"; }
timeout 60 "$HIVEBRIDGE" match --games 1 --movetime 300 --max-plies 2 builtin builtin \
	>/dev/null 2>>"$tmp/step.err" || { cat "$tmp/step.err"; fail "built-in match at 300 ms: exit status"; }
! grep -q 'steps of' "$tmp/step.err" || { cat "$tmp/step.err"; fail "a time-step warning where time fits"; }
echo "time step: $want"

# --- usage errors -----------------------------------------------------------------------
"$HIVEBRIDGE" match builtin >/dev/null 2>&1; [ $? = 2 ] || fail "one engine: want status 2"
"$HIVEBRIDGE" match --depth 1 --movetime 10 builtin builtin >/dev/null 2>&1; [ $? = 2 ] ||
	fail "--depth with --movetime: want status 2"
"$HIVEBRIDGE" match --sprt 5,0 builtin builtin >/dev/null 2>&1; [ $? = 2 ] || fail "bad --sprt: want status 2"
"$HIVEBRIDGE" match --sprt-min-games 50 builtin builtin >/dev/null 2>&1; [ $? = 2 ] ||
	fail "--sprt-min-games without --sprt: want status 2"
"$HIVEBRIDGE" match --games 10 --sprt 0,50 --sprt-min-games 11 builtin builtin >/dev/null 2>&1
[ $? = 2 ] || fail "--sprt-min-games over --games: want status 2"
"$HIVEBRIDGE" match builtin:depth=x builtin >/dev/null 2>&1; [ $? = 2 ] || fail "bad builtin:depth: want status 2"

# An engine's own limit replaces the match's: builtin:movetime=MS thinks about MS a
# move (the referee's times; a loaded machine only adds), its opponent depth 1.
"$HIVEBRIDGE" match --games 2 --depth 1 --max-plies 12 --results "$tmp/own.jsonl" \
	builtin:movetime=150 builtin >"$tmp/own.out" 2>&1 || { cat "$tmp/own.out"; fail "match with builtin:movetime"; }
python3 tests/integration/match_basic_own_limit.py "$tmp/own.jsonl" 150 || fail "builtin:movetime=150: not its own limit"
"$HIVEBRIDGE" match builtin:movetime=0 builtin >/dev/null 2>&1; [ $? = 2 ] || fail "builtin:movetime=0: want status 2"
"$HIVEBRIDGE" uhp --engine builtin:movetime=100 </dev/null >/dev/null 2>&1; [ $? = 2 ] ||
	fail "uhp --engine builtin:movetime: want status 2 (the client sets the time)"
echo "match_basic: ok"
