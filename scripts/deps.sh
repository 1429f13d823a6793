#!/bin/sh
# Checks the Debian packages hivebridge builds and tests with; installs the missing
# ones when run as root, otherwise prints the exact apt-get line and fails.
set -u
pkgs="gcc make pkg-config libevent-dev libcjson-dev libcunit1-dev libinih-dev python3 python3-jsonschema"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "deps: installing$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing >&2 || {
		echo "deps: apt-get failed" >&2; exit 1; }
else
	echo "deps: missing Debian packages; run as root:" >&2
	echo "  apt-get install -y$missing" >&2
	exit 1
fi
