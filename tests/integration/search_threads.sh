#!/bin/sh
# search_threads.sh: the built-in engine's Threads option (Lazy SMP) through the real
# binary: Hub advertises it as a parameter and takes set-param; an infinite search
# with Threads=2 answers `stop` with a legal move, and every thread of the process is
# idle again afterwards (its helpers were stopped too); `bestmove time 00:00:00` with
# Threads=2 answers a legal move; a profile's `threads` key sets the default.
# Env: HIVEBRIDGE (binary), run from the repo root.
set -u
: "${HIVEBRIDGE:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

cat > "$tmp/conf" <<'EOF'
[engine smp]
kind = builtin
threads = 2
EOF

timeout 120 python3 tests/integration/search_threads.py "$HIVEBRIDGE" "$tmp" || fail "Threads through hub and uhp"
rm -rf "$tmp"
echo "search_threads: ok"
