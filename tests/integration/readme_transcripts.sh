#!/bin/sh
# readme_transcripts.sh: the README's transcripts are what the program prints. The
# UHP, Hub and OTEP transcripts' input is fed to `hivebridge uhp|hub|otep` on stdio
# (the built-in engine, as the README runs it) and the output compared line by line,
# as are the commands of the game records' transcript and what they print;
# figures that vary from run to run (nodes, time, nps) are not compared,
# and a transcript line "..." stands for any lines. The Hub transcript ends with a go
# still searching when the input ends: its done must come (queued commands finish).
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
fail() { echo "FAIL: $*" >&2; exit 1; }

timeout 120 python3 tests/integration/readme_transcripts.py "$HIVEBRIDGE" README.md || fail "README transcripts"
echo "readme_transcripts: ok"
