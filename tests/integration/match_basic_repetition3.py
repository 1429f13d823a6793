# match_basic_repetition3.py: part of match_basic.sh;
# its failure: "--repetition 3: adjudicated too soon".
import json, sys
for g in map(json.loads, open(sys.argv[1])):
    assert g["plies"] == 17 and g["reason"] == "adjudicated: 17 plies played", g
