#!/bin/sh
# web_records.sh: records opened on the web page (issue 30) and the daemon's games
# archive listed after a restart. POST /api/records reads a GameString, a PGN and a
# BoardSpace SGF (tests/data/records/) into the same game, answers an illegal 20th ply
# and a record cut short with 422 naming the ply and the line, refuses a body over
# http_max_record (413; a large body to any other path too), a fifth large body at
# once and a third from one address (503), a wrong Origin (403) and a non-JSON body (415), and changes nothing on
# the server. The archive: seeded with real records, a damaged game and a torn last
# one, the daemon starts, lists the good games and says what it skipped; a page game
# played to its end (resigned) and a real game played to its end in a UHP session of
# the daemon show up in the list while the daemon runs; after a
# restart the same games are listed under the same ids, open as JSON, and download
# as PGN identical to the archive's bytes and to the download before the restart.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
. tests/lib/web.sh
need python3 jsonschema timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }
P="python3 tests/integration/web_records.py"
R=tests/data/records

# The archive: two real games, one with an illegal 20th ply between them, a real one
# more, and a last one torn mid-write (as a crash would leave it).
awk '/^19\. / { m = substr($0, 5) } /^20\. / { $0 = "20. " m } { print }' \
	"$R/HV-Abbo69-WeakBot-2018-10-28-2007.pgn" >"$tmp/illegal.pgn"
{
	cat "$R/HV-Abbo69-WeakBot-2018-11-03-1941.pgn"
	echo
	cat "$tmp/illegal.pgn"
	echo
	cat "$R/HV-Dumbot-Kaur50-2023-01-17-0059.pgn"
	echo
	head -c 400 "$R/HV-blue1224-Dumbot-2016-04-02-1915.pgn"
} >"$tmp/games.pgn"
cat >"$tmp/conf" <<EOC
[daemon]
games = $tmp/games.pgn
http_max_record = 200000
[listen uhp]
protocol = uhp
port = 0
engine = builtin
EOC
web_serve 2
grep -q "games $tmp/games.pgn: the game at byte [0-9]* is skipped: .*ply 20 at line" "$tmp/err" ||
	fail "the damaged game was not named: $(cat "$tmp/err")"
grep -q "its last game has no result line" "$tmp/err" || fail "the torn game was not named: $(cat "$tmp/err")"
grep -q "2 games listed on the page, 1 skipped" "$tmp/err" || fail "no count of what was skipped: $(cat "$tmp/err")"

timeout 120 $P api "$http" "$R" "$tmp" || { cat "$tmp/err"; fail "POST /api/records"; }
# The torn game ends when the next game is appended: the page's game, resigned.
timeout 120 $P play "$http" "$tmp" "$R" "$(listen_port "$tmp/err" uhp)" || { cat "$tmp/err"; fail "the archive while running"; }
grep -q "skipped: .*has no position\|skipped: .*cut short\|skipped: game" "$tmp/err" ||
	fail "the torn game was not skipped once the next came: $(cat "$tmp/err")"
kill -TERM $pid
wait $pid || fail "the daemon's exit status $? after SIGTERM: $(cat "$tmp/err")"
pid=
mv "$tmp/err" "$tmp/err.1"

web_serve 2
timeout 120 $P restart "$http" "$tmp" || { cat "$tmp/err"; fail "the archive after a restart"; }
kill -TERM $pid
wait $pid || fail "the daemon's exit status $? after SIGTERM: $(cat "$tmp/err")"
pid=

# A huge archive does not stop the daemon: its last 8 MiB are read.
python3 - "$tmp/games.pgn" <<'PY'
import sys
game = open(sys.argv[1], "rb").read()
with open(sys.argv[1], "ab") as f:
    while f.tell() < 10 << 20:
        f.write(game)
PY
web_serve 2
grep -q "bytes unread: only its last 8388608 bytes are read" "$tmp/err" || fail "the huge archive: $(cat "$tmp/err")"
timeout 60 $P huge "$http" || fail "the huge archive's list"
kill -TERM $pid
wait $pid || fail "the daemon's exit status $? after SIGTERM: $(cat "$tmp/err")"
pid=
echo "web_records: ok"
