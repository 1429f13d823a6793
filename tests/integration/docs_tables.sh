#!/bin/sh
# docs_tables.sh: the docs say what the binary's tables hold.
#  - the README's Configuration table and the man page's CONFIGURATION keys are
#    `hivebridge help config --markdown` / `--man` (config.c's key table), as
#    scripts/docs.sh writes them;
#  - every configuration key is in the example conf/hivebridge.conf, which says it
#    comments every key;
#  - every subcommand of `hivebridge --help` (main.c's command table and the
#    protocols served on stdio) is in the README's Usage and the man page's
#    SYNOPSIS, and has a section under COMMANDS (but help and version);
#  - every flag a subcommand's --help names is in its SYNOPSIS lines, its section or
#    OPTIONS;
#  - every protocol a listener can serve is named in the man page;
#  - the man page's title carries the version the binary prints.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need awk
MAN=docs/hivebridge.1
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

sh scripts/docs.sh --check "$HIVEBRIDGE" || fail "generated docs out of date"

keys=$("$HIVEBRIDGE" help config | awk '/^  [a-z]/ { print $1 }')
[ "$(echo "$keys" | wc -l)" -ge 50 ] || fail "help config lists $(echo "$keys" | wc -l) keys"
for k in $keys; do
	grep -q "^;* *$k = " conf/hivebridge.conf || fail "conf/hivebridge.conf: no $k"
done

# The man page's text for a subcommand: its SYNOPSIS lines, its section, OPTIONS.
man_part() {
	awk -v cmd="$1" '
		/^\.SH / { sh = $2 }
		/^\.SS / { ss = $0 }
		sh == "SYNOPSIS" && $0 == ".B hivebridge " cmd { syn = 1 }
		sh == "SYNOPSIS" && $0 == ".br" { syn = 0 }
		syn || ss == ".SS \"hivebridge " cmd "\"" || sh == "OPTIONS" { print }' "$MAN"
}

cmds=$("$HIVEBRIDGE" --help | awk '/^ENGINE/ { exit } /^  [a-z]/ { sub(/,$/, "", $1); print $1 }')
for c in uhp hub otep serve check match worker perft help version; do
	echo "$cmds" | grep -qx "$c" || fail "hivebridge --help: no $c"
done
for c in $cmds; do
	grep -q "^hivebridge $c\( \|$\)" README.md || fail "README.md: Usage has no hivebridge $c"
	grep -qx "\.B hivebridge $c" "$MAN" || fail "$MAN: SYNOPSIS has no hivebridge $c"
	case $c in help | version) continue ;; esac
	grep -qx "\.SS \"hivebridge $c\"" "$MAN" || fail "$MAN: no section \"hivebridge $c\""
	part=$(man_part "$c" | sed 's/\\-/-/g')
	for f in $("$HIVEBRIDGE" "$c" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		[ "$f" = --help ] && continue
		printf '%s\n' "$part" | grep -q -- "$f\b" || fail "$MAN: hivebridge $c: no $f"
	done
done

# The protocols a listener serves, from the configuration's error for an unknown one.
conf=$(mktemp)
printf '[listen x]\nprotocol = ?\n' >"$conf"
protos=$("$HIVEBRIDGE" serve --config "$conf" 2>&1 | sed -n 's/.*unknown protocol "?" (\(.*\))$/\1/p' | tr -d ,)
rm -f "$conf"
[ -n "$protos" ] || fail "no protocol list from serve"
plain=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$MAN")
for p in $protos; do
	printf '%s\n' "$plain" | grep -q -- "\(^\|[ (]\)$p\([ ,.)]\|$\)" || fail "$MAN: protocol $p not named"
done

version=$("$HIVEBRIDGE" --version | sed 's/^hivebridge //')
grep -q "^\.TH HIVEBRIDGE 1 .* \"hivebridge $version\"" "$MAN" || fail "$MAN: .TH does not say $version"

[ $fails = 0 ] || exit 1
echo "docs_tables: ok ($(echo "$keys" | wc -l) keys, $(echo "$cmds" | wc -l) commands, protocols $protos)"
