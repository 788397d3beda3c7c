#!/usr/bin/env bash
# Connect four's solve hook (src/games/connect4/solve.c) against the
# project's independent solver, tools/c4solve, on the positions of
# test/data/connect4_exact.tsv (5 after each of 8, 12, 16 and 20 plies).
#
# Both find the exact score of every column of a position.  The hook's time
# is that of gametree.analyse with a time limit far beyond what it needs
# (the search ends once the solver has proven every move: the solver's
# passes, its principal lines, and the search's iterations over the proven
# moves), from psql's \timing; c4solve's is that of `c4solve -e -m 22`
# (the same 32 MB table as the hook has with gametree.search_memory at its
# default of 64 MB), one process per position.  Prints, per ply count, the
# median of each and their ratio.
source "$(dirname "$0")/bench.sh"
gt_setup
gt_fresh_database gametree_bench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O2 -march=native -Wall -o "$tmp/c4solve" "$GT_ROOT/tools/c4solve/c4solve.c"
bench_connect4_position_function gametree_bench

median() { sort -g | awk '{ t[NR] = $1 } END { print (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'; }

printf '%-6s %-10s %-10s %s\n' plies hook c4solve hook/c4solve
tail -n +2 "$GT_ROOT/test/data/connect4_exact.tsv" | while IFS=$'\t' read -r moves plies _; do
	hook=$(bench_seconds gametree_bench \
		"SELECT count(*) FROM gametree.analyse('connect4', public.position('$moves'), '10 minutes') WHERE proven")
	start=$(date +%s.%N)
	echo "$moves" | "$tmp/c4solve" -e -m 22 >/dev/null
	ref=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.6f\n", b - a }')
	printf '%s\t%s\t%s\t%s\n' "$plies" "$moves" "$hook" "$ref" | tee -a "$tmp/times" >&2
done
for plies in 8 12 16 20; do
	hook=$(awk -F'\t' -v p="$plies" '$1 == p { print $3 }' "$tmp/times" | median)
	ref=$(awk -F'\t' -v p="$plies" '$1 == p { print $4 }' "$tmp/times" | median)
	awk -v p="$plies" -v h="$hook" -v r="$ref" \
		'BEGIN { printf "%-6d %-10.3f %-10.3f %.2f\n", p, h, r, h / r }'
done
