# engine_escapes_results.py: part of engine_escapes.sh;
# its failure: "match: the results file carries control characters".
import json, sys
for l in open(sys.argv[1]):
    g = json.loads(l)
    for k, v in g.items():
        if isinstance(v, str):
            assert not any(ord(c) < 0x20 or 0x7f <= ord(c) <= 0x9f for c in v), (k, v)
