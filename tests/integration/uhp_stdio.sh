#!/bin/sh
# uhp_stdio.sh: scripted UHP sessions through the real binary (`hivebridge uhp`),
# compared as exact transcripts, plus the cases whose answer is the engine's choice
# (bestmove: fed back with play) or a timing (bestmove time).
# Env: HIVEBRIDGE (binary), run from the repo root.
set -u
H=${HIVEBRIDGE:-build/hivebridge}
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fails=0
VERSION=$("$H" --version | sed 's/^hivebridge //')
INFO="id hivebridge v$VERSION
Mosquito;Ladybug;Pillbug
ok"

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# Move lists (validmoves) come in no particular order: sort their fields.
sort_moves() {
	while IFS= read -r line; do
		case "$line" in
		[wb][QSBGAMLP]*\;*) printf '%s\n' "$line" | tr ';' '\n' | LC_ALL=C sort | paste -sd';' - ;;
		*) printf '%s\n' "$line" ;;
		esac
	done
}

# check NAME: runs $tmp/in through the binary, compares with $tmp/want (the info
# block of start-up is prepended here), and wants exit status 0.
check() {
	{ echo "$INFO"; sort_moves < "$tmp/want"; } > "$tmp/want.full"
	{ "$H" uhp < "$tmp/in" 2> "$tmp/err"; echo $? > "$tmp/rc"; } | sort_moves > "$tmp/out"
	rc=$(cat "$tmp/rc")
	if [ "$rc" != 0 ]; then
		fail "$1: exit status $rc"; cat "$tmp/err"
	elif ! diff -u "$tmp/want.full" "$tmp/out" > "$tmp/diff"; then
		fail "$1: transcript differs"; cat "$tmp/diff"
	else
		echo "ok $1"
	fi
}

# --- start-up, info, help, blank lines -------------------------------------------
cat > "$tmp/in" <<'EOF'
info

   
INFO
EOF
{ echo "$INFO"; echo "$INFO"; } > "$tmp/want"
check "info at start-up and on request, blank lines ignored"

# --- newgame variants -------------------------------------------------------------
cat > "$tmp/in" <<'EOF'
newgame
newgame Base+MLP
newgame Base+Q
newgame Base;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/;bG2 /bG1
newgame Base;InProgress;White[5];wS1
newgame Base;NotStarted;White[1];wS1
newgame Base;Draw;White[3];wS1;bG1 -wS1;wA1 wS1/;bG2 /bG1
newgame Base;InProgress;Black[1];wS1;
newgame Base;InProgress;Black[1];wQ
newgame Base+M;InProgress;Black[1];wM
validmoves
EOF
cat > "$tmp/want" <<'EOF'
Base;NotStarted;White[1]
ok
Base+MLP;NotStarted;White[1]
ok
err Unknown GameType "Base+Q" in GameString.
ok
Base;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/;bG2 /bG1
ok
err GameString says InProgress;White[5] but the moves give InProgress;Black[1].
ok
err GameString says NotStarted;White[1] but the moves give InProgress;Black[1].
ok
err GameString says Draw;White[3] but the moves give InProgress;White[3].
ok
err Unable to play move 2 "": Unable to parse move "".
ok
err Unable to play move 1 "wQ": You can't play your Queen Bee on your first turn.
ok
Base+M;InProgress;Black[1];wM
ok
bS1 -wM;bS1 wM/;bS1 wM-;bS1 wM\;bS1 /wM;bS1 \wM;bB1 -wM;bB1 wM/;bB1 wM-;bB1 wM\;bB1 /wM;bB1 \wM;bG1 -wM;bG1 wM/;bG1 wM-;bG1 wM\;bG1 /wM;bG1 \wM;bA1 -wM;bA1 wM/;bA1 wM-;bA1 wM\;bA1 /wM;bA1 \wM;bM -wM;bM wM/;bM wM-;bM wM\;bM /wM;bM \wM
ok
EOF
check "newgame: types, GameStrings, lies and junk"

