#!/bin/sh
# ratings_cli.sh: `hivebridge ratings` on hand-made results files: the list as a
# table, CSV and JSON (aborted games and blank lines skipped, several files joined),
# --anchor, and a clear error with exit status 1 for a file that is not results (a
# random one, a name with a control byte that would reach the terminal, a bad
# result), 2 for a bad command line.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$tmp/a.jsonl" <<'EOF2'
{"game":1,"white":"x","black":"y","result":"1-0"}

{"game":2,"white":"y","black":"x","result":"1/2-1/2"}
{"game":3,"white":"x","black":"y","result":"*","reason":"aborted: match interrupted"}
EOF2
cat >"$tmp/b.jsonl" <<'EOF2'
{"game":1,"white":"y","black":"z","result":"0-1"}
{"game":2,"white":"z","black":"x","result":"1/2-1/2"}
{"game":3,"white":"x","black":"z","result":"0-1"}
EOF2
"$HIVEBRIDGE" ratings --json "$tmp/a.jsonl" "$tmp/b.jsonl" >"$tmp/r.json" || fail "json: status $?"
python3 - "$tmp/r.json" <<'EOF2' || fail "the JSON list"
import json, sys
r = json.load(open(sys.argv[1]))
e = {x["engine"]: x for x in r["engines"]}
assert r["anchor"] is None and sorted(e) == ["x", "y", "z"], r
assert e["x"]["games"] == 4 and e["x"]["points"] == 2, e["x"]
assert e["y"]["games"] == 3 and e["y"]["points"] == 0.5, e["y"]
assert e["z"]["games"] == 3 and e["z"]["points"] == 2.5, e["z"]
assert abs(sum(x["elo"] for x in e.values())) < 0.2, r
assert [x["rank"] for x in r["engines"]] == [1, 2, 3]
assert r["engines"][0]["engine"] == "z" and r["engines"][2]["engine"] == "y", r
EOF2
"$HIVEBRIDGE" ratings --csv --anchor y "$tmp/a.jsonl" "$tmp/b.jsonl" >"$tmp/r.csv" || fail "csv: status $?"
head -n 1 "$tmp/r.csv" | grep -qx 'rank,engine,elo,margin,games,points,wins,draws,losses,score' || fail "csv header"
grep -q '^3,y,0.0,0.0,3,0.5,0,1,2,16.7$' "$tmp/r.csv" || { cat "$tmp/r.csv"; fail "csv: the anchor's row"; }
"$HIVEBRIDGE" ratings "$tmp/a.jsonl" | grep -q '^Ratings (pool average at 0, 95 % margins):$' || fail "table"
# A perfect score is +inf, without a margin.
echo '{"white":"x","black":"w","result":"1-0"}' >"$tmp/c.jsonl"
"$HIVEBRIDGE" ratings "$tmp/a.jsonl" "$tmp/c.jsonl" | grep -q '  w  *-inf  *-  ' || fail "-inf row"

# Self-play rates nothing: left out, and said.
printf '{"white":"x","black":"x","result":"1-0"}\n' >"$tmp/self.jsonl"
"$HIVEBRIDGE" ratings "$tmp/a.jsonl" "$tmp/self.jsonl" >"$tmp/out" 2>"$tmp/err" || fail "self-play: status $?"
grep -q "1 games of an engine against itself left out" "$tmp/err" || fail "self-play not said"
grep -q '  x  .*  2  ' "$tmp/out" || { cat "$tmp/out"; fail "self-play counted"; }

# bad files: status 1 with the file and line named
bad() {
	printf '%s\n' "$2" >"$tmp/bad.jsonl"
	"$HIVEBRIDGE" ratings "$tmp/bad.jsonl" >"$tmp/out" 2>"$tmp/err"
	st=$?
	[ $st = 1 ] && grep -q "bad.jsonl line 1: $3" "$tmp/err" && [ ! -s "$tmp/out" ] ||
		{ cat "$tmp/err"; fail "$1: status $st"; }
}
bad "not JSON" 'hello' "not a result line"
bad "control byte" '{"white":"a\u001b[2J","black":"b","result":"1-0"}' "white and black are not two engines' names"
bad "bad result" '{"white":"a","black":"b","result":"2-0"}' "the result is not"
head -c 4096 /dev/urandom >"$tmp/rnd.jsonl"
"$HIVEBRIDGE" ratings "$tmp/rnd.jsonl" >/dev/null 2>&1
[ $? = 1 ] || fail "random bytes: want status 1"
"$HIVEBRIDGE" ratings "$tmp/none.jsonl" >/dev/null 2>&1
[ $? = 1 ] || fail "no such file: want status 1"
"$HIVEBRIDGE" ratings --anchor q "$tmp/a.jsonl" >/dev/null 2>&1
[ $? = 1 ] || fail "an anchor not in the files: want status 1"
"$HIVEBRIDGE" ratings >/dev/null 2>&1
[ $? = 2 ] || fail "no file: want status 2"
"$HIVEBRIDGE" ratings --bogus "$tmp/a.jsonl" >/dev/null 2>&1
[ $? = 2 ] || fail "unknown option: want status 2"
"$HIVEBRIDGE" ratings --help | grep -q '^usage: hivebridge ratings' || fail "--help"
echo "ratings_cli: ok"
