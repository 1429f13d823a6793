#!/bin/sh
# test-fresh.sh (make test-fresh): the README's two commands on a fresh Debian 12.
# Debootstraps a minbase bookworm root (plus git and ca-certificates) in a temporary
# folder, puts a clean clone of HEAD and ../shared in it, mounts /proc, /sys, /dev,
# /dev/pts and /dev/shm, and runs there, as a new user would:
#   ./setup make run   as nobody: must fail and print the apt-get lines;
#                      as root: installs, builds, serves; we wait for "listening on",
#                      talk UHP to it, stop it with SIGTERM, and check that it exited 0
#                      and installed none of the test packages;
#   ./setup make test TESTS="..."
#                      installs the rest, builds both builds and runs the smoke
#                      subset of the tests listed in tests/smoke.list (one test for
#                      each thing the install brings; the whole suite is make test's).
# Every mount is undone and every process in the root killed on the way out, failure
# or not. Needs root and debootstrap. Prints how long each step took.
#   MIRROR       Debian mirror (default http://deb.debian.org/debian)
#   FRESH_CACHE  where the debootstrap tarball is kept (default ~/.cache/hivebridge;
#                empty: no cache). It holds only the minbase+git root's own .debs, so
#                every run still starts from a root with nothing of ours installed.
#   FRESH_KEEP=1 leave the root in place (mounts are undone all the same).
#   SHARED       the shared folder (default ../shared; relative to the repository, or absolute)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
# The folder itself, should it be a link.
shared=$(cd "$top" && cd "${SHARED:-../shared}" && pwd -P)
MIRROR=${MIRROR:-http://deb.debian.org/debian}
cache=${FRESH_CACHE-${XDG_CACHE_HOME:-$HOME/.cache}/hivebridge}
tarball=$cache/bookworm-minbase-git.tgz
include=git,ca-certificates

say() { echo "test-fresh: $*"; }
[ "$(id -u)" = 0 ] || { say "needs root (debootstrap, chroot, mount)"; exit 1; }
command -v debootstrap >/dev/null 2>&1 || {
	say "needs debootstrap; as root: apt-get install -y --no-install-recommends debootstrap"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/var/tmp}/hivebridge-fresh.XXXXXX")
root=$work/root
mkdir "$root"
: >"$work/mounts"
times=""
t_all=$(date +%s)

# Kills what still runs inside the root, undoes our mounts (last first) and removes
# the folder only when nothing is mounted under it any more.
cleanup() {
	rc=$?
	trap - EXIT INT TERM
	t=$(date +%s)
	for p in /proc/[0-9]*; do
		case $(readlink "$p/root" 2>/dev/null) in
		"$root" | "$root"/*) kill -KILL "${p#/proc/}" 2>/dev/null || : ;;
		esac
	done
	deadline=$(($(date +%s) + 10))
	while :; do
		left=0
		for p in /proc/[0-9]*; do
			case $(readlink "$p/root" 2>/dev/null) in "$root" | "$root"/*) left=1 ;; esac
		done
		[ $left = 0 ] || [ "$(date +%s)" -ge $deadline ] && break
		sleep 0.1
	done
	[ $left = 0 ] || say "processes still in the root after SIGKILL"
	t_kill=$(($(date +%s) - t))
	tac "$work/mounts" | while read -r m; do
		umount "$m" 2>/dev/null || umount -l "$m" || say "cannot unmount $m"
	done
	t_umount=$(($(date +%s) - t - t_kill))
	if grep -q " $work/" /proc/self/mounts; then
		say "still mounted under $work: not removing it"; rc=1
	elif [ "${FRESH_KEEP:-0}" = 1 ]; then
		say "root kept in $root"
	else
		rm -rf --one-file-system "$work"
	fi
	d=$(($(date +%s) - t))
	echo "test-fresh: teardown: $d s (processes $t_kill s, mounts $t_umount s, files $((d - t_kill - t_umount)) s)"
	printf '%b' "$times"
	echo "test-fresh: total: $(($(date +%s) - t_all)) s"
	[ $rc = 0 ] && say "PASS" || say "FAIL (status $rc)"
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

step=""; t_step=0
begin() { step=$1; t_step=$(date +%s); say "== $step"; }
end() {
	d=$(($(date +%s) - t_step))
	times="$times  $step: $d s\n"
	say "== $step: $d s"
}
mnt() { # mnt DIR mount-args...: mounts, private so nothing propagates back to the host
	d=$1; shift
	mount "$@" "$d"
	echo "$d" >>"$work/mounts"
	mount --make-rprivate "$d"
}
in_root() { # in_root USER COMMAND: a login-like clean environment in the root
	chroot --userspec="$1" "$root" /usr/bin/env -i HOME=/root TERM=dumb \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin $node_ca sh -c "$2"
}
node_ca=

if [ -n "$cache" ] && [ -f "$tarball" ]; then
	begin "debootstrap (from the cached $tarball)"
	debootstrap --variant=minbase --include=$include --unpack-tarball="$tarball" \
		bookworm "$root" "$MIRROR" >"$work/debootstrap.log" 2>&1 \
		|| { tail -n 20 "$work/debootstrap.log"; exit 1; }
	end
else
	if [ -n "$cache" ]; then
		begin "debootstrap --make-tarball (download)"
		mkdir -p "$cache"
		debootstrap --variant=minbase --include=$include --make-tarball="$tarball.part" \
			bookworm "$work/tarball" "$MIRROR" >"$work/debootstrap.log" 2>&1 \
			|| { tail -n 20 "$work/debootstrap.log"; exit 1; }
		mv "$tarball.part" "$tarball"
		end
		begin "debootstrap (unpack)"
		debootstrap --variant=minbase --include=$include --unpack-tarball="$tarball" \
			bookworm "$root" "$MIRROR" >"$work/debootstrap.log" 2>&1 \
			|| { tail -n 20 "$work/debootstrap.log"; exit 1; }
	else
		begin "debootstrap"
		debootstrap --variant=minbase --include=$include bookworm "$root" "$MIRROR" \
			>"$work/debootstrap.log" 2>&1 || { tail -n 20 "$work/debootstrap.log"; exit 1; }
	fi
	end
fi

begin "clean clone of HEAD and ../shared"
rev=$(git -C "$top" rev-parse HEAD)
git clone -q --no-checkout "$top" "$root/srv/hivebridge"
git -C "$root/srv/hivebridge" checkout -q --detach "$rev"
cp -R "$shared" "$root/srv/shared"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# What the Debian installer writes and debootstrap does not: without it "localhost"
# does not resolve in the root, as it does on any installed machine.
[ -s "$root/etc/hosts" ] || printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >"$root/etc/hosts"
# The host's own certificate authorities (a network that inspects TLS on its way
# out, say): like resolv.conf, what the network needs, not what the project needs.
# The browser test's npm then reaches its registry as it does on the host.
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
	mkdir -p "$root/usr/local/share/ca-certificates"
	cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
	chroot "$root" update-ca-certificates >/dev/null 2>&1 || say "update-ca-certificates failed in the root"
	node_ca=NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
fi
printf '[listen uhp]\nprotocol = uhp\naddress = 127.0.0.1\nport = 0\nengine = builtin\n' >"$root/srv/fresh.conf"
say "HEAD $rev"
end

begin "mounts"
mnt "$root/proc" -t proc proc
mnt "$root/sys" -t sysfs sysfs
mnt "$root/dev" --bind /dev
mnt "$root/dev/pts" --bind /dev/pts
mnt "$root/dev/shm" -t tmpfs -o mode=1777,nosuid,nodev shm
end

# Nothing of ours is there yet: not even make.
for c in make cc pkg-config python3 pgrep; do
	if in_root 0:0 "command -v $c" >/dev/null; then say "the fresh root already has $c"; exit 1; fi
done

begin "./setup make run as nobody (must fail with the apt-get lines)"
if in_root nobody:nogroup "cd /srv/hivebridge && ./setup make run" >"$work/nobody.log" 2>&1; then
	cat "$work/nobody.log"; say "setup succeeded as nobody on a fresh root"; exit 1
fi
line_nobody=$(sed -n 's/^  \(apt-get update && apt-get install .*\)$/\1/p' "$work/nobody.log")
[ -n "$line_nobody" ] || { cat "$work/nobody.log"; say "no apt-get line printed"; exit 1; }
say "printed: $line_nobody"
end

# The run command, bounded: installs and builds, then serves until we stop it. The
# config only moves the UHP listener to a free port (this host may serve 5000 itself).
begin "./setup make run (install, build, serve)"
in_root 0:0 'cd /srv/hivebridge && exec ./setup make run ARGS="--config /srv/fresh.conf"' \
	>"$work/run.log" 2>&1 &
run_pid=$!
port=""
deadline=$(($(date +%s) + 1800))
while [ -z "$port" ]; do
	port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9][0-9]*\) (uhp)$/\1/p' "$work/run.log")
	[ -n "$port" ] && break
	kill -0 $run_pid 2>/dev/null || { cat "$work/run.log"; say "./setup make run exited before listening"; exit 1; }
	[ "$(date +%s)" -lt $deadline ] || { tail -n 30 "$work/run.log"; say "not listening after 1800 s"; exit 1; }
	sleep 0.5
done
line_root=$(sed -n 's/^deps: \(apt-get update && apt-get install .*\)$/\1/p' "$work/run.log")
[ "$line_root" = "$line_nobody" ] || {
	say "root ran:  $line_root"; say "nobody saw: $line_nobody"; say "the two lines differ"; exit 1; }
end

begin "UHP on port $port"
# bash's /dev/tcp: the fresh root has no nc. The daemon closes the session on "exit".
in_root 0:0 "exec bash -c 'exec 3<>/dev/tcp/127.0.0.1/$port && printf \"newgame Base\\nplay wS1\\nexit\\n\" >&3 && exec timeout 10 cat <&3'" \
	>"$work/uhp.log" 2>&1 || { cat "$work/uhp.log"; say "UHP session failed"; exit 1; }
cat "$work/uhp.log"
grep -q '^id hivebridge' "$work/uhp.log" && grep -q '^Base;InProgress;Black\[1\];wS1$' "$work/uhp.log" \
	|| { say "unexpected UHP answers"; exit 1; }
end

begin "SIGTERM"
daemon=""
for p in /proc/[0-9]*; do
	[ "$(readlink "$p/exe" 2>/dev/null)" = "$root/srv/hivebridge/build/hivebridge" ] && daemon=${p#/proc/}
done
[ -n "$daemon" ] || { say "no hivebridge process in the root"; exit 1; }
kill -TERM "$daemon"
deadline=$(($(date +%s) + 20))
while kill -0 $run_pid 2>/dev/null; do
	[ "$(date +%s)" -lt $deadline ] || { tail -n 20 "$work/run.log"; say "still running 20 s after SIGTERM"; exit 1; }
	sleep 0.1
done
wait $run_pid && run_rc=0 || run_rc=$?
[ $run_rc = 0 ] || { tail -n 20 "$work/run.log"; say "./setup make run exited $run_rc after SIGTERM"; exit 1; }
for p in libcunit1-dev python3 python3-jsonschema; do
	if in_root 0:0 "dpkg-query -W -f='\${Status}' $p 2>/dev/null | grep -q 'install ok installed'"; then
		say "./setup make run installed $p, a test-only package"; exit 1
	fi
done
end

smoke=$(sed 's/#.*//' "$top/tests/smoke.list" | xargs)
[ -n "$smoke" ] || { say "tests/smoke.list names no test"; exit 1; }
begin "./setup make test TESTS=\"$smoke\""
( rc=0; in_root 0:0 "cd /srv/hivebridge && ./setup make test TESTS='$smoke'" 2>&1 || rc=$?; echo $rc >"$work/test.rc" ) |
	tee "$work/test.log"
[ "$(cat "$work/test.rc")" = 0 ] || { say "./setup make test failed"; exit 1; }
end
