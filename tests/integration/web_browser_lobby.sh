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
need node npm
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
[ -x "$CHROMIUM" ] || procs_fail "$CHROMIUM is missing (apt-get install chromium): this test cannot run"
export CHROMIUM
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }
shots=${WEB_SHOTS:-$tmp/shots}
mkdir -p "$shots"

sum=$(cat tests/browser/package.json tests/browser/package-lock.json | cksum | cut -d' ' -f1)
cache=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/hivebridge/browser-$sum
if [ ! -f "$cache/node_modules/puppeteer-core/package.json" ]; then
	mkdir -p "$cache" || fail "cannot create $cache"
	cp tests/browser/package.json tests/browser/package-lock.json "$cache/"
	(cd "$cache" && timeout 300 npm ci --no-audit --no-fund --loglevel=error) >"$tmp/npm" 2>&1 ||
		{ cat "$tmp/npm"; fail "npm ci of tests/browser/package-lock.json failed (is the npm registry reachable?)"; }
fi
export NODE_PATH="$cache/node_modules"

cat >"$tmp/conf" <<EOF
[listen remote]
protocol = uhp-remote
address = 127.0.0.1
port = 0
clock = 600+5
grace = 30
wait_time = 120
EOF
spawn "$HIVEBRIDGE" serve --config "$tmp/conf" --http 127.0.0.1:0 --log "$tmp/trace" 2>"$tmp/err"
pid=$spawned
wait_listening "$tmp/err" $pid 2
http=$(listen_port "$tmp/err" http)
[ -n "$http" ] || fail "no http port: $(cat "$tmp/err")"
timeout 300 node tests/browser/lobby_test.js "http://127.0.0.1:$http" "$shots" ||
	{ tail -n 20 "$tmp/trace"; fail "two persons through the lobby"; }
procs_alive $pid || fail "the daemon died"
kill -TERM $pid
wait $pid || fail "the daemon's exit status $? after SIGTERM: $(tail -n 30 "$tmp/err")"
ls "$shots"
echo "web_browser_lobby: ok (screenshots in $shots)"
