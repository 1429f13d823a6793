#!/bin/sh
# web_browser_lobby.sh: two persons play each other through the page's remote-play
# lobby in a real browser. Headless Chromium (Debian's chromium) driven by
# puppeteer-core (tests/browser/package-lock.json, installed into a cache directory
# as web_browser.sh does) against a real daemon with a uhp-remote listener: one page
# waits (the waiting state, Cancel), two pages pair, each plays moves by clicking
# (every clicked move must be in the canonical game, each seen live by the other
# page), one reloads and takes its seat back, one resigns and both pages show the
# result. Screenshots go to $WEB_SHOTS (default: a temporary directory, listed).
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
. tests/lib/web.sh
web_browser_begin

cat >"$tmp/conf" <<EOF
[listen remote]
protocol = uhp-remote
address = 127.0.0.1
port = 0
clock = 600+5
grace = 30
wait_time = 120
EOF
web_serve 2 --log "$tmp/trace"
timeout 300 node tests/browser/lobby_test.js "http://127.0.0.1:$http" "$shots" ||
	{ cat "$tmp/trace"; fail "two persons through the lobby"; }
procs_alive $pid || fail "the daemon died"
kill -TERM $pid
wait $pid || fail "the daemon's exit status $? after SIGTERM: $(cat "$tmp/err")"
ls "$shots"
echo "web_browser_lobby: ok (screenshots in $shots)"
