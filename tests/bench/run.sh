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

# Perft of the build users get (build/, from `make`), and of this bench build; with
# NOKAMUTE=/path/to/nokamute, nokamute's single-thread perft of the same depth right
# after each, and our time over its (several interleaved rounds: the machine is shared).
ms_of() {   # our "perft(D) = N in T ms" line -> T
	sed -n "s/^perft($1) = [0-9]* in \([0-9]*\) ms.*/\1/p"
}
nk_ms_of() {   # nokamute's "  D  N  T(ms|µs|s)  kn/s" line -> milliseconds
	awk -v d="$1" '$1 == d { t = $3; f = 1
		if (t ~ /ms$/) { sub(/ms$/, "", t) } else if (t ~ /µs$/) { sub(/µs$/, "", t); f = 0.001 }
		else if (t ~ /ns$/) { sub(/ns$/, "", t); f = 0.000001 } else { sub(/s$/, "", t); f = 1000 }
		printf "%.2f\n", t * f; exit }'
}
perft_vs() {   # binary, game type, depth
	echo "== $1 perft --type $2 $3"
	"$1" perft --type "$2" "$3" | tail -1 || status=1
	[ -n "${NOKAMUTE:-}" ] || { echo; return; }
	[ -x "$NOKAMUTE" ] || { echo "bench: NOKAMUTE=$NOKAMUTE is not executable" >&2; status=1; return; }
	for round in 1 2 3; do
		ours=$("$1" perft --type "$2" "$3" | ms_of "$3")
		# nokamute counts on to deeper depths: stop it once the line is out.
		theirs=$(timeout 60 "$NOKAMUTE" perft "$2" 2>&1 | nk_ms_of "$3")
		awk -v a="$ours" -v b="$theirs" -v r="$round" -v t="$2" -v d="$3" 'BEGIN {
			if (b > 0) printf "round %d: %s perft(%d) %s ms, nokamute %s ms: ratio %.2f\n", r, t, d, a, b, a / b
			else print "bench: no nokamute figure" }'
	done
	echo
}
[ -x build/hivebridge ] && for t in "Base 6" "Base+MLP 5"; do
	perft_vs build/hivebridge $t
done
perft_vs "$b/hivebridge" Base 6
perft_vs "$b/hivebridge" Base+MLP 5
# The soak: abusive clients, a bystander's latency, idle sessions (SOAK_SECONDS).
run python3 tests/bench/soak.py "$b/hivebridge"
run python3 tests/bench/queue.py "$b/hivebridge"
# hivegame.com's bot API: 20 games at once through a token expiry and a 30 s outage.
run sh tests/bench/hivegame_soak.sh "$b/hivebridge" 20 30
for t in "$b"/bench/*; do
	[ -f "$t" ] && [ -x "$t" ] || continue
	run "$t"
done
exit $status
