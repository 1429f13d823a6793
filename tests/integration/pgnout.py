# pgnout.py: part of pgnout.sh.
#
#   pgnout.py check HIVEBRIDGE PGN RESULTS MAXDEPTH
#       PGN (match --pgnout) read by a strict reader of Mzinga's format, and by
#       `hivebridge convert`, against RESULTS (match --results): the same games once
#       each, legal, with the same moves, players, result and reason; every move
#       after the opening has its time (the results' times_ms) and, for the built-in
#       engine ("hivebridge ..." ids), its score and a depth of 1..MAXDEPTH.
#   pgnout.py spoil PGN GAME
#       appends a whole copy of the file's first game numbered GAME (a game the
#       results lack: written just before a kill) and the first half of another
#       (a write torn by a crash).
#   pgnout.py web PORT
#       a daemon's page: a game against the built-in engine, downloaded as PGN while
#       it runs and once resigned (headers, strict format, the moves of its JSON; a
#       stranger may, reads being open).
#   pgnout.py remote PORT
#       a remote-play game on a uhp-remote listener: the client white against the
#       house engine, one move each, then it resigns.
#   pgnout.py archived ARCHIVE HIVEBRIDGE
#       those two games, the two of ARCHIVE ([daemon] games), whole.
import json, re, subprocess, sys, http.client
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from harness import wait_for

BUG = r"[wb](?:Q|[SBGA][1-3]?|[SBGA][1-3]|M|L|P)"
MOVE = re.compile(rf"^(?:pass|{BUG}(?: (?:[-/\\]{BUG}|{BUG}[-/\\]|{BUG}))?)$")
TAG = re.compile(r'^\[([A-Za-z]+) "((?:[^"\\]|\\.)*)"\]$')
PLY = re.compile(r"^(\d+)\. (.+?)(?: \{([^{}]*)\})?$")
FIRST = ["GameType", "Date", "Event", "Site", "Round", "White", "Black", "Result"]
TYPES = re.compile(r"^Base(?:\+[MLP]+)?$")


def strict(text, results=("WhiteWins", "BlackWins", "Draw")):
    """The games of text as Mzinga writes them, or an AssertionError saying where not:
    the seven tags first in its order, a blank line, one numbered ply a line from 1,
    a blank line, the result word equal to the Result tag, and a blank line between
    games."""
    lines = text.split("\n")
    assert text.endswith("\n"), "no newline at the end"
    games, i = [], 0
    while i < len(lines) and lines[i] == "":
        i += 1
    while i < len(lines) - 1:
        tags, order = {}, []
        while lines[i].startswith("["):
            m = TAG.match(lines[i])
            assert m, f"line {i + 1}: not a tag: {lines[i]!r}"
            assert m.group(1) not in tags, f"line {i + 1}: tag {m.group(1)} twice"
            tags[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))   # PGN escapes \ and "
            order.append(m.group(1))
            i += 1
        assert order[:8] == FIRST, f"line {i}: tags {order[:8]}, want {FIRST} first"
        assert TYPES.match(tags["GameType"]), tags["GameType"]
        assert re.match(r"^\d{4}\.\d{2}\.\d{2}$", tags["Date"]), tags["Date"]
        assert tags["Result"] in results, f"line {i}: Result {tags['Result']!r}"
        assert lines[i] == "", f"line {i + 1}: no blank line after the tags"
        i += 1
        plies = []
        while lines[i] != "":
            m = PLY.match(lines[i])
            assert m, f"line {i + 1}: not one numbered ply: {lines[i]!r}"
            assert int(m.group(1)) == len(plies) + 1, f"line {i + 1}: ply {m.group(1)}, want {len(plies) + 1}"
            assert MOVE.match(m.group(2)), f"line {i + 1}: not a MoveString: {m.group(2)!r}"
            plies.append((m.group(2), m.group(3)))
            i += 1
        assert lines[i] == "" and lines[i + 1] == tags["Result"], \
            f"line {i + 2}: {lines[i + 1]!r}, want the result {tags['Result']}"
        assert lines[i + 2] == "", f"line {i + 3}: no blank line after the game"
        i += 3
        games.append((tags, plies))
    return games


