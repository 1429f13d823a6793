# match_queue_lost.py: part of match_queue_lost.sh (its failure: "results").
import json, sys
nums = sorted(json.loads(l)["game"] for l in open(sys.argv[1]))
assert nums == list(range(1, int(sys.argv[2]) + 1)), "games %r" % nums
