# engine_time_drive.py: part of engine_time.sh.
import sys, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import uhp_process, uhp_tcp

def main():
    mode, rest = sys.argv[1], sys.argv[2:]
    script = rest[rest.index("--") + 1:]
    target = rest[:rest.index("--")]
    if mode == "stdio":
        p, reply, ask = uhp_process(target)
        w = p.stdin
    else:
        s, reply, ask = uhp_tcp(int(target[0]))
        w = s.makefile("wb")
    reply()                                   # the info block
    bad = 0
    for cmd in script:
        t0 = time.monotonic()
        out = ask(cmd)
        ms = (time.monotonic() - t0) * 1000
        if cmd.startswith("bestmove"):
            ans = out[-1] if out else "(nothing)"
            print("%s -> %s (%.0f ms)" % (cmd, ans, ms), flush=True)
            if ans.startswith(("err", "invalidmove")) or not out:
                bad += 1
                continue
            if ask("play " + ans)[-1].startswith(("err", "invalidmove")):
                print("play %s refused" % ans)
                bad += 1
    w.write(b"exit\n")                        # no answer: the session closes
    w.close()
    sys.exit(1 if bad else 0)

main()
