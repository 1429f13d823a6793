#!/bin/sh
# check_protocols.sh: `hivebridge check` against a Hub engine and a Trylobot module,
# through the engine interface:
#   - a healthy Hub engine (tests/tools/fake_hub_engine) passes, exit 0, with the
#     UHP-only checks skipped and the reason given;
#   - each Hub fault fails the check it breaks, with the back end's reason, exit 1,
#     within a bound, and leaves no engine process behind;
#   - a healthy Trylobot module (tests/tools/fake_trylobot_module) passes, its
#     requests all valid; garbage, silence, an illegal turn and an error frame fail
#     the bestmove checks; a port nobody listens on fails start-up;
#   - the bridge's own front ends pass: `hivebridge hub` as a Hub engine, and
#     `hivebridge serve` with a trylobot listener as a Trylobot module;
#   - --config + --profile (hub, trylobot, uhp), the profile's own time-outs, usage
#     errors, and --json reports valid against schemas/check-report.json.
set -u
: "${HIVEBRIDGE:?}" "${TOOLS:?}"
. tests/lib/procs.sh
need python3 jsonschema timeout
tmp=$(mktemp -d)
procs_trap
modpid=
daemon=
fail() { echo "FAIL: $*" >&2; exit 1; }

# A private copy of the engine: its path marks our children and nobody else's.
fake=$tmp/fake_hub_$$
cp "$TOOLS/fake_hub_engine" "$fake" || fail "no fake_hub_engine in $TOOLS"
[ -x "$TOOLS/fake_trylobot_module" ] || fail "no fake_trylobot_module in $TOOLS"

. tests/lib/check.sh
check_positions=3

# --- a healthy Hub engine ------------------------------------------------------------
what="hub ok"
run 60 "hub:$fake"
[ $rc = 0 ] || { cat "$report"; fail "$what: exit status $rc"; }
! grep -q '^FAIL' "$report" || { cat "$report"; fail "$what: a check failed"; }
grep -q '^protocol: hub$' "$report" || fail "$what: protocol not reported"
grep -q '^id: FakeHubEngine 1.0$' "$report" || fail "$what: id not reported"
for name in startup.start startup.id startup.params gameflow.selfplay bestmove.depth-1 bestmove.time-1s \
	bestmove.single-move bestmove.forced-pass bestmove.stacks bestmove.pillbug robustness.stop; do
	must PASS "$name"
done
must PASS 'bestmove.start\[Base..Base+MLP\]' '(8 checks)'
must PASS 'bestmove.random\[0..2\]' '(3 checks)'
for name in startup.info-unprompted movegen.validmoves gameflow.play-undo gameflow.end \
	rejections.invalidmove robustness.unknown-command robustness.long-line; do
	must SKIP "$name" 'not part of the Hub protocol'
done
must SKIP bestmove.game-over 'never asks'
leftovers "$what"
echo "ok $what (${elapsed}s): $(tail -n 1 "$report")"

timeout 60 "$HIVEBRIDGE" check --json --timeout-ms 5000 --time-margin-ms 3000 --positions 2 "hub:$fake" >"$tmp/hub.json"
[ $? = 0 ] || fail "hub --json: exit status"
schema "$tmp/hub.json" hub yes

