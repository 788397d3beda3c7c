#!/usr/bin/env bash
# Issue 23's figures, before and after, in one run: the disk a tree takes
# and the grow rate, for a base build (JSONB states: 0.2.0 is 86e7962)
# against the working tree (gametree.state).  Both are built once (in a
# temporary worktree for the base); then BENCH_RUNS rounds install each in
# turn under the install lock, restart the private cluster and, in a fresh
# database, run every GROW_JOBS job once (bench_grow_run, bench/bench.sh:
# CALL grow, the INSERT ... SELECT ceiling of its final rows, the states
# INSERT without the CHECK (id = state_hash(state)), propagate from
# scratch); the first round also runs the SIZE_JOBS (bench_size_rows: grow,
# VACUUM, table and index sizes), which are deterministic.  Prints one
# table per figure with before, after and their ratio (timings: medians of
# the rounds), how long each size job's grow took, and the run's duration.
#
#   bash bench/compact_states.sh 86e7962                 # BENCH_RUNS=3; about 25 minutes
#   SIZE_JOBS="tictactoe: connect4:max_states=>20000" GROW_JOBS="connect4:max_states=>20000" \
#     BENCH_RUNS=1 bash bench/compact_states.sh 86e7962
#
# A job is game:grow arguments (bench_parse_job).  The current build stays
# installed at the end.
BENCH_RUNS=${BENCH_RUNS:-3}
source "$(dirname "$0")/bench.sh"
SIZE_JOBS=${SIZE_JOBS:-"tictactoe: connect4:max_depth=>8 chess:max_states=>1000000 checkers:max_states=>1000000"}
GROW_JOBS=${GROW_JOBS:-"connect4:max_depth=>8 connect4:max_states=>1000000"}
base=${1:?usage: bash bench/compact_states.sh <base commit>}
started=$(date +%s)
bench_build_base "$base"
db=gametree_bench
# One line per measurement: <side> <kind> <job> <fields...>.
results=$bench_work/results

for round in $(seq "$BENCH_RUNS"); do
	for side in before after; do
		dir=$GT_ROOT
		[ "$side" = before ] && dir=$bench_base_dir
		bench_install "$dir"
		gt_fresh_database "$db"
		if [ "$round" -eq 1 ]; then
			for job in $SIZE_JOBS; do
				t0=$(date +%s.%N)
				bench_size_rows "$db" "$job" | sed "s/^/$side size $job /"
				echo "$side sizetime $job $(awk -v t0="$t0" -v t1="$(date +%s.%N)" 'BEGIN { printf "%.1f", t1 - t0 }')"
			done
		fi
		for job in $GROW_JOBS; do
			bench_grow_run "$db" "$job" | sed "s/^/$side grow $job /"
		done
	done >>"$results"
	gt_log "round $round of $BENCH_RUNS done"
done
bench_install "$GT_ROOT"

# The median of field $4 (counted after <side> <kind> <job>) over the lines
# of side $1, kind $2, job $3.
value() {
	awk -v s="$1" -v k="$2" -v j="$3" -v f="$4" '$1 == s && $2 == k && $3 == j { print $(f + 3) }' "$results" |
		bench_median_of
}
# Bytes per state of job $2 on side $1: the three tables, or the table $3,
# with its indexes, or its heap alone when $4 is "heap".
per_state() {
	awk -v s="$1" -v j="$2" -v t="${3:-}" -v heap="${4:-}" '$1 == s && $2 == "size" && $3 == j {
		if ($4 == "tree") states = $5; else if (t == "" || $4 == t) bytes += $5 + (heap == "heap" ? 0 : $6) }
		END { printf "%.0f", bytes / states }' "$results"
}
states_of() { awk -v s="$1" -v j="$2" -v k="$3" '$1 == s && $2 == k && $3 == j && ($2 == "grow" || $4 == "tree") {
	n = ($2 == "grow") ? $4 : $5 } END { print n }' "$results"; }
# "n" when both sides grew n states, "n before / m after" otherwise.
states_both() {
	local b a; b=$(states_of before "$1" "$2") a=$(states_of after "$1" "$2")
	if [ "$b" = "$a" ]; then echo "$b"; else echo "$b before / $a after"; fi
}
# A table row: job $1, states $2, before $3 and after $4 printed with format
# $5, and before/after.
row() {
	awk -v name="${1%:}" -v n="$2" -v b="$3" -v a="$4" -v f="$5" 'BEGIN {
		printf "| %s | %s | " f " | " f " | %.2f |\n", name, n, b, a, b / a }'
}

