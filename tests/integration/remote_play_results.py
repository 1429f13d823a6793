# remote_play_results.py: part of remote_play.sh (its failure: "results file").
import sys
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import valid_rows
rows = valid_rows(sys.argv[1], sys.argv[2])
for r in rows:
    assert r["source"] == "remote", r
    # one time per move, and one more for the move whose time ran out
    assert len(r["times_ms"]) == r["plies"] + (r["reason"].endswith("on time")), r
got = [(r["listener"], r["result"], r["reason"]) for r in rows]
want = [("pvp", "1-0", "black queen surrounded"),
        ("pvp", "1-0", "black resigned: lost in thought"),
        ("fast", "0-1", "white lost on time"),
        ("pvp", "0-1", "white disconnected"),
        ("house_builtin", "0-1", "white resigned"),
        ("house_uhp", "0-1", "white resigned"),
        ("house_hub", "0-1", "white resigned"),
        ("house_trylobot", "0-1", "white resigned"),
        ("house_otep", "0-1", "white resigned"),
        ("house_builtin", "1-0", "black resigned")]
assert got == want, got
assert rows[0]["gamestring"].startswith("Base;WhiteWins;Black[7];") and rows[0]["plies"] == 13, rows[0]
assert rows[1]["gamestring"].startswith("Base+P;WhiteWins;") and ";pass;" in rows[1]["gamestring"] + ";", rows[1]
assert rows[2]["clocks_ms"][0] == 0 and rows[2]["time_control"] == "1+0", rows[2]
assert rows[0]["white"].startswith("remote#") and rows[4]["black"] == "house:quick", rows[4]
assert rows[5].get("black_id", "").startswith("hivebridge"), rows[5]
assert rows[7]["black"] == "house:module" and rows[8]["black"] == "house:oteprog", rows[7:9]
for r in rows[4:9]:
    assert r["plies"] == 6, r
