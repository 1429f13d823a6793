#!/bin/sh
# engine_tree.sh: an engine dies with everything it started. The engine is a script
# that starts a child of its own (a private copy of sleep, which ignores SIGTERM, so
# only the SIGKILL after the grace ends it) and then runs the fake UHP engine. When
# the engine crashes, or is closed and leaves on its own, the child must be gone soon
# after the bridge has seen the engine's end (in `uhp`, `serve`, `match` and
# `check`), and after the bridge has exited.
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
. tests/lib/procs.sh
need python3 timeout
tmp=$(mktemp -d)
procs_trap
fail() { echo "FAIL: $*" >&2; exit 1; }

fake=$tmp/fake_tree_$$
kid=$tmp/kid_$$
cp "$TOOLS/fake_uhp_engine" "$fake" || fail "no fake_uhp_engine in $TOOLS"
cp "$(command -v sleep)" "$kid" || fail "no sleep"
# The kid is orphaned if this test fails: the hook ends it (by its command line).
procs_cleanup_hook='for p in /proc/[0-9]*; do grep -qsF -- "$kid" $p/cmdline && kill -9 ${p#/proc/}; done'
engine=$tmp/engine.sh
cat >"$engine" <<EOF
#!/bin/sh
trap '' TERM
"$kid" 3600 &
trap - TERM
exec "$fake" "\$@"
EOF
chmod +x "$engine"

kids() { engines_left "$kid" "${1:-10}"; }

# --- uhp on stdio: the engine crashes; the bridge goes on reading its input -------
mkfifo "$tmp/in"
exec 8<>"$tmp/in"        # a writer first, so that the bridge's open does not block
spawn "$HIVEBRIDGE" uhp --engine "$engine --fault crash-on-bestmove" <"$tmp/in" >"$tmp/uhp.out" 2>"$tmp/uhp.err" 8>&-
bridge=$spawned
printf 'newgame Base\nbestmove depth 1\n' >&8
wait_for 'grep -q "^err " "$tmp/uhp.out"' 30 || { cat "$tmp/uhp.out" "$tmp/uhp.err"; fail "uhp: no err after the crash"; }
procs_alive "$bridge" || fail "uhp: the bridge ended with the engine"
n=$(kids)
[ "$n" = 0 ] || fail "uhp: $n process(es) of the crashed engine left while the bridge runs"
exec 8>&-
wait "$bridge" || fail "uhp: exit status $?"
echo "uhp: the crashed engine's child is gone"

# --- serve: one engine crashes, another is closed when its client leaves ----------
cat >"$tmp/conf" <<EOF
[daemon]
log = $tmp/trace.log
[engine crash]
command = $engine --fault crash-on-bestmove
[engine polite]
command = $engine
stop_timeout = 0.5
[listen crash]
port = 0
engine = crash
[listen polite]
port = 0
engine = polite
EOF
spawn "$HIVEBRIDGE" serve --config "$tmp/conf" 2>"$tmp/serve.err"
daemon=$spawned
wait_listening "$tmp/serve.err" "$daemon" 2
pcrash=$(sed -n 's/^listening on [^ ]*:\([0-9]*\) (uhp)$/\1/p' "$tmp/serve.err" | sed -n 1p)
ppolite=$(sed -n 's/^listening on [^ ]*:\([0-9]*\) (uhp)$/\1/p' "$tmp/serve.err" | sed -n 2p)
[ -n "$pcrash" ] && [ -n "$ppolite" ] || { cat "$tmp/serve.err"; fail "serve: no ports"; }
timeout 60 python3 tests/integration/engine_tree_crash.py "$pcrash" || fail "serve: the crash session"
n=$(kids)
[ "$n" = 0 ] || fail "serve: $n process(es) of the crashed engine left while the daemon runs"
timeout 60 python3 tests/integration/engine_tree_polite.py "$ppolite" || fail "serve: the polite session"
wait_for 'grep -q "engine polite started" "$tmp/trace.log"' 10 || fail "serve: the polite engine never started"
n=$(kids)
[ "$n" = 0 ] || fail "serve: $n process(es) of the closed engine left while the daemon runs"
procs_alive "$daemon" || fail "serve: the daemon died"
kill -TERM "$daemon"
wait "$daemon"
echo "serve: the crashed and the closed engines' children are gone"

# --- match: the engine crashes in each game; the match ends ----------------------
timeout 120 "$HIVEBRIDGE" match --games 2 --depth 1 --results "$tmp/match.jsonl" \
	builtin:depth=1 "$engine --fault crash-on-bestmove" >"$tmp/match.out" 2>&1 ||
	{ cat "$tmp/match.out"; fail "match: exit status $?"; }
grep -q 'engine crashed' "$tmp/match.jsonl" || { cat "$tmp/match.jsonl"; fail "match: no crash"; }
n=$(kids)
[ "$n" = 0 ] || fail "match: $n process(es) of the crashed engines left after the match"
echo "match: the crashed engines' children are gone"

# --- check: the engine crashes on bestmove ---------------------------------------
timeout 120 "$HIVEBRIDGE" check --timeout-ms 5000 --positions 1 -- "$engine" --fault crash-on-bestmove \
	>"$tmp/check.out" 2>&1
rc=$?
[ $rc = 1 ] || { cat "$tmp/check.out"; fail "check: exit status $rc, expected 1"; }
grep -q '^FAIL bestmove.depth-1 ' "$tmp/check.out" || { cat "$tmp/check.out"; fail "check: the crash was not seen"; }
n=$(kids)
[ "$n" = 0 ] || fail "check: $n process(es) of the crashed engine left after the check"
echo "check: the crashed engine's child is gone"

echo "engine_tree: ok"
