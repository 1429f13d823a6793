# shutdown_match_aborted.py: part of shutdown_match.sh (its failure: "the aborted games").
import re, sys
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import valid_rows
rows = valid_rows("schemas/match-result.json", sys.argv[1])
out = open(sys.argv[2]).read()
started = {int(n) for n in re.findall(r"^Started game (\d+)", out, re.M)}
finished = {int(n) for n in re.findall(r"^Finished game (\d+)", out, re.M)}
said = {int(n): int(p) for n, p in
        re.findall(r"^Aborted game (\d+) \(.*\): \* \{aborted: match interrupted\}, (\d+) plies$", out, re.M)}
aborted = [r for r in rows if r["result"] == "*"]
assert started - finished and set(said) == started - finished, (started, finished, said)
assert {r["game"]: r["plies"] for r in aborted} == said, (aborted, said)
for r in aborted:
    assert r["reason"] == "aborted: match interrupted" and "a_score" not in r, r
    assert ";InProgress;" in r["gamestring"] or ";NotStarted;" in r["gamestring"], r
assert {r["game"] for r in rows if r["result"] != "*"} == finished, rows
print(f"interrupted: {len(finished)} finished, {len(said)} aborted at plies {sorted(said.values())}")
