#!/bin/sh
# Runs the tests: each unit test binary of each build dir, and each integration
# script (tests/integration/*.sh) against that build's binary, JOBS at a time.
#   tests/run.sh [--unit-only] [-j JOBS] [-b BUILD_DIR]... [-u BUILD_DIR]... [-t NAME]... [NAME | BUILD_DIR]...
# A NAME runs only the tests called NAME (a unit test such as test_config, or a
# script such as match_basic; a shell pattern such as 'web_*' works too; -t NAME
# says the same); none runs them all. A BUILD_DIR is a directory holding a
# hivebridge binary (-b says so outright); none means "build"; -u BUILD_DIR runs
# that build's unit tests only (make test: the scripts against the sanitizer build,
# the unit tests of both). So
# `tests/run.sh match_basic test_config` runs those two against build/, and
# `tests/run.sh build build-asan` everything against both (`-t build` names the
# script build.sh). JOBS defaults to $TEST_JOBS, else three times the CPUs: most
# scripts wait on processes more than they compute (a whole run of both builds
# used 9 minutes of CPU in 14 of wall time on 2 CPUs, four at a time).
# A script passes only if it exits 0 and printed its verdict "NAME: ok ..." (a
# script missing a tool it needs fails: see need in tests/lib/procs.sh). A script
# with a line "# run.sh: once" tests no build directory (build.sh builds its own
# copy): it runs with the first BUILD_DIR only.
# Each PASS/FAIL line gives the test's elapsed seconds, as it ends; the output of
# each failure follows the summary in full (it is also kept in
# BUILD_DIR/test-output/NAME.log). The slowest tests of the last run (kept in
# BUILD_DIR/test-times) start first. Prints "N passed, N failed" last, alone on
# its line, and exits non-zero on any failure.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
HIVE_DATA=${HIVE_DATA:-$top/../shared/data}
export HIVE_DATA

# One test, run by the xargs below: "tests/run.sh --one LOG_DIR BUILD_DIR KIND PATH".
if [ "${1:-}" = --one ]; then
	log=$2 b=$3 kind=$4 t=$5
	base=$(basename "$t" .sh)
	name="$b/$base"
	out="$log/$(echo "$name" | tr / _)"
	read -r t0 _ </proc/uptime
	if [ "$kind" = unit ]; then
		(cd "$top" && "$t") >"$out.out" 2>&1
		rc=$?
	else
		shots="$top/$b/test-output/$base"
		rm -rf "$shots"
		# A script passes by its status and its verdict line, which it prints as its
		# last act: one that stopped early with status 0 (a skip, a missing tool)
		# fails. The line need not be the log's last: a background client killed by
		# the cleanup trap may still report its lost server after it.
		(cd "$top" && HIVEBRIDGE="$top/$b/hivebridge" TOOLS="$top/$b/tools" WEB_SHOTS="$shots" \
			timeout 600 sh "$t" </dev/null) >"$out.out" 2>&1
		rc=$?
		[ $rc = 0 ] && ! grep -q "^$base: ok" "$out.out" && rc=1
	fi
	read -r t1 _ </proc/uptime
	secs=$(echo "$t0 $t1" | awk '{ printf "%d", $2 - $1 + 0.5 }')
	if [ $rc = 0 ]; then
		echo "PASS $name ($secs s)"
		echo "$secs $base" >"$out.pass"
	else
		echo "FAIL $name ($secs s)"
		echo "$secs $base" >"$out.fail"
		echo "$name" >"$out.name"
		# The whole output stays for people to read (the summary shows its end).
		mkdir -p "$top/$b/test-output"
		cp "$out.out" "$top/$b/test-output/$base.log"
	fi
	exit 0
fi

