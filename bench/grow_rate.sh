#!/usr/bin/env bash
# (a) Grow rate against the INSERT ceiling, and propagation from scratch.
#
# Each run grows a fresh tree with one CALL gametree.grow (its final
# propagation included), then measures in the same run the ceiling: the
# final rows of all three tables copied with plain
#   INSERT INTO copy SELECT * FROM tree
# into an empty tree's tables (same columns, indexes and constraints), one
# statement per table.  Then it times gametree.propagate(tree) from scratch
# on the grown tree.  Medians of BENCH_RUNS runs (default 3); the figures are
# the ratios ceiling/grow (1.0: grow writes as fast as INSERT can) and
# propagate/grow.
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

median() {
	sort -g | awk '{ t[NR] = $1 } END { print (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'
}

# Seconds the statements take together, one after another in one session.
session_seconds() {
	local sql args=()
	for sql in "$@"; do args+=(-c "$sql"); done
	gt_psql -d $db -qAt -c '\timing on' -c 'SET client_min_messages = warning' "${args[@]}" |
		awk '/^Time:/ { t += $2 } END { printf "%.6f\n", t / 1000 }'
}

for job in $GROW_JOBS; do
	game=${job%%:*}
	args=${job#*:}
	args=${args:+, ${args//,/, }}
	grows=() ceilings=() propagations=()
	for _ in $(seq "$BENCH_RUNS"); do
		gt_psql -d $db -qAt -c "SELECT gametree.drop_tree(name) FROM gametree.trees" >/dev/null
		gt_psql -d $db -qAt -c "SELECT gametree.create_tree('grown', '$game')" >/dev/null
		grows+=("$(session_seconds "CALL gametree.grow('grown'$args)")")
		gt_psql -d $db -qAt -c "SELECT gametree.create_tree('copy', '$game')" -c "DELETE FROM copy_states" \
			-c "CHECKPOINT" >/dev/null
		ceilings+=("$(session_seconds "INSERT INTO copy_states SELECT * FROM grown_states" \
			"INSERT INTO copy_moves SELECT * FROM grown_moves" \
			"INSERT INTO copy_graph SELECT * FROM grown_graph")")
		propagations+=("$(session_seconds "SELECT gametree.propagate('grown')")")
	done
	read -r states edges pending <<<"$(gt_psql -d $db -qAt -F' ' -c \
		"SELECT states, edges, pending FROM gametree.trees WHERE name = 'grown'")"
	grow=$(printf '%s\n' "${grows[@]}" | median)
	ceiling=$(printf '%s\n' "${ceilings[@]}" | median)
	propagate=$(printf '%s\n' "${propagations[@]}" | median)
	awk -v job="$game${args}" -v s="$states" -v e="$edges" -v g="$grow" -v c="$ceiling" -v p="$propagate" \
		-v runs="$BENCH_RUNS" -v pending="$pending" 'BEGIN {
		printf "%s: %d states, %d edges (pending after: %d); medians of %d runs\n", job, s, e, pending, runs
		printf "  grow:                 %8.3f s  %9.0f states/s  %9.0f edges/s\n", g, s / g, e / g
		printf "  INSERT ceiling:       %8.3f s  %9.0f states/s  %9.0f edges/s\n", c, s / c, e / c
		printf "  propagate (scratch):  %8.3f s\n", p
		printf "  ratio ceiling/grow: %.2f   propagate/grow: %.2f\n", c / g, p / g
	}'
done
