#!/bin/sh
# hivegame_bot.sh: `hivebridge bot` on the stand-in of hivegame.com's bot API
# (tests/tools/hivegame_standin.py, written from the site's server code): four bots
# at once (the built-in engine twice, nokamute once, and a [site] of `serve`, whose
# game shows on its web page) play humans to the end through
# token expiry, an outage, 503s, a slow site and a restart; no move refused, no time
# lost, every history replayed (tests/integration/hivegame_bot.py says what is checked).
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
. tests/lib/peers.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap

spawn python3 tests/tools/hivegame_standin.py --hivebridge "$HIVEBRIDGE" --ports-file "$tmp/ports" \
	--token-ttl 20 --users bot1:pw-one-7Qx,bot2:pw-two-9Kz,botn:pw-nok-3Vb,bots:pw-srv-5Hd,botf:pw-flt-2Wq >"$tmp/standin.out" 2>"$tmp/standin.err"
wait_for '[ -s "$tmp/ports" ]' 30 || fail_logs "the stand-in did not start"
read -r api ctl <"$tmp/ports"
timeout 480 python3 tests/integration/hivegame_bot.py "$HIVEBRIDGE" "$tmp" "$api" "$ctl" "$NOKAMUTE" \
	>"$tmp/driver.out" 2>"$tmp/driver.err" || fail_logs "hivegame_bot.py"
procs_alive "$spawned" || fail_logs "the stand-in died"
tail -n 1 "$tmp/driver.out"
