# time_play_clock.py: part of time_play.sh (its failure: "clock match results").
import json, sys
games = [json.loads(l) for l in open(sys.argv[1])]
assert len(games) == 2, "%d results, want 2" % len(games)
for g in games:
    assert "time" not in g["reason"], "game %d: %s" % (g["game"], g["reason"])
    assert g["plies"] > 0 and len(g["times_ms"]) == g["plies"], "game %d: plies" % g["game"]
print("clock 3000+100: %s" % ", ".join("%d plies, %s (%s), most %d ms a move" %
      (g["plies"], g["result"], g["reason"], max(g["times_ms"])) for g in games))