# --- before any game ---------------------------------------------------------------
cat > "$tmp/in" <<'EOF'
play wS1
pass
validmoves
bestmove depth 1
undo
EOF
cat > "$tmp/want" <<'EOF'
err No game in progress. Try 'newgame' to start a new game.
ok
err No game in progress. Try 'newgame' to start a new game.
ok
err No game in progress. Try 'newgame' to start a new game.
ok
err No game in progress. Try 'newgame' to start a new game.
ok
err No game in progress. Try 'newgame' to start a new game.
ok
EOF
check "commands before newgame"

# --- play, pass, validmoves, undo, bad input ------------------------------------
cat > "$tmp/in" <<'EOF'
newgame
validmoves
play wQ
play
play wS1
play xyzzy
play bS1 wS9-
play bQ wS1-
pass
play bS1   wS1-
undo
undo 2
undo 99
undo 0
undo x
undo 99999999999999999999999
play bS1 wS1-
undo 2
hello
bestmove
bestmove depth x
bestmove time 5
bestmove time 00:61:00
exit
validmoves
EOF
cat > "$tmp/want" <<'EOF'
Base;NotStarted;White[1]
ok
wS1;wB1;wG1;wA1
ok
invalidmove You can't play your Queen Bee on your first turn.
ok
err Invalid command. Try 'help' to see a list of valid commands.
ok
Base;InProgress;Black[1];wS1
ok
invalidmove Unable to parse move "xyzzy".
ok
invalidmove Unable to parse move "bS1 wS9-".
ok
invalidmove You can't play your Queen Bee on your first turn.
ok
invalidmove You can't pass when you have valid moves.
ok
Base;InProgress;White[2];wS1;bS1 wS1-
ok
Base;InProgress;Black[1];wS1
ok
err Unable to undo 2 moves.
ok
err Unable to undo 99 moves.
ok
err Unable to undo 0 moves.
ok
err Invalid command. Try 'help' to see a list of valid commands.
ok
err Invalid command. Try 'help' to see a list of valid commands.
ok
Base;InProgress;White[2];wS1;bS1 wS1-
ok
Base;NotStarted;White[1]
ok
err Invalid command. Try 'help' to see a list of valid commands.
ok
err Invalid command. Try 'help' to see a list of valid commands.
ok
err Invalid command. Try 'help' to see a list of valid commands.
ok
err Invalid command. Try 'help' to see a list of valid commands.
ok
err Invalid command. Try 'help' to see a list of valid commands.
ok
EOF
check "play/pass/validmoves/undo and bad input; exit ends without ok"

