# hash_idle.py: part of hash_idle.sh (its failure: "hash_idle_timeout").
import sys, time
sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
from harness import wait_for
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

def session(port):
    c = Conn(port)
    c.answer()                     # the info block
    return c

def search(pid, c):
    base = rss_kb(pid)
    c.ok("newgame Base+MLP")
    c.ok("bestmove time 00:00:01")
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
        c1.ok("options get HashMB")
        last[0] = time.monotonic()
t0 = time.monotonic()
wait_for(lambda: rss_kb(pid1) < base1 + 4 * 1024, 20,
         "the idle table given back (RSS near its start) while options come", ping)
t = time.monotonic() - t0
wait_for(lambda: notes("gave back a 64 MB hash table and 0 helper "
         "searchers unused for 1 s") == 1, 10, "the trace log's note")
print(f"hash_idle_timeout 1: +{grown1 / 1024:.1f} MB after a 1 s search, "
      f"back to +{(rss_kb(pid1) - base1) / 1024:.1f} MB {t:.1f} s later, options meanwhile")
# The session searches on, with a new table of the size it had.
a = c1.ok("bestmove depth 2")
if len(a) != 1:
    sys.exit(f"FAIL: bestmove after the table went: {a}")
a = c1.ok("options get HashMB")
if not a or not a[0].startswith("HashMB;int;64;"):
    sys.exit(f"FAIL: HashMB after the table went: {a}")
wait_for(lambda: notes("gave back a 64 MB") == 2, 10, "the second table given back")

# Threads 2: the helper searchers go with the table, whichever way it goes. The
# budget (100 MB) holds one 64 MB table: y's search takes x's, helper included.
x, y = session(port1), session(port1)
x.ok("options set Threads 2")
x.ok("newgame Base+MLP"); x.ok("bestmove time 00:00:01")
y.ok("newgame Base+MLP"); y.ok("bestmove time 00:00:01")
if notes("took back an idle 64 MB hash table and 1 helper searchers") != 1:
    sys.exit("FAIL: x's table and helper not taken back by y's search")
wait_for(lambda: notes("gave back a 64 MB") == 3, 10, "y's table given back")
x.ok("bestmove time 00:00:01")      # a new table and helper for x
wait_for(lambda: notes("gave back a 64 MB hash table "
         "and 1 helper searchers unused for 1 s") == 1, 10, "x's table and helper given back")
wait_for(lambda: rss_kb(pid1) < base1 + 4 * 1024, 10, "RSS near its start")
print(f"Threads 2: the helper searchers taken back with the table, and given back; "
      f"RSS +{(rss_kb(pid1) - base1) / 1024:.1f} MB")

# hash_idle_timeout 0: still resident after all that.
kept = rss_kb(pid0) - base0
if kept < grown0 - 4 * 1024:
    sys.exit(f"FAIL: hash_idle_timeout 0 gave the table back: +{kept} kB of +{grown0}")
c0.ok("newgame")
wait_for(lambda: rss_kb(pid0) < base0 + 4 * 1024, 10, "newgame gives the table back")
print(f"hash_idle_timeout 0: +{kept / 1024:.1f} MB kept until newgame")
for c in (c1, c0, x, y):
    c.close()
