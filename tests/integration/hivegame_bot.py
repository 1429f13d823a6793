#!/usr/bin/env python3
"""hivegame_bot.py: `hivebridge bot` against the stand-in of hivegame.com's bot API
(tests/tools/hivegame_standin.py), driven through its control endpoint.

  hivegame_bot.py HIVEBRIDGE TMPDIR API_PORT CONTROL_PORT NOKAMUTE_CMD [--games N --outage S]

Default (make test): three bots at once: bot1 (the built-in engine, from a [site]
section of --config, password from a file), bot2 (the built-in engine from the
command line, password from the environment) and botn (nokamute). Humans playing
random legal moves challenge them with every time control, game types and colours
mixed. On the way: every token is expired (401, then a new login), bot1's tokens
also run out by themselves (the stand-in's --token-ttl), the site goes down
(connection refused) then answers 503 for a while, and bot1 is restarted in the
middle of its games (rebuilt from the site's histories). Then every game must be
over on the board (no time loss, no abort; or a random human resigns past turn 300), no move refused, every history must
replay through `hivebridge convert`, and no log may hold the password or a token.

With --games N (the bench, tests/bench/hivegame_soak.sh): bot1 alone with N games
at once, an outage of S seconds, memory and descriptors of the bot from /proc
before and after.
"""
import atexit
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

HB, TMP, API, CTL, NOKAMUTE = sys.argv[1:6]
ARGS = sys.argv[6:]
SOAK = "--games" in ARGS
NGAMES = int(ARGS[ARGS.index("--games") + 1]) if SOAK else 0
OUTAGE = float(ARGS[ARGS.index("--outage") + 1]) if "--outage" in ARGS else 4.0
URL = "http://127.0.0.1:%s" % API
PASSWORDS = {"bot1": "pw-one-7Qx", "bot2": "pw-two-9Kz", "botn": "pw-nok-3Vb", "bots": "pw-srv-5Hd",
             "botf": "pw-flt-2Wq"}
# botf's engine refuses every history with moves (as nokamute refuses one that repeats).
FAKE_UHP = os.path.join(os.environ["TOOLS"], "fake_uhp_engine") if "TOOLS" in os.environ else None


def fail(msg):
    sys.stderr.write("hivegame_bot: FAIL: %s\n" % msg)
    try:
        for g in state()["games"]:
            sys.stderr.write("  game %s %s vs %s %s %s turn %d %s/%s %s\n" % (
                g["nanoid"], g["white"], g["black"], g["game_type"], g["time_mode"], g["turn"],
                g["white_time_left"], g["black_time_left"], g["game_status"]))
    except Exception as e:  # the stand-in may be the one that failed
        sys.stderr.write("  (no state: %s)\n" % e)
    for name in sorted(os.listdir(TMP)):
        if name.endswith((".out", ".err")):
            with open(os.path.join(TMP, name), errors="replace") as f:
                sys.stderr.write("== %s\n%s\n" % (name, f.read()[-4000:]))
    sys.exit(1)


