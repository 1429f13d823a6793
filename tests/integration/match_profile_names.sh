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
fail_files="$tmp/res.jsonl"
fail() { fail_logs "$@"; }
cp "$TOOLS/fake_uhp_engine" "$tmp/fake" || fail "no fake_uhp_engine in $TOOLS"
printf '[engine command2]\nkind = builtin\n' >"$tmp/m.conf"
timeout 60 "$HIVEBRIDGE" match --config "$tmp/m.conf" --games 2 --depth 1 --max-plies 6 --results "$tmp/res.jsonl" \
	"uhp:$tmp/fake" builtin:depth=1 >"$tmp/m.out" 2>"$tmp/m.err" || fail "the match failed"
python3 tests/integration/match_profile_names.py "$tmp/res.jsonl" "uhp:$tmp/fake" || fail "the command's games were played by another engine"
echo "match_profile_names: ok (the command played its games beside a profile named command2)"
