# web_token_check.py: part of web_token.sh (its failure: "the token from the environment").
import json, sys, http.client
port, token = int(sys.argv[1]), sys.argv[2]
def req(method, path, body=None, auth=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    h = {"Connection": "close", "Content-Type": "application/json"}
    if auth:
        h["Authorization"] = auth
    c.request(method, path, body=json.dumps(body).encode() if body is not None else None, headers=h)
    r = c.getresponse()
    text = r.read()
    c.close()
    return r.status, r.getheader("WWW-Authenticate"), (json.loads(text) if text.startswith(b"{") else text)
for auth in [None, "Bearer " + token[:-1], "Bearer " + token + "x", "Basic " + token, "Bearer", token]:
    st, wa, e = req("POST", "/api/games", {"depth": 1}, auth)
    assert st == 401 and wa == "Bearer" and "access token" in e["error"], (auth, st, e)
    st, wa, e = req("POST", "/api/lobby/join", {"lobby": "x"}, auth)
    assert st == 401, (auth, st, e)
# Reads stay open.
for path in ["/", "/api/games", "/api/engines", "/api/lobbies"]:
    st, _, _ = req("GET", path)
    assert st == 200, (path, st)
st, _, g = req("POST", "/api/games", {"depth": 1}, "Bearer " + token)
assert st == 201 and g["token"], (st, g)
st, _, g = req("POST", "/api/games", {"depth": 1}, "bearer  " + token)
assert st == 201, (st, g)
print("token: ok")
