#!/bin/sh
# run.sh: builds every tests/fuzz/fuzz_*.c with clang's libFuzzer, ASan and UBSan
# against the pure libraries (core/ and adapters/, as an archive so a target links
# only what it uses) in build-fuzz/, then runs each (or only those $FUZZ_TARGETS
# names) for ${FUZZ_SECONDS:-30} seconds.
# The runtime (bridge/, but main.c) is in the archive too: the INI target needs config.c,
# which reaches the protocol table and through it the whole runtime; the openings and
# results targets need only bridge/match/match_parse.c; the Redis reply target
# (fuzz_redis_reply) links hiredis for its reader. Seeds are written into
# build-fuzz/seed/<target>/ at each run from ../shared/data (never committed), from
# conf/ and from the game records of tests/data/records; -max_len is ${FUZZ_MAX_LEN:-65536} so that long game histories are reached.
# Fails with the apt-get line when clang or libFuzzer is missing (scripts/deps.sh).
# Crashes land in build-fuzz/crash-<target>-*; replay one with the gcc build:
# cc -I. tests/fuzz/X.c ...
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
B=build-fuzz
CLANG=${CLANG:-clang}
SECONDS_EACH=${FUZZ_SECONDS:-30}
MAX_LEN=${FUZZ_MAX_LEN:-65536}
DATA=${HIVE_DATA:-$top/../shared/data}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
# bridge/version.c wants the version from the build (targets that reach the runtime link it).
CFLAGS="-std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer -I. -DHIVEBRIDGE_VERSION=\"fuzz\" $(pkg-config --cflags libevent libcjson inih hiredis libcurl 2>/dev/null)"

# No clang or no libFuzzer is a failure that names the packages, never a silent pass.
sh scripts/deps.sh fuzz --check || exit 1
mkdir -p "$B/obj" "$B/corpus"
# The libraries, instrumented for coverage; a file that does not compile is left out
# (and said so): it can only matter to a target that needs it, whose link then fails.
rm -f "$B/libfuzz.a"
objs=""
for src in core/*.c adapters/*/*.c bridge/*.c bridge/*/*.c; do
	[ -f "$src" ] && [ "$src" != bridge/main.c ] || continue
	obj="$B/obj/$(echo "$src" | tr / _ | sed 's/\.c$/.o/')"
	if "$CLANG" $CFLAGS $SAN -fsanitize=fuzzer-no-link -c "$src" -o "$obj" 2>"$B/obj/err"; then
		objs="$objs $obj"
	else
		echo "fuzz: $src does not compile, left out"; head -n 5 "$B/obj/err"
	fi
done
ar rcs "$B/libfuzz.a" $objs

