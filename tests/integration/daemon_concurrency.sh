#!/bin/sh
# daemon_concurrency.sh: `hivebridge serve` on a free loopback port; 200 UHP-over-TCP
# sessions at once, each letting the built-in engine play both sides for up to
# PLIES plies (or to the end of the game). Every move must be one of the bridge's
# validmoves, and every GameString must be the previous one plus that move. Then
# SIGTERM must end the daemon cleanly (status 0: under ASan, nothing leaked).
set -u
: "${HIVEBRIDGE:?}"
SESSIONS=${SESSIONS:-200}
PLIES=${PLIES:-12}
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

# Port 0: the system picks a free port and the daemon says which.
cat >"$tmp/conf" <<EOF
[daemon]
max_sessions = $((SESSIONS + 10))
max_sessions_per_peer = $((SESSIONS + 10))
[engine builtin]
hash_mb = 1
[listen uhp]
address = 127.0.0.1
port = 0
EOF
spawn "$HIVEBRIDGE" serve --config "$tmp/conf" 2>"$tmp/err"
daemon=$spawned
wait_listening "$tmp/err" "$daemon" 1 uhp
port=$(listen_port "$tmp/err" uhp)
[ -n "$port" ] || { cat "$tmp/err"; fail "no 'listening on 127.0.0.1:PORT (uhp)' line"; }

timeout 300 python3 - "$port" "$SESSIONS" "$PLIES" <<'EOF' || fail "sessions"
import socket, sys, threading, time

port, nsessions, plies = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
errors, finished, moves_played = [], [], [0]
lock = threading.Lock()
start = threading.Barrier(nsessions)

def play(n):
    s = socket.create_connection(("127.0.0.1", port), timeout=120)
    f = s.makefile("rb")
    def reply():
        lines = []
        while True:
            line = f.readline()
            if not line:
                raise RuntimeError("connection closed")
            line = line.rstrip(b"\r\n").decode()
            if line == "ok":
                return lines
            lines.append(line)
    def ask(cmd):
        s.sendall(cmd.encode() + b"\n")
        r = reply()
        for line in r:
            if line.startswith(("err", "invalidmove")):
                raise RuntimeError("%s -> %s" % (cmd, line))
        return r
    reply()                               # the info block
    start.wait()                          # all sessions open at once
    gtype = "Base+MLP" if n % 2 else "Base"
    game = ask("newgame " + gtype)[-1]
    if game != gtype + ";NotStarted;White[1]":
        raise RuntimeError("newgame gave " + game)
    moves = []
    depth = 1 + n % 2
    for ply in range(plies):
        valid = set(ask("validmoves")[-1].split(";"))
        move = ask("bestmove depth %d" % depth)[-1]
        if move not in valid:
            raise RuntimeError("move %r is not among the valid moves" % move)
        game = ask("play " + move)[-1]
        moves.append(move)
        fields = game.split(";")
        turn = "%s[%d]" % ("White" if len(moves) % 2 == 0 else "Black", len(moves) // 2 + 1)
        if fields[0] != gtype or fields[3:] != moves or fields[2] != turn and fields[1] == "InProgress":
            raise RuntimeError("GameString %r after %r" % (game, moves))
        if fields[1] not in ("InProgress", "Draw", "WhiteWins", "BlackWins"):
            raise RuntimeError("state in " + game)
        if fields[1] != "InProgress":
            break
    s.sendall(b"exit\n")
    s.close()
    with lock:
        finished.append(n)
        moves_played[0] += len(moves)

def run(n):
    try:
        play(n)
    except Exception as e:
        with lock:
            errors.append("session %d: %s" % (n, e))
        try:
            start.abort()
        except Exception:
            pass

t0 = time.time()
threads = [threading.Thread(target=run, args=(n,)) for n in range(nsessions)]
for t in threads: t.start()
for t in threads: t.join()
for e in errors[:10]: print("FAIL " + e)
print("%d/%d sessions finished, %d plies in %.1f s" %
      (len(finished), nsessions, moves_played[0], time.time() - t0))
sys.exit(1 if errors or len(finished) != nsessions else 0)
EOF
procs_alive "$daemon" || fail "the daemon died"

kill -TERM "$daemon"
wait "$daemon"
rc=$?
[ $rc = 0 ] || { tail -n 20 "$tmp/err"; fail "serve exit status $rc after SIGTERM"; }
echo "daemon_concurrency: ok"
