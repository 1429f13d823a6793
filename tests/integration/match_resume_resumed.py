# match_resume_resumed.py: part of match_resume.sh (its failure: "resumed results").
import json, sys
games = [json.loads(l) for l in open(sys.argv[1])]
nums = sorted(g["game"] for g in games)
assert nums == list(range(1, int(sys.argv[2]) + 1)), "games %r" % nums
