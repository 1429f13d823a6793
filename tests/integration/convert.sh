#!/bin/sh
# convert.sh: game records through the binary. `convert` reads each of the 13 real
# games of tests/data/records alike from its BoardSpace .sgf and Mzinga's .pgn, tells
# the formats by content (not by name), writes PGN in both dialects, JSON and
# BoardSpace SGF that read back to the same games (the SGF with BoardSpace's own cells,
# ply by ply, and only its robots' actions), and refuses a record with an illegal 20th ply, a cut-short
# or a non-UTF-8 one with exit status 1, naming the file, the game, the ply and the
# line and printing nothing of it. `perft --game FILE` counts from the end of a
# record's game as from its GameString; `match --openings FILE.pgn --opening-plies N`
# plays from the record's first N plies (the built-in engine at depth 1), and refuses
# a finished game as an opening; `check --positions-from FILE` checks positions of it.
set -u
: "${HIVEBRIDGE:?}"
H=$HIVEBRIDGE
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }
R=tests/data/records
[ -d "$R" ] || fail "$R is missing"

# --- the 13 games: SGF and PGN agree; PGN, hivegame.com's PGN and JSON read back ----------
n=0
for pgn in "$R"/*.pgn; do
	sgf=${pgn%.pgn}.sgf
	a=$("$H" convert --to gamestring "$pgn") || fail "$pgn does not convert"
	b=$("$H" convert --to gamestring "$sgf") || fail "$sgf does not convert"
	[ "$a" = "$b" ] || fail "$sgf and $pgn differ: $b / $a"
	case $a in *WhiteWins\;* | *BlackWins\;* | *Draw\;*) ;; *) fail "$pgn: game not over: $a" ;; esac
	"$H" convert "$sgf" >"$tmp/m.pgn" || fail "$sgf: --to pgn"
	"$H" convert --to hivegame "$sgf" >"$tmp/h.pgn" || fail "$sgf: --to hivegame"
	[ "$("$H" convert --to gamestring "$tmp/m.pgn")" = "$a" ] || fail "$sgf: Mzinga PGN does not read back"
	[ "$("$H" convert --to gamestring "$tmp/h.pgn")" = "$a" ] || fail "$sgf: hivegame PGN does not read back"
	grep -q '^\[Result "\(1-0\|0-1\|1/2-1/2\)"\]$' "$tmp/h.pgn" || fail "$sgf: hivegame result tag"
	grep -q '^2\. [wb][A-Z][0-9]* .* [wb][A-Z]' "$tmp/h.pgn" || fail "$sgf: hivegame move pairs"
	"$H" convert --to sgf "$pgn" >"$tmp/s.sgf" || fail "$pgn: --to sgf"
	[ "$("$H" convert --to gamestring "$tmp/s.sgf")" = "$a" ] || fail "$pgn: SGF does not read back"
	python3 tests/integration/convert_sgf.py "$sgf" "$tmp/s.sgf" || fail "$pgn: SGF's actions"
	"$H" convert --to sgf-moves "$sgf" | cmp -s - "$tmp/s.sgf" || fail "$sgf: --to sgf-moves is not --to sgf"
	n=$((n + 1))
done
[ $n = 13 ] || fail "$n records, want 13"

# One output per game: two files (one given twice as standard input would not do), JSON.
"$H" convert --to json "$R/HV-Abbo69-WeakBot-2018-10-28-2007.sgf" - <"$R/HV-Abbo69-WeakBot-2018-11-03-1941.pgn" \
	>"$tmp/j" || fail "--to json"
python3 - "$tmp/j" <<'PY' || fail "--to json output"
import json, sys
games = [json.loads(l) for l in open(sys.argv[1])]
assert len(games) == 2, len(games)
g = games[0]
assert g["game"] == 1 and g["type"] == "Base+MLP" and g["result"] == "WhiteWins", g
assert g["tags"]["White"] == "Abbo69" and g["tags"]["Black"] == "WeakBot" and g["tags"]["Date"] == "2018.10.28", g["tags"]
assert len(g["moves"]) == 31 and g["moves"][0] == "wS1" and g["gamestring"].endswith(";" + g["moves"][-1]), g
assert games[1]["file"] == "-" and games[1]["tags"]["White"] == "Abbo69", games[1]
PY

# By content: an SGF named .pgn, a PGN named .txt.
cp "$R/HV-blue1224-Dumbot-2016-04-02-1915.sgf" "$tmp/s.pgn"
cp "$R/HV-blue1224-Dumbot-2016-04-02-1915.pgn" "$tmp/p.txt"
[ "$("$H" convert --to gamestring "$tmp/s.pgn")" = "$("$H" convert --to gamestring "$tmp/p.txt")" ] ||
	fail "formats not told by content"

# --- refusals: status 1, file, game, ply and line; nothing of the file printed ----------
# expect_refused FILE MESSAGE: convert FILE (after a good one) fails with exactly MESSAGE.
expect_refused() {
	"$H" convert --to gamestring "$R/HV-Abbo69-WeakBot-2018-11-03-1941.pgn" "$1" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc = 1 ] || fail "$1: exit status $rc, want 1"
	[ "$(cat "$tmp/err")" = "hivebridge convert: $1: $2" ] || fail "$1: stderr '$(cat "$tmp/err")', want '$2'"
	[ "$(wc -l <"$tmp/out")" = 1 ] || fail "$1: printed something of itself, or not the good file's game"
}
src=$R/HV-Abbo69-WeakBot-2018-10-28-2007.pgn
# Ply 20 (Black's) replaced by White's 19th move; it stands on line 32.
awk '/^19\. / { m = substr($0, 5) } /^20\. / { $0 = "20. " m } { print }' "$src" >"$tmp/illegal.pgn"
expect_refused "$tmp/illegal.pgn" \
	"game 1 (Abbo69 vs WeakBot, line 1), ply 20 at line 32: \"wS2 wB1\\\": It's not that player's turn."
sed -n '1,31p' "$src" >"$tmp/cut.pgn"
printf '20. bS1' >>"$tmp/cut.pgn"
expect_refused "$tmp/cut.pgn" \
	'game 1 (Abbo69 vs WeakBot, line 1), ply 20 at line 32: "bS1" has no position (the record is cut short).'
head -c 1000 "$R/HV-Abbo69-WeakBot-2018-10-28-2007.sgf" >"$tmp/cut.sgf"
"$H" convert "$tmp/cut.sgf" >"$tmp/out" 2>"$tmp/err" && fail "a cut SGF converts"
grep -q "^hivebridge convert: $tmp/cut.sgf: game 1 (line 1), line [0-9]*: .*cut short" "$tmp/err" ||
	fail "cut SGF: $(cat "$tmp/err")"
{ sed -n '1,31p' "$src"; printf '20. bS1 \377wQ/\n'; } >"$tmp/latin1.pgn"
expect_refused "$tmp/latin1.pgn" "line 32 is not UTF-8 text."
"$H" convert "$tmp/none.pgn" >/dev/null 2>"$tmp/err" && fail "a missing file converts"
[ "$(cat "$tmp/err")" = "hivebridge convert: $tmp/none.pgn: No such file or directory" ] || fail "missing: $(cat "$tmp/err")"
"$H" convert --to sgf-board "$src" >/dev/null 2>&1; [ $? = 2 ] || fail "--to sgf-board: not a usage error"
"$H" convert >/dev/null 2>&1; [ $? = 2 ] || fail "no FILE: not a usage error"

# --- perft --game FILE ------------------------------------------------------------------
sed -n '1,22p' "$src" >"$tmp/ten.pgn"    # the tags and the first ten plies
gs=$("$H" convert --to gamestring "$tmp/ten.pgn") || fail "ten plies"
case $gs in *\;White\[6\]\;*) ;; *) fail "ten plies: $gs" ;; esac
a=$("$H" perft --game "$tmp/ten.pgn" 2 | sed 's/ in .*//') || fail "perft --game FILE"
b=$("$H" perft --game "$gs" 2 | sed 's/ in .*//')
[ "$a" = "$b" ] && [ -n "$a" ] || fail "perft --game FILE: '$a', from the GameString: '$b'"
cat "$src" "$src" >"$tmp/two.pgn"
"$H" perft --game "$tmp/two.pgn" 1 >/dev/null 2>&1; [ $? = 2 ] || fail "perft --game with two games"
"$H" perft --game "$tmp/illegal.pgn" 1 >/dev/null 2>"$tmp/err"; [ $? = 1 ] || fail "perft --game illegal: status"
grep -q "ply 20 at line 32" "$tmp/err" || fail "perft --game illegal: $(cat "$tmp/err")"

