# report_schemas.py: part of report_schemas.sh.
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
