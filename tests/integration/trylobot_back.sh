#!/bin/sh
# trylobot_back.sh: the bridge driving a Trylobot AI module. `hivebridge uhp
# --profile fake` with a kind = trylobot profile talks to tools/fake_trylobot_module,
# which checks every request the bridge builds (it must replay and list exactly the
# core's possible_turns). A UHP client plays a game through it; then each fault of
# the module (garbage, bad JSON, error frame, a turn naming nothing, a turn the
# rules forbid (refused by the engine interface's one check), a Greetings answer,
# closing, silence, slowness, an extra frame, an inactive or mute module, nothing
# listening) must give the UHP client "err ..." and "ok" in bounded time, never a
# hang, and the next bestmove must work again when the module does; a module that
# cannot start makes `hivebridge uhp` exit 1 before it says anything.
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
fake="$TOOLS/fake_trylobot_module"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -x "$fake" ] || fail "no $fake"

timeout 300 python3 tests/integration/trylobot_back.py "$HIVEBRIDGE" "$fake" "$tmp" || fail "trylobot back end"
echo "trylobot_back: ok"
