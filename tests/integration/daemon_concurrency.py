# daemon_concurrency.py: part of daemon_concurrency.sh (its failure: "sessions").
import sys, threading, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import uhp_tcp

port, nsessions, plies = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
errors, finished, moves_played = [], [], [0]
lock = threading.Lock()
start = threading.Barrier(nsessions)

def play(n):
    s, reply, uhp_ask = uhp_tcp(port, 120)
    def ask(cmd):
        r = uhp_ask(cmd)
        for line in r:
            if line.startswith(("err", "invalidmove")):
                raise RuntimeError("%s -> %s" % (cmd, line))
        return r
    reply()                               # the info block
    start.wait()                          # all sessions open at once
    gtype = "Base+MLP" if n % 2 else "Base"
    game = ask("newgame " + gtype)[-1]
    if game != gtype + ";NotStarted;White[1]":
        raise RuntimeError("newgame gave " + game)
    moves = []
    depth = 1 + n % 2
    for ply in range(plies):
        valid = set(ask("validmoves")[-1].split(";"))
        move = ask("bestmove depth %d" % depth)[-1]
        if move not in valid:
            raise RuntimeError("move %r is not among the valid moves" % move)
        game = ask("play " + move)[-1]
        moves.append(move)
        fields = game.split(";")
        turn = "%s[%d]" % ("White" if len(moves) % 2 == 0 else "Black", len(moves) // 2 + 1)
        if fields[0] != gtype or fields[3:] != moves or fields[2] != turn and fields[1] == "InProgress":
            raise RuntimeError("GameString %r after %r" % (game, moves))
        if fields[1] not in ("InProgress", "Draw", "WhiteWins", "BlackWins"):
            raise RuntimeError("state in " + game)
        if fields[1] != "InProgress":
            break
    s.sendall(b"exit\n")
    s.close()
    with lock:
        finished.append(n)
        moves_played[0] += len(moves)

def run(n):
    try:
        play(n)
    except Exception as e:
        with lock:
            errors.append("session %d: %s" % (n, e))
        try:
            start.abort()
        except Exception:
            pass

t0 = time.time()
threads = [threading.Thread(target=run, args=(n,)) for n in range(nsessions)]
for t in threads: t.start()
for t in threads: t.join()
for e in errors[:10]: print("FAIL " + e)
print("%d/%d sessions finished, %d plies in %.1f s" %
      (len(finished), nsessions, moves_played[0], time.time() - t0))
sys.exit(1 if errors or len(finished) != nsessions else 0)
