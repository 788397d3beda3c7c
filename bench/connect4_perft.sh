#!/usr/bin/env bash
# Connect four perft depth 8 through SQL: leaf nodes per second, median of
# BENCH_RUNS runs.  The generic perft (through the game vtable) is the
# figure; perft 7 is shown too, to see that the rate holds across depths.
source "$(dirname "$0")/bench.sh"
gt_setup
gt_fresh_database gametree_bench
for depth in 7 8; do
	nodes=$(gt_psql -d gametree_bench -qAt -c "SELECT gametree.perft('connect4', gametree.initial('connect4'), $depth)")
	secs=$(bench_median gametree_bench "SELECT gametree.perft('connect4', gametree.initial('connect4'), $depth)")
	awk -v d="$depth" -v n="$nodes" -v s="$secs" -v r="$BENCH_RUNS" \
		'BEGIN { printf "connect4 perft %d: %d nodes, median %.3f s of %d runs, %.1f M nodes/s\n", d, n, s, r, n / s / 1e6 }'
done