def control(path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request("http://127.0.0.1:%s%s" % (CTL, path), data=data,
                                 method="POST" if data is not None else "GET")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def api(path, body=None, token=None):
    """The site's API as a bot sees it: (HTTP status, JSON answer)."""
    req = urllib.request.Request(URL + path, data=json.dumps(body).encode() if body is not None else None,
                                 method="POST" if body is not None else "GET",
                                 headers={"Content-Type": "application/json"})
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def check_own_challenge():
    """A challenge bot2 makes itself (POST bot/challenges/, as challenges.rs validates it)
    is listed to bot2 as its own, and never accepted by it."""
    st, a = api("/api/v1/auth/token", {"email": "bot2", "password": PASSWORDS["bot2"]})
    tok = a["data"]["token"]
    st, a = api("/api/v1/bot/challenges/", {"game_type": "Base", "visibility": "Public", "opponent": None,
                                            "color_choice": "Random", "rated": True,
                                            "time_control": "Untimed"}, tok)
    if st != 200 or a["success"] or a["data"]["error"] != "Base game type cannot be rated":
        fail("a rated Base challenge: %s %s" % (st, a))
    st, a = api("/api/v1/bot/challenges/", {"game_type": "MLP", "visibility": "Public", "opponent": None,
                                            "color_choice": "White", "rated": False,
                                            "time_control": {"Correspondence": {"mode": "DaysPerMove",
                                                                                "days": 2}}}, tok)
    # (Not a real-time one: accepting any real-time challenge deletes every real-time
    # challenge of both players, challenges.rs / Game::create_and_delete_challenges.)
    if st != 200 or not a["success"] or a["data"]["challenge"]["time_increment"] != 172800:
        fail("a challenge of bot2's own: %s %s" % (st, a))
    st, a = api("/api/v1/bot/games/pending")
    if st != 401 or a["data"]["message"] != "No token provided":
        fail("no token: %s %s" % (st, a))
    return a


def state():
    return control("/control/state")


def wait(cond, seconds, what):
    end = time.time() + seconds
    while time.time() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.1)
    fail("timed out (%d s): %s" % (seconds, what))


procs = {}
every_proc = []


def kill_bots():
    """The bots are in sessions of their own: the harness cannot reach them once this
    script has gone, so they go with it, whatever way it ends."""
    for p in every_proc:
        if p.poll() is None:
            p.kill()
            p.wait()


atexit.register(kill_bots)


def free_port():
    import socket
    with socket.socket() as so:
        so.bind(("127.0.0.1", 0))
        return so.getsockname()[1]


def start_serve():
    """`hivebridge serve` runs a [site] beside its listeners; its games are on the page.
    Its resign_below is the highest there is: it resigns as soon as the site lets it."""
    conf = os.path.join(TMP, "serve.conf")
    with open(conf, "w") as f:
        f.write("[listen uhp]\nport = 0\n[engine rep]\nkind = builtin\n"
                "option = ReportIntermediateBestMoves true\n[site srv]\nurl = %s\nuser = bots\n"
                "password_env = HB_TEST_PW\nengine = rep\npoll_interval = 0.2\nresign_below = 30000\n"
                % URL)
    web = free_port()
    out = open(os.path.join(TMP, "bots.err"), "a")
    e = dict(os.environ, HB_TEST_PW=PASSWORDS["bots"])
    procs["bots"] = subprocess.Popen([HB, "serve", "--config", conf, "--http", "127.0.0.1:%d" % web,
                                      "--log", os.path.join(TMP, "bots.log")],
                                     stdout=out, stderr=out, env=e, start_new_session=True)
    every_proc.append(procs["bots"])
    return web


def page_games(web):
    try:
        with urllib.request.urlopen("http://127.0.0.1:%d/api/games" % web, timeout=10) as r:
            g = json.loads(r.read())
        return [x for x in g["games"] + g["finished"] if x["kind"] == "hivegame"]
    except OSError:
        return []


