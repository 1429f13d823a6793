# web_records.py: part of web_records.sh (modes: api, play, restart, huge).
import http.client, json, os, re, socket, sys, time, urllib.parse
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from web_client import schema_validator
from harness import wait_for
mode, port = sys.argv[1], int(sys.argv[2])
me = f"127.0.0.1:{port}"
valid = schema_validator("schemas", ["web-records", "web-archive", "web-position", "web-error", "web-games"])


def req(method, path, body=None, raw=None, headers=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    hd = {"Host": me, "Connection": "close", "Content-Type": "application/json"}
    if method == "POST":
        hd["Origin"] = "http://" + me
    hd.update(headers or {})
    c.request(method, path, body=data, headers=hd)
    r = c.getresponse()
    out = r.read()
    c.close()
    return r.status, dict((k.lower(), v) for k, v in r.getheaders()), out


def post_record(text, **kw):
    st, _, out = req("POST", "/api/records", {"text": text}, **kw)
    o = json.loads(out)
    valid(o, "web-records" if st == 200 else "web-error")
    return st, o


def games_count():
    st, _, out = req("GET", "/api/games")
    g = json.loads(out)
    return len(g["games"]) + len(g["finished"])


def archive():
    st, _, out = req("GET", "/api/archive")
    assert st == 200, (st, out)
    return valid(json.loads(out), "web-archive")


def pgn_games(path):
    """The archive's games by byte offset: the text of each (as the daemon splits it)."""
    data = open(path, "rb").read()
    starts, prev_tag, off = [], False, 0
    for line in data.splitlines(keepends=True):
        tag = line.startswith(b"[")
        if tag and not prev_tag:
            starts.append(off)
        prev_tag, off = tag, off + len(line)
    return {s: data[s:e] for s, e in zip(starts, starts[1:] + [len(data)])}


if mode == "api":
    R, tmp = sys.argv[3], sys.argv[4]
    before = games_count()
    name = "HV-Abbo69-WeakBot-2018-10-28-2007"
    pgn = open(f"{R}/{name}.pgn").read()
    sgf = open(f"{R}/{name}.sgf").read()
    st, p = post_record(pgn)
    assert st == 200 and p["format"] == "pgn" and p["count"] == 1, (st, p)
    st, s = post_record(sgf)
    assert st == 200 and s["format"] == "sgf", (st, s)
    gp, gs = p["games"][0], s["games"][0]
    assert gp["moves"] == gs["moves"] and gp["gamestring"] == gs["gamestring"], (gp["moves"], gs["moves"])
    assert gp["white"] == gs["white"] == "Abbo69" and gp["black"] == "WeakBot" and gp["result"] == "1-0", gp
    assert gp["plies"] == len(gp["moves"]) == 31 and gp["date"] == "2018.10.28", gp
    st, g = post_record(gp["gamestring"])
    assert st == 200 and g["format"] == "gamestring" and g["games"][0]["moves"] == gp["moves"], (st, g)
    # The page steps with /api/position: every ply of the record's GameString.
    for n in (0, 19, 31):
        st, _, out = req("GET", f"/api/position?game={urllib.parse.quote(gp['gamestring'])}&ply={n}")
        assert st == 200, (n, out)
        valid(json.loads(out), "web-position")
    # Several games in one text (two files pasted together): each one.
    two = pgn + "\n" + open(f"{R}/HV-Dumbot-Kaur50-2023-01-17-0059.pgn").read()
    st, t = post_record(two)
    assert st == 200 and t["count"] == 2 and [x["white"] for x in t["games"]] == ["Abbo69", "Dumbot"], t
    # An illegal 20th ply, a record cut short: 422 with the ply and the line.
    st, e = post_record(open(f"{tmp}/illegal.pgn").read())
    line20 = next(i for i, l in enumerate(pgn.splitlines(), 1) if l.startswith("20. "))
    assert st == 422 and f"ply 20 at line {line20}" in e["error"], (st, e, line20)
    cut = pgn[:pgn.index("\n20. ") + 8]
    st, e = post_record(cut)
    assert st == 422 and f"ply 20 at line {line20}" in e["error"], (st, e)
    st, e = post_record(sgf[:len(sgf) // 2])
    assert st == 422 and re.search(r"line \d+: .*cut short", e["error"]), (st, e)
    st, e = post_record("")
    assert st == 422 and "neither PGN" in e["error"], (st, e)
    st, _, out = req("POST", "/api/records", raw=b'{"nothing": 1}')
    assert st == 400 and b"want" in out, (st, out)
    # Bounds: http_max_record (200000 here), large bodies only to this path, 4 at once.
    st, _, out = req("POST", "/api/records", {"text": pgn + " " * 200000})
    assert st == 413, (st, out)
    st, _, out = req("POST", "/api/games", {"engine": "x" * 8000})
    assert st == 413, (st, out)
    # 4 large bodies at once, 2 from one address (other loopback addresses as peers).
    def big(src):
        s_ = socket.socket()
        s_.settimeout(30)
        s_.bind((src, 0))
        s_.connect(("127.0.0.1", port))
        s_.sendall(f"POST /api/records HTTP/1.1\r\nHost: {me}\r\nOrigin: http://{me}\r\n"
                   f"Content-Type: application/json\r\nContent-Length: 150000\r\n\r\n{{\"text\": \"".encode())
        return s_
    def refused(s_, why):
        got = s_.recv(4096)
        assert got.startswith(b"HTTP/1.1 503") and why in got, got
        s_.close()
    socks = [big("127.0.0.1"), big("127.0.0.1")]
    refused(big("127.0.0.1"), b"too many large requests from your address")
    socks += [big("127.0.0.2"), big("127.0.0.2")]
    refused(big("127.0.0.3"), b"too many large requests at once")
    for s_ in socks:       # the four in flight finish and are answered
        s_.sendall(b" " * (150000 - 10 - 2) + b'"}')
        got = b""
        while b"\r\n\r\n" not in got:
            got += s_.recv(4096)
        assert got.startswith(b"HTTP/1.1 422"), got[:200]
        s_.close()
    # Their slots are free again.
    st, _, out = req("POST", "/api/records", {"text": pgn + " " * 10000})
    assert st == 200, (st, out)
    # The page's own requests only: a wrong Origin, a foreign site, a form post.
    st, _, out = req("POST", "/api/records", {"text": pgn}, headers={"Origin": "http://evil.example"})
    assert st == 403 and b"cross-origin" in out, (st, out)
    st, _, out = req("POST", "/api/records", {"text": pgn}, headers={"Sec-Fetch-Site": "cross-site"})
    assert st == 403, (st, out)
    st, _, out = req("POST", "/api/records", raw=b"text=x", headers={"Content-Type": "text/plain"})
    assert st == 415, (st, out)
    st, _, out = req("GET", "/api/records")
    assert st == 405, (st, out)
    # Reading records made no game on the server.
    assert games_count() == before, "a record opened changed the games"
    a = archive()
    assert a["configured"] and a["skipped"] == 1 and len(a["games"]) == 2, a
    assert [g["white"] for g in a["games"]] == ["Dumbot", "Abbo69"], a
    print("api: ok")

elif mode in ("play", "restart"):
    tmp = sys.argv[3]
    path = f"{tmp}/games.pgn"
    if mode == "play":
        st, _, out = req("POST", "/api/games", {"depth": 1})
        g = json.loads(out)
        assert st == 201, (st, g)
        tok = {"X-Game-Token": g["token"]}
        st, _, out = req("POST", f"/api/games/{g['id']}/resign", {}, headers=tok)
        assert st == 200, (st, out)
        # The referee appends it as the game ends; the list reads what the file grew by.
        a = wait_for(lambda: (lambda x: x if len(x["games"]) == 3 else None)(archive()), 30, "the page's game archived")
        assert a["skipped"] == 2, a      # the torn game, now followed by the next
        top = a["games"][0]
        assert top["white"] == "you" and top["result"] == "0-1" and top["event"] == "hivebridge web", top
        # A UHP session of the daemon plays a real game to its end: archived too.
        R, uport = sys.argv[4], int(sys.argv[5])
        st, rec = post_record(open(f"{R}/HV-Dumbot-Kaur50-2023-01-17-0059.pgn").read())
        g = rec["games"][0]
        assert st == 200 and g["gamestring"].split(";")[1] == "BlackWins", (st, g["gamestring"][:80])
        u = socket.create_connection(("127.0.0.1", uport), timeout=30)
        uf = u.makefile("rb")
        def uhp(cmd):
            if cmd:
                u.sendall(cmd.encode() + b"\n")
            out = []
            while (line := uf.readline().decode().rstrip("\n")) != "ok":
                assert line and not line.startswith(("err", "invalidmove")), (cmd, line, out)
                out.append(line)
            return out
        uhp("")
        uhp("newgame " + g["type"])
        for m in g["moves"]:
            last = uhp("play " + m)
        assert last[-1].split(";")[1] == "BlackWins", last
        a = wait_for(lambda: (lambda x: x if len(x["games"]) == 4 else None)(archive()), 30, "the session's game archived")
        top = a["games"][0]
        assert top["event"] == "hivebridge uhp session" and top["result"] == "0-1", top
        assert top["plies"] == g["plies"] and top["termination"] == "white queen surrounded", top
        st, _, out = req("GET", f"/api/archive/{top['id']}")
        assert json.loads(out)["games"][0]["moves"] == g["moves"]
        u.close()
        json.dump(a, open(f"{tmp}/list.json", "w"))
    a = archive()
    before = json.load(open(f"{tmp}/list.json"))
    assert [x["id"] for x in a["games"]] == [x["id"] for x in before["games"]], (a, before)
    if mode == "restart":
        assert a["games"] == before["games"], (a, before)
        assert a["skipped"] == 2, a
    texts = pgn_games(path)
    for x in a["games"]:
        st, hd, out = req("GET", f"/api/archive/{x['id']}.pgn")
        assert st == 200 and hd["content-type"].startswith("application/x-chess-pgn"), (st, hd)
        assert hd["content-disposition"] == f'attachment; filename="hivebridge-archive-{x["id"]}.pgn"', hd
        assert out == texts[x["id"]] and out.startswith(b"[GameType"), (out, texts[x["id"]])
        saved = f"{tmp}/dl-{x['id']}.pgn"
        if mode == "play":
            open(saved, "wb").write(out)
        else:
            assert out == open(saved, "rb").read(), "the download differs after the restart"
        st, _, o = req("GET", f"/api/archive/{x['id']}")
        o = valid(json.loads(o), "web-records")
        assert st == 200 and o["id"] == x["id"] and o["games"][0]["plies"] == x["plies"], o
        assert o["games"][0]["white"] == x["white"] and o["games"][0]["result"] == x["result"], o
    assert req("GET", "/api/archive/1")[0] == 404 and req("GET", "/api/archive/x.pgn")[0] == 404
    assert req("POST", "/api/archive", {})[0] == 405
    print(f"{mode}: ok ({len(a['games'])} archived games)")

elif mode == "huge":
    a = archive()
    # The newest 256 games of the file are read, the damaged ones among them skipped.
    assert 100 < len(a["games"]) <= 256 and a["skipped"] > 0 and len(a["games"]) + a["skipped"] >= 255, a["skipped"]
    st, _, out = req("GET", f"/api/archive/{a['games'][0]['id']}.pgn")
    assert st == 200 and out.startswith(b"[GameType"), (st, out[:100])
    print(f"huge: ok ({a['skipped']} skipped)")
