# web.sh: helpers for the web tests (sourced after procs.sh; the script has set
# $tmp and fail).
#
#   web_serve N [ARGS...]    hivebridge serve --config $tmp/conf --http 127.0.0.1:0 ARGS,
#                            its stderr in $tmp/err, once its N listeners are up: $pid,
#                            and $http its http port.
#   web_redis NAME           a redis-server of its own on a free loopback port (files in
#                            $tmp/redis), ready: $redis its PID, $rport its port, $url
#                            redis://127.0.0.1:$rport/NAME.
#   web_queue_match ARGS...  hivebridge match --queue $url --http 127.0.0.1:0 ARGS (its
#                            output in $tmp/qout and $tmp/qerr), once listening: $qpid,
#                            $qhttp its http port; then workers w1 and w2 on $url.
#   web_browser_begin        what every browser script does first: needs node and npm,
#                            makes $tmp (removed on exit, with what the script started:
#                            procs_trap), defines fail, then web_browser_setup.
#   web_conf_builtin         $tmp/conf: one UHP listener on a free loopback port with the
#                            built-in engine (the page's games need no more).
#   web_browser_setup        headless Chromium ($CHROMIUM, default /usr/bin/chromium,
#                            exported) and puppeteer-core, installed by npm ci from
#                            tests/browser/package-lock.json into a cache directory
#                            (never the repository) once per version of the lock file:
#                            NODE_PATH exported; $shots, the screenshots' directory
#                            ($WEB_SHOTS, default $tmp/shots), made.

web_browser_begin() {
	need node npm
	tmp=$(mktemp -d)
	procs_trap
	fail() { echo "FAIL: $*" >&2; exit 1; }
	web_browser_setup
}

web_conf_builtin() {
	cat >"$tmp/conf" <<EOF
[listen uhp]
protocol = uhp
address = 127.0.0.1
port = 0
engine = builtin
EOF
}

web_serve() {
	_wsn=$1
	shift
	spawn "$HIVEBRIDGE" serve --config "$tmp/conf" --http 127.0.0.1:0 "$@" 2>"$tmp/err"
	pid=$spawned
	wait_listening "$tmp/err" $pid "$_wsn"
	http=$(listen_port "$tmp/err" http)
	[ -n "$http" ] || fail "no http port: $(cat "$tmp/err")"
}

web_redis() {
	. tests/lib/redis.sh
	redis_start
	rport=$port
	url=redis://127.0.0.1:$rport/$1
}

web_queue_match() {
	spawn "$HIVEBRIDGE" match --queue "$url" --http 127.0.0.1:0 "$@" >"$tmp/qout" 2>"$tmp/qerr"
	qpid=$spawned
	wait_listening "$tmp/qerr" $qpid 1 http
	qhttp=$(listen_port "$tmp/qerr" http)
	[ -n "$qhttp" ] || fail "no http port: $(cat "$tmp/qerr")"
	for _wqw in w1 w2; do
		spawn "$HIVEBRIDGE" worker --queue "$url" --name $_wqw >"$tmp/$_wqw.out" 2>"$tmp/$_wqw.err"
	done
}

web_browser_setup() {
	CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
	[ -x "$CHROMIUM" ] || procs_fail "$CHROMIUM is missing (apt-get install chromium): this test cannot run"
	export CHROMIUM
	shots=${WEB_SHOTS:-$tmp/shots}
	mkdir -p "$shots"
	_wss=$(cat tests/browser/package.json tests/browser/package-lock.json | cksum | cut -d' ' -f1)
	_wsc=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/hivebridge/browser-$_wss
	if [ ! -f "$_wsc/node_modules/puppeteer-core/package.json" ]; then
		# Tests run in parallel: each installs into a folder of its own, and the first
		# to finish renames it into place (a rename onto a folder that exists fails,
		# and that test uses the one in place). A folder without the mark is a
		# broken install of an older run.
		mkdir -p "$(dirname "$_wsc")" || fail "cannot create $(dirname "$_wsc")"
		[ -d "$_wsc" ] && [ ! -f "$_wsc/node_modules/puppeteer-core/package.json" ] && rm -rf "$_wsc"
		_wst=$(mktemp -d "$_wsc.XXXXXX") || fail "cannot create a folder beside $_wsc"
		cp tests/browser/package.json tests/browser/package-lock.json "$_wst/"
		(cd "$_wst" && timeout 300 npm ci --no-audit --no-fund --loglevel=error) >"$tmp/npm" 2>&1 ||
			{ rm -rf "$_wst"; cat "$tmp/npm"; fail "npm ci of tests/browser/package-lock.json failed (is the npm registry reachable?)"; }
		mv -T "$_wst" "$_wsc" 2>/dev/null || rm -rf "$_wst"
		[ -f "$_wsc/node_modules/puppeteer-core/package.json" ] || fail "no puppeteer-core in $_wsc"
	fi
	export NODE_PATH="$_wsc/node_modules"
}
