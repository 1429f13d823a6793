#!/bin/sh
# cli_errors.sh: the command line says what is wrong in one form per mistake, with
# one exit status per kind (2 usage, 1 runtime or configuration), and every
# subcommand answers --help and -h on stdout. Also: a config's listeners replace the
# defaults, --listen takes a name, serve checks its engines at start-up and reports
# a later engine failure on stderr, match aborts on an engine that never starts, and
# check finds its data and traces UHP from outside the source tree.
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
H=$HIVEBRIDGE
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

# expect STATUS STDERR_LINE CMD...: the exit status and the whole first stderr line.
expect() {
	want=$1 line=$2
	shift 2
	"$@" </dev/null >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc = "$want" ] || { cat "$tmp/err"; fail "$*: exit status $rc, want $want"; }
	[ "$(head -n 1 "$tmp/err")" = "$line" ] ||
		fail "$*: stderr says '$(head -n 1 "$tmp/err")', want '$line'"
}

# --- help and version -------------------------------------------------------------------
for sub in uhp hub serve check match perft; do
	for flag in --help -h; do
		"$H" $sub $flag </dev/null >"$tmp/out" 2>"$tmp/err" || fail "$sub $flag: exit status $?"
		head -n 1 "$tmp/out" | grep -q "^usage: hivebridge $sub " || fail "$sub $flag: no usage on stdout"
		[ ! -s "$tmp/err" ] || fail "$sub $flag: wrote to stderr"
	done
done
[ "$("$H" -V)" = "$("$H" --version)" ] || fail "-V differs from --version"
[ "$("$H" version)" = "$("$H" --version)" ] || fail "version differs from --version"
"$H" --help | grep -q '^Exit status: 0 success, 1 ' || fail "exit statuses not documented"
# help COMMAND is that command's --help, exit 0.
for sub in match uhp convert; do
	[ "$("$H" help $sub)" = "$("$H" $sub --help)" ] || fail "help $sub is not $sub --help"
done

# --- usage errors: 2 ----------------------------------------------------------------------
expect 2 "hivebridge perft: DEPTH is missing" "$H" perft
expect 2 "hivebridge perft: DEPTH must be 0..20, not 99" "$H" perft 99
expect 2 "hivebridge serve: unknown option --bogus" "$H" serve --bogus
expect 2 "hivebridge help: unknown topic bogus" "$H" help bogus
expect 2 "hivebridge help: unknown option --html" "$H" help config --html
expect 2 "hivebridge uhp: --engine needs a value" "$H" uhp --engine
for sub in uhp hub serve; do
	expect 2 "hivebridge $sub: engine \"builtin:depth=x\": want builtin, builtin:depth=N (N 1..64) or builtin:movetime=MS (MS 1..3600000)" \
		"$H" $sub --engine builtin:depth=x
done
expect 2 "hivebridge match: engine \"builtin:depth=x\": want builtin, builtin:depth=N (N 1..64) or builtin:movetime=MS (MS 1..3600000)" \
	"$H" match builtin:depth=x builtin
expect 2 "hivebridge check: engine \"builtin:depth=x\": want builtin, builtin:depth=N (N 1..64) or builtin:movetime=MS (MS 1..3600000)" \
	"$H" check builtin:depth=x
expect 2 "hivebridge serve: --listen no-such-host.invalid:0: no-such-host.invalid: cannot resolve: Name or service not known" \
	"$H" serve --listen no-such-host.invalid:0

# --- configuration and log errors: 1, the path named once ----------------------------------
for sub in uhp hub serve; do
	expect 1 "hivebridge $sub: $tmp: cannot open: Is a directory" "$H" $sub --config "$tmp"
	expect 1 "hivebridge $sub: $tmp/none.conf: cannot open: No such file or directory" \
		"$H" $sub --config "$tmp/none.conf"
	expect 1 "hivebridge $sub: log $tmp/no/log: cannot open: No such file or directory" \
		"$H" $sub --log "$tmp/no/log"
done
expect 1 "hivebridge match: $tmp: cannot open: Is a directory" "$H" match --config "$tmp" builtin builtin
expect 1 "hivebridge check: $tmp: cannot open: Is a directory" "$H" check --config "$tmp" --profile x
expect 1 "hivebridge match: log $tmp/no/log: cannot open: No such file or directory" \
	"$H" match --log "$tmp/no/log" builtin builtin
expect 1 "hivebridge check: log $tmp/no/log: cannot open: No such file or directory" \
	"$H" check --log "$tmp/no/log" builtin

# --- engines that cannot work ---------------------------------------------------------------
expect 1 "hivebridge serve: engine \"/nonexistent/engine\" of listener uhp: /nonexistent/engine: No such file or directory" \
	"$H" serve --engine /nonexistent/engine
