#!/usr/bin/env bash
# (b) Tic-tac-toe grown in full and solved: gametree (create_tree + grow,
# which propagates) against the same job in plain PL/pgSQL and SQL
# (bench/tictactoe_plpgsql.sql), what a user would write without the
# extension.  Median of BENCH_RUNS runs (default 3), fresh tables each run.
# The two trees must agree: 5,478 states, 16,167 edges, 18 moves, a proven
# draw at the root, and the same utility, mobility and proven flag state by
# state and edge by edge.  The figure is the speed-up, PL/pgSQL / gametree.
BENCH_RUNS=${BENCH_RUNS:-3}
source "$(dirname "$0")/bench.sh"
gt_setup
gt_fresh_database gametree_bench
db=gametree_bench
gt_psql -d $db -q -f "$(dirname "$0")/tictactoe_plpgsql.sql"

# Seconds the statements take together, run one after another in one
# session (CALLs that commit cannot share a query string).
session_seconds() {
	local db=$1 sql args=(); shift
	for sql in "$@"; do args+=(-c "$sql"); done
	gt_psql -d "$db" -qAt -c '\timing on' "${args[@]}" | awk '/^Time:/ { t += $2 } END { printf "%.6f\n", t / 1000 }'
}

median() {
	sort -g | awk '{ t[NR] = $1 } END { print (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'
}

gametree_times=() plpgsql_times=()
for _ in $(seq "$BENCH_RUNS"); do
	gt_psql -d $db -qAt -c "SELECT gametree.drop_tree(name) FROM gametree.trees WHERE name = 'ttt'" >/dev/null
	gametree_times+=("$(session_seconds $db "SELECT gametree.create_tree('ttt', 'tictactoe')" \
		"CALL gametree.grow('ttt')")")
	gt_psql -d $db -q -c "TRUNCATE plp_states, plp_moves, plp_graph RESTART IDENTITY"
	plpgsql_times+=("$(session_seconds $db "CALL plp_grow()" "CALL plp_solve()")")
done
gametree=$(printf '%s\n' "${gametree_times[@]}" | median)
plpgsql=$(printf '%s\n' "${plpgsql_times[@]}" | median)

# The trees of the last run, compared.  A state is matched by its encoding,
# an edge by the encodings of its ends and its move.
read -r states edges moves root_ok gt_states gt_edges gt_moves gt_root_ok state_diff edge_diff <<<"$(gt_psql -d $db -qAt -F' ' <<'SQL'
SELECT (SELECT count(*) FROM plp_states), (SELECT count(*) FROM plp_graph), (SELECT count(*) FROM plp_moves),
       (SELECT utility = '{"xplayer": 50, "oplayer": 50}' AND proven FROM plp_states WHERE depth = 0),
       t.states, t.edges, t.moves, t.root_utility = '{"xplayer": 50, "oplayer": 50}' AND t.root_proven,
       (SELECT count(*) FROM plp_states p FULL JOIN ttt_states g ON g.state = p.state
        WHERE p.id IS NULL OR g.id IS NULL OR p.utility IS DISTINCT FROM g.utility
           OR p.mobility IS DISTINCT FROM g.mobility OR p.proven IS DISTINCT FROM g.proven),
       (SELECT count(*)
        FROM (SELECT i.state AS init, m.move, n.state AS next, e.utility, e.mobility, e.proven
              FROM plp_graph e JOIN plp_states i ON i.id = e.init_id JOIN plp_moves m ON m.id = e.move_id
              JOIN plp_states n ON n.id = e.next_id) p
        FULL JOIN (SELECT i.state AS init, m.move, n.state AS next, e.utility, e.mobility, e.proven
                   FROM ttt_graph e JOIN ttt_states i ON i.id = e.init_id JOIN ttt_moves m ON m.id = e.move_id
                   JOIN ttt_states n ON n.id = e.next_id) g ON g.init = p.init AND g.move = p.move
        WHERE p.init IS NULL OR g.init IS NULL OR p.next IS DISTINCT FROM g.next
           OR p.utility IS DISTINCT FROM g.utility OR p.mobility IS DISTINCT FROM g.mobility
           OR p.proven IS DISTINCT FROM g.proven)
FROM gametree.tree_stats('ttt') t
SQL
)"

awk -v s="$states" -v e="$edges" -v m="$moves" -v r="$root_ok" -v gs="$gt_states" -v ge="$gt_edges" \
	-v gm="$gt_moves" -v gr="$gt_root_ok" -v sd="$state_diff" -v ed="$edge_diff" \
	-v g="$gametree" -v p="$plpgsql" -v n="$BENCH_RUNS" 'BEGIN {
	printf "tictactoe grow + solve, median of %d runs\n", n
	printf "gametree: %5d states %6d edges %3d moves, root proven draw: %s  %8.3f s\n", gs, ge, gm, gr, g
	printf "PL/pgSQL: %5d states %6d edges %3d moves, root proven draw: %s  %8.3f s\n", s, e, m, r, p
	printf "states differing (utility, mobility or proven): %d, edges differing: %d\n", sd, ed
	printf "speed-up PL/pgSQL / gametree: %.1fx\n", p / g
}'
# Timings of trees that differ from the known solution would mean nothing.
for tree in "$states $edges $moves $root_ok" "$gt_states $gt_edges $gt_moves $gt_root_ok"; do
	[ "$tree" = "5478 16167 18 t" ] || { echo "FAIL: expected 5478 states, 16167 edges, 18 moves, a proven draw; got $tree" >&2; exit 1; }
done
[ "$state_diff" = 0 ] && [ "$edge_diff" = 0 ] || { echo "FAIL: the trees differ" >&2; exit 1; }
