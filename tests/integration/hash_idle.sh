#!/bin/sh
# hash_idle.sh: a session's hash table is given back once no search has used it for
# hash_idle_timeout seconds, read from /proc: a 1 s search makes the table's pages
# resident (tens of MB of a 64 MB table); with hash_idle_timeout = 1 the daemon's RSS
# falls back near its start and the trace log says why, and the session still
# searches (with a new table) and keeps its HashMB. Commands other than a search do
# not keep a table. A session's helper searchers (Threads 2) go with its table, given
# back or taken back by another session's search. With hash_idle_timeout = 0 the
# table stays until newgame (checked after the other daemon's seconds of giving
# back: a negative can only be checked after a wait).
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

for idle in 1 0; do
	cat >"$tmp/conf$idle" <<EOF
[daemon]
log = $tmp/log$idle
hash_idle_timeout = $idle
hash_budget_mb = 100
search_threads = 2
[engine builtin]
hash_mb = 64
[listen uhp]
port = 0
EOF
	spawn "$HIVEBRIDGE" serve --config "$tmp/conf$idle" 2>"$tmp/err$idle"
	eval "pid$idle=\$spawned"
	eval "wait_listening \"$tmp/err$idle\" \"\$pid$idle\" 1"
	eval "port$idle=\$(listen_port \"$tmp/err$idle\" uhp)"
done

timeout 150 python3 - "$pid1" "$port1" "$tmp/log1" "$pid0" "$port0" <<'PYEOF' || fail "hash_idle_timeout"
import sys, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from uhp_client import Conn

pid1, port1, log1, pid0, port0 = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], \
    int(sys.argv[4]), int(sys.argv[5])

def status_kb(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for l in f:
            if l.startswith(key + ":"):
                return int(l.split()[1])

def rss_kb(pid):
    return status_kb(pid, "VmRSS")

def notes(what):
    return open(log1, errors="replace").read().count(what)

def wait_for(what, cond, timeout, tick=None):
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout:
            sys.exit(f"FAIL: {what} (not within {timeout} s)")
        if tick:
            tick()
        time.sleep(0.05)
    return time.monotonic() - t0

def session(port):
    c = Conn(port)
    c.answer()                     # the info block
    return c

def ok(c, cmd):
    a = c.cmd(cmd)
    if a[-1] != "ok" or any(l.startswith(("err", "invalidmove")) for l in a):
        sys.exit(f"FAIL: {cmd}: {a}")
    return a[:-1]

def search(pid, c):
    base = rss_kb(pid)
    ok(c, "newgame Base+MLP")
    ok(c, "bestmove time 00:00:01")
    # The peak, not the RSS now: the table may already be on its way back.
    grown = status_kb(pid, "VmHWM") - base
    # The test means something only if the table's pages became resident.
    if grown < 16 * 1024:
        sys.exit(f"FAIL: a 1 s search grew RSS by only {grown} kB")
    return base, grown

c1, c0 = session(port1), session(port0)
base0, grown0 = search(pid0, c0)
base1, grown1 = search(pid1, c1)

# Other commands do not keep the table: an `options get` every 0.25 s from the end of
# the search on.
last = [time.monotonic()]
def ping():
    if time.monotonic() - last[0] >= 0.25:
        ok(c1, "options get HashMB")
        last[0] = time.monotonic()
t = wait_for("the idle table given back (RSS near its start) while options come",
             lambda: rss_kb(pid1) < base1 + 4 * 1024, 20, ping)
wait_for("the trace log's note", lambda: notes("gave back a 64 MB hash table and 0 helper "
         "searchers unused for 1 s") == 1, 10)
print(f"hash_idle_timeout 1: +{grown1 / 1024:.1f} MB after a 1 s search, "
      f"back to +{(rss_kb(pid1) - base1) / 1024:.1f} MB {t:.1f} s later, options meanwhile")
# The session searches on, with a new table of the size it had.
a = ok(c1, "bestmove depth 2")
if len(a) != 1:
    sys.exit(f"FAIL: bestmove after the table went: {a}")
a = ok(c1, "options get HashMB")
if not a or not a[0].startswith("HashMB;int;64;"):
    sys.exit(f"FAIL: HashMB after the table went: {a}")
wait_for("the second table given back", lambda: notes("gave back a 64 MB") == 2, 10)

# Threads 2: the helper searchers go with the table, whichever way it goes. The
# budget (100 MB) holds one 64 MB table: y's search takes x's, helper included.
x, y = session(port1), session(port1)
ok(x, "options set Threads 2")
ok(x, "newgame Base+MLP"); ok(x, "bestmove time 00:00:01")
ok(y, "newgame Base+MLP"); ok(y, "bestmove time 00:00:01")
if notes("took back an idle 64 MB hash table and 1 helper searchers") != 1:
    sys.exit("FAIL: x's table and helper not taken back by y's search")
wait_for("y's table given back", lambda: notes("gave back a 64 MB") == 3, 10)
ok(x, "bestmove time 00:00:01")      # a new table and helper for x
wait_for("x's table and helper given back", lambda: notes("gave back a 64 MB hash table "
         "and 1 helper searchers unused for 1 s") == 1, 10)
wait_for("RSS near its start", lambda: rss_kb(pid1) < base1 + 4 * 1024, 10)
print(f"Threads 2: the helper searchers taken back with the table, and given back; "
      f"RSS +{(rss_kb(pid1) - base1) / 1024:.1f} MB")

# hash_idle_timeout 0: still resident after all that.
kept = rss_kb(pid0) - base0
if kept < grown0 - 4 * 1024:
    sys.exit(f"FAIL: hash_idle_timeout 0 gave the table back: +{kept} kB of +{grown0}")
ok(c0, "newgame")
wait_for("newgame gives the table back", lambda: rss_kb(pid0) < base0 + 4 * 1024, 10)
print(f"hash_idle_timeout 0: +{kept / 1024:.1f} MB kept until newgame")
for c in (c1, c0, x, y):
    c.close()
PYEOF
for idle in 1 0; do
	eval "kill \$pid$idle"
	eval "wait \$pid$idle" || fail "daemon (hash_idle_timeout $idle) exit status $?"
done
echo "hash_idle: ok"
