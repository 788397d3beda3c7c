#!/usr/bin/env bash
# solve in a tree against the same proof-number search in memory (prove),
# on the 50 connect four positions after 8 to 14 plies of
# test/data/connect4_proofs.tsv, valued by tools/c4solve
# (tools/c4_positions.sh).
#
# For each position: a fresh tree rooted at it, CALL gametree.solve with a
# time limit of BENCH_SOLVE_LIMIT (default 10 minutes); the root's proven
# value must be the solver's, and its best move a column of that value;
# then gametree.prove on the same position.  Prints a line per position
# (the states the tree stored, the positions the search held at its end,
# each one's seconds), then per ply count and over all: medians, the ratio
# solve/prove (what storing costs), positions proven a minute, and any
# position not proven or valued wrong.  The search's memory is
# gametree.search_memory at its default (64 MB) unless BENCH_SEARCH_MEMORY
# is given.
source "$(dirname "$0")/bench.sh"
limit=${BENCH_SOLVE_LIMIT:-10 minutes}
memory=${BENCH_SEARCH_MEMORY:-64MB}
gt_setup
gt_fresh_database gametree_bench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PGOPTIONS="-c client_min_messages=warning -c gametree.search_memory=$memory"
bench_connect4_position_function gametree_bench

printf '%-15s %-5s %-5s %-8s %-9s %-9s %-9s %s\n' moves plies value stored held solve_s prove_s check
tail -n +2 "$GT_ROOT/test/data/connect4_proofs.tsv" | while IFS=$'\t' read -r moves plies value columns; do
	gt_psql -qAt -d gametree_bench -c "SELECT gametree.create_tree('proof', 'connect4', public.position('$moves'))" >/dev/null
	solve=$(bench_seconds gametree_bench "CALL gametree.solve('proof', time_limit => '$limit')")
	# The root's value for the side to move, and the column of its best move.
	IFS='|' read -r proven got column stored < <(gt_psql -qAt -d gametree_bench -c "
		SELECT s.proven,
		       CASE WHEN NOT s.proven THEN 'unproven' WHEN (s.utility ->> s.control)::int = 100 THEN 'win'
		            WHEN (s.utility ->> s.control)::int = 50 THEN 'draw' ELSE 'loss' END,
		       (SELECT a -> 2 ->> 1 FROM jsonb_array_elements(m.move) a WHERE a ->> 1 = s.control),
		       (SELECT count(*) FROM proof_states)
		FROM proof_states s LEFT JOIN proof_moves m ON m.id = s.best_move WHERE s.depth = 0")
	IFS='|' read -r prove held < <(gt_psql -qAt -d gametree_bench -c '\timing on' \
		-c "SELECT states FROM gametree.prove('connect4', public.position('$moves'), '$limit')" |
		awk '/^Time:/ { t = $2 / 1000 } !/^Time:/ { n = $1 } END { printf "%.6f|%s\n", t, n }')
	gt_psql -qAt -d gametree_bench -c "SELECT gametree.drop_tree('proof')" >/dev/null
	best=$(cut -d, -f"${column:-0}" <<<"$columns" 2>/dev/null || true)
	if [ "$proven" != t ]; then
		check="not proven"
	elif [ "$got" != "$value" ]; then
		check="wrong value: $got"
	elif [ "$best" != "$value" ]; then
		check="best move $column is a $best"
	else
		check=ok
	fi
	printf '%-15s %-5s %-5s %-8s %-9s %-9.3f %-9.3f %s\n' "$moves" "$plies" "$value" "$stored" "$held" "$solve" "$prove" "$check"
	printf '%s\t%s\t%s\t%s\t%s\n' "$plies" "$solve" "$prove" "$stored" "$check" >>"$tmp/rows"
done

echo
printf '%-7s %-9s %-9s %-9s %-11s %s\n' plies positions solve_s prove_s solve/prove stored
for group in 8 9 10 11 12 13 14 all; do
	awk -F'\t' -v g="$group" 'g == "all" || $1 == g' "$tmp/rows" >"$tmp/group"
	[ -s "$tmp/group" ] || continue
	solve=$(cut -f2 "$tmp/group" | bench_median_of)
	prove=$(cut -f3 "$tmp/group" | bench_median_of)
	stored=$(cut -f4 "$tmp/group" | bench_median_of)
	awk -v g="$group" -v n="$(wc -l <"$tmp/group")" -v s="$solve" -v p="$prove" -v st="$stored" \
		'BEGIN { printf "%-7s %-9d %-9.3f %-9.3f %-11.1f %d\n", g, n, s, p, s / p, st }'
done
awk -F'\t' '{ t += $2; ok += $5 == "ok" } END {
	printf "\n%d of %d proven with the right value and a best move that keeps it, in %.1f s: %.1f positions a minute\n",
		ok, NR, t, NR / (t / 60) }' "$tmp/rows"
