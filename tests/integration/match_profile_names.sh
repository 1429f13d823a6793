#!/bin/sh
# match_profile_names.sh: an ENGINE given as a command (not a profile NAME) gets a
# profile of its own whose name no [engine NAME] of --config can take. Here the
# config names a profile "command2", the name such an ENGINE was given before:
# the match must still play the command it was given (the results line's ENGINE
# and the engine's id agree), not the config's profile. (It was "command" and the
# number of profiles so far: builtin and this config's one make 2.)
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() {
	for f in "$tmp"/*.out "$tmp"/*.err "$tmp"/res.jsonl; do [ -f "$f" ] && { echo "== $f"; tail -n 20 "$f"; }; done >&2
	echo "FAIL: $*" >&2
	exit 1
}
cp "$TOOLS/fake_uhp_engine" "$tmp/fake" || fail "no fake_uhp_engine in $TOOLS"
printf '[engine command2]\nkind = builtin\n' >"$tmp/m.conf"
timeout 60 "$HIVEBRIDGE" match --config "$tmp/m.conf" --games 2 --depth 1 --max-plies 6 --results "$tmp/res.jsonl" \
	"uhp:$tmp/fake" builtin:depth=1 >"$tmp/m.out" 2>"$tmp/m.err" || fail "the match failed"
python3 - "$tmp/res.jsonl" "uhp:$tmp/fake" <<'PY' || fail "the command's games were played by another engine"
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    side = "white_id" if r["white"] == sys.argv[2] else "black_id"
    assert r.get(side, "").startswith("FakeUhpEngine"), (r["game"], r.get(side))
PY
echo "match_profile_names: ok (the command played its games beside a profile named command2)"
