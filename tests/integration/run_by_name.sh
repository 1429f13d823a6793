#!/bin/sh
# run_by_name.sh: the README's commands that run one test alone by name (its Testing
# section), run against this build: `sh tests/run.sh INTEGRATION UNIT` runs those two
# and nothing else, and a unit test binary given one test's name runs that test
# only; a name that matches nothing is an error, not an empty success.
# Env: HIVEBRIDGE (binary), run from the repo root.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need awk sed grep
tmp=$(mktemp -d)
procs_trap
fail() { fail_logs "$@"; }
# The build directory under test, as run.sh names it (relative to the tree).
b=$(dirname "$HIVEBRIDGE")
b=${b#"$(pwd)"/}

# The two commands: the indented lines of the Testing section.
sed -n '/^## Testing$/,/^## /p' README.md | sed -n 's/^    \(.*\)$/\1/p' >"$tmp/commands"
run=$(grep '^sh tests/run.sh ' "$tmp/commands")
unit=$(grep '^build/tests/test_' "$tmp/commands")
[ "$(echo "$run" | wc -l)" = 1 ] && [ "$(echo "$unit" | wc -l)" = 1 ] ||
	fail "the Testing section gives no single run.sh command and unit command: $(cat "$tmp/commands")"
set -f
# shellcheck disable=SC2086
set -- $run
set +f
shift 2
[ $# = 2 ] && [ -f "tests/integration/$1.sh" ] && [ -x "$b/tests/$2" ] ||
	fail "'$run' names no integration test and unit test"
it=$1 ut=$2

# run.sh with those names (and this build) runs exactly those two, and passes.
sh tests/run.sh "$it" "$ut" "$b" >"$tmp/run.out" 2>&1 || fail "$run failed"
[ "$(grep -c '^PASS ' "$tmp/run.out")" = 2 ] && grep -q "^PASS $b/$it (" "$tmp/run.out" &&
	grep -q "^PASS $b/$ut (" "$tmp/run.out" && [ "$(tail -n 1 "$tmp/run.out")" = "2 passed, 0 failed" ] ||
	fail "$run did not run exactly $it and $ut"
echo "ok $run: $(tail -n 1 "$tmp/run.out")"
# A name that matches nothing fails (status 2) and says so.
sh tests/run.sh no_such_test "$b" >"$tmp/none.out" 2>&1
[ $? = 2 ] && grep -q 'no test matches: no_such_test' "$tmp/none.out" || fail "an unknown name did not fail"

# The unit binary runs the one test named, and lists its names.
eval "set -- $unit"
bin=$1 name=$2
bin="$b/${bin#build/}"
"$bin" "$name" >"$tmp/unit.out" 2>&1 || fail "$unit failed"
grep -q "Test: ${name#*/} \.\.\.passed" "$tmp/unit.out" &&
	grep -Eq '^ +tests +1 +1 +1 +0 +0$' "$tmp/unit.out" || fail "$unit did not run exactly '$name'"
"$bin" -l >"$tmp/list" || fail "$bin -l"
grep -qx "$name" "$tmp/list" && [ "$(wc -l <"$tmp/list")" -gt 1 ] || fail "$bin -l does not list '$name'"
"$bin" 'no such test' >"$tmp/nomatch.out" 2>&1
[ $? = 2 ] && grep -q 'no test matches' "$tmp/nomatch.out" || fail "$bin: an unknown name did not fail"
echo "ok $unit: 1 of $(wc -l <"$tmp/list") tests"
echo "run_by_name: ok"
