#!/bin/sh
# Benchmarks: prints figures, judges nothing. Called by `make bench` with the bench
# build directory as $1 (default build-bench):
#   - perft from the start of Base (depth 6) and Base+MLP (depth 5), through the binary;
#   - the soak (tests/bench/soak.py): RSS, threads, descriptors under abuse and idle;
#   - match --queue and worker through a redis-server of its own (tests/bench/queue.py):
#     games per minute with 1, 2 and 4 workers, the coordinator's cost per game;
#   - every benchmark binary in $1/bench/ (bench_relay needs the fake UHP engine,
#     and pipe_relay, built here into $1/tools/ if missing).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
b=${1:-build-bench}
HIVE_DATA=${HIVE_DATA:-$top/../shared/data}
export HIVE_DATA
status=0

for tool in fake_uhp_engine pipe_relay; do
	[ -x "$b/tools/$tool" ] && continue
	make --no-print-directory B="$b" OPT="-O3 -g -DNDEBUG" "$b/tools/$tool" >/dev/null ||
		echo "bench: cannot build $b/tools/$tool" >&2
done

run() {
	echo "== $*"
	"$@" || { echo "bench: $1 failed with status $?" >&2; status=1; }
	echo
}

run "$b/hivebridge" perft --type Base 6
run "$b/hivebridge" perft --type Base+MLP 5
# The soak: abusive clients, a bystander's latency, idle sessions (SOAK_SECONDS).
run python3 tests/bench/soak.py "$b/hivebridge"
run python3 tests/bench/queue.py "$b/hivebridge"
for t in "$b"/bench/*; do
	[ -f "$t" ] && [ -x "$t" ] || continue
	run "$t"
done
exit $status
