#!/usr/bin/env bash
# Sizing: the disk a grown tree takes, per state and per edge.
#
# Each job grows a fresh tree with one CALL gametree.grow, runs VACUUM
# (ANALYZE) so the free-space and visibility maps exist as they would on a
# settled tree, then prints what each table takes, its heap (with TOAST)
# and its indexes apart, divided by the tree's states and edges, and the
# total: the figure to size a disk with.  Sizes are deterministic for a
# given tree; no medians are needed.
#
#   bash bench/tree_size.sh
#   SIZE_JOBS="connect4:max_depth=>8 chess:max_states=>1000000" bash bench/tree_size.sh
#
# A job is game:grow arguments (after the tree name; "," separates several).
source "$(dirname "$0")/bench.sh"
SIZE_JOBS=${SIZE_JOBS:-"tictactoe: connect4:max_depth=>8 chess:max_states=>200000 checkers:max_states=>200000"}
gt_setup
gt_fresh_database gametree_bench
db=gametree_bench

for job in $SIZE_JOBS; do
	bench_parse_job "$job"
	echo "$job_game$job_args:"
	bench_size_rows $db "$job" | awk '
		$1 == "tree" { states = $2; edges = $3
			printf "  %d states, %d edges (%.2f edges per state)\n", states, edges, edges / states
			printf "  %-8s %10s %10s %10s %14s %14s\n", "table", "heap MB", "index MB", "total MB", "bytes/state", "bytes/edge"
			next }
		{ printf "  %-8s %10.1f %10.1f %10.1f %14.0f %14.0f\n", $1, $2 / 1048576, $3 / 1048576, ($2 + $3) / 1048576,
			($2 + $3) / states, ($2 + $3) / edges
		  heap += $2; indexes += $3 }
		END { printf "  %-8s %10.1f %10.1f %10.1f %14.0f %14.0f\n", "all", heap / 1048576, indexes / 1048576,
			(heap + indexes) / 1048576, (heap + indexes) / states, (heap + indexes) / edges }'
done
