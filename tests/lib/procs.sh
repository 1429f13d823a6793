# procs.sh: shell helpers for the integration tests (sourced, never run on its own).

# engines_left PATH: how many live processes (zombies excluded) run the program at
# PATH, after up to 5 s for them to go. Tests copy their engine to a private PATH so
# that it marks their children and nobody else's.
engines_left() {
	i=0
	while [ $i -lt 50 ]; do
		n=0
		for st in /proc/[0-9]*/stat; do
			pid=${st#/proc/}; pid=${pid%/stat}
			grep -qs "$1" "/proc/$pid/cmdline" 2>/dev/null || continue
			state=$(sed 's/.*) \(.\).*/\1/' "$st" 2>/dev/null)
			[ "$state" = Z ] || n=$((n + 1))
		done
		[ $n = 0 ] && { echo 0; return; }
		sleep 0.1
		i=$((i + 1))
	done
	echo "$n"
}