def convert(h, path):
    out = subprocess.run([h, "convert", "--to", "json", path], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, f"convert: {out.stderr}"
    return [json.loads(l) for l in out.stdout.splitlines()]


def legal_moves(h, typ, moves):
    """The legal moves after moves, as `hivebridge uhp` lists them."""
    cmds = f"newgame {typ}\n" + "".join(f"play {m}\n" for m in moves) + "validmoves\n"
    out = subprocess.run([h, "uhp"], input=cmds, capture_output=True, text=True, timeout=60)
    blocks = out.stdout.split("ok\n")
    return blocks[-2].strip().split(";")


WORD = {"1-0": "WhiteWins", "0-1": "BlackWins", "1/2-1/2": "Draw"}
COMMENT = re.compile(r"^(?:([+-]\d+)/(\d+) )?(\d+)\.(\d{3})s$")


def check(h, pgn, results, maxdepth):
    games = strict(open(pgn).read())
    conv = convert(h, pgn)
    res = [json.loads(l) for l in open(results)]
    res = {r["game"]: r for r in res if r["result"] != "*"}
    assert len(games) == len(conv) == len(res), (len(games), len(conv), len(res))
    rounds = [int(t["Round"]) for t, _ in games]
    assert sorted(rounds) == sorted(res), f"games {rounds}, results {sorted(res)}"
    scored = 0
    for (tags, plies), c in zip(games, conv):
        r = res[int(tags["Round"])]
        moves = r["gamestring"].split(";")[3:]
        assert [m for m, _ in plies] == c["moves"] == moves, f"game {tags['Round']}: moves differ"
        assert tags["Result"] == WORD[r["result"]] == c["result"], (tags["Result"], r["result"])
        assert tags["Termination"] == r["reason"], (tags["Termination"], r["reason"])
        assert (tags["White"], tags["Black"]) == (r["white_id"], r["black_id"]), tags
        assert tags["Event"] == "hivebridge match" and tags["TimeControl"], tags
        first = len(r["opening"].split(";")) - 3 if "opening" in r else 0
        assert tags.get("Opening") == r.get("opening"), (tags.get("Opening"), r.get("opening"))
        assert all(cm is None for _, cm in plies[:first]), f"game {tags['Round']}: a comment on the opening"
        assert len(plies) - first == len(r["times_ms"]), (len(plies), first, len(r["times_ms"]))
        for k, (mv, cm) in enumerate(plies[first:]):
            ply = first + k
            m = COMMENT.match(cm or "")
            assert m, f"game {tags['Round']} ply {ply + 1}: comment {cm!r}"
            assert int(m.group(3)) * 1000 + int(m.group(4)) == r["times_ms"][k], (cm, r["times_ms"][k])
            mover = tags["White"] if ply % 2 == 0 else tags["Black"]
            if not mover.startswith("hivebridge"):
                continue
            if m.group(1):
                assert 1 <= int(m.group(2)) <= maxdepth, f"game {tags['Round']} ply {ply + 1}: depth {cm!r}"
                scored += 1
            else:
                # The built-in engine searches nothing when the move is forced.
                assert legal_moves(h, c["type"], moves[:ply]) == [mv], \
                    f"game {tags['Round']} ply {ply + 1}: no score/depth from the built-in engine: {cm!r}"
    assert scored, "no move with a score"
    print(f"pgnout check: {len(games)} games, {scored} moves with score and depth")


def spoil(pgn, game):
    text = open(pgn).read()
    first = text[:text.index("\n\n[GameType ") + 2] if "\n\n[GameType " in text else text
    copy = re.sub(r'^\[Round "\d+"\]$', f'[Round "{game}"]', first, count=1, flags=re.M)
    assert copy != first
    with open(pgn, "a") as f:
        f.write(copy + first[:len(first) // 2])


def web(port):
    me = f"127.0.0.1:{port}"

    def req(method, path, body=None):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        data = json.dumps(body).encode() if body is not None else None
        hd = {"Host": me, "Connection": "close", "Content-Type": "application/json", **tok}
        c.request(method, path, body=data, headers=hd)
        r = c.getresponse()
        raw = r.read()
        c.close()
        return r.status, dict((k.lower(), v) for k, v in r.getheaders()), raw

    tok = {}
    st, _, raw = req("POST", "/api/games", {"depth": 1})
    g = json.loads(raw)
    assert st == 201, (st, g)
    gid, tok = g["id"], {"X-Game-Token": g["token"]}
    wait_for(lambda: json.loads(req("GET", f"/api/games/{gid}")[2])["playable"], 30, "the person to move")
    for mv in ["wS1"]:
        st, _, raw = req("POST", f"/api/games/{gid}/move", {"move": mv})
        assert st == 200, (st, raw)
    # The engine's answer, then a download of the running game.
    wait_for(lambda: json.loads(req("GET", f"/api/games/{gid}")[2])["playable"], 30, "the engine's answer")
    tok = {}   # reads are open: a stranger downloads it
    st, hd, raw = req("GET", f"/api/games/{gid}.pgn")
    assert st == 200, (st, raw)
    assert hd["content-type"].startswith("application/x-chess-pgn"), hd
    assert hd["content-disposition"] == f'attachment; filename="hivebridge-game-{gid}.pgn"', hd
    (tags, plies), = strict(raw.decode(), results=("InProgress",))
    assert [m for m, _ in plies] == json.loads(req("GET", f"/api/games/{gid}")[2])["moves"], plies
    assert len(plies) == 2 and tags["White"] == "you" and tags["Event"] == "hivebridge web", tags
    assert req("GET", f"/api/games/{gid}?format=pgn")[2] == raw, "?format=pgn differs"
    tok = {"X-Game-Token": g["token"]}
    st, _, raw = req("POST", f"/api/games/{gid}/resign", {})
    assert st == 200, (st, raw)
    tok = {}
    st, hd, raw = req("GET", f"/api/games/{gid}.pgn")
    (tags, plies), = strict(raw.decode())
    assert tags["Result"] == "BlackWins" and tags["Termination"] == "resigned" and len(plies) == 2, tags
    assert req("GET", "/api/games/999999.pgn")[0] == 404, "an unknown game's PGN"
    assert req("POST", f"/api/games/{gid}.pgn", {})[0] == 405, "POST to a PGN"
    print(f"web download: ok (game {gid})")


def remote(port):
    from uhp_client import Conn
    c = Conn(port)
    c.answer()
    kv = c.cmd("newgame")
    assert kv[0].startswith("remote ") and "color=White" in kv[0], kv
    c.send("play wS1")
    c.line()
    r = c.answer()
    assert len(r) == 3 and r[2] == "ok", r
    r = c.cmd("resign")
    assert r[0].startswith("Base;BlackWins;White[2];wS1;") and r[1] == "ok", r
    c.close()
    print("remote game: ok")


def archived(archive, h):
    """The page's game (the person white, resigned after one move each) and the
    remote-play game (the client white against the house engine, the same), whole."""
    games = strict(open(archive).read())
    assert len(games) == 2, len(games)
    conv = convert(h, archive)
    events = sorted(t["Event"] for t, _ in games)
    assert events == ["hivebridge uhp-remote", "hivebridge web"], events
    for (tags, plies), c in zip(games, conv):
        assert tags["Result"] == "BlackWins" and "resigned" in tags["Termination"], tags
        assert len(plies) == 2 and c["moves"] == [m for m, _ in plies], (plies, c)
        # Every move has its time (these engines are not asked for reports).
        assert all(cm and COMMENT.match(cm) for _, cm in plies), plies
        if tags["Event"] == "hivebridge web":
            assert (tags["White"], tags["Black"]) == ("you", "builtin"), tags
        else:
            assert tags["White"] and tags["Black"].startswith("house:"), tags
        assert tags["TimeControl"], tags
    print("archive: ok")


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "check":
        check(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    elif cmd == "spoil":
        spoil(sys.argv[2], int(sys.argv[3]))
    elif cmd == "web":
        web(int(sys.argv[2]))
    elif cmd == "remote":
        remote(int(sys.argv[2]))
    elif cmd == "archived":
        archived(sys.argv[2], sys.argv[3])
    else:
        sys.exit(f"pgnout.py: unknown command {cmd}")
