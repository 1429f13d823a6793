"""peers_common.py: what the peer matrix's protocol clients share (peers_hub.py,
peers_otep.py): the referee, `HIVEBRIDGE uhp` with the built-in engine at depth 1,
and the link to the bridge under test, on TCP or on a child's stdio."""
import socket
import subprocess


def referee(ref_bin):
    """(process, ask): ask(cmd) sends cmd (none for "") and returns the lines before "ok"."""
    ref = subprocess.Popen([ref_bin, "uhp", "--engine", "builtin:depth=1"], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, bufsize=0)

    def ask(c):
        if c:
            ref.stdin.write(c.encode() + b"\n")
        out = []
        while True:
            l = ref.stdout.readline().decode().rstrip("\n")
            if l == "ok":
                return out
            out.append(l)
    return ref, ask


def bridge_link(port, argv):
    """(sock, process, reader, send): the bridge on 127.0.0.1:port, else the child argv."""
    if port:
        sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        return sock, None, sock.makefile("rb"), lambda l: sock.sendall(l.encode() + b"\n")
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)

    def send(l):
        p.stdin.write(l.encode() + b"\n")
    return None, p, p.stdout, send
