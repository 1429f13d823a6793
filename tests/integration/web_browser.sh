#!/bin/sh
# web_browser.sh: the web page in a real browser. Headless Chromium (Debian's
# chromium) driven by puppeteer-core (npm, pinned by tests/browser/package-lock.json,
# installed into a cache directory, never into the repository) against a real daemon:
# a UHP session's game watched move by move, a full game against the built-in engine
# played by clicking (every clicked move must be in the canonical game), seen
# read-only by a second browser context that opens its link (nothing movable, no
# Resign, no "your move") and still the first page's after a reload, stepping
# through the finished game, a phone-sized screen; then `match --http` and its
# dashboard, and `match --queue --http`'s workers table (a real redis-server and
# two workers); a refused event stream (503) that the page opens again once streams
# free. Screenshots go to $WEB_SHOTS (default: a temporary directory, listed).
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
. tests/lib/web.sh
need node npm python3 redis-server
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }
web_browser_setup

cat >"$tmp/conf" <<EOF
[listen uhp]
protocol = uhp
address = 127.0.0.1
port = 0
engine = builtin
EOF
web_serve 2 --log "$tmp/trace"
uhp=$(listen_port "$tmp/err" uhp)
[ -n "$uhp" ] || fail "ports: uhp '$uhp' http '$http'"
timeout 400 node tests/browser/web_test.js serve "http://127.0.0.1:$http" "$shots" "$uhp" ||
	{ cat "$tmp/err"; fail "the page against serve"; }
procs_alive $pid || fail "the daemon died"
kill -TERM $pid
wait_for '! procs_alive '$pid 20 || fail "the daemon did not stop"

# A match whose engine A starts only once the page is open (the gate), with an SPRT.
cat >"$tmp/gated" <<EOF
#!/bin/sh
while [ ! -e "\$1" ]; do sleep 0.02; done
exec "$HIVEBRIDGE" uhp
EOF
chmod +x "$tmp/gated"
cat >"$tmp/match.conf" <<EOF
[engine uhp-depth1]
kind = uhp
command = $tmp/gated $tmp/gate
; held at the gate until the page has looked: its start waits for the browser
start_timeout = 300
EOF
spawn "$HIVEBRIDGE" match --config "$tmp/match.conf" --games 6 --depth 1 --max-plies 150 --repetition 0 \
	--sprt 0,50 --sprt-min-games 6 --http 127.0.0.1:0 uhp-depth1 builtin:depth=2 >"$tmp/mout" 2>"$tmp/merr"
mpid=$spawned
wait_listening "$tmp/merr" $mpid 1 http
mhttp=$(listen_port "$tmp/merr" http)
timeout 300 node tests/browser/web_test.js match "http://127.0.0.1:$mhttp" "$shots" "$tmp/gate" ||
	{ cat "$tmp/merr"; fail "the match dashboard"; }
wait_for '[ $(count "played out" "$tmp/merr") -ge 1 ]' 120 || fail "the match did not play out"
kill -TERM $mpid
wait $mpid || fail "match exit status $? after SIGTERM"
mpid=

# match --queue: games of a few seconds, so that each worker is seen playing one.
web_redis browser
web_queue_match --games 4 --max-plies 20 --movetime 300 builtin builtin
timeout 120 node tests/browser/web_test.js queue "http://127.0.0.1:$qhttp" "$shots" w1,w2 ||
	{ cat "$tmp/qerr"; fail "the workers table"; }
kill -TERM $qpid
wait $qpid
qpid=
ls "$shots"
echo "web_browser: ok (screenshots in $shots)"
