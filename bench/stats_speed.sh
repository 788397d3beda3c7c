#!/usr/bin/env bash
# tree_stats, depth_stats, outcomes and `gametree stats` on a large tree:
# the counts they read are kept by the writers (gametree.trees,
# gametree.tree_depths, gametree.tree_values); before 0.2.0 kept them, the
# functions counted the tree's tables, whose queries are timed beside them.
# Each a median of BENCH_RUNS (5) runs, in a tree of connect four grown to
# STATES states (default 1,400,000, about a minute to grow).
#
#   bash bench/stats_speed.sh
source "$(dirname "$0")/bench.sh"
gt_setup
gt_fresh_database gametree_bench
db=gametree_bench
states=${STATES:-1400000}

gt_psql -d $db -qAt -c "SET client_min_messages = warning" \
	-c "SELECT gametree.create_tree('big', 'connect4')" \
	-c "CALL gametree.grow('big', max_states => $states)" >/dev/null
gt_psql -d $db -qAt -c "SELECT format('tree: %s states, %s edges, %s pending', states, edges, pending)
                        FROM gametree.trees WHERE name = 'big'"

# The queries the functions ran when they counted the tables.
counted_tree_stats="SELECT 'connect4', count(*), (SELECT count(*) FROM big_graph), (SELECT count(*) FROM big_moves),
  count(*) FILTER (WHERE s.expanded AND s.goal IS NULL), count(*) FILTER (WHERE NOT s.expanded),
  count(*) FILTER (WHERE s.goal IS NOT NULL), count(*) FILTER (WHERE s.proven), max(s.depth),
  round((SELECT count(*) FROM big_graph)::numeric / nullif(count(*) FILTER (WHERE s.expanded AND s.goal IS NULL), 0), 3),
  r.utility, r.mobility, r.proven
  FROM big_states s, big_states r WHERE r.id = (SELECT root_id FROM gametree.trees WHERE name = 'big')
  GROUP BY r.utility, r.mobility, r.proven"
counted_depth_stats="SELECT s.depth, count(*), count(*) FILTER (WHERE s.expanded AND s.goal IS NULL),
  count(*) FILTER (WHERE s.goal IS NOT NULL), count(*) FILTER (WHERE s.proven), coalesce(sum(e.n), 0)::bigint,
  round(sum(e.n)::numeric / nullif(count(*) FILTER (WHERE s.expanded AND s.goal IS NULL), 0), 3)
  FROM big_states s LEFT JOIN (SELECT init_id, count(*) AS n FROM big_graph GROUP BY init_id) e
  ON e.init_id = s.id GROUP BY s.depth ORDER BY s.depth"
counted_outcomes="SELECT r.role, count(*) FILTER (WHERE s.proven AND (s.utility ->> r.role)::numeric = 100),
  count(*) FILTER (WHERE s.proven AND (s.utility ->> r.role)::numeric > 0 AND (s.utility ->> r.role)::numeric < 100),
  count(*) FILTER (WHERE s.proven AND (s.utility ->> r.role)::numeric = 0), count(*) FILTER (WHERE NOT s.proven)
  FROM unnest(ARRAY['red', 'yellow']) WITH ORDINALITY r(role, n) CROSS JOIN big_states s
  GROUP BY r.role, r.n ORDER BY r.n"

# Seconds the client's stats command takes, connection included.
client_seconds() {
	local began ended
	began=$(date +%s.%N)
	PGDATABASE=$db "$GT_ROOT/client/gametree" stats big >/dev/null
	ended=$(date +%s.%N)
	echo "$ended - $began" | bc -l
}
client_median() {
	for _ in $(seq "$BENCH_RUNS"); do client_seconds; done |
		sort -g | awk '{ t[NR] = $1 } END { print (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'
}

printf '%-16s %14s %14s\n' what 'counted (s)' 'kept (s)'
printf '%-16s %14.4f %14.4f\n' tree_stats "$(bench_median $db "$counted_tree_stats")" \
	"$(bench_median $db "SELECT * FROM gametree.tree_stats('big')")"
printf '%-16s %14.4f %14.4f\n' depth_stats "$(bench_median $db "$counted_depth_stats")" \
	"$(bench_median $db "SELECT * FROM gametree.depth_stats('big')")"
printf '%-16s %14.4f %14.4f\n' outcomes "$(bench_median $db "$counted_outcomes")" \
	"$(bench_median $db "SELECT * FROM gametree.outcomes('big')")"
printf '%-16s %14s %14.4f\n' 'gametree stats' - "$(client_median)"
gt_psql -q -d postgres -c "DROP DATABASE $db"
