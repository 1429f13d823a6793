#!/bin/sh
# Validates against schemas/*.json (python3-jsonschema): every kind of Trylobot JSON message
# we write (dumped by test_trylobot --dump), the real Trylobot frames in
# $HIVE_DATA/trylobot/, and a few messages each schema must refuse.
# Env (from tests/run.sh): HIVEBRIDGE = the build's binary, HIVE_DATA.
set -eu
top=$(pwd)
HIVE_DATA=${HIVE_DATA:-$top/../shared/data}
dumper="$(dirname "$HIVEBRIDGE")/tests/test_trylobot"
[ -x "$dumper" ] || { echo "schemas: $dumper is not built"; exit 1; }
. tests/lib/procs.sh
need python3 jsonschema
dir=$(mktemp -d)
procs_cleanup_hook='rm -rf "$dir"'
procs_trap
mkdir "$dir/ours" "$dir/real"
"$dumper" --dump "$dir/ours"

# The real frames, without their "<N>#" header, named after the schema they follow.
for f in "$HIVE_DATA"/trylobot/*.frame; do
	name=$(basename "$f" .frame)
	case $name in
	choose-turn-*) schema=choose-turn-request ;;
	*) schema=$name ;;
	esac
	sed 's/^[0-9]*#//' "$f" >"$dir/real/$schema.$name.json"
done

python3 tests/integration/schemas.py "$top/schemas" "$dir" || exit 1
echo "schemas: ok"
