# web_token_engine_game.py: part of web_token.sh;
# its failure: "a game against the external engine".
import json, sys, http.client
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=20)
c.request("POST", "/api/games", body=b'{"engine": "env"}', headers={"Content-Type": "application/json",
          "Authorization": "Bearer " + sys.argv[2]})
r = c.getresponse()
assert r.status == 201, (r.status, r.read())
