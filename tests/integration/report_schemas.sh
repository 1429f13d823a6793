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
timeout 120 "$H" check --json --positions 2 --timeout-ms 2000 -- "$T/fake_uhp_engine" --fault illegal-move > "$tmp/bad.json"
[ $? = 1 ] || fail "check of a faulty engine should exit 1"
timeout 120 "$H" match --games 2 --depth 1 --max-plies 60 --results "$tmp/results.jsonl" \
	builtin:depth=1 "$T/fake_uhp_engine --fault illegal-move" > /dev/null 2>&1
[ "$(wc -l < "$tmp/results.jsonl")" = 2 ] || fail "match wrote $(wc -l < "$tmp/results.jsonl") lines, not 2"

python3 - "$tmp" <<'PY' || exit 1
import json, sys
from jsonschema import Draft202012Validator as V
d = sys.argv[1]
def check(schema, doc, what):
    errs = list(V(json.load(open('schemas/' + schema))).iter_errors(doc))
    if errs:
        print('FAIL: %s: %s' % (what, errs[0].message)); sys.exit(1)
for f in ('ok.json', 'bad.json'):
    rep = json.load(open(d + '/' + f))
    check('check-report.json', rep, f)
assert json.load(open(d + '/ok.json'))['conformant'] is True
bad = json.load(open(d + '/bad.json'))
assert bad['conformant'] is False
assert any(c['status'] == 'fail' and c['name'].startswith('bestmove.') for c in bad['checks'])
lines = [json.loads(l) for l in open(d + '/results.jsonl')]
for i, l in enumerate(lines):
    check('match-result.json', l, 'results line %d' % (i + 1))
    assert 'illegal move' in l['reason'], l['reason']
    assert l['a_score'] == 1, l
print('ok report schemas: 2 check reports, %d match results' % len(lines))
PY
echo "report_schemas: ok"