def log_text(name):
    try:
        with open(os.path.join(TMP, name), errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def start_bot(name, argv, env=None, log=None):
    out = open(os.path.join(TMP, "%s.err" % (log or name)), "a")
    e = dict(os.environ)
    e.pop("HIVEBRIDGE_BOT_PASSWORD", None)
    if env:
        e.update(env)
    procs[name] = subprocess.Popen([HB, "bot"] + argv, stdout=out, stderr=out, env=e,
                                   start_new_session=True)
    every_proc.append(procs[name])
    return procs[name]


def stop_bot(name):
    p = procs[name]
    p.send_signal(signal.SIGTERM)
    try:
        rc = p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        fail("%s did not stop on SIGTERM" % name)
    if rc != 0:
        fail("%s exited %d after SIGTERM" % (name, rc))


def proc_figures(pid):
    with open("/proc/%d/status" % pid) as f:
        rss = [int(l.split()[1]) for l in f if l.startswith("VmRSS:")][0]
    return rss, len(os.listdir("/proc/%d/fd" % pid))


def write_secret(path, text):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.write(fd, (text + "\n").encode())
    os.close(fd)


def challenge(human, bot, game_type, mode, base=None, inc=None, color="Random", delay=20):
    control("/control/human", {"user": human, "delay_ms": delay})
    return control("/control/challenge", {"challenger": human, "opponent": bot, "game_type": game_type,
                                          "time_mode": mode, "time_base": base, "time_increment": inc,
                                          "color_choice": color})["challenge_id"]


def games_of(s, bot):
    return [g for g in s["games"] if bot in (g["white"], g["black"])]


def bot1_config(poll=0.2, max_games=4):
    conf = os.path.join(TMP, "bot.conf")
    with open(conf, "w") as f:
        f.write("[site one]\nurl = %s\nuser = bot1\npassword_file = %s\nengine = builtin\n"
                "max_games = %d\npoll_interval = %s\nbackoff_max = 2\nrequest_timeout = 5\n"
                "think_time = 0.3\n" % (URL, os.path.join(TMP, "pw1"), max_games, poll))
    return conf


def check_end(bots, expect_games):
    # A game may run to the random human's resignation at turn 300: at load 15 one
    # was at turn 281 after 150 s.
    s = wait(lambda: (lambda st: st if len(st["games"]) >= expect_games and
                      all(g["finished"] for g in st["games"]) else None)(state()),
             300 if not SOAK else 400, "every game over")
    if s["counters"]["refused_plays"]:
        fail("moves refused: %s" % s["refusals"])
    pgn = []
    for g in s["games"]:
        who = g["white"] if g["white"] in bots else g["black"]
        want = "Resigned" if who in ("bots", "botf") else "Board"
        # A random human resigns a game that long (the stand-in's HUMAN_RESIGN_TURN): the bot won.
        tired = g["conclusion"] == "Resigned" and g["turn"] >= 300 and \
            g["game_status"] == ("Finished(1-0)" if who == g["white"] else "Finished(0-1)")
        # nokamute applies its own threefold-repetition rule and refuses a history that
        # repeats (../shared/peers/README.md): the bot resigns such a game, not flags.
        stuck = who == "botn" and g["conclusion"] == "Resigned" and \
            g["game_status"] == ("Finished(0-1)" if who == g["white"] else "Finished(1-0)") and \
            "times in this position" in log_text("botn.err") + log_text("botn.log")
        if stuck:
            print("game %s: nokamute refused its history (its repetition rule); the bot resigned" % g["nanoid"])
        if g["conclusion"] != want and not tired and not stuck:
            fail("game %s (%s vs %s) ended by %s: %s" % (g["nanoid"], g["white"], g["black"],
                                                        g["conclusion"], g["game_status"]))
        if g["time_mode"] != "Untimed":
            left = g["white_time_left"] if who == g["white"] else g["black_time_left"]
            if left is None or left <= 0:
                fail("game %s: the bot's clock is at %s" % (g["nanoid"], left))
        pgn.append('[GameType "%s"]\n\n%s\n' % (g["game_type"], "\n".join(
            "%d. %s" % (i + 1, m) for i, m in enumerate(g["plies"]))))
    path = os.path.join(TMP, "games.pgn")
    with open(path, "w") as f:
        f.write("\n".join(pgn))
    r = subprocess.run([HB, "convert", "--to", "gamestring", path], capture_output=True, text=True)
    lines = [l for l in r.stdout.splitlines() if l.strip()]
    if r.returncode != 0 or len(lines) != len(s["games"]):
        fail("the histories do not all replay: %s %s" % (r.stdout[-500:], r.stderr[-500:]))
    return s


def check_logs():
    for name in os.listdir(TMP):
        if not name.endswith((".log", ".err")):
            continue
        with open(os.path.join(TMP, name), errors="replace") as f:
            text = f.read()
        for pw in PASSWORDS.values():
            if pw in text:
                fail("%s holds a password" % name)
        if "eyJ" in text:
            fail("%s holds a token" % name)


def main():
    write_secret(os.path.join(TMP, "pw1"), PASSWORDS["bot1"])
    write_secret(os.path.join(TMP, "pwn"), PASSWORDS["botn"])
    conf = bot1_config(poll=0.5 if SOAK else 0.2, max_games=NGAMES if SOAK else 4)
    start_bot("bot1", ["--config", conf, "--log", os.path.join(TMP, "bot1.log")])
    if SOAK:
        return soak()
    start_bot("bot2", ["--url", URL, "--user", "bot2", "--engine", "builtin", "--poll", "200",
                       "--log", os.path.join(TMP, "bot2.log")],
              env={"HIVEBRIDGE_BOT_PASSWORD": PASSWORDS["bot2"]})
    start_bot("botn", ["--url", URL, "--user", "botn", "--password-file", os.path.join(TMP, "pwn"),
                       "--engine", "uhp:" + NOKAMUTE, "--poll", "200", "--max-games", "1",
                       "--log", os.path.join(TMP, "botn.log")])
    challenge("ann", "bot1", "Base", "RealTime", 25, 1, "Black")            # bot1 white
    challenge("bob", "bot1", "Base+MLP", "RealTime", 25, 1, "White")        # bot1 black
    challenge("cat", "bot1", "Base+M", "Correspondence", None, 86400)       # days per move
    challenge("dan", "bot1", "Base+LP", "Untimed")
    challenge("eve", "bot2", "Base+P", "RealTime", 25, 1, "Black")
    challenge("fay", "bot2", "Base+ML", "RealTime", 30, 1, "White")
    challenge("gus", "botn", "Base+MLP", "RealTime", 30, 1)
    write_secret(os.path.join(TMP, "pwf"), PASSWORDS["botf"])
    start_bot("botf", ["--url", URL, "--user", "botf", "--password-file", os.path.join(TMP, "pwf"),
                       "--engine", "uhp:%s --fault invalidmove-all" % FAKE_UHP, "--poll", "200",
                       "--log", os.path.join(TMP, "botf.log")])
    challenge("ivy", "botf", "Base", "RealTime", 20, 1, "Black")            # botf white
    check_own_challenge()
    web = start_serve()
    challenge("hal", "bots", "Base", "RealTime", 20, 1, "White")
    n = 9
    wait(lambda: any(g["plies"] >= 2 for g in page_games(web)), 60, "the serve bot's game on the page")

    # Every bot plays; then every token is expired: each gets a 401 and logs in again.
    wait(lambda: all(g["turn"] >= 4 or g["finished"] for g in state()["games"]) and
         len(state()["games"]) >= n, 60, "every challenge accepted and four plies in each game")
    tokens = state()["counters"]["tokens"]
    control("/control/expire_tokens", {})
    wait(lambda: state()["counters"]["tokens"] >= tokens + 4, 30, "a new login of each bot")
    wait(lambda: log_text("bot1.log").count("logged in as") >= 2, 30, "bot1 logged in again")
    # bot1 restarts in the middle of its games: rebuilt from the site's histories.
    stop_bot("bot1")
    before = {g["nanoid"]: g["turn"] for g in games_of(state(), "bot1")}
    start_bot("bot1", ["--config", conf, "--log", os.path.join(TMP, "bot1b.log")], log="bot1b")
    wait(lambda: any(g["turn"] > before[g["nanoid"]] for g in games_of(state(), "bot1")
                     if not g["finished"]) or all(g["finished"] for g in games_of(state(), "bot1")),
         30, "bot1 playing again after its restart")
    # The site goes away (connection refused), then answers 503, then is slow.
    control("/control/fault", {"mode": "down", "seconds": OUTAGE})
    time.sleep(OUTAGE + 0.5)   # the outage's length is the test's input, not a synchronisation
    control("/control/fault", {"mode": "5xx", "seconds": 2})
    wait(lambda: state()["fault"] == "ok", 10, "the 503s over")
    control("/control/fault", {"mode": "slow", "seconds": 3, "delay_ms": 400})

    s = check_end(("bot1", "bot2", "botn", "bots", "botf"), n)
    wait(lambda: any(g["finished"] for g in page_games(web)), 30, "the serve bot's game over on the page")
    if "resigning (the engine's score" not in log_text("bots.log"):
        fail("the serve bot did not say why it resigned")
    # An engine that cannot play the position (three fresh ones refused it): botf resigned
    # its game at its second move, in time, and said why.
    gf = games_of(s, "botf")
    if len(gf) != 1 or gf[0]["game_status"] != "Finished(0-1)" or gf[0]["turn"] > 3:
        fail("botf's game: %s" % gf)
    if "gave no move 3 times in this position" not in log_text("botf.log"):
        fail("botf did not say why it resigned")
    for name in ("bot1", "bot2", "botn", "bots", "botf"):
        if procs[name].poll() is not None:
            fail("%s died (%s)" % (name, procs[name].returncode))
        stop_bot(name)
    logs = {name: log_text(name) for name in ("bot1.log", "bot1b.log", "bot2.log", "botn.log")}
    if logs["bot1.log"].count("logged in as") < 2:
        fail("bot1 did not log in again after its token expired")
    if "401, logging in again" not in logs["bot2.log"]:
        fail("bot2 saw no 401")
    if "connection refused" not in (logs["bot1b.log"] + logs["bot2.log"]).lower() and \
            "couldn't connect" not in (logs["bot1b.log"] + logs["bot2.log"]).lower():
        fail("no bot saw the outage")
    rebuilt = [nid for nid in before if "game %s (" % nid in logs["bot1b.log"]]
    if not rebuilt:
        fail("bot1 rebuilt no game after its restart")
    if "engine->bridge" not in logs["botn.log"]:
        fail("botn's engine lines are not in its trace log")
    if not any(c["challenger"]["username"] == "bot2" for c in s["challenges"]):
        fail("bot2 accepted its own challenge")
    check_logs()
    plies = sum(g["turn"] for g in s["games"])
    print("hivegame_bot: ok (%d games over on the board, %d plies, %d logins, %d 401s, "
          "%d games rebuilt after a restart, no move refused)" %
          (len(s["games"]), plies, s["counters"]["tokens"], s["counters"]["unauthorized"], len(rebuilt)))


def soak():
    """N games at once through a token expiry and an outage; /proc before and after."""
    pid = procs["bot1"].pid
    types = ["Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP"]
    controls = [("RealTime", 180, 2), ("RealTime", 120, 3), ("Correspondence", None, 86400),
                ("Untimed", None, None)]
    time.sleep(2)
    rss0, fd0 = proc_figures(pid)
    t0 = time.time()
    for i in range(NGAMES):
        mode, base, inc = controls[i % len(controls)]
        challenge("h%d" % i, "bot1", types[i % len(types)], mode, base, inc,
                  ["White", "Black"][i % 2], delay=100)
    wait(lambda: len(state()["games"]) >= NGAMES and all(g["turn"] >= 4 for g in state()["games"]),
         120, "every game accepted and started")
    rss1, fd1 = proc_figures(pid)
    control("/control/expire_tokens", {})
    control("/control/fault", {"mode": "down", "seconds": OUTAGE})
    time.sleep(OUTAGE + 1)
    s = check_end(("bot1",), NGAMES)
    time.sleep(3)
    rss2, fd2 = proc_figures(pid)
    stop_bot("bot1")
    check_logs()
    print("hivegame_soak: ok (%d games at once, %.0f s, %d plies, %d logins, %d 401s, outage %.0f s, "
          "no move refused, no time loss; bot RSS %d kB idle, %d kB playing, %d kB after; "
          "descriptors %d, %d, %d)" %
          (NGAMES, time.time() - t0, sum(g["turn"] for g in s["games"]), s["counters"]["tokens"],
           s["counters"]["unauthorized"], OUTAGE, rss0, rss1, rss2, fd0, fd1, fd2))


main()
