#!/bin/sh
# Runs every test: each unit test binary of each build dir given, then each
# integration script (tests/integration/*.sh) against that build's binary; a
# script passes only if it exits 0 and its last line is "NAME: ok ..." (a script
# missing a tool it needs fails: see need in tests/lib/procs.sh). A script with a
# line "# run.sh: once" tests no build directory (build.sh builds its own copy):
# it runs with the first BUILD_DIR only.
# Each PASS/FAIL line gives the test's elapsed seconds. Prints "N passed, N failed"
# and the whole run's time last, and exits non-zero on any failure.
#   tests/run.sh [--unit-only] BUILD_DIR...
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
HIVE_DATA=${HIVE_DATA:-$top/../shared/data}
export HIVE_DATA
unit_only=0
[ "${1:-}" = --unit-only ] && { unit_only=1; shift; }
passed=0; failed=0; failures=""
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
now() { read -r up _ </proc/uptime && echo "${up%.*}"; }
t_run=$(now)
first=${1:-}
for b in "$@"; do
	for t in "$top/$b"/tests/*; do
		[ -f "$t" ] && [ -x "$t" ] || continue
		name="$b/$(basename "$t")"
		t0=$(now)
		if (cd "$top" && "$t") >"$log/out" 2>&1; then
			passed=$((passed + 1)); echo "PASS $name ($(($(now) - t0)) s)"
		else
			failed=$((failed + 1)); failures="$failures $name"; echo "FAIL $name ($(($(now) - t0)) s)"; tail -n 40 "$log/out"
		fi
	done
	[ $unit_only = 1 ] && continue
	for t in "$top"/tests/integration/*.sh; do
		[ -f "$t" ] || continue
		name="$b/$(basename "$t" .sh)"
		[ "$b" = "$first" ] || ! grep -qx '# run.sh: once' "$t" || continue
		# A script passes by its status and its last line, "NAME: ok ...": one that
		# stopped early with status 0 (a skip, a missing tool) fails.
		# What a script keeps for people to look at (the browser tests' screenshots).
		shots="$top/$b/test-output/$(basename "$t" .sh)"
		rm -rf "$shots"
		t0=$(now)
		if (cd "$top" && HIVEBRIDGE="$top/$b/hivebridge" TOOLS="$top/$b/tools" WEB_SHOTS="$shots" \
			timeout 600 sh "$t" </dev/null) \
			>"$log/out" 2>&1 && tail -n 1 "$log/out" | grep -q "^$(basename "$t" .sh): ok"; then
			passed=$((passed + 1)); echo "PASS $name ($(($(now) - t0)) s)"
		else
			failed=$((failed + 1)); failures="$failures $name"; echo "FAIL $name ($(($(now) - t0)) s)"; tail -n 40 "$log/out"
		fi
	done
done
[ -n "$failures" ] && echo "failed:$failures"
echo "time: $(($(now) - t_run)) s"
# Last and alone on its line: the form CI reads.
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
