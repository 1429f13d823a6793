#!/usr/bin/env python3
"""hivegame_standin.py: a stand-in for hivegame.com's bot API, written from the
server's source (github hiveboardgame/hive):

  apis/src/api/v1/auth/{get_token_handler,auth_,encode,decode}.rs  token, 401s
  apis/src/api/v1/bot/challenges.rs   challenges list / accept (a GET) / create
  apis/src/api/v1/bot/games.rs        games pending / ongoing / game/{id}, check_time
  apis/src/api/v1/bot/play.rs         play (first move: the piece alone), control
  db/src/models/game.rs               update_gamestate (history "piece pos;", the
                                      first ply "wS1 ;", a pass "pass ;"), the clock
                                      (ns; starts after both first moves; increment;
                                      a shutout credits both sides), timeouts

Refusals after login are HTTP 200 {"success":false,"data":{"error":...}}; auth
failures 401 {"success":false,"data":{"message":...}}. Moves are checked as the server
does (State::play_turn_from_position, then an automatic pass for a side with no move)
by a rules oracle: a `hivebridge uhp` child (the core), asked `newgame GAMESTRING`,
`play MOVE` and `validmoves`.

Usage: hivegame_standin.py --hivebridge BIN [--port P] [--control-port P]
         [--token-ttl S] [--ports-file F] [--users bot1:pw1,bot2:pw2]
The API listens on 127.0.0.1:P, the control endpoint (for the test only) on
127.0.0.1:CP. Control (JSON bodies, POST unless said):
  /control/challenge {"challenger","opponent","game_type","time_mode","time_base",
                      "time_increment","rated","color_choice"}  a challenge (humans
                      are made on first use; a bot may be the challenger)
  /control/human {"user","delay_ms"}     that human plays random legal moves after
                                          delay_ms on its turn (its clock runs)
  /control/fault {"mode":"ok"|"down"|"slow"|"5xx","seconds":S,"delay_ms":D}
  /control/expire_tokens {}              every token issued so far expires now
  GET /control/state                      games, challenges and counters
"""
import argparse
import base64
import hashlib
import hmac
import json
import os
import random
import secrets
import socket
import subprocess
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

NS = 1_000_000_000
SECRET = secrets.token_bytes(32)


