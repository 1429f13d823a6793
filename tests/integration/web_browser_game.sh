#!/bin/sh
# web_browser_game.sh: whole games on the web page in a real browser (headless
# Chromium, puppeteer-core; see web_browser.sh): against the built-in engine at depth 1,
# by keyboard alone and by mouse, each at 1400x900 and at 390x844, each to its end (a
# Queen surrounded or a draw the server declares); the page's result and reason are
# the server's. Then a lobby game with a clock of 3 s in which White does not move:
# its clock shows the flag at 0:00 and the page the server's result. Screenshots go to $WEB_SHOTS (default: a temporary directory, listed).
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
. tests/lib/web.sh
web_browser_begin

web_conf_builtin
web_serve 2
games=$http
mv "$tmp/err" "$tmp/err-games"
# A second daemon: its lobby's clock runs out in a few seconds.
cat >"$tmp/conf" <<EOF2
[listen remote]
protocol = uhp-remote
address = 127.0.0.1
port = 0
clock = 3+0
grace = 30
wait_time = 120
EOF2
web_serve 2
timeout 300 node tests/browser/game_test.js "http://127.0.0.1:$games" "$shots" "http://127.0.0.1:$http" ||
	{ cat "$tmp/err-games" "$tmp/err"; fail "whole games"; }
ls "$shots"
echo "web_browser_game: ok (screenshots in $shots)"