# --- a whole short game to WhiteWins, then commands after the end -----------------
cat > "$tmp/in" <<'EOF'
newgame Base
play wS1
play bS1 wS1-
play wQ -wS1
play bQ bS1-
play wA1 -wQ
play bG1 bQ-
play wA2 /wQ
play bG2 bQ/
play wG1 -wA2
play bG3 bQ\
play wG2 -wG1
play bB1 /bQ
play wA1 \bQ
play bB1 bQ
pass
validmoves
bestmove depth 1
undo
play wA1 -bG2
undo 13
EOF
cat > "$tmp/want" <<'EOF'
Base;NotStarted;White[1]
ok
Base;InProgress;Black[1];wS1
ok
Base;InProgress;White[2];wS1;bS1 wS1-
ok
Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1
ok
Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-
ok
Base;InProgress;Black[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ
ok
Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bG1 bQ-
ok
Base;InProgress;Black[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bG1 bQ-;wA2 wA1\
ok
Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bG1 bQ-;wA2 wA1\;bG2 \bG1
ok
Base;InProgress;Black[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bG1 bQ-;wA2 wA1\;bG2 \bG1;wG1 /wA1
ok
Base;InProgress;White[6];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bG1 bQ-;wA2 wA1\;bG2 \bG1;wG1 /wA1;bG3 bQ\
ok
Base;InProgress;Black[6];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bG1 bQ-;wA2 wA1\;bG2 \bG1;wG1 /wA1;bG3 bQ\;wG2 -wG1
ok
Base;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bG1 bQ-;wA2 wA1\;bG2 \bG1;wG1 /wA1;bG3 bQ\;wG2 -wG1;bB1 bS1\
ok
Base;WhiteWins;Black[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bG1 bQ-;wA2 wA1\;bG2 \bG1;wG1 /wA1;bG3 bQ\;wG2 -wG1;bB1 bS1\;wA1 -bG2
ok
err The game is over. Try 'newgame' to start a new game.
ok
err The game is over. Try 'newgame' to start a new game.
ok
err The game is over. Try 'newgame' to start a new game.
ok
err The game is over. Try 'newgame' to start a new game.
ok
Base;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bG1 bQ-;wA2 wA1\;bG2 \bG1;wG1 /wA1;bG3 bQ\;wG2 -wG1;bB1 bS1\
ok
Base;WhiteWins;Black[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bG1 bQ-;wA2 wA1\;bG2 \bG1;wG1 /wA1;bG3 bQ\;wG2 -wG1;bB1 bS1\;wA1 -bG2
ok
Base;NotStarted;White[1]
ok
EOF
check "a whole game to WhiteWins; commands after the end; undo after the end"

# --- options and perft ---------------------------------------------------------------
cat > "$tmp/in" <<'EOF'
options
options get HashMB
options set HashMB 8
options set HashMB 99999
options get NoSuchOption
options set ReportIntermediateBestMoves maybe
options set Threads 2
options set Threads 0
options set Threads 999
options set Threads two
options frob
newgame Base+MLP
perft 2
perft 99
perft x
EOF
cat > "$tmp/want" <<'EOF'
HashMB;int;16;16;1;256
ReportIntermediateBestMoves;bool;False;False
Threads;int;1;1;1;@POOL@
ok
HashMB;int;16;16;1;256
ok
HashMB;int;8;16;1;256
ok
HashMB;int;256;16;1;256
ok
err The option "NoSuchOption" is not valid.
ok
err The value "maybe" is not valid for option "ReportIntermediateBestMoves".
ok
Threads;int;@TWO@;1;1;@POOL@
ok
Threads;int;1;1;1;@POOL@
ok
Threads;int;@POOL@;1;1;@POOL@
ok
err The value "two" is not valid for option "Threads".
ok
err Invalid command. Try 'help' to see a list of valid commands.
ok
Base+MLP;NotStarted;White[1]
ok
perft(0) = 1
perft(1) = 7
perft(2) = 294
ok
err Usage: perft DEPTH (0 to 12).
ok
err Usage: perft DEPTH (0 to 12).
ok
EOF
# perft lines carry timings: keep "perft(d) = N" only. Threads is capped at the search
# pool, one thread per online CPU here.
pool=$(getconf _NPROCESSORS_ONLN)
[ "$pool" -gt 64 ] && pool=64
two=2
[ "$pool" -lt 2 ] && two=$pool
sed -i -e 's/^ *//' -e "s/@POOL@/$pool/g" -e "s/@TWO@/$two/g" "$tmp/want"
{
	"$H" uhp < "$tmp/in" | sed 's/^\(perft([0-9]*) = [0-9]*\) in [0-9]* ms\. [0-9]* KN\/s$/\1/'
} > "$tmp/out"
{ echo "$INFO"; cat "$tmp/want"; } > "$tmp/want.full"
if diff -u "$tmp/want.full" "$tmp/out"; then echo "ok options and perft"; else fail "options and perft"; fi

# --- over-long lines, CR LF, NUL bytes --------------------------------------------
{
	printf 'newgame\r\n'
	head -c 100000 /dev/zero | tr '\0' x
	printf '\nplay wS1\n'
	printf 'play\000wS1\n'
	head -c 70000 /dev/zero | tr '\0' y
} > "$tmp/in"
cat > "$tmp/want" <<'EOF'
Base;NotStarted;White[1]
ok
err Line too long (max 65536 bytes).
ok
Base;InProgress;Black[1];wS1
ok
err Invalid command. Try 'help' to see a list of valid commands.
ok
err Line too long (max 65536 bytes).
ok
EOF
check "100 KB line, CR LF, NUL byte, over-long last line at EOF"

# --- bestmove: the move must be legal (fed back with play) ------------------------
bestmove_legal() {
	# $1 = name, $2 = GameString, $3 = bestmove argument
	printf 'newgame %s\nbestmove %s\n' "$2" "$3" | "$H" uhp > "$tmp/out"
	move=$(sed -n '$!{h};${x;p}' "$tmp/out")     # the line before the last ok
	last=$(tail -n 1 "$tmp/out")
	if [ "$last" != ok ] || [ -z "$move" ] || echo "$move" | grep -q '^err\|^invalidmove'; then
		fail "$1: no move"; cat "$tmp/out"; return
	fi
	printf 'newgame %s\nplay %s\n' "$2" "$move" | "$H" uhp > "$tmp/out2"
	if sed -n 6p "$tmp/out2" | grep -q '^Base'; then
		echo "ok $1 ($move)"
	else
		fail "$1: move $move not accepted"; cat "$tmp/out2"
	fi
}
bestmove_legal "bestmove depth 1, start" "Base" "depth 1"
bestmove_legal "bestmove depth 2, MLP" "Base+MLP;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/;bG2 /bG1" "depth 2"
bestmove_legal "bestmove depth 3, forced win" \
	"Base;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bG1 bQ-;wA2 wA1\\;bG2 \\bG1;wG1 /wA1;bG3 bQ\\;wG2 -wG1;bB1 bS1\\" "depth 3"

# The winning move of that position must be found at depth 1.
printf 'newgame %s\nbestmove depth 1\n' \
	'Base;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bG1 bQ-;wA2 wA1\;bG2 \bG1;wG1 /wA1;bG3 bQ\;wG2 -wG1;bB1 bS1\' |
	"$H" uhp > "$tmp/out"
move=$(sed -n 6p "$tmp/out")
printf 'newgame %s\nplay %s\n' \
	'Base;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bG1 bQ-;wA2 wA1\;bG2 \bG1;wG1 /wA1;bG3 bQ\;wG2 -wG1;bB1 bS1\' \
	"$move" | "$H" uhp > "$tmp/out2"
if sed -n 6p "$tmp/out2" | grep -q '^Base;WhiteWins;'; then echo "ok bestmove finds the win ($move)"
else fail "bestmove depth 1 missed the win: $move"; cat "$tmp/out2"; fi

# bestmove time 00:00:01 answers after about a second, with a legal move (less the time
# the machine kept it from a CPU: uhp_stdio_time.py).
if r=$(python3 tests/integration/uhp_stdio_time.py "$H" 2>&1); then echo "ok bestmove time 00:00:01 ($r ms)"
else fail "bestmove time 00:00:01: $r"; fi

# --- stdin EOF mid-session: queued commands (a running bestmove too) are answered --
printf 'newgame\nplay wS1\nbestmove depth 2\nvalidmoves' > "$tmp/in"
"$H" uhp < "$tmp/in" > "$tmp/out"; rc=$?
n=$(grep -c '^ok$' "$tmp/out")
if [ $rc = 0 ] && [ "$n" = 5 ] && sed -n 10p "$tmp/out" | grep -q '^bS1 '; then echo "ok EOF mid-session"
else fail "EOF mid-session (rc $rc, $n oks)"; cat "$tmp/out"; fi

# The same through a pipe that closes while the search runs.
printf 'newgame\nbestmove time 00:00:01\n' | "$H" uhp > "$tmp/out"; rc=$?
if [ $rc = 0 ] && [ "$(tail -n 1 "$tmp/out")" = ok ] && [ "$(wc -l < "$tmp/out")" = 7 ]; then echo "ok EOF during bestmove"
else fail "EOF during bestmove (rc $rc)"; cat "$tmp/out"; fi

# Empty input (/dev/null: epoll would refuse it): the info block, then exit 0.
"$H" uhp < /dev/null > "$tmp/out"; rc=$?
if [ $rc = 0 ] && [ "$(cat "$tmp/out")" = "$INFO" ]; then echo "ok /dev/null"
else fail "/dev/null (rc $rc)"; cat "$tmp/out"; fi

# --- back-pressure: a slow reader of many answers gets every one of them ----------
# Small limits from a config file: max_buffer 4096 makes the session pause its input.
printf '[daemon]\nmax_buffer = 4096\nmax_line = 256\n' > "$tmp/small.conf"
yes validmoves | head -n 20000 | sed '1i newgame Base+MLP' > "$tmp/in"
# The reader starts once the bridge says it paused its input (or after 30 s).
"$H" uhp --config "$tmp/small.conf" --log "$tmp/bp.log" < "$tmp/in" |
	{ wait_for 'grep -qs "input paused" "$tmp/bp.log"' 30; wc -l; } > "$tmp/count"
if [ "$(cat "$tmp/count")" = $((3 + 2 + 20000 * 2)) ] && grep -q 'input paused' "$tmp/bp.log"; then
	echo "ok slow reader (back-pressure engaged)"
else
	fail "slow reader got $(cat "$tmp/count") lines"
fi
printf 'newgame\n%0300d\ninfo\n' 0 | "$H" uhp --config "$tmp/small.conf" | sed -n 6p > "$tmp/out"
if [ "$(cat "$tmp/out")" = "err Line too long (max 256 bytes)." ]; then echo "ok max_line from config"
else fail "max_line from config: $(cat "$tmp/out")"; fi

# --- an external UHP engine: the bridge driving another hivebridge ----------------
printf 'newgame\nplay wS1\nbestmove depth 1\noptions get HashMB\n' | "$H" uhp --engine "$H uhp" > "$tmp/out"; rc=$?
if [ $rc = 0 ] && [ "$(grep -c '^ok$' "$tmp/out")" = 5 ] && sed -n 8p "$tmp/out" | grep -q '^bS1 ' &&
	grep -q '^HashMB;int;' "$tmp/out"; then echo "ok external engine"
else fail "external engine (rc $rc)"; cat "$tmp/out"; fi

# An external engine that cannot start: exit 1 before the info block, as serve.
printf 'newgame\nbestmove depth 1\nplay wS1\n' | "$H" uhp --engine /nonexistent/engine > "$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc = 1 ] && [ ! -s "$tmp/out" ] &&
	[ "$(cat "$tmp/err")" = 'hivebridge uhp: engine "/nonexistent/engine": /nonexistent/engine: No such file or directory' ]; then echo "ok failing external engine"
else fail "failing external engine (rc $rc)"; cat "$tmp/out"; fi

# --- the trace log escapes what it records ---------------------------------------
printf 'newgame\nplay \001\351\n' | "$H" uhp --log "$tmp/log" > /dev/null
if grep -q 'client->bridge play \\x01\\xe9$' "$tmp/log" && grep -q 'bridge->client ok$' "$tmp/log" &&
	grep -q '^[0-9-]*T[0-9:]*\.[0-9]\{6\}Z s0 ' "$tmp/log"; then echo "ok trace log"
else fail "trace log"; cat "$tmp/log"; fi

# --- the perft subcommand -------------------------------------------------------------
"$H" perft --type Base+MLP 3 | sed 's/ in .*//' > "$tmp/out"
printf 'perft(0) = 1\nperft(1) = 7\nperft(2) = 294\nperft(3) = 6678\n' > "$tmp/want"
if diff -u "$tmp/want" "$tmp/out"; then echo "ok perft subcommand"; else fail "perft subcommand"; fi

echo "$fails failure(s)"
[ $fails = 0 ] || exit 1
echo "uhp_stdio: ok"
