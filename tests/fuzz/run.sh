#!/bin/sh
# run.sh: builds every tests/fuzz/fuzz_*.c with clang's libFuzzer, ASan and UBSan
# against the pure libraries (core/ and adapters/, as an archive so a target links
# only what it uses) in build-fuzz/, then runs each for ${FUZZ_SECONDS:-30} seconds.
# Fails with the apt-get line when clang or libFuzzer is missing (scripts/deps.sh).
# Crashes land in build-fuzz/crash-<target>-*; replay one with the gcc build:
# cc -I. tests/fuzz/X.c ...
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
B=build-fuzz
CLANG=${CLANG:-clang}
SECONDS_EACH=${FUZZ_SECONDS:-30}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
CFLAGS="-std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer -I. $(pkg-config --cflags libevent libcjson 2>/dev/null)"

# No clang or no libFuzzer is a failure that names the packages, never a silent pass.
sh scripts/deps.sh fuzz --check || exit 1
mkdir -p "$B/obj" "$B/corpus"
# The libraries, instrumented for coverage; a file that does not compile is left out
# (and said so): it can only matter to a target that needs it, whose link then fails.
rm -f "$B/libfuzz.a"
objs=""
for src in core/*.c adapters/*/*.c; do
	[ -f "$src" ] || continue
	obj="$B/obj/$(echo "$src" | tr / _ | sed 's/\.c$/.o/')"
	if "$CLANG" $CFLAGS $SAN -fsanitize=fuzzer-no-link -c "$src" -o "$obj" 2>"$B/obj/err"; then
		objs="$objs $obj"
	else
		echo "fuzz: $src does not compile, left out"; head -n 5 "$B/obj/err"
	fi
done
ar rcs "$B/libfuzz.a" $objs

status=0
for t in tests/fuzz/fuzz_*.c; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .c)
	if ! "$CLANG" $CFLAGS $SAN -fsanitize=fuzzer -DFUZZING_ENGINE "$t" "$B/libfuzz.a" \
		$(pkg-config --libs libevent libcjson 2>/dev/null) -lm -o "$B/$name"; then
		echo "FAIL $name: does not build"
		status=1
		continue
	fi
	mkdir -p "$B/corpus/$name"
	echo "fuzz: $name for ${SECONDS_EACH}s"
	if "$B/$name" -max_total_time="$SECONDS_EACH" -max_len=4096 -timeout=10 -print_final_stats=1 \
		-artifact_prefix="$B/crash-$name-" "$B/corpus/$name" >"$B/$name.log" 2>&1; then
		echo "PASS $name ($(grep -o 'stat::number_of_executed_units: [0-9]*' "$B/$name.log" | sed 's/.*: //') runs)"
	else
		echo "FAIL $name"; tail -n 30 "$B/$name.log"
		status=1
	fi
done
exit $status
