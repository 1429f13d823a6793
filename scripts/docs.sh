#!/bin/sh
# docs.sh: the parts of the docs that the binary prints from its tables, written
# between their markers (a line naming the command, and "end generated"):
#   README.md            `hivebridge help config --markdown` (the Configuration table)
#   docs/hivebridge.1    `hivebridge help config --man` (CONFIGURATION's keys)
# Usage: scripts/docs.sh [--check] [BINARY]   (BINARY: build/hivebridge)
# --check changes nothing: it says which file differs and exits 1.
set -u
check=0
[ "${1:-}" = --check ] && { check=1; shift; }
H=${1:-build/hivebridge}
top=$(cd "$(dirname "$0")/.." && pwd)
status=0

# regen FILE BEGIN_MARKER END_MARKER ARGS...: FILE with what lies between the marker
# lines replaced by the output of `$H ARGS...`.
regen() {
	file=$1 begin=$2 end=$3
	shift 3
	out=$(mktemp) gen=$(mktemp)
	"$H" "$@" >"$gen" || { echo "docs.sh: $H $*: failed" >&2; rm -f "$out" "$gen"; exit 1; }
	# The markers through the environment: awk -v would take their backslashes as escapes.
	BEGIN_LINE=$begin END_LINE=$end GEN=$gen awk '
		$0 == ENVIRON["BEGIN_LINE"] {
			print; while ((getline l < ENVIRON["GEN"]) > 0) print l; skip = 1; found++; next
		}
		$0 == ENVIRON["END_LINE"] { skip = 0 }
		!skip { print }
		END { if (found != 1) exit 3 }' "$top/$file" >"$out"
	rc=$?
	if [ $rc != 0 ]; then
		echo "docs.sh: $file: want one line \"$begin\" then one \"$end\"" >&2
		status=1
	elif ! cmp -s "$out" "$top/$file"; then
		if [ $check = 1 ]; then
			echo "docs.sh: $file differs from \`hivebridge $*\` (run scripts/docs.sh):" >&2
			diff "$top/$file" "$out" | head -20 >&2
			status=1
		else
			cat "$out" >"$top/$file"
			echo "docs.sh: $file rewritten"
		fi
	fi
	rm -f "$out" "$gen"
}

regen README.md '<!-- generated: hivebridge help config --markdown -->' '<!-- end generated -->' \
	help config --markdown
regen docs/hivebridge.1 '.\" generated: hivebridge help config --man' '.\" end generated' \
	help config --man
exit $status
