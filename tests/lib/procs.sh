# procs.sh: shell helpers for the integration tests (sourced from the top of the
# tree, never run on its own). Everything here reads /proc itself: no procps, and a
# leak check whose source of truth is missing fails instead of passing.
#
#   spawn CMD...             run CMD in the background in its own session; $spawned
#                            is its PID. Redirections go on the spawn call.
#   procs_trap               on EXIT, INT and TERM: kill everything this shell started
#                            (spawned groups and every descendant, engines included),
#                            wait for them, run procs_cleanup_hook if set, rm -rf $tmp.
#   wait_for 'COND' SECONDS  poll the shell condition COND until it holds (0) or the
#                            deadline passes (1). Never sleep to synchronise.
#   wait_listening FILE PID N [PROTO]
#                            wait (30 s at most) for N "listening on ADDR:PORT (PROTO)"
#                            lines in FILE, the stderr of serve PID; fails if PID dies.
#   listen_port FILE PROTO [K]   the port of the K-th (default 1st) PROTO listener.
#   children_left PID [SECONDS]  children of PID, zombies included, once they had
#                            SECONDS (default 5) to go; lists them on stderr if any.
#   engines_left PATH [SECONDS]  processes running the program at PATH, live ones
#                            anywhere and zombies under this shell; tests copy their
#                            engine to a private PATH that marks their processes only.
#   procs_children PID       $procs_kids: the children of PID, zombies included.
#   procs_alive PID          true while PID runs (a zombie is not alive).
#   count PATTERN FILE       matching lines of FILE, 0 while it does not exist yet.
#   kill_after PID RESULTS MIN TOTAL OUT
#                            once PID (a match or tournament writing RESULTS, its
#                            output in OUT) has written MIN lines, SIGKILL it and check
#                            it wrote MIN to TOTAL-1 ($n1).
#   kill_torn PID RESULTS MIN TOTAL OUT
#                            kill_after, then RESULTS copied to $tmp/before.jsonl and a
#                            torn line appended, as if the kill struck mid-write.
#   need TOOL...             fail (never skip) when python3, jsonschema, ... is missing.
#   fail_logs MESSAGE        every $tmp/*.out and $tmp/*.err, and the files named in
#                            $fail_files, in full on stderr, then "FAIL: MESSAGE",
#                            exit 1 (a script's fail: a failure says why in full).

procs_fail() {
	echo "FAIL: tests/lib/procs.sh: $*" >&2
	exit 1
}

# /proc must show this shell as it is, or no count below means anything.
_pl=
read -r _pl 2>/dev/null </proc/$$/stat || procs_fail "/proc is not readable: no leak check can run"
[ "${_pl%% *}" = "$$" ] || procs_fail "/proc/$$/stat does not describe this shell: no leak check can run"
[ -r /proc/uptime ] || procs_fail "/proc/uptime is not readable"

# The test's root process, for the Python parts' Starvation (tests/lib/harness.py).
TEST_ROOT_PID=$$
export TEST_ROOT_PID

