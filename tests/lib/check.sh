# check.sh: helpers for the scripts that run `hivebridge check` (sourced after
# procs.sh; the script has set $tmp, $fake, fail and, before must, $what).
#
#   leftovers WHAT           fail when a process of the program at $fake is left.
#   run BOUND ARGS...        hivebridge check --timeout-ms 2000 --time-margin-ms 3000
#                            --positions $check_positions (default 1) ARGS (a wide
#                            margin: at a load of 16 on 2 cores a 1 s search took
#                            1.8 s; an ARG of its own wins): $report holds the
#                            text, $rc the status, $elapsed the whole seconds it took;
#                            still running after BOUND seconds is a failure.
#   must STATUS NAME [REASON-PATTERN]   the report has that line.
#   schema FILE PROTOCOL yes|no         the JSON report FILE fits
#                            schemas/check-report.json, for PROTOCOL, conformant or not.

report=$tmp/report

leftovers() {
	left=$(engines_left "$fake")
	[ "$left" = 0 ] || fail "$1: $left engine processes left behind"
}

run() {
	bound=$1
	shift
	procs_now
	start=$procs_cs
	timeout "$bound" "$HIVEBRIDGE" check --timeout-ms 2000 --time-margin-ms 3000 --positions "${check_positions:-1}" "$@" \
		>"$report" 2>"$tmp/stderr"
	rc=$?
	procs_now
	elapsed=$(( (procs_cs - start) / 100 ))
	[ $rc = 124 ] && { cat "$report"; fail "check $*: still running after ${bound}s"; }
	return 0
}

must() {
	grep -q "^$1 $2\( .*${3:-}\|\$\)" "$report" ||
		{ cat "$report"; fail "$what: no \"$1 $2${3:+ ... $3}\""; }
}

schema() {
	python3 tests/lib/check_report.py "$1" "$2" "$3" || fail "$1: JSON report"
}