# --- Hub faults ----------------------------------------------------------------------
# fault : checks that must fail : what their reason says
expectations='
never-ready:startup.start:no "ready" within 2000 ms
never-done:gameflow.selfplay bestmove.start\[Base\] robustness.stop:no "done"
illegal-move:gameflow.selfplay bestmove.start\[Base\]:illegal move
garbage:gameflow.selfplay bestmove.start\[Base\]:unreadable line
crash:gameflow.selfplay bestmove.start\[Base\]:killed by signal 6
long-line:bestmove.start\[Base\]:line longer than
refuse-pos:bestmove.start\[Base\] bestmove.forced-pass:refused
'
echo "$expectations" | while IFS=: read -r fault names why; do
	[ -n "$fault" ] || continue
	what="hub $fault"
	run 30 "hub:$fake" --fault "$fault"
	[ $rc = 1 ] || { cat "$report"; fail "$what: exit status $rc, expected 1"; }
	for name in $names; do
		must FAIL "$name" "$why"
	done
	grep -q '^summary: .*(required failures: [1-9]' "$report" || fail "$what: no required failure in the summary"
	if [ "$fault" != never-ready ]; then
		# It started; only the search broke, and a fresh engine comes back.
		must PASS startup.start
		case $fault in refuse-pos) ;; *) must PASS robustness.restart ;; esac
	else
		[ "$(grep -c '^FAIL' "$report")" = 1 ] || { cat "$report"; fail "$what: more than one failure"; }
		! grep -q '^PASS' "$report" || fail "$what: something passed"
	fi
	[ $elapsed -le 25 ] || fail "$what took ${elapsed}s"
	leftovers "$what"
	echo "ok $what (${elapsed}s): $(grep -m 1 '^FAIL' "$report" | cut -c 1-110)"
done || exit 1

# The one-string form, and the JSON of a failing engine.
what="hub one string"
run 30 --json "hub:$fake --fault illegal-move"
[ $rc = 1 ] || fail "$what: exit status $rc"
schema "$report" hub no
python3 tests/integration/check_protocols.py "$report" || fail "$what: content"
leftovers "$what"

# An engine that starts once and never again: the restart after its crash fails
# the check it happens in, with what a start sends and expects, and the rest of
# the group is skipped, not each made to wait the start's time-out.
what="hub restart fails"
cat >"$tmp/once.sh" <<EOF
#!/bin/sh
[ -e "$tmp/once.started" ] && exec "$fake" --fault never-ready
: >"$tmp/once.started"
exec "$fake" --fault crash
EOF
chmod +x "$tmp/once.sh"
run 60 --json "hub:$tmp/once.sh"
[ $rc = 1 ] || { cat "$report"; fail "$what: exit status $rc"; }
schema "$report" hub no
python3 tests/integration/check_protocols.py "$report" restart || fail "$what: content"
leftovers "$what"

# --- Trylobot modules ----------------------------------------------------------------
start_module() {   # start_module NAME ARGS...: sets $port and $modpid
	name=$1
	shift
	spawn "$TOOLS/fake_trylobot_module" --port-file "$tmp/$name.port" --log "$tmp/$name.log" "$@" \
		2>"$tmp/$name.err"
	modpid=$spawned
	wait_for '[ -s "$tmp/$name.port" ] || ! procs_alive $modpid' 30 && [ -s "$tmp/$name.port" ] ||
		fail "module $name did not start: $(cat "$tmp/$name.err")"
	port=$(cat "$tmp/$name.port")
}
stop_module() {
	kill "$modpid" 2>/dev/null
	wait "$modpid" 2>/dev/null
	modpid=
}

what="trylobot ok"
start_module ok
run 60 "trylobot:127.0.0.1:$port"
[ $rc = 0 ] || { cat "$report"; fail "$what: exit status $rc"; }
! grep -q '^FAIL' "$report" || { cat "$report"; fail "$what: a check failed"; }
grep -q '^protocol: trylobot$' "$report" || fail "$what: protocol not reported"
grep -q "^engine: 127.0.0.1:$port\$" "$report" || fail "$what: address not reported"
grep -q '^id: Fake module v0.0.1$' "$report" || fail "$what: id not reported"
for name in startup.start startup.id gameflow.selfplay bestmove.depth-1 bestmove.time-1s \
	bestmove.single-move bestmove.forced-pass bestmove.stacks; do
	must PASS "$name"
