# match_queue_hostile.py: part of match_queue_hostile.sh.
import socket, sys, threading
def b(s): return b"$%d\r\n%s\r\n" % (len(s), s)
def a(*xs): return b"*%d\r\n" % len(xs) + b"".join(xs)
res, ev, dead = b"hivebridge:h:results", b"hivebridge:h:events", b"hivebridge:h:dead"
# Each command's answers, in turn (the last ones repeat): wrong shapes first.
answers = {
    b"PING": [b"+PONG\r\n"],
    b"HSETNX": [b"$3\r\nabc\r\n", a(b":1\r\n"), b":1\r\n"],
    b"HMGET": [a(b":1\r\n", b"*0\r\n"), b"*-1\r\n", b":5\r\n", a(b"$-1\r\n", b"$-1\r\n")],
    b"XRANGE": [b":3\r\n", a(b":1\r\n", a(b":5\r\n", b"*-1\r\n"), a(b(b"1-1"), a(b(b"game"), b(b"1"), b":3\r\n"))), b"*0\r\n"],
    b"XREAD": [
        a(a(b":5\r\n", b"*0\r\n"), a(b"$-1\r\n", b"*-1\r\n"), a(b"*-1\r\n", b":1\r\n")),
        a(a(b(res), a(a(b":7\r\n", b"*0\r\n"), a(b(b"1-1"), a(b(b"line"), b":1\r\n", b(b"worker"), b"*0\r\n")),
                      a(b(b"not an id"), a(b(b"line"), b(b"{}"))), b":3\r\n", b"$-1\r\n", a(b(b"1-2"), b":4\r\n")))),
        b":42\r\n",
        a(a(b(res), b":9\r\n"), a(b(ev), b"$-1\r\n"), a(b(dead), a(a(b(b"1-1"), b"*-1\r\n")))),
        a(a(b(res), a(), b(b"x"))),
        b"+OK\r\n",
        a(a(b(ev), a(a(b(b"1-3"), a(b(b"worker"), b(b"\x1b[31mred"), b(b"text"), b(b"\x1b]0;x\x07hi")))))),
        a(a(b(dead), a(a(b(b"1-4"), a(b(b"game"), b":1\r\n", b(b"reason"), a(b(b"r"))))))),
        b"*-1\r\n",
    ],
    b"XADD": [b"-OOM fake \x1b[2J\r\n", b":1\r\n", b"*0\r\n", b"$-1\r\n", b"$3\r\n9-9\r\n"],
    b"EXISTS": [b"$1\r\n1\r\n", b"*1\r\n:0\r\n", b":1\r\n"],
    b"XGROUP": [b"+OK\r\n"], b"DEL": [b":1\r\n"], b"SET": [b"+OK\r\n"],
}
counts = {}
lock = threading.Lock()
def serve(conn):
    buf = b""
    f = conn.makefile("rb")
    try:
        while True:
            line = f.readline()
            if not line: return
            n = int(line[1:])
            args = []
            for _ in range(n):
                ln = int(f.readline()[1:])
                args.append(f.read(ln + 2)[:-2])
            cmd = args[0].upper()
            with lock:
                k = counts.get(cmd, 0); counts[cmd] = k + 1
                log.write("%s %d\n" % (cmd.decode(), k + 1)); log.flush()
            ans = answers.get(cmd, [b"-ERR unknown command\r\n"])
            conn.sendall(ans[min(k, len(ans) - 1)] if cmd != b"XREAD" else ans[k % len(ans)])
    except Exception as e:
        log.write("closed: %r\n" % e); log.flush()
    finally:
        conn.close()
log = open(sys.argv[1], "w")
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0)); s.listen(8)
print(s.getsockname()[1], flush=True)
while True:
    c, _ = s.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
