#!/bin/sh
# readme_layout.sh: the README's Layout section is true of the tree. Every directory
# and file it names exists, and every directory of core/, adapters/ and bridge/ is
# named. A line that starts with a directory ("bridge/match/") sets where the names
# after it are (a bare "uhp/" on the adapters/ line is adapters/uhp/, "board.c" on
# the core/ line is a file somewhere under core/); a name with a top-level folder in
# it ("bridge/live.c", "docs/web.md") is from the root. <p>_codec and the like are
# patterns, not names. Files not named are fine: the list names what to read first.
# run.sh: once
set -u
. tests/lib/procs.sh
need awk find
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

block=$(awk '/^## Layout/ { on = 1; next } on && /^```/ { n++; if (n == 2) exit; next } on && n == 1' README.md)
[ -n "$block" ] || { echo "FAIL: README.md: no Layout block" >&2; exit 1; }

# "D dir" and "F file under" for each name, resolved as said above.
names=$(printf '%s\n' "$block" | awk '
	function top(t) { return t ~ /^(core|adapters|bridge|schemas|conf|docs|scripts|tests)\// }
	{
		if (match($0, /^[a-z][a-z\/]*\/ /)) {
			cur = substr($0, 1, RLENGTH - 1)
			print "D " cur
		}
		n = split($0, w, /[ ,;:()`]+/)
		for (i = 1; i <= n; i++) {
			t = w[i]
			if (t == "" || t ~ /[<>]/ || t == cur)
				continue
			if (t ~ /^[A-Za-z0-9_\/.-]+\/$/)
				print "D " (top(t) ? t : cur t)
			else if (t ~ /^[A-Za-z0-9_\/-]+\.(c|h|md|js|json|sh|py|conf|service)$/)
				print (t ~ /\// ? "F " (top(t) ? t : cur t) : "N " t " " cur)
		}
	}')
count=0
while read -r kind a b; do
	count=$((count + 1))
	case $kind in
	D) [ -d "$a" ] || fail "Layout names $a: no such directory" ;;
	F) [ -f "$a" ] || fail "Layout names $a: no such file" ;;
	N) [ -n "$(find "$b" -name "$a" -type f | head -n 1)" ] || fail "Layout names $a: not under $b" ;;
	esac
done <<NAMES
$names
NAMES
for d in $(find core adapters bridge -type d | sort); do
	printf '%s\n' "$names" | grep -qx "D $d/" || fail "Layout does not name $d/"
done
[ $fails = 0 ] || exit 1
echo "readme_layout: ok ($count names, every directory of core/ adapters/ bridge/)"
