#!/bin/sh
# hivegame_soak.sh [HIVEBRIDGE] [GAMES] [OUTAGE]: `hivebridge bot --config` plays GAMES
# (default 20) games at once against the stand-in of hivegame.com's bot API
# (tests/tools/hivegame_standin.py): every game type, real-time 3+2 and 2+3,
# correspondence and untimed, both colours, humans playing random legal moves; on the
# way every token expires and the site is down for OUTAGE seconds (default 30). Every
# game must end on the board with no refused move and no time lost; the bot's RSS and
# descriptors (from /proc) are printed idle, playing and after. Not in make test (it
# takes minutes); `make bench` runs it.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
HIVEBRIDGE=${1:-$top/build/hivebridge}
games=${2:-20}
outage=${3:-30}
. tests/lib/procs.sh
. tests/lib/peers.sh
tmp=$(mktemp -d)
procs_trap
spawn python3 tests/tools/hivegame_standin.py --hivebridge "$HIVEBRIDGE" --ports-file "$tmp/ports" \
	--users bot1:pw-one-7Qx >"$tmp/standin.out" 2>"$tmp/standin.err"
wait_for '[ -s "$tmp/ports" ]' 30 || fail_logs "the stand-in did not start"
read -r api ctl <"$tmp/ports"
python3 tests/integration/hivegame_bot.py "$HIVEBRIDGE" "$tmp" "$api" "$ctl" "$NOKAMUTE" \
	--games "$games" --outage "$outage" || fail_logs "hivegame_bot.py --games $games"