# Seeds: one file per line of the shared reference data (a GameString, then the
# move of its test case on a second line), the Trylobot frames, the example config.
seeds() {
	rm -rf "$B/seed"
	mkdir -p "$B/seed/fuzz_notation" "$B/seed/fuzz_trylobot" "$B/seed/fuzz_config" \
		"$B/seed/fuzz_openings" "$B/seed/fuzz_results"
	# A job as a worker reads it (XREADGROUP's answer, RESP) and XAUTOCLAIM's answer
	# with a deleted entry; fuzz_redis_job also fills a job's fields from its input.
	mkdir -p "$B/seed/fuzz_redis_job"
	job='*26\r\n$4\r\ngame\r\n$1\r\n3\r\n$5\r\nwhite\r\n$1\r\nb\r\n$7\r\nopening\r\n$37\r\nBase;InProgress;White[2];wS1;bS1 wS1-\r\n$4\r\ntype\r\n$4\r\nBase\r\n$5\r\ndepth\r\n$1\r\n0\r\n$8\r\nmovetime\r\n$1\r\n0\r\n$5\r\nclock\r\n$1\r\n0\r\n$3\r\ninc\r\n$1\r\n0\r\n$9\r\nmax_plies\r\n$2\r\n12\r\n$10\r\nrepetition\r\n$1\r\n3\r\n$8\r\nengine_a\r\n$15\r\nbuiltin:depth=1\r\n$8\r\nengine_b\r\n$16\r\nuhp:/bin/sh -c x\r\n$4\r\nlive\r\n$1\r\n1\r\n'
	printf "*1\r\n*2\r\n\$17\r\nhivebridge:m:jobs\r\n*1\r\n*2\r\n\$3\r\n0-3\r\n$job" >"$B/seed/fuzz_redis_job/read"
	printf "*3\r\n\$4\r\n0-11\r\n*2\r\n*2\r\n\$3\r\n0-3\r\n$job*-1\r\n*1\r\n\$3\r\n0-4\r\n" \
		>"$B/seed/fuzz_redis_job/claim"
	if [ -d "$DATA/mzinga" ]; then
		cat "$DATA"/mzinga/*.csv | tr -d '\r' | grep -v '^\(#\|\xef\)' | awk -F '\t' -v d="$B/seed/fuzz_notation" \
			'NF && n < 2000 { f = d "/s" n++; printf "%s\n%s", $1, $2 > f; close(f) }'
		# Openings files: a comment, a blank line and a few GameStrings each.
		cat "$DATA"/mzinga/*.csv | tr -d '\r' | grep -v '^\(#\|\xef\)' | awk -F '\t' -v d="$B/seed/fuzz_openings" \
			'NF && n < 1000 { k = int(n / 4); f = d "/o" k; if (n++ % 4 == 0) printf "# openings\n\n" >> f; printf "  %s \r\n", $1 >> f; close(f) }'
	fi
	# Results files as match writes them, the last line cut short by a kill.
	for k in 1 2 3; do
		for g in $(seq 1 $((k * 3))); do
			printf '{"game":%d,"white":"builtin","black":"uhp:x","engine_a":"white","gamestring":"Base;InProgress;White[1]","result":"1/2-1/2","reason":"plies","plies":%d,"a_score":0.5,"times_ms":[1,2]}\n' "$g" "$g"
		done >"$B/seed/fuzz_results/r$k"
		printf '{"game":%d,"a_sc' "$k" >>"$B/seed/fuzz_results/r$k"
	done
	# `hivebridge ratings` reads the same files.
	cp -r "$B/seed/fuzz_results" "$B/seed/fuzz_ratings"
	# Game records: the real games (PGN and SGF) of tests/data/records.
	mkdir -p "$B/seed/fuzz_record"
	cp tests/data/records/*.pgn tests/data/records/*.sgf "$B/seed/fuzz_record/"
	# The page's records (a byte 1 first) and archives (a byte 0 first: games one after
	# another, the last torn) (fuzz_archive.c).
	mkdir -p "$B/seed/fuzz_archive"
	for f in tests/data/records/HV-*.pgn tests/data/records/HV-*.sgf; do
		{ printf '\001'; cat "$f"; } >"$B/seed/fuzz_archive/r-$(basename "$f")"
	done
	{ printf '\000'; for f in tests/data/records/HV-A*.pgn; do cat "$f"; echo; done; head -c 300 "$f"; } \
		>"$B/seed/fuzz_archive/archive"
	[ -d "$DATA/trylobot" ] && cp "$DATA"/trylobot/*.frame "$B/seed/fuzz_trylobot/" 2>/dev/null
	# One connection's requests, 0xFF between them: every real one in turn, and
	# each one twice (the second read through the parse cache and the kept game).
	mkdir -p "$B/seed/fuzz_trylobot_next"
	for f in "$DATA"/trylobot/choose-turn-*.frame; do
		[ -f "$f" ] && { sed 's/^[0-9]*#//' "$f"; echo; }
	done | awk -v d="$B/seed/fuzz_trylobot_next" 'NF { r[n++] = $0 } END {
		f = d "/all"; for (i = 0; i < n; i++) printf "%s%s", i ? "\377" : "", r[i] > f; close(f)
		for (i = 0; i < n; i++) { f = d "/r" i; printf "%s\377%s", r[i], r[i] > f; close(f) } }'
	# The web API's bodies, each behind its route byte (fuzz_http_body.c).
	mkdir -p "$B/seed/fuzz_http_body"
	printf '\000{"engine":"builtin","color":"black","type":"Base+MLP","depth":2}' >"$B/seed/fuzz_http_body/start"
	printf '\201{"move":"wS1"}\000127.0.0.1:8080\000http://127.0.0.1:8080\000application/json\000Bearer 0123456789abcdef0123' \
		>"$B/seed/fuzz_http_body/move"
	printf '\002{"lobby":"remote","type":"Base+M","name":"alice"}' >"$B/seed/fuzz_http_body/join"
	printf '\003{"token":"00112233445566778899aabbccddeeff","move":"bQ -wS1"}' >"$B/seed/fuzz_http_body/seat"
	# Redis replies as the coordinator reads them (RESP): XREAD with a result, an
	# event and a dead job, XPENDING's summary, HMGET's pair, and wrong shapes.
	mkdir -p "$B/seed/fuzz_redis_reply"
	python3 tests/fuzz/redis_seeds.py "$B/seed/fuzz_redis_reply"
	# Request heads as browsers and the tests send them.
	mkdir -p "$B/seed/fuzz_http_head"
	printf 'GET /api/position?game=Base%%3BNotStarted%%3BWhite%%5B1%%5D&ply=0 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAccept: */*\r\nConnection: keep-alive\r\n\r\n' \
		>"$B/seed/fuzz_http_head/get"
	printf 'POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 17\r\nExpect: 100-continue\r\n\r\n' \
		>"$B/seed/fuzz_http_head/post"
	printf 'HEAD / HTTP/1.0\nUser-Agent: t\n\n' >"$B/seed/fuzz_http_head/head10"
	cp conf/hivebridge.conf "$B/seed/fuzz_config/example.conf"
	printf '[daemon]\nmax_sessions_per_peer = 4\n[listen x]\nidle_timeout = 0\ngame_idle_timeout = 2.5\n' \
		>"$B/seed/fuzz_config/keys.conf"
}
seeds

status=0
for t in tests/fuzz/fuzz_*.c; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .c)
	case " ${FUZZ_TARGETS:-$name} " in *" $name "*) ;; *) continue ;; esac
	if ! "$CLANG" $CFLAGS $SAN -fsanitize=fuzzer -DFUZZING_ENGINE "$t" "$B/libfuzz.a" \
		$(pkg-config --libs libevent libevent_pthreads libcjson inih hiredis libcurl 2>/dev/null) -lpthread -lm -o "$B/$name"; then
		echo "FAIL $name: does not build"
		status=1
		continue
	fi
	mkdir -p "$B/corpus/$name"
	echo "fuzz: $name for ${SECONDS_EACH}s"
	seed="$B/seed/$name"
	[ -d "$seed" ] || seed=
	if "$B/$name" -max_total_time="$SECONDS_EACH" -max_len="$MAX_LEN" -timeout=10 -print_final_stats=1 \
		-artifact_prefix="$B/crash-$name-" "$B/corpus/$name" $seed >"$B/$name.log" 2>&1; then
		echo "PASS $name ($(grep -o 'stat::number_of_executed_units: [0-9]*' "$B/$name.log" | sed 's/.*: //') runs)"
	else
		echo "FAIL $name"; tail -n 30 "$B/$name.log"
		status=1
	fi
done
exit $status
