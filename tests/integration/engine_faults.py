# engine_faults.py: part of engine_faults.sh (its failure: "TCP clients").
import socket, sys, threading
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import uhp_tcp


errors = []

def fault(name, port):
    try:
        s, reply, ask = uhp_tcp(port, 20)
        info = reply()
        ask("newgame Base")
        ask("play wS1")
        cmd = "bestmove time 00:00:01" if name == "ignore-sigint" else "bestmove depth 1"
        r = ask(cmd)
        if not r or not r[-1].startswith("err "):
            raise RuntimeError("bestmove answered %r" % r)
        # The session goes on: its own commands, and the engine again (restarted).
        if not ask("validmoves")[0]:
            raise RuntimeError("no validmoves")
        r2 = ask(cmd)
        if not r2 or not r2[-1].startswith("err "):
            raise RuntimeError("second bestmove answered %r" % r2)
        print("tcp %s: %s" % (name, r[-1][:100]))
        s.close()
    except Exception as e:
        errors.append("%s: %s" % (name, e))

def good(port):
    try:
        s, reply, ask = uhp_tcp(port, 20)
        reply()
        ask("newgame Base")
        for ply in range(8):
            move = ask("bestmove depth 1")[-1]
            if move.startswith("err"):
                raise RuntimeError("good engine: " + move)
            if ask("play " + move)[-1].startswith(("err", "invalidmove")):
                raise RuntimeError("good engine move refused: " + move)
        print("tcp good: 8 plies")
        s.close()
    except Exception as e:
        errors.append("good: %s" % e)

threads = [threading.Thread(target=good, args=(int(sys.argv[1]),))]
for a in sys.argv[2:]:
    name, port = a.split(":")
    threads.append(threading.Thread(target=fault, args=(name, int(port))))
for t in threads: t.start()
for t in threads: t.join()
for e in errors: print("FAIL " + e)
sys.exit(1 if errors else 0)
