# trylobot_budgets.py: part of trylobot_budgets.sh (its failure: "client").
import json, socket, sys

port, first = int(sys.argv[1]), sys.argv[2]

def connect():
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    return s, s.makefile("rb")

def send(s, obj):
    text = json.dumps(obj, separators=(",", ":"))    # ASCII: \u0000 stays escaped
    s.sendall(b"%d#%s" % (len(text), text.encode()))

def frame(f):
    head = b""
    while not head.endswith(b"#"):
        c = f.read(1)
        if not c:
            return None
        head += c
    return json.loads(f.read(int(head[:-1])))

s, f = connect()
rid = "a\u0000b\u0000"
send(s, {"request_type": "Greetings", "request_id": rid, "system_version": "0.1.0"})
a = frame(f)
assert a["response_id"] == rid, a
req = json.loads(open(first).read().split("#", 1)[1])
req["request_id"], req["game_id"] = "r\u0000id", "\u0000g"
send(s, req)
a = frame(f)
assert a.get("response_id") == "r\u0000id" and a.get("game_id") == "\u0000g", a
print("ids with \\u0000 echoed: ok")

# 8192 entries, all the same placement: answered with it.
dup = json.loads(json.dumps(req))
dup["game_state"]["possible_turns"] = {"Placement": {"piece_types": ["Spider"],
                                                     "positions": ["0,0"] * 8192}}
send(s, dup)
a = frame(f)
assert a.get("turn_type") == "Placement" and a.get("destination") == "0,0", a
print("8192 repeated possible_turns: ok")
# One entry more is beyond the bound: an error answer, and the session goes on.
dup["game_state"]["possible_turns"]["Placement"]["positions"].append("0,0")
send(s, dup)
a = frame(f)
assert a.get("success") is False and "more than 8192 entries" in a.get("error", ""), a
err = a["error"]
send(s, {"request_type": "Greetings", "request_id": "after", "system_version": "0.1.0"})
a = frame(f)
assert a.get("response_id") == "after", a
print("8193 possible_turns refused: %s: ok" % err)
f.close(); s.close()

# 1,048,576 units announced, sent as two-byte characters: the bytes pass 1 MiB
# halfway through the units.
s, f = connect()
s.sendall(b"1048576#\"")
try:
    s.sendall("\u00e9".encode() * (600 * 1024))
except (BrokenPipeError, ConnectionResetError):
    pass
a = frame(f)
assert a is not None and a.get("success") is False and "bytes" in a.get("error", ""), a
assert f.read(1) == b"", "connection not closed after a framing error"
print("oversized frame refused: %s: ok" % a["error"])