# procs_now: $procs_cs, a monotonic clock in centiseconds (no fork).
procs_now() {
	read -r _pu _ </proc/uptime || procs_fail "/proc/uptime is not readable"
	procs_cs=$(( ${_pu%.*} * 100 + 1${_pu#*.} - 100 ))
}

# procs_scan: $procs_table, one word "pid:ppid:state:comm" per process (comm with
# anything but [A-Za-z0-9._+-] replaced by "?"). Builtins only: nothing of ours
# appears in it.
procs_scan() {
	procs_table=
	for _pf in /proc/[0-9]*/stat; do
		read -r _pl 2>/dev/null <"$_pf" || continue   # gone meanwhile
		_pc=${_pl#*\(}
		_pc=${_pc%\)*}
		case $_pc in '' | *[!A-Za-z0-9._+-]*) _pc='?' ;; esac
		_pr=${_pl##*\) }          # "state ppid ..."
		_ps=${_pr%% *}
		_pr=${_pr#* }
		procs_table="$procs_table ${_pl%% *}:${_pr%% *}:$_ps:$_pc"
	done
	case $procs_table in *" $$:"*) ;; *) procs_fail "/proc does not list this shell" ;; esac
}

# procs_descendants ROOT: $procs_tree, " pid pid ... " of every descendant of ROOT
# (not ROOT itself), from a fresh scan.
procs_descendants() {
	procs_scan
	procs_tree=" $1 "
	_pmore=1
	while [ $_pmore = 1 ]; do
		_pmore=0
		for _pt in $procs_table; do
			_pp=${_pt%%:*}
			_pq=${_pt#*:}
			_pq=${_pq%%:*}
			case $procs_tree in *" $_pp "*) continue ;; esac
			case $procs_tree in *" $_pq "*) procs_tree="$procs_tree$_pp "; _pmore=1 ;; esac
		done
	done
	procs_tree=${procs_tree#" $1"}
}

# procs_children PID: $procs_kids, the children of PID (zombies included), from a
# fresh scan.
procs_children() {
	procs_scan
	procs_kids=
	for _pt in $procs_table; do
		_pq=${_pt#*:}
		[ "${_pq%%:*}" = "$1" ] && procs_kids="$procs_kids ${_pt%%:*}"
	done
	procs_kids=${procs_kids# }
}

# procs_alive PID: true while PID exists and is not a zombie.
procs_alive() {
	read -r _pl 2>/dev/null <"/proc/$1/stat" || return 1
	_pl=${_pl##*) }
	[ "${_pl%% *}" != Z ]
}

wait_for() {
	procs_now
	_wend=$((procs_cs + ${2:?wait_for: no deadline} * 100))
	while ! eval "$1"; do
		procs_now
		[ $procs_cs -lt $_wend ] || return 1
		sleep 0.05
	done
	return 0
}

# spawn CMD...: see the top. setsid gives it a process group of its own, so that
# cleanup can kill the group without killing this shell.
procs_spawned=
spawn() {
	# An asynchronous command's stdin is /dev/null unless redirected: fd 9 carries
	# the caller's (a here-document, say) across.
	{ setsid "$@" <&9 9<&- & } 9<&0
	spawned=$!
	procs_spawned="$procs_spawned $spawned"
}

procs_count_listening() {   # FILE [PROTO]: $_pn
	_pn=0
	[ -f "$1" ] || return 0
	while IFS= read -r _pl; do
		case $_pl in "listening on "*" ("*")") ;; *) continue ;; esac
		[ -z "${2:-}" ] || [ "${_pl##* }" = "($2)" ] && _pn=$((_pn + 1))
	done <"$1"
}

wait_listening() {
	_wf=$1 _wpid=$2 _wn=$3 _wp=${4:-}
	procs_now
	_wend=$((procs_cs + 30 * 100))
	while :; do
		procs_count_listening "$_wf" "$_wp"
		[ $_pn -ge "$_wn" ] && return 0
		if ! procs_alive "$_wpid"; then
			cat "$_wf" >&2
			procs_fail "process $_wpid died before listening"
		fi
		procs_now
		[ $procs_cs -lt $_wend ] || { cat "$_wf" >&2; procs_fail "$_pn of $_wn ${_wp:+$_wp }listeners after 30 s"; }
		sleep 0.05
	done
}

listen_port() {
	sed -n "s/^listening on [^ ]*:\([0-9][0-9]*\) ($2)\$/\1/p" "$1" | sed -n "${3:-1}p"
}

# children_left PID [SECONDS]: prints the count; the list goes to stderr.
children_left() {
	procs_now
	_wend=$((procs_cs + ${2:-5} * 100))
	while :; do
		procs_scan
		_pn=0 _plist=
		for _pt in $procs_table; do
			_pq=${_pt#*:}
			[ "${_pq%%:*}" = "$1" ] || continue
			_pn=$((_pn + 1))
			_plist="$_plist $_pt"
		done
		procs_now
		[ $_pn = 0 ] || [ $procs_cs -ge $_wend ] && break
		sleep 0.05
	done
	[ $_pn = 0 ] || echo "children of $1 (pid:ppid:state:comm):$_plist" >&2
	echo $_pn
}

# engines_left PATH [SECONDS]: prints the count; the list goes to stderr. Live
# processes are found anywhere by their command line (an engine orphaned by a
# subcommand that exited belongs to init now); a zombie has no command line, so
# zombies are matched by name among this shell's descendants, where they stay.
engines_left() {
	_pcomm=${1##*/}
	_pcomm=$(printf %.15s "$_pcomm")
	procs_now
	_wend=$((procs_cs + ${2:-5} * 100))
	while :; do
		procs_descendants $$
		_pn=0 _plist=
		for _pt in $procs_table; do
			_pp=${_pt%%:*}
			[ "${_pt##*:}" = "$_pcomm" ] || continue
			case $_pt in
			*:Z:*) case $procs_tree in *" $_pp "*) ;; *) continue ;; esac ;;
			*) grep -qsF -- "$1" "/proc/$_pp/cmdline" || continue ;;
			esac
			_pn=$((_pn + 1))
			_plist="$_plist $_pt"
		done
		procs_now
		[ $_pn = 0 ] || [ $procs_cs -ge $_wend ] && break
		sleep 0.05
	done
	[ $_pn = 0 ] || echo "processes of $1 (pid:ppid:state:comm):$_plist" >&2
	echo $_pn
}

# procs_kill_all SIGNAL: SIGNAL to every spawned group and every descendant of this
# shell. Sets $procs_tree to the descendants it found.
procs_kill_all() {
	procs_descendants $$
	for _pp in $procs_spawned; do
		case $procs_tree in *" $_pp "*) kill -"$1" -- -"$_pp" 2>/dev/null ;; esac
	done
	for _pp in $procs_tree; do
		kill -"$1" "$_pp" 2>/dev/null
	done
}

