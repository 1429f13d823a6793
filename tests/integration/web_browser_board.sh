#!/bin/sh
# web_browser_board.sh: the board of the web page in a real browser (headless Chromium,
# puppeteer-core; see web_browser.sh): a game against the built-in engine by mouse at
# 1400x900 and at 390x844 (the board in view once started), one by keyboard alone; the
# glyphs, grouped hands, marks, view box, zoom and a permalink on the way; the built-in
# engine's evaluation of a position (POST /api/analyse); a variation explored; a .pgn
# and an .sgf of ../shared/data/records uploaded; a 200-ply game's re-render
# time, printed; then the daemon killed under the page: the banner and no move offered;
# a daemon started again on its port: the banner gone, the game read again, a move.
# Screenshots go to $WEB_SHOTS (default: a temporary directory, listed).
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
. tests/lib/web.sh
web_browser_begin

web_conf_builtin
# The shared real records where they are (../shared/data/records), else the tree's copies.
recs=../shared/data/records
[ -f "$recs/HV-Quodlibet-Jewdoka-2018-10-10-0140.sgf" ] || recs=tests/data/records
web_serve 2
timeout 400 node tests/browser/board_test.js "http://127.0.0.1:$http" "$shots" "$pid" "$recs" "$tmp/conf" ||
	{ cat "$tmp/err"; fail "the board"; }
wait_for '! procs_alive '$pid 20 || fail "the daemon outlived SIGKILL"
pid=
ls "$shots"
echo "web_browser_board: ok (screenshots in $shots)"