usage() {
	echo "usage: tests/run.sh [--unit-only] [-j JOBS] [-b BUILD_DIR]... [-u BUILD_DIR]... [-t NAME]... [NAME | BUILD_DIR]..." >&2
	exit 2
}
unit_only=0 jobs=${TEST_JOBS:-} names="" builds="" unit_builds=""
while [ $# -gt 0 ]; do
	case $1 in
	--unit-only) unit_only=1; shift ;;
	-j) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
	-j*) jobs=${1#-j}; shift ;;
	-t) [ $# -ge 2 ] || usage; names="$names $2"; shift 2 ;;
	-b) [ $# -ge 2 ] || usage; builds="$builds $2"; shift 2 ;;
	-u) [ $# -ge 2 ] || usage; unit_builds="$unit_builds $2"; shift 2 ;;
	--) shift ;;
	-*) usage ;;
	*)
		# A directory with a daemon in it is a build; anything else names tests.
		if [ -x "$top/$1/hivebridge" ] && [ -d "$top/$1" ]; then builds="$builds $1"; else names="$names $1"; fi
		shift ;;
	esac
done
case $jobs in '' | *[!0-9]* | 0) [ -z "$jobs" ] || usage ;; esac
[ -n "$builds" ] || builds=build
# shellcheck disable=SC2086
set -- $builds $unit_builds
[ -n "$jobs" ] || jobs=$(($(nproc 2>/dev/null || echo 1) * 3))
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
read -r t_run _ </proc/uptime

wanted() {   # NAME: true when no -t was given or NAME matches one
	[ -z "$names" ] && return 0
	set -f   # the patterns are for the test names, not for the files here
	for n in $names; do
		# shellcheck disable=SC2254
		case $1 in $n) set +f; return 0 ;; esac
	done
	set +f
	return 1
}

# The list, "SECONDS BUILD KIND PATH" a line; the last run's time orders it (a test
# never timed first: it may be long).
first=$1
for b in "$@"; do
	[ -d "$top/$b" ] || { echo "tests/run.sh: no build directory $b" >&2; exit 2; }
	times="$top/$b/test-times"
	for t in "$top/$b"/tests/*; do
		[ -f "$t" ] && [ -x "$t" ] || continue
		wanted "$(basename "$t")" || continue
		s=$(awk -v n="$(basename "$t")" '$2 == n { print $1 }' "$times" 2>/dev/null)
		echo "${s:-999} $b unit $t"
	done
	[ $unit_only = 1 ] && continue
	case " $unit_builds " in *" $b "*) continue ;; esac
	for t in "$top"/tests/integration/*.sh; do
		[ -f "$t" ] || continue
		wanted "$(basename "$t" .sh)" || continue
		[ "$b" = "$first" ] || ! grep -qx '# run.sh: once' "$t" || continue
		s=$(awk -v n="$(basename "$t" .sh)" '$2 == n { print $1 }' "$times" 2>/dev/null)
		echo "${s:-999} $b script $t"
	done
done | sort -rn >"$log/list"
[ -s "$log/list" ] || { echo "tests/run.sh: no test matches:$names" >&2; exit 2; }

# xargs runs JOBS at a time; each line's PASS/FAIL is printed as it ends.
cut -d' ' -f2- "$log/list" | xargs -P "$jobs" -L 1 sh "$top/tests/run.sh" --one "$log"
passed=$(ls "$log" | grep -c '\.pass$')
failed=$(ls "$log" | grep -c '\.fail$')
for b in "$@"; do
	# Keep the times of this run for the next one's order (a partial run updates its tests only).
	times="$top/$b/test-times"
	prefix=$(echo "$b" | tr / _)
	cat "$log/${prefix}"_*.pass "$log/${prefix}"_*.fail 2>/dev/null >"$log/new"
	[ -f "$times" ] || : >"$times"
	awk 'FILENAME == ARGV[1] { t[$2] = $1; next } !($2 in t) { t[$2] = $1 }
		END { for (n in t) print t[n], n }' "$log/new" "$times" >"$log/times" &&
		cp "$log/times" "$times"
done
failures=""
for f in "$log"/*.fail; do
	[ -f "$f" ] || continue
	out=${f%.fail}.out
	n=$(cat "${f%.fail}.name")
	failures="$failures $n"
	echo "==== FAIL $n (all $(wc -l <"$out") lines; also in $(dirname "$n")/test-output/$(basename "$n").log)"
	cat "$out"
done
[ -n "$failures" ] && echo "failed:$failures"
read -r t_end _ </proc/uptime
echo "time: $(echo "$t_run $t_end" | awk '{ printf "%d", $2 - $1 }') s ($jobs at a time)"
# Last and alone on its line: the form CI reads.
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
