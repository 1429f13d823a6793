# match_basic_repetition2.py: part of match_basic.sh;
# its failure: "--repetition 2: the opening's repetition was not seen".
import json, sys
for g in map(json.loads, open(sys.argv[1])):
    assert g["plies"] == 16 and g["times_ms"] == [], g
    assert g["reason"] == "adjudicated: position occurred 2 times", g["reason"]
