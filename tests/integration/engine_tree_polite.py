# engine_tree_polite.py: part of engine_tree.sh (its failure: "serve: the polite session").
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=50)
f = s.makefile("rb")
s.sendall(b"info\n")
while f.readline() != b"ok\n":
    pass
s.close()                # the daemon closes the engine: it leaves on "exit"