procs_cleanup() {
	_prc=$?
	trap - EXIT INT TERM
	procs_kill_all TERM
	# Zombies of this shell are reaped by the wait below; the rest get 3 s.
	procs_now
	_wend=$((procs_cs + 300))
	while :; do
		procs_descendants $$
		_pn=0
		for _pt in $procs_table; do
			case $_pt in *:Z:*) continue ;; esac
			case $procs_tree in *" ${_pt%%:*} "*) _pn=$((_pn + 1)) ;; esac
		done
		procs_now
		[ $_pn = 0 ] || [ $procs_cs -ge $_wend ] && break
		sleep 0.05
	done
	[ $_pn = 0 ] || procs_kill_all KILL
	wait 2>/dev/null
	[ -n "${procs_cleanup_hook:-}" ] && eval "$procs_cleanup_hook"
	[ -n "${tmp:-}" ] && rm -rf "$tmp"
	exit $_prc
}

procs_trap() {
	trap procs_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

# need TOOL...: the test cannot run without these, so it fails (never skips).
# "jsonschema" is the python3 module.
need() {
	for _pt; do
		case $_pt in
		jsonschema) python3 -c 'import jsonschema' 2>/dev/null ||
			procs_fail "python3-jsonschema is missing: this test cannot run" ;;
		*) command -v "$_pt" >/dev/null 2>&1 || procs_fail "$_pt is missing: this test cannot run" ;;
		esac
	done
}

fail_logs() {
	for _pf in "$tmp"/*.out "$tmp"/*.err ${fail_files:-}; do
		[ -f "$_pf" ] && { echo "== $_pf"; cat "$_pf"; }
	done >&2
	echo "FAIL: $*" >&2
	exit 1
}

# count PATTERN FILE: how many lines of FILE match (0 while FILE does not exist).
count() {
	_pc=$(grep -cs -- "$1" "$2")
	echo "${_pc:-0}"
}

kill_after() {
	wait_for "! procs_alive $1 || { [ -f \"$2\" ] && [ \"\$(wc -l <\"$2\")\" -ge $3 ]; }" 120 ||
		fail "no game written within 120 s"
	procs_alive "$1" || { cat "$5"; fail "the run ended before it was killed"; }
	kill -9 "$1"
	wait "$1" 2>/dev/null
	n1=$(wc -l <"$2")
	[ "$n1" -ge "$3" ] && [ "$n1" -lt "$4" ] || fail "killed with $n1 games written"
}

kill_torn() {
	kill_after "$@"
	cp "$2" "$tmp/before.jsonl"
	printf '{"game":%d,"white":"builtin","bla' $((n1 + 1)) >>"$2"
}