done
# A module without the profile key expansions is announced as Base only.
must SKIP bestmove.pillbug 'engine lacks Pillbug capability'
must SKIP movegen.validmoves 'not part of the Trylobot protocol'
must SKIP robustness.stop 'cannot be interrupted'
# The module checked every request against its own replay: none was wrong.
[ ! -s "$tmp/ok.err" ] || fail "$what: the module found bad requests: $(cat "$tmp/ok.err")"
requests=$(grep -c '^request' "$tmp/ok.log")
# (Base only: the module is announced without expansions, so the MLP checks skip.)
[ "$requests" -ge 25 ] || fail "$what: only $requests requests reached the module"
timeout 60 "$HIVEBRIDGE" check --json --timeout-ms 5000 --time-margin-ms 3000 --positions 2 "trylobot:127.0.0.1:$port" >"$tmp/tb.json"
[ $? = 0 ] || fail "trylobot --json: exit status"
schema "$tmp/tb.json" trylobot yes
stop_module
echo "ok $what (${elapsed}s, $requests requests): $(tail -n 1 "$report")"

for mode in garbage silence illegal error; do
	what="trylobot $mode"
	start_module "$mode" --mode "$mode"
	run 30 "trylobot:127.0.0.1:$port"
	[ $rc = 1 ] || { cat "$report"; fail "$what: exit status $rc, expected 1"; }
	case $mode in
	garbage) why='garbage from the module' ;;
	silence) why='no answer in time' ;;
	illegal) why='illegal turn' ;;
	error) why='answered with an error' ;;
	esac
	must PASS startup.start
	must FAIL 'bestmove.start\[Base\]' "$why"
	must FAIL gameflow.selfplay "$why"
	! grep -q '^PASS bestmove\.' "$report" || { cat "$report"; fail "$what: a bestmove check passed"; }
	[ $elapsed -le 25 ] || fail "$what took ${elapsed}s"
	stop_module
	echo "ok $what (${elapsed}s): $(grep -m 1 '^FAIL' "$report" | cut -c 1-110)"
done

# Nobody listening: start-up fails, nothing else runs.
what="trylobot refused"
start_module closed
stop_module
run 30 "trylobot:127.0.0.1:$port"
[ $rc = 1 ] || fail "$what: exit status $rc"
must FAIL startup.start 'cannot connect'
! grep -q '^PASS' "$report" || fail "$what: something passed"

# --- the bridge's own front ends, checked as a Hub engine and a Trylobot module -------
# (3 s of grace over a time limit, as check_otep gives its own front end: a sanitizer
# build's 1 s search answered after 1.8 s at load 12.)
what="hub:hivebridge hub"
run 120 --time-margin-ms 3000 "hub:$HIVEBRIDGE hub"
[ $rc = 0 ] || { cat "$report"; fail "$what: exit status $rc"; }
grep -q '^id: hivebridge' "$report" || fail "$what: id"
must PASS bestmove.forced-pass
must PASS robustness.stop
echo "ok $what (${elapsed}s): $(tail -n 1 "$report")"

what="trylobot:hivebridge serve"
cat >"$tmp/serve.conf" <<EOF
[engine builtin]
hash_mb = 2
; Named like the embedded default listener, so that it replaces it: no port 5000.
[listen uhp]
port = 0
[listen tb]
protocol = trylobot
address = 127.0.0.1
port = 0
engine = builtin
think_time = 0.03
EOF
spawn "$HIVEBRIDGE" serve --config "$tmp/serve.conf" 2>"$tmp/serve.err"
daemon=$spawned
wait_listening "$tmp/serve.err" "$daemon" 1 trylobot
port=$(listen_port "$tmp/serve.err" trylobot)
[ -n "$port" ] || { cat "$tmp/serve.err"; fail "$what: no trylobot listener"; }
# The bridge's listener plays every expansion: its profile says so.
printf '[engine tbserve]\nkind = trylobot\nhost = 127.0.0.1\nport = %s\nexpansions = MLP\n' "$port" >"$tmp/tbserve.conf"
run 120 --time-margin-ms 3000 --config "$tmp/tbserve.conf" --profile tbserve
[ $rc = 0 ] || { cat "$report"; fail "$what: exit status $rc"; }
must PASS bestmove.forced-pass
must PASS bestmove.pillbug
kill -TERM "$daemon"
wait "$daemon"
[ $? = 0 ] || fail "$what: serve did not exit cleanly"
daemon=
echo "ok $what (${elapsed}s): $(tail -n 1 "$report")"