def now_iso(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".%06dZ" % int((t % 1) * 1e6)


def b64(b):
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def unb64(s):
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


class Oracle:
    """The rules: one `hivebridge uhp` child, one question at a time."""

    def __init__(self, binary):
        self.p = subprocess.Popen([binary, "uhp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.lock = threading.Lock()
        self._answer()

    def _answer(self):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("oracle died")
            line = line.rstrip("\n")
            if line == "ok":
                return lines
            lines.append(line)

    def ask(self, cmd):
        self.p.stdin.write(cmd + "\n")
        return self._answer()

    @staticmethod
    def gamestring(game_type, plies):
        n = len(plies)
        state = "NotStarted" if n == 0 else "InProgress"
        turn = "%s[%d]" % ("White" if n % 2 == 0 else "Black", n // 2 + 1)
        return ";".join([game_type, state, turn] + plies)

    def play(self, game_type, plies, move):
        """(new plies, state, error): the move and, as the server does, a pass for a
        side left with no move."""
        with self.lock:
            a = self.ask("newgame " + self.gamestring(game_type, plies))
            if not a or a[0].startswith(("err", "invalidmove")):
                return None, None, "history not loadable: %s" % (a and a[0])
            a = self.ask("play " + move)
            if not a or a[0].startswith(("err", "invalidmove")):
                return None, None, a[0].split(" ", 1)[-1] if a else "no answer"
            fields = a[0].split(";")
            state, new = fields[1], fields[3:]
            if state == "InProgress":
                vm = self.ask("validmoves")
                if vm and vm[0] == "pass":
                    a = self.ask("play pass")
                    fields = a[0].split(";")
                    state, new = fields[1], fields[3:]
            return new, state, None

    def random_move(self, game_type, plies):
        with self.lock:
            self.ask("newgame " + self.gamestring(game_type, plies))
            vm = self.ask("validmoves")
        moves = vm[0].split(";") if vm and vm[0] and not vm[0].startswith("err") else []
        return random.choice(moves) if moves else None


class Site:
    def __init__(self, oracle, token_ttl, users):
        self.lock = threading.RLock()
        self.oracle = oracle
        self.token_ttl = token_ttl
        self.users = {}            # name -> {"id","username","email","password","bot"}
        self.challenges = {}       # nanoid -> challenge
        self.games = {}            # nanoid -> game (the db model's fields)
        self.history_plies = {}    # nanoid -> [MoveString] (the oracle's view)
        self.humans = {}           # name -> delay_ms (autoplay)
        self.not_before = 0        # tokens numbered below this are expired (jti)
        self.counters = {"tokens": 0, "unauthorized": 0, "refused_plays": 0, "plays": 0,
                         "requests": 0, "faulted": 0, "accepted": 0}
        self.refusals = []
        for spec in users:
            name, pw = spec.split(":", 1)
            self.user(name, pw, bot=True)

    def user(self, name, password="", bot=False):
        with self.lock:
            if name not in self.users:
                self.users[name] = {"id": str(uuid.uuid4()), "username": name,
                                    "email": name + "@example.org", "password": password,
                                    "bot": bot}
            return self.users[name]

    def by_id(self, uid):
        for u in self.users.values():
            if u["id"] == uid:
                return u
        return None

    # --- auth (encode.rs: sub, iss, exp 100 minutes; decode.rs: the default Validation)
    def token(self, email):
        now = int(time.time())
        header = b64(json.dumps({"typ": "JWT", "alg": "HS256"}).encode())
        claims = b64(json.dumps({"sub": email, "iss": "hivegame.com", "exp": now + self.token_ttl,
                                 "jti": self.counters["tokens"]}).encode())
        sig = b64(hmac.new(SECRET, (header + "." + claims).encode(), hashlib.sha256).digest())
        self.counters["tokens"] += 1
        return header + "." + claims + "." + sig

    def decode(self, token):
        parts = token.split(".")
        if len(parts) != 3:
            return None, "InvalidToken"
        sig = b64(hmac.new(SECRET, (parts[0] + "." + parts[1]).encode(), hashlib.sha256).digest())
        if not hmac.compare_digest(sig, parts[2]):
            return None, "InvalidSignature"
        claims = json.loads(unb64(parts[1]))
        # jsonwebtoken's default leeway is 60 s; the stand-in has none, to test expiry.
        if claims["exp"] <= time.time() or claims.get("jti", 0) < self.not_before:
            return None, "ExpiredSignature"
        return claims["sub"], None

    def find_login(self, email):
        for u in self.users.values():
            if u["email"] == email or u["username"] == email:
                return u
        return None

    # --- clocks (game.rs)
    def time_left(self, g, color):
        return g[color + "_time_left"]

    def timed_out_color(self, g, now):
        if g["finished"] or g["time_mode"] == "Untimed" or g["game_status"] == "NotStarted":
            return None
        color = "white" if g["turn"] % 2 == 0 else "black"
        passed = int((now - g["_last"]) * NS)
        return None if g[color + "_time_left"] > passed else color

    def finish(self, g, winner, conclusion, now):
        g["finished"] = True
        g["game_status"] = {"white": "Finished(1-0)", "black": "Finished(0-1)",
                            "draw": "Finished(½-½)"}[winner]
        g["conclusion"] = conclusion
        g["updated_at"] = now_iso(now)
        g["timeout_at"] = None

    def check_time(self, g, now):
        c = self.timed_out_color(g, now)
        if c:
            g[c + "_time_left"] = 0
            self.finish(g, "black" if c == "white" else "white", "Timeout", now)
        return g

    def settle(self, g, now, pass_after):
        """get_time_info: (white, black, timed_out) after the mover's move."""
        w, b = g["white_time_left"], g["black_time_left"]
        mode = g["time_mode"]
        if mode == "Untimed":
            return w, b, False
        if g["turn"] < 2 and (mode == "Correspondence" or g["game_status"] == "NotStarted"):
            return w, b, False
        mover = "white" if g["turn"] % 2 == 0 else "black"
        left = g[mover + "_time_left"] - int((now - g["_last"]) * NS)
        left = max(left, 0)
        times = {"white": w, "black": b, mover: left}
        other = "black" if mover == "white" else "white"
        if left == 0:
            return times["white"], times["black"], True
        if mode == "RealTime":
            inc = g["time_increment"] * NS
            times[mover] += inc
            if pass_after:
                times[other] += inc
        elif g["time_increment"] is not None and g["time_base"] is None:
            times[mover] = g["time_increment"] * NS
            if pass_after:
                times[other] = g["time_increment"] * NS
        return times["white"], times["black"], False

    # --- games
    def new_game(self, ch, white, black):
        now = time.time()
        mode = ch["time_mode"]
        if mode == "Untimed":
            left = None
        elif mode == "RealTime":
            left = ch["time_base"] * NS
        else:
            left = (ch["time_base"] if ch["time_base"] is not None else ch["time_increment"]) * NS
        g = {"id": str(uuid.uuid4()), "nanoid": ch["challenge_id"], "current_player_id": white["id"],
             "black_id": black["id"], "finished": False, "game_status": "NotStarted",
             "game_type": ch["game_type"], "history": "", "game_control_history": "",
             "rated": ch["rated"], "tournament_queen_rule": True, "turn": 0, "white_id": white["id"],
             "white_rating": None, "black_rating": None, "white_rating_change": None,
             "black_rating_change": None, "created_at": now_iso(now), "updated_at": now_iso(now),
             "time_mode": mode, "time_base": ch["time_base"], "time_increment": ch["time_increment"],
             "last_interaction": None, "black_time_left": left, "white_time_left": left,
             "speed": "Blitz", "hashes": [], "conclusion": "Unknown", "tournament_id": None,
             "tournament_game_result": "Unknown", "game_start": "Moves", "move_times": [],
             "timeout_at": None, "_last": now}
        self.games[g["nanoid"]] = g
        self.history_plies[g["nanoid"]] = []
        return g

    def play(self, user, game_id, piece_pos):
        """play.rs play_move: (game, None) or (None, error)."""
        with self.lock:
            g = self.games.get(game_id)
            if g is None:
                return None, "Game not found"
            now = time.time()
            if g["finished"]:
                return None, "Game is finished"
            if g["current_player_id"] != user["id"]:
                return None, "Not your turn"
            plies = self.history_plies[game_id]
            if len(plies) == 0:
                if " " in piece_pos.strip() or not piece_pos:
                    return None, "Parsing error: %s is not a valid piece" % piece_pos
                move = piece_pos
            else:
                if " " not in piece_pos:
                    return None, "Invalid move format: expected 'piece position'"
                move = piece_pos
            new, state, err = self.oracle.play(g["game_type"], plies, move)
            if err:
                return None, "Invalid move: %s" % err
            passed = new[-1] == "pass" and len(new) == len(plies) + 2
            w, b, timed_out = self.settle(g, now, passed)
            if timed_out:
                return self.check_time(g, now), None
            self.history_plies[game_id] = new
            g["history"] = "".join(("%s ;" % m) if i == 0 or m == "pass" else ("%s;" % m)
                                   for i, m in enumerate(new))
            g["white_time_left"], g["black_time_left"] = w, b
            g["turn"] = len(new)
            g["current_player_id"] = g["white_id"] if len(new) % 2 == 0 else g["black_id"]
            was = g["game_status"]
            if state in ("WhiteWins", "BlackWins", "Draw"):
                self.finish(g, {"WhiteWins": "white", "BlackWins": "black", "Draw": "draw"}[state],
                            "Board", now)
            elif g["time_mode"] == "RealTime" and was == "NotStarted" and len(plies) == 0:
                g["game_status"] = "NotStarted"
            else:
                g["game_status"] = "InProgress"
            if g["time_mode"] != "Untimed":
                g["move_times"].append(w if len(plies) % 2 == 0 else b)
            g["_last"] = now
            g["last_interaction"] = now_iso(now)
            g["updated_at"] = now_iso(now)
            return g, None

    def control(self, user, game_id, control):
        with self.lock:
            g = self.games.get(game_id)
            if g is None:
                return None, "Game not found"
            if g["finished"]:
                return None, "Game is finished"
            if user["id"] not in (g["white_id"], g["black_id"]):
                return None, "Not your game"
            color = "white" if g["white_id"] == user["id"] else "black"
            now = time.time()
            if control == "resign":
                if g["turn"] < 2:
                    return None, "Cannot resign before turn 2"
                if self.timed_out_color(g, now):
                    return self.check_time(g, now), None
                g["game_control_history"] += "%d. Resign(%s);" % (g["turn"], color[0])
                self.finish(g, "black" if color == "white" else "white", "Resigned", now)
                return g, None
            if control == "abort":
                if g["turn"] >= 2:
                    return None, "Cannot abort after turn 2"
                del self.games[game_id]
                g = dict(g, finished=True)
                return g, None
            return None, "Invalid control type: %s" % control

    def add_challenge(self, ch, opp, game_type, rated, color, mode, base, inc):
        cid = secrets.token_urlsafe(9)[:12]
        c = {"id": str(uuid.uuid4()), "challenge_id": cid,
             "challenger": {"username": ch["username"], "bot": ch["bot"]},
             "opponent": {"username": opp["username"]} if opp else None,
             "game_type": game_type, "rated": rated, "visibility": "Direct" if opp else "Public",
             "color_choice": color, "created_at": now_iso(time.time()), "challenger_rating": 1500,
             "time_mode": mode, "time_base": base, "time_increment": inc, "speed": "Blitz",
             "band_upper": None, "band_lower": None,
             "_challenger": ch["id"], "_opponent": opp["id"] if opp else None}
        self.challenges[cid] = c
        return c

    def bot_challenge(self, bot, b):
        """challenges.rs: BotChallengeRequest::validate_and_convert, then create."""
        types = {"Base": "Base", "MLP": "Base+MLP", "Base+MLP": "Base+MLP"}
        gt = types.get(b.get("game_type"))
        rated = bool(b.get("rated"))
        if gt == "Base" and rated:
            return None, "Base game type cannot be rated"
        if gt is None:
            return None, "Only Base and MLP allowed"
        vis, opp_name = b.get("visibility"), b.get("opponent")
        if vis == "Direct" and not opp_name:
            return None, "Direct challenges require an opponent username"
        if vis != "Direct" and opp_name:
            return None, "Only direct challenges can have an opponent username"
        tc = b.get("time_control")
        if tc == "Untimed":
            if rated:
                return None, "Untimed games cannot be rated"
            mode, base, inc = "Untimed", None, None
        elif isinstance(tc, dict) and "RealTime" in tc:
            rt = tc["RealTime"]
            if not 1 <= rt.get("base", 0) <= 180:
                return None, "RealTime base must be between 1 and 180 minutes"
            if rt.get("increment", 0) > 180:
                return None, "RealTime increment must be between 0 and 180 seconds"
            mode, base, inc = "RealTime", rt["base"] * 60, rt.get("increment", 0)
        elif isinstance(tc, dict) and "Correspondence" in tc:
            co = tc["Correspondence"]
            if not 1 <= co.get("days", 0) <= 20:
                return None, "Correspondence days must be between 1 and 20"
            secs = co["days"] * 86400
            mode = "Correspondence"
            base, inc = (None, secs) if co.get("mode") == "DaysPerMove" else (secs, None)
        else:
            return None, "Json deserialize error: time_control"
        with self.lock:
            opp = None
            if opp_name:
                opp = self.users.get(opp_name)
                if opp is None:
                    return None, "User not found"
            return self.add_challenge(bot, opp, gt, rated, b.get("color_choice", "Random"), mode,
                                      base, inc), None

    def view(self, g):
        return {k: v for k, v in g.items() if not k.startswith("_")}

    # A random mover may escape a weak bot for hundreds of turns (an untimed Base+LP game
    # reached turn 807 under ASan at load 14): like a person tired of it, it resigns here.
    HUMAN_RESIGN_TURN = 300

    def human_turns(self):
        """The autoplaying humans' moves that are due (one pass over the games)."""
        due, tired = [], []
        with self.lock:
            now = time.time()
            for g in list(self.games.values()):
                self.check_time(g, now)
                if g["finished"]:
                    continue
                u = self.by_id(g["current_player_id"])
                if u and u["username"] in self.humans and g["turn"] >= self.HUMAN_RESIGN_TURN:
                    tired.append((u, g["nanoid"]))
                elif u and u["username"] in self.humans and \
                        (now - g["_last"]) * 1000 >= self.humans[u["username"]]:
                    due.append((u, g["nanoid"], g["game_type"], list(self.history_plies[g["nanoid"]])))
        for u, nid in tired:
            self.control(u, nid, "resign")
        for u, nid, gt, plies in due:
            m = self.oracle.random_move(gt, plies)
            if m:
                if not plies:
                    m = m.split(" ")[0]
                self.play(u, nid, m)


class Faults:
    def __init__(self):
        self.mode, self.until, self.delay = "ok", 0.0, 0.0

    def current(self):
        if self.mode != "ok" and time.time() >= self.until:
            self.mode = "ok"
        return self.mode


def send_json(handler, status, obj):
    body = json.dumps(obj).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    try:
        handler.wfile.write(body)
    except OSError:
        pass        # the client went away (an outage closes its connections)


def make_api(site, faults, servers):
    class Api(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def setup(self):
            super().setup()
            with servers.lock_conns:
                servers.conns.add(self.connection)

        def finish(self):
            with servers.lock_conns:
                servers.conns.discard(self.connection)
            super().finish()

        def log_message(self, fmt, *args):
            pass

        def send_json(self, status, obj):
            send_json(self, status, obj)

        def ok(self, data):
            self.send_json(200, {"success": True, "data": data})

        def refuse(self, error):
            self.send_json(200, {"success": False, "data": {"error": error}})

        def body(self):
            n = int(self.headers.get("Content-Length") or 0)
            try:
                return json.loads(self.rfile.read(n) or b"null")
            except ValueError:
                return None

        def auth(self):
            """auth_.rs: Bearer token -> the bot, else a 401 answered here."""
            h = self.headers.get("Authorization") or ""
            parts = h.split(" ")
            if len(parts) < 2:
                site.counters["unauthorized"] += 1
                self.send_json(401, {"success": False, "data": {"message": "No token provided"}})
                return None
            email, why = site.decode(parts[1])
            if why:
                site.counters["unauthorized"] += 1
                self.send_json(401, {"success": False, "data": {"message": why}})
                return None
            u = site.find_login(email)
            if u is None:
                self.send_json(400, {"success": False, "data": {"message": "User not found"}})
                return None
            if not u["bot"]:
                site.counters["unauthorized"] += 1
                self.send_json(401, {"success": False, "data": {"message": "Not a bot"}})
                return None
            return u

        def faulted(self):
            site.counters["requests"] += 1
            mode = faults.current()
            if mode == "slow":
                time.sleep(faults.delay)
            if mode == "5xx":
                site.counters["faulted"] += 1
                self.send_response(503)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return True
            return False

        def do_GET(self):
            if self.faulted():
                return
            p = self.path
            u = self.auth()
            if u is None:
                return
            me = {"bot": u["email"], "bot_username": u["username"]}
            with site.lock:
                now = time.time()
                if p == "/api/v1/auth/id":
                    return self.ok({"bot": u["email"], "user_id": u["id"]})
                if p == "/api/v1/bot/challenges/":
                    own = [c for c in site.challenges.values() if c["_challenger"] == u["id"]]
                    direct = [c for c in site.challenges.values()
                              if c["_opponent"] == u["id"] and c["_challenger"] != u["id"]]
                    return self.ok(dict(me, challenges=[site.view(c) for c in own + direct]))
                if p.startswith("/api/v1/bot/challenge/accept/"):
                    cid = p.rsplit("/", 1)[1]
                    c = site.challenges.get(cid)
                    if c is None:
                        return self.refuse("Challenge not found")
                    if c["_challenger"] == u["id"] or (c["_opponent"] and c["_opponent"] != u["id"]):
                        return self.refuse("You cannot accept this challenge")
                    ch = site.by_id(c["_challenger"])
                    cc = c["color_choice"].lower()
                    if cc == "black" or (cc not in ("white", "black") and random.random() < 0.5):
                        white, black = u, ch
                    else:
                        white, black = ch, u
                    g = site.new_game(c, white, black)
                    if c["time_mode"] == "RealTime":
                        for k in [k for k, x in site.challenges.items() if x["time_mode"] == "RealTime"
                                  and x["_challenger"] in (white["id"], black["id"])]:
                            del site.challenges[k]
                    else:
                        del site.challenges[cid]
                    site.counters["accepted"] += 1
                    return self.ok(dict(me, game=site.view(g)))
                if p in ("/api/v1/bot/games/pending", "/api/v1/bot/games/ongoing"):
                    out = []
                    for g in site.games.values():
                        if u["id"] not in (g["white_id"], g["black_id"]) or g["finished"]:
                            continue
                        if p.endswith("pending") and g["current_player_id"] != u["id"]:
                            continue
                        site.check_time(g, now)
                        if not g["finished"]:
                            out.append(site.view(g))
                    return self.ok(dict(me, games=out))
                if p.startswith("/api/v1/bot/game/"):
                    g = site.games.get(p.rsplit("/", 1)[1])
                    if g is None:
                        return self.refuse("Game not found")
                    return self.ok(dict(me, games=[site.view(site.check_time(g, now))]))
            self.send_json(404, {"success": False, "data": {"message": "Not found"}})

        def do_POST(self):
            if self.faulted():
                return
            p = self.path
            if p == "/api/v1/auth/token":
                b = self.body()
                if not isinstance(b, dict) or not isinstance(b.get("email"), str) or \
                        not isinstance(b.get("password"), str):
                    self.send_response(400)
                    msg = b"Json deserialize error: missing field"
                    self.send_header("Content-Length", str(len(msg)))
                    self.end_headers()
                    self.wfile.write(msg)
                    return
                u = site.find_login(b["email"])
                if u is None:
                    return self.send_json(400, {"success": False, "data": {"message": "User not found"}})
                if not u["bot"]:
                    return self.send_json(400, {"success": False, "data": {"message": "Not a bot"}})
                if not hmac.compare_digest(u["password"], b["password"]):
                    return self.send_json(400, {"success": False,
                                                "data": {"message": "Invalid password"}})
                return self.ok({"token": site.token(b["email"])})
            b = self.body()
            u = self.auth()
            if u is None:
                return
            me = {"bot": u["email"], "bot_username": u["username"]}
            if not isinstance(b, dict):
                return self.send_json(400, {"success": False, "data": {"message": "bad json"}})
            if p == "/api/v1/bot/games/play":
                site.counters["plays"] += 1
                g, err = site.play(u, str(b.get("game_id")), str(b.get("piece_pos")))
                if err:
                    site.counters["refused_plays"] += 1
                    site.refusals.append({"game": b.get("game_id"), "move": b.get("piece_pos"),
                                          "error": err})
                    return self.refuse(err)
                return self.ok(dict(me, history=g["history"]))
            if p == "/api/v1/bot/games/control":
                g, err = site.control(u, str(b.get("game_id")), str(b.get("control")))
                if err:
                    return self.refuse(err)
                return self.ok(dict(me, game_id=g["nanoid"], finished=g["finished"]))
            if p == "/api/v1/bot/challenges/":
                c, err = site.bot_challenge(u, b)
                if err:
                    return self.refuse(err)
                return self.ok(dict(me, challenge=site.view(c)))
            self.send_json(404, {"success": False, "data": {"message": "Not found"}})

    return Api


def make_control(site, faults, servers):
    class Control(BaseHTTPRequestHandler):
        def log_message(self, fmt, *args):
            pass

        def reply(self, obj, status=200):
            send_json(self, status, obj)

        def do_GET(self):
            if self.path != "/control/state":
                return self.reply({"error": "unknown"}, 404)
            with site.lock:
                now = time.time()
                for g in site.games.values():
                    site.check_time(g, now)
                names = {u["id"]: u["username"] for u in site.users.values()}
                games = [dict(site.view(g), white=names[g["white_id"]], black=names[g["black_id"]],
                              plies=site.history_plies[g["nanoid"]]) for g in site.games.values()]
                self.reply({"games": games, "challenges": [site.view(c) for c in site.challenges.values()],
                            "counters": site.counters, "refusals": site.refusals,
                            "fault": faults.current()})

        def do_POST(self):
            n = int(self.headers.get("Content-Length") or 0)
            b = json.loads(self.rfile.read(n) or b"{}")
            if self.path == "/control/challenge":
                with site.lock:
                    ch = site.user(b["challenger"], b.get("password", ""), bot=b.get("bot", False))
                    opp = site.users.get(b.get("opponent")) if b.get("opponent") else None
                    c = site.add_challenge(ch, opp, b.get("game_type", "Base+MLP"), b.get("rated", False),
                                           b.get("color_choice", "Random"), b.get("time_mode", "RealTime"),
                                           b.get("time_base"), b.get("time_increment"))
                    cid = c["challenge_id"]
                    return self.reply({"challenge_id": cid})
            if self.path == "/control/human":
                with site.lock:
                    site.user(b["user"])
                    site.humans[b["user"]] = b.get("delay_ms", 50)
                return self.reply({})
            if self.path == "/control/expire_tokens":
                site.not_before = site.counters["tokens"]
                return self.reply({})
            if self.path == "/control/fault":
                mode = b.get("mode", "ok")
                faults.delay = b.get("delay_ms", 0) / 1000.0
                faults.until = time.time() + b.get("seconds", 0)
                if mode == "down":
                    threading.Thread(target=servers.outage, args=(b.get("seconds", 0),),
                                     daemon=True).start()
                    faults.mode = "ok"
                else:
                    faults.mode = mode
                return self.reply({})
            self.reply({"error": "unknown"}, 404)

    return Control


class Servers:
    """The API's listener, which an outage closes (connection refused) and reopens."""

    def __init__(self, port, handler, holder):
        self.port, self.handler, self.holder = port, handler, holder
        self.api = None
        self.lock = threading.Lock()
        self.start()

    def start(self):
        ThreadingHTTPServer.allow_reuse_address = True
        ThreadingHTTPServer.daemon_threads = True
        self.api = ThreadingHTTPServer(("127.0.0.1", self.port), self.handler)
        self.port = self.api.server_address[1]
        threading.Thread(target=self.api.serve_forever, daemon=True).start()

    def outage(self, seconds):
        with self.lock:
            self.api.shutdown()
            self.api.server_close()
            # Kept-alive connections too: a client must see the outage.
            with self.holder.lock_conns:
                for c in list(self.holder.conns):
                    try:
                        c.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
            time.sleep(seconds)
            for _ in range(100):
                try:
                    self.start()
                    return
                except OSError:
                    time.sleep(0.1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hivebridge", required=True)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--control-port", type=int, default=0)
    ap.add_argument("--token-ttl", type=int, default=6000)
    ap.add_argument("--users", default="bot1:secret1")
    ap.add_argument("--ports-file")
    a = ap.parse_args()
    site = Site(Oracle(a.hivebridge), a.token_ttl, a.users.split(","))
    faults = Faults()

    class Holder:
        outage = None
        conns = set()
        lock_conns = threading.Lock()
    holder = Holder()
    servers = Servers(a.port, make_api(site, faults, holder), holder)
    holder.outage = servers.outage
    control = ThreadingHTTPServer(("127.0.0.1", a.control_port), make_control(site, faults, holder))
    threading.Thread(target=control.serve_forever, daemon=True).start()
    line = "%d %d\n" % (servers.port, control.server_address[1])
    if a.ports_file:
        with open(a.ports_file + ".tmp", "w") as f:
            f.write(line)
        os.rename(a.ports_file + ".tmp", a.ports_file)
    sys.stdout.write(line)
    sys.stdout.flush()
    while True:
        try:
            site.human_turns()
        except Exception as e:  # a broken oracle ends the stand-in loudly
            sys.stderr.write("hivegame_standin: %s\n" % e)
            raise
        time.sleep(0.02)


if __name__ == "__main__":
    main()
