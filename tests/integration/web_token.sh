#!/bin/sh
# web_token.sh: the web API's access token (issue 27, finding 2), against a real
# daemon. Nothing here listens beyond loopback: `--http 0.0.0.0:0` without a token
# must refuse to start before it binds (so it never listens); the token itself is
# tested on 127.0.0.1, where a configured token is required just the same. From
# http_token_file: a change without it, with a wrong one or another scheme is 401
# (WWW-Authenticate: Bearer), with it works; reads stay open. From
# HIVEBRIDGE_HTTP_TOKEN likewise (and it is gone from the environment of the engines
# the daemon starts). A missing token file or a short token: the daemon does not start.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
. tests/lib/web.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

# One listener on a free port (the defaults would take 5000, 5002 and 51337).
lis='[listen u]\nprotocol = uhp\nport = 0\n'


# From the environment: required the same, and no engine inherits it.
# Nor can an engine read it in the daemon's own /proc/PID/environ.
printf '#!/bin/sh\ntr "\\0" "\\n" </proc/$PPID/environ >%s/daemon_env\ntr "\\0" "\\n" </proc/$$/environ >%s/engine_env\nexec "%s" uhp\n' "$tmp" "$tmp" "$HIVEBRIDGE" >"$tmp/engine.sh"
chmod +x "$tmp/engine.sh"
printf "$lis[engine env]\ncommand = %s/engine.sh\n" "$tmp" >"$tmp/conf"
tok2=$(python3 -c 'import secrets; print(secrets.token_hex(20))')
HIVEBRIDGE_HTTP_TOKEN=$tok2 web_serve 2
timeout 60 python3 tests/integration/web_token_check.py "$http" "$tok2" || { cat "$tmp/err"; fail "the token from the environment"; }
python3 tests/integration/web_token_engine_game.py "$http" "$tok2" || fail "a game against the external engine"
wait_for '[ -s "$tmp/engine_env" ]' 20 || fail "the engine did not start"
grep -q HIVEBRIDGE_HTTP_TOKEN "$tmp/engine_env" && fail "the engine inherited HIVEBRIDGE_HTTP_TOKEN"
grep -q "$tok2" "$tmp/engine_env" && fail "the engine's environment holds the token"
[ -s "$tmp/daemon_env" ] || fail "the engine could not read the daemon's environ"
grep -q "$tok2" "$tmp/daemon_env" && fail "/proc/PID/environ of the daemon shows the token"
kill -TERM $pid
wait $pid || fail "the daemon's exit status $? after SIGTERM: $(cat "$tmp/err")"
tok=$(python3 -c 'import secrets; print(secrets.token_hex(20))')
printf '%s\n' "$tok" >"$tmp/token"
chmod 600 "$tmp/token"
printf "$lis[daemon]\nhttp_token_file = %s/token\n" "$tmp" >"$tmp/conf"
web_serve 2
timeout 60 python3 tests/integration/web_token_check.py "$http" "$tok" || { cat "$tmp/err"; fail "the token from its file"; }
kill -TERM $pid
wait $pid || fail "the daemon's exit status $? after SIGTERM: $(cat "$tmp/err")"

# Beyond loopback without a token: no daemon, a message that says what to set. (Last:
# a daemon without the rule would listen beyond loopback here.)
printf "$lis" >"$tmp/conf0"
if timeout 20 env -u HIVEBRIDGE_HTTP_TOKEN "$HIVEBRIDGE" serve --config "$tmp/conf0" --http 0.0.0.0:0 2>"$tmp/e0"; then
	fail "serve --http 0.0.0.0:0 without an access token ran"
fi
grep -q "beyond loopback: set an access token" "$tmp/e0" || fail "no reason: $(cat "$tmp/e0")"
grep -q "(http)" "$tmp/e0" && fail "it listened: $(cat "$tmp/e0")"

# A token file that is missing, or a token too short: no daemon either.
printf "$lis[daemon]\nhttp_token_file = %s/nofile\n" "$tmp" >"$tmp/conf2"
if timeout 20 "$HIVEBRIDGE" serve --config "$tmp/conf2" --http 127.0.0.1:0 2>"$tmp/e1"; then
	fail "serve ran without its token file"
fi
grep -q "http_token_file .*nofile" "$tmp/e1" || fail "no reason: $(cat "$tmp/e1")"
echo short >"$tmp/short"
printf "$lis[daemon]\nhttp_token_file = %s/short\n" "$tmp" >"$tmp/conf2"
if timeout 20 "$HIVEBRIDGE" serve --config "$tmp/conf2" --http 127.0.0.1:0 2>"$tmp/e1"; then
	fail "serve ran with a 5-byte token"
fi
grep -q "16 to 256" "$tmp/e1" || fail "no reason: $(cat "$tmp/e1")"
echo "refusals: ok"

echo "web_token: ok"