# --- profiles from a configuration file ----------------------------------------------
start_module prof
conf=$tmp/check.conf
cat >"$conf" <<EOF
[engine hubgood]
kind = hub
command = $fake --sloppy
option = style wild
[engine hubstuck]
kind = hub
command = $fake --fault never-ready
start_timeout = 1
[engine module]
kind = trylobot
host = 127.0.0.1
port = $port
[engine fakeuhp]
kind = uhp
command = $TOOLS/fake_uhp_engine
workdir = $tmp
EOF
what="--profile hubgood"
timeout 60 "$HIVEBRIDGE" check --json --time-margin-ms 3000 --positions 2 --config "$conf" --profile hubgood >"$tmp/p.json"
[ $? = 0 ] || fail "$what: exit status"
schema "$tmp/p.json" hub yes
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["profile"] == "hubgood", r.get("profile")' \
	"$tmp/p.json" || fail "$what: profile not reported"
what="--profile module"
timeout 60 "$HIVEBRIDGE" check --time-margin-ms 3000 --positions 2 --config "$conf" --profile module >"$report" 2>&1
[ $? = 0 ] || { cat "$report"; fail "$what: exit status"; }
grep -q '^protocol: trylobot (profile module)$' "$report" || fail "$what: header"
stop_module
# The profile's own start_timeout (1 s) holds without --timeout-ms.
what="--profile hubstuck"
start=$(date +%s)
timeout 30 "$HIVEBRIDGE" check --config "$conf" --profile hubstuck >"$report" 2>&1
rc=$?
[ $rc = 1 ] || fail "$what: exit status $rc"
must FAIL startup.start 'within 1000 ms'
[ $(( $(date +%s) - start )) -le 5 ] || fail "$what: the profile's time-out was not used"
leftovers "$what"
what="--profile fakeuhp"
timeout 120 "$HIVEBRIDGE" check --positions 2 --timeout-ms 2000 --time-margin-ms 3000 --config "$conf" --profile fakeuhp >"$report" 2>&1
[ $? = 0 ] || { cat "$report"; fail "$what: exit status"; }
grep -q '^protocol: uhp (profile fakeuhp)$' "$report" || fail "$what: header"
must PASS 'movegen.start\[Base\.\.Base+MLP\]' '(8 checks)'
echo "ok profiles: hub, trylobot, profile time-out, uhp"

# uhp:CMD with its arguments is the UHP suite.
what="uhp:CMD"
run 120 "uhp:$TOOLS/fake_uhp_engine" --fault illegal-move
[ $rc = 1 ] || fail "$what: exit status $rc"
grep -q '^protocol: uhp$' "$report" || fail "$what: header"
must FAIL bestmove.depth-1 'not a legal move'

# --- usage errors exit 2 -------------------------------------------------------------
for args in "--profile nonesuch" "--config $conf --profile hubgood builtin" "trylobot:nohost" \
	"trylobot:127.0.0.1:1 extra" "hub:" "--profile"; do
	# shellcheck disable=SC2086
	"$HIVEBRIDGE" check $args >/dev/null 2>&1
	[ $? = 2 ] || fail "check $args: expected exit status 2"
done
# A configuration that cannot be read is a runtime error, as in every subcommand.
"$HIVEBRIDGE" check --config "$tmp/missing.conf" --profile x >/dev/null 2>&1
[ $? = 1 ] || fail "check --config missing: expected exit status 1"
leftovers final
echo "check_protocols: ok"
