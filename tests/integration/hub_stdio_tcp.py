# hub_stdio_tcp.py: part of hub_stdio.sh (its failure: "TCP sessions").
import socket, sys, threading

errors = []

def session(n):
    try:
        s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=20)
        f = s.makefile("rb")
        def until(word):
            got = []
            while True:
                line = f.readline()
                if not line:
                    raise RuntimeError("closed waiting for " + word)
                line = line.decode().rstrip("\r\n")
                got.append(line)
                if line.split(" ")[0] == word:
                    return got
        s.sendall(b"hub\n")
        until("wait")
        s.sendall(b"init\n")
        until("ready")
        s.sendall(b'pos variant=Base moves="wS1;bS1 wS1-"\nlevel depth=2\ngo think\nping\n')
        got = until("done")
        if "pong" not in got:
            got += until("pong")
        s.sendall(b"quit\n")
        if f.readline():
            raise RuntimeError("data after quit")
        print("tcp session %d: %s" % (n, got[-1] if got[-1].startswith("done") else got[-2]))
        s.close()
    except Exception as e:
        errors.append("%d: %s" % (n, e))

threads = [threading.Thread(target=session, args=(i,)) for i in range(3)]
for t in threads: t.start()
for t in threads: t.join()
for e in errors: print("FAIL " + e)
sys.exit(1 if errors else 0)
