# web_queue.py: part of web_queue.sh.
import json, os, random, signal, subprocess, sys, time, urllib.request, urllib.error
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from web_client import schema_validator
from harness import wait_for
port, schemas, w1pid, rport, hb = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[7]
base = f"http://127.0.0.1:{port}"
valid = schema_validator(schemas, ["web-position", "web-games", "web-game", "web-match"])
def get(path):
    with urllib.request.urlopen(base + path, timeout=20) as f:
        return json.load(f)
def running(worker):
    m = valid(get("/api/match"), "web-match")
    return [r for r in m["running"] if r.get("worker") == worker and r["live_id"]]
def in_progress():
    gl = valid(get("/api/games"), "web-games")
    return [g for g in gl["games"] if g["kind"] == "match"]

def long_game(plies):
    """A legal Base game of that many moves, still in progress: random moves through
    the built-in engine's UHP (validmoves, play, undo when it ends the game)."""
    p = subprocess.Popen([hb, "uhp", "--engine", "builtin"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
    def ask(cmd):
        if cmd:
            p.stdin.write(cmd + "\n")
            p.stdin.flush()
        out = []
        while True:
            l = p.stdout.readline()
            if not l:
                sys.exit(f"hivebridge uhp ended after {cmd}")
            if l.strip() == "ok":
                return out
            out.append(l.strip())
    ask(None)
    gs = ask("newgame Base")[0]
    rnd = random.Random(7)
    while gs.count(";") - 2 < plies:
        gs = ask("play " + rnd.choice(ask("validmoves")[0].split(";")))[0]
        if gs.split(";")[1] != "InProgress":
            gs = ask("undo")[0]
    p.stdin.close()
    p.wait(timeout=10)
    return gs
long50 = long_game(50)      # made first: it takes seconds on a loaded machine

# A worker's game appears, with the match's engines, and grows move by move.
seen = set()
def both_running():
    seen.update(r.get("worker") for r in valid(get("/api/match"), "web-match")["running"] if r["live_id"])
    return running("w1") and running("w2")
wait_for(both_running, 60, "a game of each worker in /api/match at once",
         detail=lambda: f"workers seen running: {sorted(map(str, seen))}; /api/match now: {get('/api/match')}")
# Forged entries (first: a match played out reads no more of them): refused, said,
# nothing shown, the coordinator lives on. The last
# is a legal game from an empty board, but longer than --max-plies 40 allows (a
# long one would stall the loop in its parse): refused before it is parsed.
def xadd(*fields):
    subprocess.run(["redis-cli", "-p", rport, "XADD", "hivebridge:wq:progress", "*", *fields],
                   check=True, stdout=subprocess.DEVNULL)
xadd("game", "1", "worker", "forger", "gs", "Base;InProgress;White[1];zz")
xadd("game", "2", "worker", "forger", "gs", "Base+MLP;InProgress;White[1]")
xadd("game", "999", "worker", "forger", "gs", "Base;NotStarted;White[1]")
xadd("nothing", "here")
xadd("game", "8", "worker", "forger", "gs", long50)
def refused():
    return open(sys.argv[5]).read().count("refused a progress entry") >= 5
wait_for(refused, 20, "five refused entries in the coordinator's stderr")
assert "refused a progress entry of game 8 (worker forger): longer than the match's --max-plies" \
    in open(sys.argv[5]).read()
assert all("forger" != r.get("worker") for r in valid(get("/api/match"), "web-match")["running"])

# w1 dies mid-game (stopped while a game of its own runs: a stopped process posts
# no result), then its game leaves the list of games in progress after the expiry.
# Early, while the match surely has games left (on a loaded machine the steps below
# took as long as 8 games); w2 plays on, alone.
def stopped_mid_game():
    r = running("w1")
    if not r:
        return None
    os.kill(w1pid, signal.SIGSTOP)
    out = open(sys.argv[6]).read()
    started = [int(l.split()[2]) for l in out.splitlines() if l.startswith("Started game ")]
    done = {int(l.split()[2]) for l in out.splitlines() if l.startswith("Finished game ")}
    # With a move shown: a record with none goes at once, not as "abandoned".
    r = [x for x in running("w1") if started and x["game"] == started[-1] and started[-1] not in done
         and x["plies"] > 0]
    if r:
        return r[0]
    os.kill(w1pid, signal.SIGCONT)
    return None
lid = wait_for(stopped_mid_game, 60, "w1 stopped in the middle of a game")["live_id"]
os.kill(w1pid, signal.SIGKILL)
t0 = time.time()
wait_for(lambda: all(g["id"] != lid for g in in_progress()), 30, "w1's game expiring")
# Before its job goes to w2 (--claim-after 15000): the expiry dropped it.
assert time.time() - t0 < 14, time.time() - t0
print(f"w1's game dropped after {time.time() - t0:.1f} s")
gl = valid(get("/api/games"), "web-games")
old = [g for g in gl["finished"] if g["id"] == lid]
assert old and old[0]["reason"] == "abandoned" and old[0]["result"] is None, old
assert not any(r["live_id"] == lid for r in valid(get("/api/match"), "web-match")["running"])

# A game of w2's that /api/games lists as well (one may end between the two reads: then
# its next one is taken).
def listed():
    ids = {r["live_id"] for r in running("w2")}
    return next((g["id"] for g in in_progress() if g["id"] in ids), None)
# On a loaded machine a game may be seen first at its last ply: then w2's next one.
for attempt in range(4):
    gid = wait_for(listed, 60, "w2's game in /api/games")
    seen = []
    def grew():
        g = valid(get(f"/api/games/{gid}"), "web-game")
        assert {g["white"], g["black"]} == {"builtin", "builtin:depth=2"}, g
        assert g["kind"] == "match", g
        if not seen or g["plies"] != seen[-1]:
            seen.append(g["plies"])
        assert seen == sorted(seen), seen
        return len(seen) >= 3 or g["finished"]
    wait_for(grew, 60, "w2's game growing over polls")
    if len(seen) >= 2:
        break
    print(f"game {gid} seen only at ply {seen}: finished between two polls; the next one")
assert len(seen) >= 2, f"four games of w2 each seen at one ply only: {seen}"
print("grew:", seen)


# w2's watched game ends with its result.
def ended():
    g = valid(get(f"/api/games/{gid}"), "web-game")
    return g if g["finished"] else None
g = wait_for(ended, 90, "w2's game finishing")
assert g["result"] in ("1-0", "0-1", "1/2-1/2") and g["reason"] and g["reason"] != "abandoned", g

# Played out: no worker game left in progress, every game in the table.
wait_for(lambda: valid(get("/api/match"), "web-match")["over"], 120, "the match over")
m = valid(get("/api/match"), "web-match")
assert m["played"] == 16 and len(m["finished"]) == 16 and m["running"] == [], m
assert in_progress() == [], in_progress()
print("web_queue checks: ok")
