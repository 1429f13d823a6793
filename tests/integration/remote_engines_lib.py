# remote_engines_lib.py: what remote_engines.sh's clients share (a UHP client that
# checks its greeting).
import socket, sys
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import Conn, expect, valid_rows
class C(Conn):
    def __init__(s, port, greeting):
        Conn.__init__(s, port)
        g = s.answer()
        assert g[0] == greeting and g[-1] == "ok", g
SPEC = "id hivebridge v0.1.0 (spectator)"
