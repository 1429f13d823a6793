# match_resume_summary.py: part of match_resume.sh;
# its failure: "summary does not match the file".
import json, re, sys
games = [json.loads(l) for l in open(sys.argv[1])]
w = sum(g["a_score"] == 1 for g in games)
l = sum(g["a_score"] == 0 for g in games)
d = len(games) - w - l
last = [x for x in open(sys.argv[2]) if x.startswith("Score of")][-1]
assert re.search(r": %d - %d - %d " % (w, l, d), last), (last, w, l, d)
