#!/bin/sh
# hub_stdio.sh: scripted Hub sessions through the real binary (`hivebridge hub` on
# stdio with the built-in engine), then Hub over TCP in `hivebridge serve`.
# Moves the engine chooses are checked by feeding them back to the UHP side.
# Env: HIVEBRIDGE (binary), run from the repo root.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

# --- stdio: end of input finishes the commands queued before it ------------------
# A go still searching when the input ends gets its done (as UHP on stdio answers
# its queued commands), and the program exits 0 after it.
for i in 1 2 3; do
	printf 'hub\ninit\npos pos="Base+MLP;InProgress;White[2];wS1;bS1 wS1-"\nlevel depth=6\ngo think\n' |
		timeout 60 "$HIVEBRIDGE" hub >"$tmp/eof.out"
	rc=$?
	[ $rc = 0 ] || fail "hub with input ended during a search: exit status $rc"
	[ "$(grep -c '^done move=' "$tmp/eof.out")" = 1 ] ||
		{ cat "$tmp/eof.out"; fail "hub: no done for the go queued before end of input (run $i)"; }
done

# --- stdio: one long interactive session ----------------------------------------
# The driver writes the moves it got to $tmp/played (UHP "play" lines) for the check
# below. Every go must get exactly one done; refused lines exactly one error.
timeout 120 python3 tests/integration/hub_stdio_stdio.py "$HIVEBRIDGE" "$tmp" || fail "stdio session"

# The moves the engine chose are legal for the UHP side too.
for f in played played2; do
	printf 'exit\n' >>"$tmp/$f"
	"$HIVEBRIDGE" uhp <"$tmp/$f" >"$tmp/$f.out" 2>&1 || fail "uhp replay exit status"
	if grep -q '^err\|^invalidmove' "$tmp/$f.out"; then
		cat "$tmp/$f" "$tmp/$f.out"
		fail "the UHP side refused a move the Hub side played"
	fi
	printf 'ok UHP accepts: %s\n' "$(grep '^play' "$tmp/$f" | tr '\n' ' ')"
done
grep -q 'client->bridge go think' "$tmp/trace.log" || fail "no trace of the Hub lines"

# --- TCP: hivebridge serve with a Hub listener ----------------------------------
conf=$tmp/hub.conf
# [listen uhp] is named like the embedded default listener and replaces it: no port 5000.
printf '[listen uhp]\nport = 0\n[listen hub]\nprotocol = hub\nport = 0\nengine = builtin\n' >"$conf"
spawn "$HIVEBRIDGE" serve --config "$conf" 2>"$tmp/serve.err"
daemon=$spawned
wait_listening "$tmp/serve.err" "$daemon" 1 hub
port=$(listen_port "$tmp/serve.err" hub)
[ -n "$port" ] || { cat "$tmp/serve.err"; fail "no hub listener"; }
timeout 60 python3 tests/integration/hub_stdio_tcp.py "$port" || fail "TCP sessions"
kill -TERM "$daemon"
wait "$daemon"
rc=$?
[ $rc = 0 ] || fail "serve exit status $rc after SIGTERM"
echo "hub_stdio: ok"
