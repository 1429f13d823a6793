# match_queue.py: part of match_queue.sh (its failure: "results").
import json, sys
res = [json.loads(l) for l in open(sys.argv[1])]
nums = sorted(r["game"] for r in res)
assert nums == list(range(1, int(sys.argv[2]) + 1)), "games %r" % nums
k = [r for r in res if r["game"] == int(sys.argv[3])][0]
assert k["worker"] in ("w2", "w3"), "game %s was not replayed by another worker: %r" % (sys.argv[3], k)