! grep -q '^listening on' "$tmp/err" || fail "serve listened with a missing engine"
expect 1 "hivebridge serve: engine \"no-such-engine-on-path\" of listener uhp: no-such-engine-on-path: not found on PATH" \
	"$H" serve --engine no-such-engine-on-path
expect 1 "hivebridge match: engine \"/nonexistent\": /nonexistent: No such file or directory" \
	"$H" match builtin /nonexistent
expect 1 "hivebridge match: engine \"trylobot:no-such-host.invalid:1\": host no-such-host.invalid: cannot resolve: Name or service not known" \
	"$H" match builtin trylobot:no-such-host.invalid:1

# The stdio modes exit 1 like serve, before any info block (a viewer that launches
# one must not take it for a working engine): an engine that is not there, and one
# that exits at once.
for sub in uhp hub otep; do
	expect 1 "hivebridge $sub: engine \"/nonexistent/engine\": /nonexistent/engine: No such file or directory" \
		"$H" $sub --engine /nonexistent/engine
	[ ! -s "$tmp/out" ] || fail "$sub with a missing engine printed: $(cat "$tmp/out")"
	expect 1 "hivebridge $sub: engine \"$TOOLS/fake_uhp_engine --fault exit-at-start\": exited with status 3 during start" \
		"$H" $sub --engine "$TOOLS/fake_uhp_engine --fault exit-at-start"
	[ ! -s "$tmp/out" ] || fail "$sub with an engine that exits at once printed: $(cat "$tmp/out")"
done

# --- a config's listeners replace the defaults; --listen takes a name -----------------------
cat >"$tmp/two.conf" <<EOF
[listen u]
port = 1
[listen h]
protocol = hub
port = 0
EOF
spawn "$H" serve --config "$tmp/two.conf" --listen localhost:0 2>"$tmp/serve.err"
daemon=$spawned
wait_listening "$tmp/serve.err" "$daemon" 1 hub
# Every listener is open before the event loop runs: once a Hub client is greeted,
# the "listening on" lines are complete.
timeout 30 python3 tests/integration/cli_errors_hub.py "$(listen_port "$tmp/serve.err" hub)" || { cat "$tmp/serve.err"; fail "hub client"; }
[ "$(count '^listening on' "$tmp/serve.err")" = 2 ] || { cat "$tmp/serve.err"; fail "not exactly the configured listeners"; }
grep -Eq '^listening on (127\.0\.0\.1|\[::1\]):[0-9]+ \(uhp\)$' "$tmp/serve.err" ||
	{ cat "$tmp/serve.err"; fail "--listen localhost:0 not applied to the UHP listener"; }
kill "$daemon"
wait "$daemon" || fail "serve exit status $? after SIGTERM"

# --- an engine that fails later is reported on stderr, not only to the client -----------------
cat >"$tmp/fail.conf" <<EOF
[engine dies]
command = $TOOLS/fake_uhp_engine --fault exit-at-start
[listen u]
port = 0
engine = dies
EOF
spawn "$H" serve --config "$tmp/fail.conf" 2>"$tmp/serve.err"
daemon=$spawned
wait_listening "$tmp/serve.err" "$daemon" 1 uhp
port=$(listen_port "$tmp/serve.err" uhp)
timeout 30 python3 tests/integration/cli_errors_client.py "$port" || fail "client"
wait_for 'grep -q "^hivebridge: engine dies failed: " "$tmp/serve.err"' 30 ||
	{ cat "$tmp/serve.err"; fail "engine failure not on stderr"; }
kill "$daemon"
wait "$daemon" || fail "serve exit status $? after SIGTERM"

# --- check from outside the source tree: the whole suite, and --log traces UHP ----------------
(cd / && env -u HIVE_DATA -u HIVEBRIDGE_DATA timeout 300 "$H" check --time-margin-ms 3000 --positions 1 --log "$tmp/check.log" builtin) \
	>"$tmp/check.out" 2>&1 || { cat "$tmp/check.out"; fail "check from / failed"; }
passed=$(sed -n 's/^summary: \([0-9]*\) passed.*/\1/p' "$tmp/check.out")
[ "${passed:-0}" -gt 250 ] || fail "check from / ran only ${passed:-0} checks"
grep -q ' s1 bridge->engine newgame' "$tmp/check.log" || fail "check --log has no UHP traffic"
expect 1 "hivebridge check: no reference data in $tmp (from --data): nokamute/uhp_tests.txt is missing" \
	"$H" check --data "$tmp" builtin
echo "cli_errors: ok"
