# uhp_client.py: the UHP clients the integration tests' Python parts share (imported
# from the top of the tree, never run on its own):
#
#   import sys; sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
#   from uhp_client import Conn, connect, reply, close, uhp_tcp, uhp_process, expect, valid_rows
#
#   Conn(port, rcvbuf=None)  a client over TCP: line(), answer() (lines up to "ok",
#                            "ok" included), send(cmd), cmd(cmd), ok(cmd) (the answer
#                            without "ok"; err or invalidmove fails), close(); no
#                            greeting read, every read timed (30 s).
#   connect(port, src, timeout=20)  (socket, file) from the source address src; reply(f) reads
#                            an answer from the file: (lines without "ok", whether "ok"
#                            came before EOF); close(s, f) closes both.
#   hold(port, n, src)       n such connections, each greeted with an info block.
#   refused(port, lines, src)  a connection answered lines and "ok", then closed.
#   uhp_link(r, w)           (reply, ask) over a reader and a writer (a socket's files,
#                            a child's pipes): reply() reads an answer (its lines
#                            before "ok"; a closed link raises EOFError), ask(cmd)
#                            sends cmd and reads its answer.
#   uhp_tcp(port, timeout=60)  (socket, reply, ask): uhp_link on 127.0.0.1:port.
#   uhp_process(argv)        (p, reply, ask): uhp_link on a bridge's stdio.
#   expect(got, want, what)  fails the script unless got == want.
#   valid_rows(schema, path) the JSON lines of path, each valid against the schema file.
import json
import socket
import subprocess
import sys


class Conn:
    def __init__(s, port, rcvbuf=None):
        s.s = socket.socket()
        if rcvbuf:
            s.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        s.s.settimeout(30)
        s.s.connect(("127.0.0.1", port))
        s.buf = b""

    def line(s):
        while b"\n" not in s.buf:
            d = s.s.recv(65536)
            if not d:
                raise EOFError(s.buf)
            s.buf += d
        l, s.buf = s.buf.split(b"\n", 1)
        return l.decode()

    def answer(s):
        out = []
        while True:
            out.append(s.line())
            if out[-1] == "ok":
                return out

    def send(s, c):
        s.s.sendall((c + "\n").encode())

    def cmd(s, c):
        s.send(c)
        return s.answer()

    def ok(s, c):
        """cmd's answer without its "ok"; an err or invalidmove fails the script."""
        a = s.cmd(c)
        if a[-1] != "ok" or any(l.startswith(("err", "invalidmove")) for l in a):
            sys.exit(f"FAIL: {c}: {a}")
        return a[:-1]

    def close(s):
        s.s.close()


def connect(port, src="127.0.0.1", timeout=20):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(src, 0))
    return s, s.makefile("rb")


def reply(f):
    lines = []
    while True:
        line = f.readline()
        if not line:
            return lines, False
        line = line.rstrip(b"\r\n").decode()
        if line == "ok":
            return lines, True
        lines.append(line)


def close(s, f):
    f.close()     # the socket stays open while its file is
    s.close()


def hold(port, n, src="127.0.0.1"):
    held = []
    for i in range(n):
        s, f = connect(port, src)
        info, ok = reply(f)
        assert ok and info[0].startswith("id "), info
        held.append((s, f))
    return held


def refused(port, want, src="127.0.0.1"):
    s, f = connect(port, src)
    lines, ok = reply(f)
    assert ok and lines == want, (lines, ok)
    assert f.readline() == b"", "refused connection to port %d not closed" % port
    close(s, f)


def uhp_link(r, w):
    def answer():
        lines = []
        while True:
            line = r.readline()
            if not line:
                raise EOFError("the bridge closed the link; got %r" % lines)
            line = line.rstrip(b"\r\n").decode("utf-8", "replace")
            if line == "ok":
                return lines
            lines.append(line)

    def ask(cmd):
        w.write(cmd.encode() + b"\n")
        w.flush()
        return answer()

    return answer, ask


def uhp_tcp(port, timeout=60):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    return (s,) + uhp_link(s.makefile("rb"), s.makefile("wb"))


def uhp_process(argv):
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    return (p,) + uhp_link(p.stdout, p.stdin)


def expect(got, want, what):
    if got != want:
        sys.exit("%s: got %r, want %r" % (what, got, want))


def valid_rows(schema, path):
    from jsonschema import Draft202012Validator
    v = Draft202012Validator(json.load(open(schema)))
    rows = [json.loads(l) for l in open(path)]
    for r in rows:
        errs = list(v.iter_errors(r))
        assert not errs, (r, [e.message for e in errs])
    return rows
