#!/bin/sh
# engine_notation.sh: an engine's move in another notation (another reference piece,
# odd case, extra spaces, an intermediate line) reaches the client checked and written
# canonically: `hivebridge uhp --engine "fake --sloppy"` answers bestmove exactly as the
# same engine printing canonical notation does, on positions from real games.
# Env: HIVEBRIDGE, TOOLS, HIVE_DATA; run from the repo root.
set -u
H=${HIVEBRIDGE:-build/hivebridge}
T=${TOOLS:-build/tools}
D=${HIVE_DATA:-../shared/data}
. tests/lib/procs.sh
need python3 timeout
procs_trap
timeout 120 python3 tests/integration/engine_notation.py "$H" "$T/fake_uhp_engine" "$D/mzinga/Board_ValidMovesFromRealGamesTest.csv" || exit 1
echo "engine_notation: ok"
