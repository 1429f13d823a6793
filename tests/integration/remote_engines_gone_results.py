# remote_engines_gone_results.py: part of remote_engines.sh;
# its failure: "the games after gone engines".
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 2, rows
a, b = rows
assert a["white_id"].startswith("hivebridge") and a["black_id"].startswith("hivebridge"), a
assert a["reason"] == "adjudicated: 2 plies played", a
assert b["white_id"] == "Leaver 1" and b["black_id"] == "Thinker 1", b
assert (b["result"], b["reason"], b["plies"]) == ("0-1", "white disconnected", 1), b
