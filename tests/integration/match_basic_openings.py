# match_basic_openings.py: part of match_basic.sh (its failure: "openings not paired").
import json, sys
g = {x["game"]: x for x in map(json.loads, open(sys.argv[1]))}
for n in range(1, len(g), 2):
    assert g[n]["opening"] == g[n + 1]["opening"], n
    assert g[n]["engine_a"] == "white" and g[n + 1]["engine_a"] == "black", n
assert len({x["opening"] for x in g.values()}) == len(g) // 2
