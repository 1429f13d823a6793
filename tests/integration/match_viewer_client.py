# match_viewer_client.py: part of match_viewer.sh: a viewer on PORT that touches GATE
# once connected (the match starts then) and prints all it was sent until the close;
# with "attach", first junk (an overlong line, an unknown word: ignored, the attach
# still counts) and "attach 2".
#   match_viewer_client.py PORT GATE [attach]
import socket, sys
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from harness import read_to_close
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=30)
if sys.argv[3:] == ["attach"]:
    s.sendall(b"x" * 1000 + b"\nnonsense\nattach two\nattach 2\n")
open(sys.argv[2], "w").close()
sys.stdout.write(read_to_close(s).decode())
