-- a tic-tac-toe tree grown, solved and analysed in tables
SET client_min_messages = warning;
\set SHOW_CONTEXT never
SELECT gametree.create_tree('ttt', 'tictactoe') AS root_id;
\d ttt_edges
\d ttt_graph
CALL gametree.grow('ttt');

-- 5,478 states, 16,167 edges, 18 distinct joint moves
SELECT states, edges, moves, expanded, frontier, terminal, proven, max_depth, branching,
       root_utility, root_mobility, root_proven
FROM gametree.tree_stats('ttt');
-- the design's own query
SELECT count(DISTINCT next_id) FROM ttt_graph;
SELECT * FROM gametree.depth_stats('ttt');
SELECT * FROM gametree.outcomes('ttt');

-- the root: a proven draw; every first move keeps the draw
SELECT m.move -> 0 -> 2 AS x_plays, g.utility, g.mobility, g.proven
FROM ttt_graph g JOIN ttt_moves m ON m.id = g.move_id
WHERE g.init_id = (SELECT root_id FROM gametree.trees WHERE name = 'ttt')
ORDER BY m.move;

-- the expected line of play
SELECT ply, move, utility, proven
FROM gametree.principal_variation('ttt', (SELECT root_id FROM gametree.trees WHERE name = 'ttt'));

-- wherever the player to move can win at once, it has a proven win
SELECT count(*) AS can_win_at_once,
       count(*) FILTER (WHERE s.proven AND (s.utility ->> s.control)::numeric = 100) AS proven_win
FROM ttt_states s
WHERE EXISTS (SELECT 1 FROM ttt_graph g JOIN ttt_states t ON t.id = g.next_id
              WHERE g.init_id = s.id AND (t.goal ->> s.control)::numeric = 100);

-- a position where o must block: its mobility for o is 1
SELECT s.control, s.utility, s.mobility, s.proven
FROM ttt_states s
WHERE s.state = gametree.canonical('tictactoe',
  '[["cell",1,1,"x"],["cell",1,2,"x"],["cell",2,2,"o"],["control","oplayer"]]');

-- positions are unique: the same position cannot be stored twice
INSERT INTO ttt_states (id, state, depth) SELECT id + 1, state, depth FROM ttt_states WHERE depth = 0;
INSERT INTO ttt_states (id, state, depth) SELECT id, state, depth FROM ttt_states WHERE depth = 0;
-- expanding again changes nothing
SELECT gametree.expand('ttt', (SELECT root_id FROM gametree.trees WHERE name = 'ttt')) AS added;
CALL gametree.grow('ttt');
SELECT states, edges FROM gametree.tree_stats('ttt');

-- propagate() from scratch gives what incremental propagation left, row for row
CREATE TEMP TABLE states_before AS SELECT * FROM ttt_states;
CREATE TEMP TABLE graph_before AS SELECT * FROM ttt_graph;
SELECT gametree.propagate('ttt') AS evaluations;
SELECT (SELECT count(*) FROM (SELECT * FROM states_before EXCEPT SELECT * FROM ttt_states) a) AS states_differing,
       (SELECT count(*) FROM (SELECT * FROM graph_before EXCEPT SELECT * FROM ttt_graph) b) AS edges_differing;

-- expand() one state at a time, in another tree
SELECT gametree.create_tree('public.one', 'tictactoe',
  '[["cell",1,1,"x"],["cell",1,2,"x"],["cell",2,1,"o"],["cell",2,2,"o"],["control","xplayer"]]') AS root_id;
SELECT gametree.expand('one', root_id) FROM gametree.trees WHERE name = 'one';
SELECT m.move -> 0 -> 2 AS x_plays, g.utility, g.proven, g.mobility
FROM one_graph g JOIN one_moves m ON m.id = g.move_id ORDER BY m.move;
SELECT utility, mobility, proven FROM one_states WHERE depth = 0;

-- bad input leaves the trees unchanged
SELECT gametree.expand('nosuchtree', 1);
SELECT gametree.expand('ttt', 42);
SELECT gametree.create_tree('bad', 'nosuchgame');
SELECT gametree.create_tree('bad', 'tictactoe', '[["cell",1,1,"x"],["control","xplayer"]]');
SELECT gametree.create_tree('ttt', 'tictactoe');
CALL gametree.grow('ttt', max_states => -1);
CALL gametree.grow('ttt', max_depth => -2);
CALL gametree.grow('ttt', time_limit => '-1 s');
SELECT gametree.propagate('nosuchtree');
SELECT * FROM gametree.principal_variation('ttt', 42);
SELECT to_regclass('bad_states') IS NULL AS no_bad_tree, (SELECT count(*) FROM gametree.trees) AS trees;
SELECT states, edges FROM gametree.tree_stats('ttt');

SELECT gametree.drop_tree('one');
SELECT gametree.drop_tree('ttt');
SELECT count(*) FROM gametree.trees;
