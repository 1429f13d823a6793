#!/bin/sh
# build.sh: the Makefile's promises, in a copy of the source tree (the real build
# directories are left alone): a second make rebuilds nothing; a touched header, or
# new flags (PREFIX moves the compiled-in DATADIR), rebuild; the daemon does not
# link CUnit; make fuzz without clang fails with the apt-get line; make install
# with DESTDIR puts every file in place, the man page renders without a warning
# and systemd-analyze accepts the installed unit.
# run.sh: once
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
shared=$(cd "${HIVE_DATA:-$top/../shared/data}/.." && pwd)
. "$top/tests/lib/procs.sh"
# scripts/deps.sh test installs these.
need make cc readelf groff man systemd-analyze
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

src=$tmp/src
mkdir "$src"
(cd "$top" && cp -R GNUmakefile setup core adapters bridge tests scripts conf docs schemas "$src/") \
	|| fail "cannot copy the tree"
m() { make -C "$src" --no-print-directory SHARED="$shared" OPT=-O0 "$@"; }

# The daemon and one unit test (the whole of `make all` costs minutes, and every
# binary is built by the same two rules as these).
goal="build/hivebridge build/tests/test_perft"
# shellcheck disable=SC2086
m -j2 $goal >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "make $goal"; }
# shellcheck disable=SC2086
m -q $goal || fail "make -q $goal: something would be rebuilt right after a build"
# shellcheck disable=SC2086
out=$(m -s -n $goal) || fail "make -n $goal"
[ -z "$out" ] || { echo "$out"; fail "make -n $goal after a build prints commands"; }
m -q || fail "make -q (the default goal) after a build"

# Dependencies are tracked: a header rebuilds its users, and only them (a header
# with two, so that the check costs two compilations, not the whole tree again).
touch "$src/bridge/server.h"
# shellcheck disable=SC2086
m -q $goal && fail "make -q after touching bridge/server.h says nothing to do"
# shellcheck disable=SC2086
m -j2 $goal >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "make after a touch"; }
users=$(cd "$src" && grep -rl --include='*.c' '#include "bridge/server.h"' . | sed 's|^\./||' | sort | tr '\n' ' ')
built=$(sed -n 's/.* -c \([^ ]*\.c\) .*/\1/p' "$tmp/build.log" | sort | tr '\n' ' ')
[ -n "$users" ] && [ "$built" = "$users" ] ||
	{ cat "$tmp/build.log"; fail "touching bridge/server.h compiled '$built', its users are '$users'"; }
# shellcheck disable=SC2086
m -q $goal || fail "make -q after the rebuild"

# Flags are part of the build: a new DATADIR rebuilds.
# shellcheck disable=SC2086
m -q PREFIX=/opt/elsewhere $goal && fail "a new PREFIX (compiled-in DATADIR) rebuilds nothing"
# shellcheck disable=SC2086
m -q $goal || fail "asking about a new PREFIX changed the build"

# make run needs no test package: the daemon does not link CUnit.
readelf -d "$src/build/hivebridge" | grep -q 'libcunit' && fail "build/hivebridge links CUnit"
readelf -d "$src/build/tests/test_perft" | grep -q 'libcunit' || fail "the unit tests do not link CUnit"

# make fuzz without clang: fails, and says what to install.
CLANG=/nonexistent/clang m fuzz >"$tmp/fuzz.log" 2>&1 && fail "make fuzz without clang exits 0"
grep -q '^  apt-get update && apt-get install -y --no-install-recommends .*clang libclang-rt-14-dev' \
	"$tmp/fuzz.log" || { cat "$tmp/fuzz.log"; fail "make fuzz without clang does not print the apt-get line"; }

# make install into DESTDIR, at the build's own PREFIX: nothing is rebuilt.
dest=$tmp/dest
m install DESTDIR="$dest" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "make install"; }
grep -q ' -c ' "$tmp/install.log" && fail "make install rebuilt objects"
for f in /usr/local/bin/hivebridge /usr/local/share/man/man1/hivebridge.1 \
	/etc/hivebridge/hivebridge.conf /usr/local/lib/systemd/system/hivebridge.service \
	/usr/local/share/hivebridge/data/perft_startpos.tsv; do
	[ -f "$dest$f" ] || fail "make install did not install $f"
done
[ -x "$dest/usr/local/bin/hivebridge" ] || fail "the installed binary is not executable"
n_src=$(find "$shared/data" -type f | wc -l)
n_dst=$(find "$dest/usr/local/share/hivebridge/data" -type f | wc -l)
[ "$n_src" = "$n_dst" ] && [ "$n_src" -gt 0 ] || fail "data: $n_dst files installed of $n_src"
# An admin's configuration is never overwritten.
echo '; mine' >"$dest/etc/hivebridge/hivebridge.conf"
m install DESTDIR="$dest" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "make install again"; }
[ "$(cat "$dest/etc/hivebridge/hivebridge.conf")" = '; mine' ] || fail "make install overwrote the configuration"

# The man page: renders, with every warning on, and covers every subcommand.
page=$dest/usr/local/share/man/man1/hivebridge.1
warn=$(groff -man -Tutf8 -ww -rCHECKSTYLE=3 -z "$page" 2>&1)
[ -z "$warn" ] || { echo "$warn"; fail "groff warns about hivebridge.1"; }
text=$(MANWIDTH=80 man -l "$page" 2>"$tmp/man.err") || { cat "$tmp/man.err"; fail "man -l hivebridge.1"; }
[ -s "$tmp/man.err" ] && { cat "$tmp/man.err"; fail "man -l warns about hivebridge.1"; }
for s in "hivebridge uhp" "hivebridge hub" "hivebridge serve" "hivebridge check" "hivebridge match" \
	"hivebridge perft" "hivebridge worker" "hivebridge bot" CONFIGURATION "[daemon]" "[engine NAME]" "[listen NAME]" \
	"[site NAME]" "[queue]"; do
	echo "$text" | grep -qF "$s" || fail "the man page does not cover $s"
done

# The unit, installed at a real prefix so that its paths exist, passes systemd-analyze.
pre=$tmp/prefix
m -j2 install PREFIX="$pre" SYSCONFDIR="$pre/etc" >"$tmp/install.log" 2>&1 \
	|| { cat "$tmp/install.log"; fail "make install PREFIX=$pre"; }
grep -qx "ExecStart=$pre/bin/hivebridge serve --config $pre/etc/hivebridge/hivebridge.conf" \
	"$pre/lib/systemd/system/hivebridge.service" || fail "the installed unit does not run the installed binary"
MANPATH=$pre/share/man systemd-analyze verify "$pre/lib/systemd/system/hivebridge.service" \
	|| fail "systemd-analyze verify hivebridge.service"
echo "build: ok: no rebuild after a build, dependencies and flags tracked, install and unit checked"