# --- match --openings FILE.pgn ----------------------------------------------------------
sed -n '1,20p' "$src" >"$tmp/eight.pgn"
open8=$("$H" convert --to gamestring "$tmp/eight.pgn") || fail "eight plies"
timeout 120 "$H" match --openings "$src" --opening-plies 8 --games 2 --depth 1 --results "$tmp/r.jsonl" \
	builtin builtin >"$tmp/mout" 2>&1 || { cat "$tmp/mout"; fail "match --openings FILE.pgn"; }
python3 - "$tmp/r.jsonl" "$open8" <<'PY' || fail "match results' openings"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert len(lines) == 2, lines
for g in lines:
    assert g["opening"] == sys.argv[2], (g["opening"], sys.argv[2])
    assert g["gamestring"].startswith(sys.argv[2].split(";", 3)[0]), g
PY
timeout 60 "$H" match --openings "$R/HV-Abbo69-WeakBot-2018-10-28-2007.sgf" --games 2 --depth 1 builtin builtin \
	>/dev/null 2>"$tmp/err" && fail "a finished game as an opening"
grep -q "game 1 (Abbo69 vs WeakBot, line 1): the game is over" "$tmp/err" || fail "finished opening: $(cat "$tmp/err")"

# --- check --positions-from FILE --------------------------------------------------------
timeout 120 "$H" check --time-margin-ms 3000 --positions-from "$src" --positions 3 builtin >"$tmp/check" 2>&1 ||
	{ cat "$tmp/check"; fail "check --positions-from"; }
grep -q "^PASS movegen.random\[0..2\]" "$tmp/check" || fail "check --positions-from: $(grep random "$tmp/check")"

echo "convert: ok (13 records, both dialects, SGF, refusals, perft, match, check)"
