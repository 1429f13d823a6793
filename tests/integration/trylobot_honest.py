# trylobot_honest.py: part of trylobot_honest.sh (its failure: "trylobot client").
import json, socket, sys, time, urllib.request

tb, dead, http, data = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]

class Conn:
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.buf = b""
    def send_file(self, name):
        self.s.sendall(open(data + "/" + name, "rb").read().strip())
    def send(self, obj):
        j = json.dumps(obj)
        self.s.sendall(("%d#%s" % (len(j), j)).encode())
    def frame(self):
        while b"#" not in self.buf:
            self.buf += self.s.recv(65536)
        n, rest = self.buf.split(b"#", 1)
        while len(rest) < int(n):
            rest += self.s.recv(65536)
        self.buf = rest[int(n):]
        return json.loads(rest[:int(n)])

def get(path):
    return json.load(urllib.request.urlopen("http://127.0.0.1:%d%s" % (http, path), timeout=10))

# 1. An engine that cannot start: inactive, and long_name claims no engine.
c = Conn(dead)
c.send({"request_type": "Greetings", "request_id": "g1", "system_version": "0.1.0"})
g = c.frame()
assert g["active"] is False, g
assert "not answering" in g["long_name"] and "dead" in g["long_name"], g["long_name"]
assert "cannot play" in g["description"], g["description"]
print("dead engine: long_name %r" % g["long_name"])

# 2. An engine that crashes on every search: the answer is the bridge's, and said.
c = Conn(tb)
c.send({"request_type": "Greetings", "request_id": "g1", "system_version": "0.1.0"})
g = c.frame()
assert g["active"] is True, g
assert "own move" not in g["description"], g["description"]
c.send_file("choose-turn-first.frame")
t = c.frame()
assert t.get("turn_type") in ("Placement", "Movement"), t
c.send({"request_type": "Greetings", "request_id": "g2", "system_version": "0.1.0"})
g = c.frame()
assert "1 answer on this connection was the bridge's own move" in g["description"], g["description"]
assert g["long_name"].endswith("not answering (the bridge answers for it)"), g["long_name"]
assert "engine failed" in g["description"], g["description"]
print("crashing engine: Greetings says %r" % g["description"])

games = [x for x in get("/api/games")["games"] if x["kind"] == "trylobot"]
assert len(games) == 1 and games[0]["substitutions"] == 1, games
full = get("/api/games/%d" % games[0]["id"])
assert full["substitutions"] == 1 and "engine failed" in full["substitution"], full
print("web page: substitutions %d (%s)" % (full["substitutions"], full["substitution"]))
