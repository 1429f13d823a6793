#!/bin/sh
# web_play_rules.sh: a game played on the page is refereed like match's and remote
# play's (bridge/referee.c): the person has [daemon] http_play_move_time for each
# move, and loses on time after it (the flag falls though nobody asks); and the
# game is adjudicated a draw after http_play_max_plies plies. The checks are in
# web_play_rules.py.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
. tests/lib/web.sh
need python3 jsonschema timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$tmp/conf" <<EOF
[daemon]
http_play_move_time = 1
http_play_max_plies = 2
[listen u]
port = 0
EOF
web_serve 2
timeout 120 python3 tests/integration/web_play_rules.py "$http" schemas ||
	{ tail -n 30 "$tmp/err"; fail "the page's games refereed"; }
procs_alive $pid || fail "the daemon died"
kill -TERM $pid
wait $pid || fail "the daemon's exit status $? after SIGTERM: $(tail -n 30 "$tmp/err")"
echo "web_play_rules: ok"
