#!/bin/sh
# time_play.sh: the built-in engine's time limits through the real binary.
# `bestmove time 00:00:00` (one thread) answers a legal move, ply after ply; and a
# clock match of the built-in engine against itself loses no game on time. Nothing
# is asserted on how long a search took. The clock is 10000 + 100 over 20 plies, so
# that a loss on time needs the process kept from running for seconds at once:
# 3000 + 100 over 30 plies lost a game on time at ply 17, at load 15 in the
# sanitizer build.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

# --- time 00:00:00: a searched legal move, every ply (Base+MLP, 16 plies) ---------
timeout 120 python3 tests/integration/time_play_bestmove_time.py "$HIVEBRIDGE" || fail "bestmove time 00:00:00"

# --- a clock match: no loss on time -------------------------------------------------
timeout 300 "$HIVEBRIDGE" match --clock 10000+100 --games 2 --max-plies 20 \
	--results "$tmp/clock.jsonl" builtin builtin >"$tmp/clock.out" 2>&1 ||
	{ cat "$tmp/clock.out"; fail "clock match exit status"; }
python3 tests/integration/time_play_clock.py "$tmp/clock.jsonl" || { cat "$tmp/clock.out"; fail "clock match results"; }
echo "time_play: ok"
