#!/bin/sh
# deps.sh JOB [--check]: makes sure this machine can do JOB ("run": build and run
# the daemon; "test": build and run every test; "fuzz": make fuzz; "fresh": make
# test-fresh). The check is what the job needs,
# not package names: the tools, a tiny C file compiled and linked against the
# libraries pkg-config names (with the sanitizers for "test"), the Python modules.
# When it fails: as root, apt-get update and install the job's whole package list;
# otherwise (or with --check) print those same two apt-get lines and fail.
set -u
job=${1:-}
mode=${2:-install}

# One list per job, each package with its reason (README: "The two commands").
run_pkgs="make gcc libc6-dev pkg-config libevent-dev libcjson-dev libinih-dev libhiredis-dev libcurl4-openssl-dev"
test_pkgs="$run_pkgs libcunit1-dev python3 python3-jsonschema procps groff-base man-db systemd redis-server chromium"
fuzz_pkgs="$run_pkgs clang libclang-rt-14-dev"
fresh_pkgs="make git debootstrap"
# The browser tests' node and npm, unless both are here already: NodeSource's nodejs
# bundles npm and conflicts with Debian's npm package, so asking apt for both would fail.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	test_pkgs="$test_pkgs nodejs npm"
fi
case $job in
run) pkgs=$run_pkgs ;;
test) pkgs=$test_pkgs ;;
fuzz) pkgs=$fuzz_pkgs ;;
fresh) pkgs=$fresh_pkgs ;;
*) echo "usage: scripts/deps.sh run|test|fuzz|fresh [--check]" >&2; exit 2 ;;
esac
update="apt-get update"
install="apt-get install -y --no-install-recommends $pkgs"

# probe: prints what is missing, one line each; silent when the job can run.
probe() {
	if [ "$job" = fresh ]; then
		for c in make git debootstrap chroot mount; do
			command -v $c >/dev/null 2>&1 || echo "command $c"
		done
		return 0
	fi
	for c in make cc ar pkg-config; do
		command -v $c >/dev/null 2>&1 || echo "command $c"
	done
	command -v cc >/dev/null 2>&1 && command -v pkg-config >/dev/null 2>&1 || return 0
	libs="libevent libevent_pthreads libcjson inih hiredis libcurl"
	pkg-config --exists $libs 2>/dev/null || { echo "pkg-config modules: $libs"; return 0; }
	d=$(mktemp -d) || return 0
	cat >"$d/p.c" <<-'EOF'
	#include <sys/types.h>
	#include <math.h>
	#include <pthread.h>
	#include <event2/event.h>
	#include <event2/thread.h>
	#include <cJSON.h>
	#include <ini.h>
	#include <hiredis/hiredis.h>
	#include <hiredis/async.h>
	#include <hiredis/adapters/libevent.h>
	#include <curl/curl.h>
	#ifdef WITH_CUNIT
	#include <CUnit/Basic.h>
	#endif
	static int on_kv(void *u, const char *s, const char *k, const char *v)
	{ (void)u; (void)s; (void)k; (void)v; return 1; }
	int main(void)
	{
		struct event_base *b;
		cJSON *j = cJSON_Parse("{}");
		volatile double x = 2.0;
		redisAsyncContext *rc;
		if (evthread_use_pthreads() != 0 || !(b = event_base_new()) || !j)
			return 1;
		/* Nothing listens on port 1: the context exists, its connect fails later. */
		if (!(rc = redisAsyncConnect("127.0.0.1", 1)) || redisLibeventAttach(rc, b) != REDIS_OK)
			return 1;
		redisAsyncFree(rc);
		if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0)
			return 1;
		curl_global_cleanup();
		event_base_free(b);
		cJSON_Delete(j);
	#ifdef WITH_CUNIT
		if (CU_initialize_registry() != CUE_SUCCESS)
			return 1;
		CU_cleanup_registry();
	#endif
		return ini_parse_string("[a]\nb = c\n", on_kv, NULL) != 0 || sqrt(x) < 1.0;
	}
	EOF
	flags="-std=c11 -D_GNU_SOURCE $(pkg-config --cflags $libs)"
	ldlibs="$(pkg-config --libs $libs) -lpthread -lm"
	if ! cc $flags "$d/p.c" -o "$d/p" $ldlibs >"$d/err" 2>&1 || ! "$d/p"; then
		echo "a C program against $libs does not build or run:"; sed 's/^/  /' "$d/err" | head -n 5
	elif [ "$job" = test ]; then
		# The unit tests link CUnit; make test builds everything again with ASan+UBSan.
		cc $flags -DWITH_CUNIT -fsanitize=address,undefined "$d/p.c" -o "$d/p" $ldlibs -lcunit >"$d/err" 2>&1 \
			&& "$d/p" || { echo "the same with CUnit and -fsanitize=address,undefined:"
				sed 's/^/  /' "$d/err" | head -n 5; }
	fi
	if [ "$job" = fuzz ]; then
		printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$d/f.c"
		${CLANG:-clang} -fsanitize=fuzzer,address,undefined "$d/f.c" -o "$d/f" >"$d/err" 2>&1 \
			|| { echo "${CLANG:-clang} with libFuzzer:"; sed 's/^/  /' "$d/err" | head -n 5; }
	fi
	rm -rf "$d"
	[ "$job" = test ] || return 0
	# The browser test (tests/integration/web_browser.sh): Chromium, and node with npm
	# to install puppeteer-core from tests/browser/package-lock.json.
	[ -x /usr/bin/chromium ] || echo "command /usr/bin/chromium"
	for c in python3 pgrep ps groff man systemd-analyze redis-server node npm; do
		command -v $c >/dev/null 2>&1 || echo "command $c"
	done
	command -v python3 >/dev/null 2>&1 && ! python3 -c 'import jsonschema' 2>/dev/null \
		&& echo "python3 module jsonschema"
	# match_queue.sh starts a real Redis (XAUTOCLAIM needs 6.2 or later).
	command -v redis-server >/dev/null 2>&1 && ! redis-server --version >/dev/null 2>&1 \
		&& echo "redis-server that runs"
	return 0
}

missing=$(probe)
[ -z "$missing" ] && exit 0
echo "deps: this machine cannot $job yet:" >&2
echo "$missing" | sed 's/^/  /' >&2
if [ "$mode" = --check ] || [ "$(id -u)" != 0 ]; then
	echo "deps: as root, run:" >&2
	echo "  $update && $install" >&2
	target=$job
	[ "$job" = fresh ] && target=test-fresh
	[ "$mode" = --check ] && echo "  (or ./setup make $target, which does it and goes on)" >&2
	exit 1
fi
echo "deps: $update && $install" >&2
export DEBIAN_FRONTEND=noninteractive
$update >&2 && $install >&2 || { echo "deps: apt-get failed" >&2; exit 1; }
missing=$(probe)
[ -z "$missing" ] && exit 0
echo "deps: still missing after the install (a bug in scripts/deps.sh's list):" >&2
echo "$missing" | sed 's/^/  /' >&2
exit 1
