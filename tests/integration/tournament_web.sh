#!/bin/sh
# tournament_web.sh: `hivebridge tournament --http` serves the match dashboard's
# /api/match with the tournament in it (schemas/web-match.json): each pairing's
# score and pentanomial counts and the rating list with margins, the page's sorted
# table with error bars; the page stays up once played out, until SIGTERM.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 jsonschema timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }
top=$(pwd)

spawn "$HIVEBRIDGE" tournament --openings "$top/conf/openings-base.txt" --games 4 --max-plies 40 \
	--http 127.0.0.1:0 builtin:depth=1 builtin:depth=2 builtin:depth=3 >"$tmp/out" 2>"$tmp/err"
pid=$spawned
wait_listening "$tmp/err" $pid 1 http
port=$(listen_port "$tmp/err" http)
[ -n "$port" ] || fail "no http port: $(cat "$tmp/err")"
wait_for 'grep -q "played out" "$tmp/err"' 120 || fail "the tournament did not play out: $(cat "$tmp/err")"
timeout 60 python3 tests/integration/tournament_web.py "$port" schemas || fail "the dashboard of the tournament"
curl_ok=$(python3 -c "import urllib.request; print(b'showTournament' in urllib.request.urlopen('http://127.0.0.1:$port/app.js').read())")
[ "$curl_ok" = True ] || fail "the page has no rating table"
kill -TERM $pid
wait $pid || { st=$?; cat "$tmp/err"; fail "tournament exit status $st after SIGTERM"; }
grep -q "^Tournament finished: 12 games played now, 12 of 12" "$tmp/out" || fail "the summary"
echo "tournament_web: ok"
