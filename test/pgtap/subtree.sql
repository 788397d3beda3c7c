-- gametree.subtree: the states within some plies of a state, with their
-- edges, as the client's show draws them; the same as walking the tables.
BEGIN;
SET client_min_messages = warning;
SELECT plan(9);

\ir helpers.psql

SELECT gametree.create_tree('sub', 'tictactoe');
-- a step expands one depth: the root, then its children, then theirs
SELECT count(gametree.grow_step('sub', 1000, 3)) FROM generate_series(1, 3);
CREATE TEMP TABLE root AS SELECT root_id AS id FROM gametree.tree_info('sub');

SELECT is((SELECT count(*) FROM gametree.subtree('sub', (SELECT id FROM root), 0)), 1::bigint,
          'plies 0: the state alone');
SELECT is((SELECT moves FROM gametree.subtree('sub', (SELECT id FROM root), 0)), NULL,
          'at the horizon a state has no edges listed');
SELECT is((SELECT array_agg(ply ORDER BY ply) FROM (SELECT ply FROM gametree.subtree('sub', (SELECT id FROM root), 2)) s
           GROUP BY () ), (SELECT array_agg(p ORDER BY p) FROM (SELECT 0 AS p UNION ALL SELECT 1 FROM generate_series(1, 9)
           UNION ALL SELECT 2 FROM generate_series(1, 72)) x),
          'plies 2 from the root: 1 + 9 + 72 states, nearest first');
SELECT is((SELECT count(*) FROM gametree.subtree('sub', (SELECT id FROM root), 4) s WHERE s.ply = 3),
          (SELECT count(*) FROM sub_states WHERE depth = 3), 'plies 4 on a tree grown to 3: every state of depth 3');
SELECT is((SELECT jsonb_array_length(moves) FROM gametree.subtree('sub', (SELECT id FROM root), 1) WHERE ply = 0), 9,
          'the root has its nine edges');
SELECT is((SELECT array_agg(e -> 'move' ORDER BY n) FROM gametree.subtree('sub', (SELECT id FROM root), 1) s,
           jsonb_array_elements(s.moves) WITH ORDINALITY x(e, n) WHERE s.ply = 0),
          (SELECT array_agg(m.move ORDER BY m.move::text) FROM sub_graph g JOIN sub_moves m ON m.id = g.move_id
           WHERE g.init_id = (SELECT id FROM root)),
          'edges in the order of their moves'' JSON text, as the tables have them');
SELECT is((SELECT e FROM gametree.subtree('sub', (SELECT id FROM root), 1) s, jsonb_array_elements(s.moves) e
           WHERE s.ply = 0 AND e -> 'move' -> 0 -> 2 = '["mark", 2, 2]'),
          (SELECT jsonb_build_object('to', g.next_id, 'move', m.move, 'utility', g.utility, 'proven', g.proven,
                                     'visits', g.visits, 'best', coalesce(st.best_move = g.move_id, false))
           FROM sub_graph g JOIN sub_moves m ON m.id = g.move_id JOIN sub_states st ON st.id = g.init_id
           WHERE g.init_id = (SELECT id FROM root) AND m.move -> 0 -> 2 = '["mark", 2, 2]'),
          'an edge: its target, move, utility, proven, visits and whether it is the best move');
SELECT is((SELECT count(*) FROM gametree.subtree('sub', 42, 3)), 0::bigint, 'a state not in the tree: no rows');
SELECT is(pg_temp.try($$SELECT * FROM gametree.subtree('sub', 1, -1)$$),
          '22023: plies must be 0 or more, not -1', 'negative plies (22023)');

SELECT * FROM finish();
ROLLBACK;
