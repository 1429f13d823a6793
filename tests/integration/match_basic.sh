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
	python3 - "$1" "$2" "$3" <<'EOF' || exit 1
import json, sys
path, want, label_a = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lines = open(path).read().split("\n")
assert lines[-1] == "", "results file does not end in a newline"
games = [json.loads(l) for l in lines[:-1]]
assert len(games) == want, "%d results, want %d" % (len(games), want)
assert sorted(g["game"] for g in games) == list(range(1, want + 1)), "game numbers"
for g in games:
    n = g["game"]
    a_white = n % 2 == 1
    assert g["engine_a"] == ("white" if a_white else "black"), "colours of game %d" % n
    assert (g["white"] if a_white else g["black"]) == label_a, "labels of game %d" % n
    parts = g["gamestring"].split(";")
    moves = parts[3:]
    assert g["plies"] == len(moves), "plies of game %d" % n
    omoves = g["opening"].split(";")[3:] if "opening" in g else []
    opening = len(omoves)
    assert moves[:opening] == omoves, "opening of game %d" % n
    assert len(g["times_ms"]) == g["plies"] - opening, "timings of game %d" % n
    assert all(isinstance(t, (int, float)) and t >= 0 for t in g["times_ms"])
    state = parts[1]
    want_result = {"WhiteWins": "1-0", "BlackWins": "0-1", "Draw": "1/2-1/2"}.get(state)
    if want_result:
        assert g["result"] == want_result, "result of game %d: %s vs %s" % (n, g["result"], state)
    else:
        assert state == "InProgress" and g["result"] == "1/2-1/2" and \
            g["reason"].startswith("adjudicated"), "unfinished game %d: %s" % (n, g["reason"])
    score = {"1-0": 1.0, "0-1": 0.0}.get(g["result"], 0.5)
    if not a_white and score != 0.5:
        score = 1 - score
    assert g["a_score"] == score, "a_score of game %d" % n
print("%s: %d games ok" % (path, len(games)))
EOF
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
python3 - "$tmp/open.jsonl" <<'EOF' || fail "openings not paired"
import json, sys
g = {x["game"]: x for x in map(json.loads, open(sys.argv[1]))}
for n in range(1, len(g), 2):
    assert g[n]["opening"] == g[n + 1]["opening"], n
    assert g[n]["engine_a"] == "white" and g[n + 1]["engine_a"] == "black", n
assert len({x["opening"] for x in g.values()}) == len(g) // 2
EOF
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
python3 - "$tmp/swap2.jsonl" <<'EOF' || fail "--repetition 2: the opening's repetition was not seen"
import json, sys
for g in map(json.loads, open(sys.argv[1])):
    assert g["plies"] == 16 and g["times_ms"] == [], g
    assert g["reason"] == "adjudicated: position occurred 2 times", g["reason"]
EOF
timeout 60 "$HIVEBRIDGE" match --openings "$tmp/swap.txt" --depth 1 --repetition 3 --max-plies 17 \
	--results "$tmp/swap3.jsonl" builtin builtin >"$tmp/swap3.out" 2>&1 ||
	{ cat "$tmp/swap3.out"; fail "repetition 3 match failed"; }
check_results "$tmp/swap3.jsonl" 2 builtin
python3 - "$tmp/swap3.jsonl" <<'EOF' || fail "--repetition 3: adjudicated too soon"
import json, sys
for g in map(json.loads, open(sys.argv[1])):
    assert g["plies"] == 17 and g["reason"] == "adjudicated: 17 plies played", g
EOF
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
echo "match_basic: ok"
