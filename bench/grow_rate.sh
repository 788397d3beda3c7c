#!/usr/bin/env bash
# (a) Grow rate: connect four grown breadth first to about GROW_STATES states
# (default 1,000,000), states and edges stored per second, against the raw
# INSERT ceiling measured in the same run: the same rows inserted by plain
# INSERT ... SELECT into tables of the same shape, indexes and constraints
# (a fresh tree's tables), in batches of the same size.  The ratio is the
# figure.
source "$(dirname "$0")/bench.sh"
GROW_STATES=${GROW_STATES:-1000000}
gt_setup
gt_fresh_database gametree_bench
db=gametree_bench

gt_psql -d $db -qAt -c "SELECT gametree.create_tree('grown', 'connect4')" >/dev/null
grow=$(bench_seconds $db "CALL gametree.grow('grown', max_states => $GROW_STATES)")
read -r states edges expanded <<<"$(gt_psql -d $db -qAt -F' ' -c \
	"SELECT states, edges, expanded FROM gametree.tree_stats('grown')")"

# The ceiling: the same rows, copied batch by batch (by id ranges of the
# states expanded, as grow would) into an empty tree of the same shape.
gt_psql -d $db -qAt -c "SELECT gametree.create_tree('ceiling', 'connect4')" >/dev/null
gt_psql -d $db -q <<'SQL'
DELETE FROM ceiling_states;
CREATE TABLE batches AS
SELECT ntile(greatest((SELECT count(*) FROM grown_states WHERE expanded AND goal IS NULL) / 2000, 1)::int)
       OVER (ORDER BY depth, id) AS batch, id
FROM grown_states WHERE expanded AND goal IS NULL;
CREATE INDEX ON batches (batch);
CREATE TABLE edge_rows AS SELECT b.batch, g.* FROM grown_graph g JOIN batches b ON b.id = g.init_id;
CREATE TABLE state_rows AS
SELECT DISTINCT ON (s.id) coalesce(min_batch, 0) AS batch, s.*
FROM grown_states s
LEFT JOIN (SELECT next_id, min(batch) AS min_batch FROM edge_rows GROUP BY next_id) f ON f.next_id = s.id
ORDER BY s.id;
CREATE INDEX ON edge_rows (batch);
CREATE INDEX ON state_rows (batch);
CREATE PROCEDURE insert_all() LANGUAGE plpgsql AS $$
DECLARE b int;
BEGIN
  FOR b IN SELECT DISTINCT batch FROM state_rows ORDER BY 1 LOOP
    INSERT INTO ceiling_states SELECT id, state, goal, depth, control, expanded, utility, mobility, proven, best_move
      FROM state_rows WHERE batch = b ORDER BY id;
    INSERT INTO ceiling_graph SELECT init_id, move_id, next_id, utility, mobility, visits, total, proven
      FROM edge_rows WHERE batch = b ORDER BY init_id, move_id;
    COMMIT;
  END LOOP;
END $$;
INSERT INTO ceiling_moves SELECT * FROM grown_moves;
SQL
ceiling=$(bench_seconds $db "CALL insert_all()")

awk -v s="$states" -v e="$edges" -v x="$expanded" -v g="$grow" -v c="$ceiling" 'BEGIN {
	printf "connect4 grow: %d states, %d edges, %d states expanded\n", s, e, x
	printf "grow:             %8.2f s  %9.0f states/s  %9.0f edges/s\n", g, s / g, e / g
	printf "INSERT ceiling:   %8.2f s  %9.0f states/s  %9.0f edges/s\n", c, s / c, e / c
	printf "ratio grow/ceiling: %.2f\n", c / g
}'
