#!/bin/sh
# tournament_peers.sh: a round-robin of four engines of two protocols (the built-in
# engine at depths 1 and 2, nokamute and MzingaCpp at depth 1), two openings each
# with both colours, kept short by depth limits and a 20-ply cap. Every pairing
# must be played the same number of times with both colours, every game numbered
# once, and the rating list (printed at the end, and by `hivebridge ratings` from
# the results file) must sum consistently: games twice the games played, points
# the games played, each engine's wins, draws and losses its games and points.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
. tests/lib/peers.sh
peers_conf "$tmp/conf"
fail() { echo "FAIL: $*" >&2; exit 1; }
top=$(pwd)
engines="builtin:depth=1 builtin:depth=2 nokamute mzinga"

head -n 4 "$top/conf/openings-base.txt" >"$tmp/openings.txt"
# shellcheck disable=SC2086
timeout 300 "$HIVEBRIDGE" tournament --config "$tmp/conf" --openings "$tmp/openings.txt" --depth 1 \
	--max-plies 20 --concurrency 2 --results "$tmp/r.jsonl" --pgnout "$tmp/r.pgn" $engines \
	>"$tmp/out" 2>&1 || { tail -n 30 "$tmp/out"; fail "tournament exit status $?"; }
grep -q "^Tournament (round-robin) of 4 engines: 6 pairings, 4 games each, 24 games" "$tmp/out" ||
	{ head "$tmp/out"; fail "no header line"; }
grep -q "^Tournament finished: 24 games played now, 24 of 24 with a result" "$tmp/out" ||
	{ tail -n 30 "$tmp/out"; fail "not every game played"; }
# The rating list at the end: four engines ranked.
sed -n '/^Ratings (pool average at 0/,$p' "$tmp/out" >"$tmp/table"
[ "$(grep -c '^ *[1-4]  ' "$tmp/table")" = 4 ] || { cat "$tmp/out"; fail "no rating table of 4 engines"; }
"$HIVEBRIDGE" ratings --json "$tmp/r.jsonl" >"$tmp/ratings.json" || fail "ratings exit status $?"
# shellcheck disable=SC2086
python3 tests/integration/tournament_check.py "$tmp/r.jsonl" 4 $engines -- "$tmp/ratings.json" ||
	fail "the results or ratings do not add up"
# The same list both ways.
"$HIVEBRIDGE" ratings "$tmp/r.jsonl" | sed -n '2,$p' >"$tmp/t2"
sed -n '2,6p' "$tmp/table" | cmp -s - "$tmp/t2" || { cat "$tmp/table" "$tmp/t2"; fail "the tables differ"; }
[ "$(grep -c '^\[GameType ' "$tmp/r.pgn")" = 24 ] || fail "--pgnout has not 24 games"
grep -q '^\[Event "hivebridge tournament"\]' "$tmp/r.pgn" || fail "--pgnout: no Event tag"
cat "$tmp/table"
echo "tournament_peers: ok (24 games, 6 pairings x 4, ratings consistent)"
