#!/bin/sh
# report_schemas.sh: the JSON that `check --json` and `match --results` write is valid
# against schemas/check-report.json and schemas/match-result.json.
# Env: HIVEBRIDGE, TOOLS, HIVE_DATA; run from the repo root.
set -u
H=${HIVEBRIDGE:-build/hivebridge}
T=${TOOLS:-build/tools}
. tests/lib/procs.sh
need python3 jsonschema timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

# A conformant engine and a faulty one: both reports must fit the schema.
timeout 120 "$H" check --json --positions 2 builtin > "$tmp/ok.json" || fail "check builtin exited $?"
timeout 120 "$H" check --json --positions 2 --timeout-ms 5000 -- "$T/fake_uhp_engine" --fault illegal-move > "$tmp/bad.json"
[ $? = 1 ] || fail "check of a faulty engine should exit 1"
timeout 120 "$H" match --games 2 --depth 1 --max-plies 60 --results "$tmp/results.jsonl" \
	builtin:depth=1 "$T/fake_uhp_engine --fault illegal-move" > /dev/null 2>&1
[ "$(wc -l < "$tmp/results.jsonl")" = 2 ] || fail "match wrote $(wc -l < "$tmp/results.jsonl") lines, not 2"

python3 tests/integration/report_schemas.py "$tmp" || exit 1
echo "report_schemas: ok"