echo "base ${bench_base_commit:0:10} (before) against the working tree $(git -C "$GT_ROOT" rev-parse --short HEAD)$(git -C "$GT_ROOT" diff --quiet HEAD || echo ' with changes') (after)"
for part in "all" "states" "states heap"; do
	echo
	case $part in
	all) echo "Bytes per state, all in (the three tables with their indexes):" ;;
	states) echo "Bytes per state, the states table alone (heap, TOAST and indexes):" ;;
	*) echo "Bytes per state, the states table's heap (TOAST included, no index):" ;;
	esac
	echo
	echo "| job | states | before | after | before/after |"
	echo "|---|---|---|---|---|"
	read -r table heap <<<"${part#all}"
	for job in $SIZE_JOBS; do
		b=$(per_state before "$job" "$table" "$heap") a=$(per_state after "$job" "$table" "$heap")
		row "$job" "$(states_both "$job" size)" "$b" "$a" %d
	done
done

echo
echo "CALL grow, states/s (median seconds of $BENCH_RUNS runs):"
echo
echo "| job | states | before s | after s | before states/s | after states/s | after/before |"
echo "|---|---|---|---|---|---|---|"
for job in $GROW_JOBS; do
	b=$(value before grow "$job" 4) a=$(value after grow "$job" 4)
	bs=$(states_of before "$job" grow) as=$(states_of after "$job" grow)
	awk -v name="${job%:}" -v n="$(states_both "$job" grow)" -v b="$b" -v a="$a" -v bs="$bs" -v as="$as" 'BEGIN {
		printf "| %s | %s | %.3f | %.3f | %.0f | %.0f | %.2f |\n", name, n, b, a, bs / b, as / a, (as / a) / (bs / b) }'
done

echo
echo "CALL grow against INSERT ... SELECT of its own final rows (ceiling/grow, the goal: 0.8 or more):"
echo
echo "| job | before: grow s | ceiling s | ceiling/grow | after: grow s | ceiling s | ceiling/grow |"
echo "|---|---|---|---|---|---|---|"
for job in $GROW_JOBS; do
	awk -v name="${job%:}" -v bg="$(value before grow "$job" 4)" -v bc="$(value before grow "$job" 5)" \
		-v ag="$(value after grow "$job" 4)" -v ac="$(value after grow "$job" 5)" 'BEGIN {
		printf "| %s | %.3f | %.3f | %.2f | %.3f | %.3f | %.2f |\n", name, bg, bc, bc / bg, ag, ac, ac / ag }'
done

echo
echo "propagate from scratch on the grown tree (median seconds):"
echo
echo "| job | states | before s | after s | before/after |"
echo "|---|---|---|---|---|"
for job in $GROW_JOBS; do
	b=$(value before grow "$job" 8) a=$(value after grow "$job" 8)
	row "$job" "$(states_both "$job" grow)" "$b" "$a" %.3f
done

echo
echo "The CHECK (id = state_hash(state)): INSERT INTO <states> SELECT * FROM <grown states>, with and without it (median seconds; CALL grow's bulk path skips it):"
echo
echo "| job | before: with | without | us a state | after: with | without | us a state |"
echo "|---|---|---|---|---|---|---|"
for job in $GROW_JOBS; do
	awk -v name="${job%:}" -v bs="$(states_of before "$job" grow)" -v as="$(states_of after "$job" grow)" \
		-v bw="$(value before grow "$job" 6)" -v bo="$(value before grow "$job" 7)" \
		-v aw="$(value after grow "$job" 6)" -v ao="$(value after grow "$job" 7)" 'BEGIN {
		printf "| %s | %.3f | %.3f | %.2f | %.3f | %.3f | %.2f |\n", name, bw, bo, (bw - bo) * 1e6 / bs,
			aw, ao, (aw - ao) * 1e6 / as }'
done

echo
echo "Seconds each size job took (CALL grow and VACUUM):"
echo
echo "| job | before s | after s |"
echo "|---|---|---|"
for job in $SIZE_JOBS; do
	printf '| %s | %s | %s |\n' "${job%:}" "$(value before sizetime "$job" 1)" "$(value after sizetime "$job" 1)"
done
echo
echo "The run took $(( ($(date +%s) - started) / 60 )) min $(( ($(date +%s) - started) % 60 )) s (BENCH_RUNS=$BENCH_RUNS)."
