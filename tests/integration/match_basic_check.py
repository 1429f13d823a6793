# match_basic_check.py: part of match_basic.sh.
import json, sys
path, want, label_a = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lines = open(path).read().split("\n")
assert lines[-1] == "", "results file does not end in a newline"
games = [json.loads(l) for l in lines[:-1]]
assert len(games) == want, "%d results, want %d" % (len(games), want)
assert sorted(g["game"] for g in games) == list(range(1, want + 1)), "game numbers"
for g in games:
    n = g["game"]
    a_white = n % 2 == 1
    assert g["engine_a"] == ("white" if a_white else "black"), "colours of game %d" % n
    assert (g["white"] if a_white else g["black"]) == label_a, "labels of game %d" % n
    parts = g["gamestring"].split(";")
    moves = parts[3:]
    assert g["plies"] == len(moves), "plies of game %d" % n
    omoves = g["opening"].split(";")[3:] if "opening" in g else []
    opening = len(omoves)
    assert moves[:opening] == omoves, "opening of game %d" % n
    assert len(g["times_ms"]) == g["plies"] - opening, "timings of game %d" % n
    assert all(isinstance(t, (int, float)) and t >= 0 for t in g["times_ms"])
    state = parts[1]
    want_result = {"WhiteWins": "1-0", "BlackWins": "0-1", "Draw": "1/2-1/2"}.get(state)
    if want_result:
        assert g["result"] == want_result, "result of game %d: %s vs %s" % (n, g["result"], state)
    else:
        assert state == "InProgress" and g["result"] == "1/2-1/2" and \
            g["reason"].startswith("adjudicated"), "unfinished game %d: %s" % (n, g["reason"])
    score = {"1-0": 1.0, "0-1": 0.0}.get(g["result"], 0.5)
    if not a_white and score != 0.5:
        score = 1 - score
    assert g["a_score"] == score, "a_score of game %d" % n
print("%s: %d games ok" % (path, len(games)))
