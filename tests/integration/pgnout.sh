#!/bin/sh
# pgnout.sh: games written as PGN (issue 30 part B). `match --pgnout` (the built-in
# engine at depths 1 and 2 from openings, and against nokamute at depth 2) writes
# every finished game in Mzinga's format, which a strict reader of it and `convert`
# both read: the same games as the results file, legal, with the engines' ids, the
# result and its reason, each move's time and the built-in engine's score and depth.
# A match killed mid-way and resumed keeps each game once: a game written just before
# the kill that the results lack, and a write torn by a crash, are cut and played
# again. The daemon's `[daemon] games` archive gets a page's finished game, which
# the page downloads as PGN while it runs and once over (GET /api/games/ID.pgn), and
# a remote-play game against a house engine.
set -u
: "${HIVEBRIDGE:?}"
H=$HIVEBRIDGE
. tests/lib/procs.sh
. tests/lib/web.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }
top=$(pwd)
P="python3 tests/integration/pgnout.py"

# --- a short match: builtin depth 1 vs depth 2, from openings --------------------------
timeout 300 "$H" match --openings "$top/conf/openings-base.txt" --games 4 --max-plies 60 \
	--results "$tmp/a.jsonl" --pgnout "$tmp/a.pgn" builtin:depth=1 builtin:depth=2 >"$tmp/a.out" 2>&1 ||
	{ cat "$tmp/a.out"; fail "match a: status $?"; }
$P check "$H" "$tmp/a.pgn" "$tmp/a.jsonl" 2 || fail "match a's PGN"

# --- against a real engine: nokamute at depth 2 ------------------------------------------
. tests/lib/peers.sh
peers_conf "$tmp/conf"
timeout 300 "$H" match --config "$tmp/conf" --depth 2 --games 2 --max-plies 20 \
	--results "$tmp/n.jsonl" --pgnout "$tmp/n.pgn" builtin nokamute >"$tmp/n.out" 2>&1 ||
	{ cat "$tmp/n.out"; fail "match n: status $?"; }
$P check "$H" "$tmp/n.pgn" "$tmp/n.jsonl" 2 || fail "match n's PGN"
grep -q '^\[\(White\|Black\) "nokamute' "$tmp/n.pgn" || fail "no nokamute id in $(head -8 "$tmp/n.pgn")"

# --- killed and resumed -------------------------------------------------------------------
games=6
set -- --openings "$top/conf/openings-base.txt" --games $games --movetime 50 --max-plies 24 \
	--results "$tmp/r.jsonl" --pgnout "$tmp/r.pgn"
spawn "$H" match "$@" builtin builtin:depth=2 >"$tmp/r1.out" 2>&1
pid=$spawned
kill_after "$pid" "$tmp/r.jsonl" 1 $games "$tmp/r1.out"
# As if the kill had struck between the PGN and the results, and a crash in a write.
$P spoil "$tmp/r.pgn" $((n1 + 1)) || fail "spoil"
timeout 300 "$H" match "$@" --resume builtin builtin:depth=2 >"$tmp/r2.out" 2>&1 || { cat "$tmp/r2.out"; fail "resumed match: status $?"; }
grep -q "r.pgn: [123] games cut (torn, or not in .*r.jsonl): played again" "$tmp/r2.out" ||
	{ cat "$tmp/r2.out"; fail "the resume did not say what it cut"; }
[ "$(grep -c '^\[Round' "$tmp/r.pgn")" = $games ] || fail "$(grep -c '^\[Round' "$tmp/r.pgn") games in the PGN"
$P check "$H" "$tmp/r.pgn" "$tmp/r.jsonl" 64 || fail "resumed match's PGN"

# --- the daemon: [daemon] games and the page's download ------------------------------------
cat >"$tmp/conf" <<EOC
[daemon]
games = $tmp/games.pgn
[listen house]
protocol = uhp-remote
port = 0
house_engine = builtin
clock = 60+1
EOC
web_serve 2
timeout 120 $P web "$http" || { cat "$tmp/err"; fail "the page's PGN"; }
timeout 120 $P remote "$(listen_port "$tmp/err" uhp-remote)" || { cat "$tmp/err"; fail "the remote game"; }
kill -TERM $pid
wait $pid || fail "the daemon's exit status $? after SIGTERM: $(cat "$tmp/err")"
$P archived "$tmp/games.pgn" "$H" || { cat "$tmp/games.pgn"; fail "the archive"; }
echo "pgnout: ok ($n1 games before the kill)"
