#!/bin/sh
# web_browser_records.sh: records on the page in a real browser. Headless Chromium
# driven by puppeteer-core (installed as web_browser.sh does) against a real daemon
# whose [daemon] games archive holds a real game: a BoardSpace SGF pasted and opened,
# stepped with the keys (Home, ArrowRight, ArrowLeft, End) and the buttons to plies
# whose board is the server's position at that ply and whose move list marks that
# ply; the same game's PGN uploaded as a file gives the same moves; a record with an
# illegal 20th ply shows the codec's error; the archived game is listed, opens, steps,
# and its PGN link downloads the archive's bytes. Screenshots go to $WEB_SHOTS
# (default: a temporary directory, listed).
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
. tests/lib/web.sh
web_browser_begin
R=tests/data/records

cp "$R/HV-Dumbot-Kaur50-2023-01-17-0059.pgn" "$tmp/games.pgn"
awk '/^19\. / { m = substr($0, 5) } /^20\. / { $0 = "20. " m } { print }' \
	"$R/HV-Abbo69-WeakBot-2018-10-28-2007.pgn" >"$tmp/illegal.pgn"
cat >"$tmp/conf" <<EOF
[daemon]
games = $tmp/games.pgn
[listen uhp]
protocol = uhp
port = 0
engine = builtin
EOF
web_serve 2
timeout 300 node tests/browser/records_test.js "http://127.0.0.1:$http" "$shots" "$R" "$tmp" ||
	{ cat "$tmp/err"; fail "records on the page"; }
procs_alive $pid || fail "the daemon died"
kill -TERM $pid
wait $pid || fail "the daemon's exit status $? after SIGTERM: $(cat "$tmp/err")"
pid=
ls "$shots"
echo "web_browser_records: ok (screenshots in $shots)"
