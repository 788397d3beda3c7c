#!/usr/bin/env bash
# (a) Grow rate against the INSERT ceiling, and propagation from scratch.
#
# Each run grows a fresh tree with one CALL gametree.grow (its final
# propagation included), then measures in the same run the ceiling: the
# final rows of all three tables copied with plain
#   INSERT INTO copy SELECT * FROM tree
# into an empty tree's tables (same columns, indexes and constraints), one
# statement per table, and the states copied again into a table without
# the CHECK (id = state_hash(state)), which prices the CHECK.  Then it times
# gametree.propagate(tree) from scratch on the grown tree (one run is
# bench_grow_run, bench/bench.sh).  Medians of BENCH_RUNS runs (default 3);
# the figures are the ratios ceiling/grow (1.0: grow writes as fast as
# INSERT can) and propagate/grow, and the CHECK's microseconds a state.
#
#   bash bench/grow_rate.sh                                  # the three jobs below
#   GROW_JOBS="connect4:max_states=>1000000" bash bench/grow_rate.sh
#
# A job is game:grow arguments (after the tree name; "," separates several).
# Before bench.sh, whose default is 5.
BENCH_RUNS=${BENCH_RUNS:-3}
source "$(dirname "$0")/bench.sh"
GROW_JOBS=${GROW_JOBS:-"tictactoe: connect4:max_depth=>8 connect4:max_states=>1000000"}
gt_setup
gt_fresh_database gametree_bench
db=gametree_bench
runs=$(mktemp)

for job in $GROW_JOBS; do
	bench_parse_job "$job"
	for _ in $(seq "$BENCH_RUNS"); do bench_grow_run $db "$job"; done >"$runs"
	# The counts of the last run (every run grows the same tree).
	read -r states edges pending _ <<<"$(tail -n 1 "$runs")"
	column() { awk -v c="$1" '{ print $c }' "$runs" | bench_median_of; }
	awk -v job="$job_game$job_args" -v s="$states" -v e="$edges" -v pending="$pending" -v runs="$BENCH_RUNS" \
		-v g="$(column 4)" -v c="$(column 5)" -v cs="$(column 6)" -v u="$(column 7)" -v p="$(column 8)" 'BEGIN {
		printf "%s: %d states, %d edges (pending after: %d); medians of %d runs\n", job, s, e, pending, runs
		printf "  grow:                 %8.3f s  %9.0f states/s  %9.0f edges/s\n", g, s / g, e / g
		printf "  INSERT ceiling:       %8.3f s  %9.0f states/s  %9.0f edges/s\n", c, s / c, e / c
		printf "  propagate (scratch):  %8.3f s\n", p
		printf "  ratio ceiling/grow: %.2f   propagate/grow: %.2f\n", c / g, p / g
		printf "  CHECK on the state hash: states INSERT %.3f s with it, %.3f s without (%.2f us a state)\n",
			cs, u, (cs - u) * 1e6 / s
	}'
done
rm -f "$runs"
