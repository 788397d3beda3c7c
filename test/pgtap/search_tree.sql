-- bestmove and analyse with a stored tree (tree =>): what they read, what
-- they write back, Monte Carlo visits and totals, concurrent calls, and bad
-- input leaving the tree unchanged.
-- Not in one transaction: other sessions (dblink) must see the trees.
SET client_min_messages = warning;
SELECT plan(19);

\ir helpers.psql

-- The edges of a tree's root.
CREATE FUNCTION pg_temp.root_edges(tree text) RETURNS SETOF record LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY EXECUTE format(
    'SELECT g.visits, g.total FROM %I g JOIN gametree.trees t ON t.name = %L AND g.init_id = t.root_id',
    tree || '_graph', tree);
END $$;

-- A digest of all rows of a tree's tables and its catalog row.
CREATE FUNCTION pg_temp.digest(tree text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  d text;
BEGIN
  EXECUTE format('SELECT md5(concat((SELECT string_agg(s::text, '','' ORDER BY id) FROM %I s),
                                    (SELECT string_agg(g::text, '','' ORDER BY init_id, move_id) FROM %I g),
                                    (SELECT t::text FROM gametree.trees t WHERE name = %L)))',
                 tree || '_states', tree || '_graph', tree) INTO d;
  RETURN d;
END $$;

-- Tic-tac-toe against the fully grown and solved tree: from every
-- non-terminal position, the move bestmove picks keeps the position's
-- proven value for the mover.
\o /dev/null
SELECT gametree.create_tree('solved', 'tictactoe');
CALL gametree.grow('solved');
\o
CREATE TEMP TABLE picked AS
SELECT s.control, s.utility AS before, c.utility AS after
FROM solved_states s
CROSS JOIN LATERAL gametree.next('tictactoe', s.state,
                                 gametree.bestmove('tictactoe', s.state, NULL, 9, tree => 'solved')) n(state)
JOIN solved_states c ON c.id = gametree.state_hash('tictactoe', n.state)
WHERE s.control IS NOT NULL;
SELECT is((SELECT count(*) FROM picked), 4520::bigint, 'bestmove with the solved tree from all 4,520 positions');
SELECT is((SELECT count(*) FROM picked WHERE (after->>control)::numeric < (before->>control)::numeric),
          0::bigint, 'no move it picks is worse for the mover than the position''s proven value');

-- Max^n search to the end of the game values each first move exactly as
-- propagation valued the state it leads to: utility, proven, mobility.
SELECT is((SELECT count(*) FROM gametree.analyse('tictactoe', gametree.initial('tictactoe'), NULL, 9, 'maxn') a
           JOIN solved_states c ON c.id = gametree.state_hash('tictactoe', gametree.next('tictactoe', gametree.initial('tictactoe'), a.move))
           WHERE a.utility = c.utility AND a.mobility = c.mobility AND a.proven AND c.proven),
          9::bigint, 'max^n values all nine first moves as propagation does');

-- Monte Carlo search on a fresh tree: 2 rounds of 1,000 iterations.
\o /dev/null
SELECT gametree.create_tree('mc', 'tictactoe');
SELECT gametree.bestmove('tictactoe', gametree.initial('tictactoe'), NULL, 2, 'mcts', 'mc');
\o
SELECT results_eq($$SELECT count(*), sum(visits) FROM pg_temp.root_edges('mc') e(visits integer, total jsonb)$$,
                  $$VALUES (9::bigint, 2000::bigint)$$,
                  'the root is expanded, and its nine edges'' visits add up to the 2,000 iterations run');
SELECT is((SELECT count(*) FROM pg_temp.root_edges('mc') e(visits integer, total jsonb)
           WHERE visits > 0 AND (total->>'xplayer')::numeric / visits BETWEEN 0 AND 100
             AND (total->>'oplayer')::numeric / visits BETWEEN 0 AND 100),
          9::bigint, 'every root edge has visits and per-role mean results within 0..100');
SELECT ok((SELECT count(*) FROM mc_states WHERE expanded) BETWEEN 2 AND 100,
          'the states it searched most are expanded, at most gametree.search_store_states of them');
SELECT is((SELECT pending FROM gametree.trees WHERE name = 'mc'), 0::bigint,
          'their values are propagated: nothing is pending');
CREATE TEMP TABLE mc_before AS SELECT * FROM mc_graph;
SELECT is((SELECT sum(visits) FROM gametree.analyse('tictactoe', gametree.initial('tictactoe'), NULL, 1, 'mcts', 'mc')),
          3000::numeric, 'analyse goes on from the stored visits: 3,000 in all');
SELECT is((SELECT count(*) FROM mc_graph g JOIN mc_before b USING (init_id, move_id) WHERE g.visits < b.visits),
          0::bigint, 'a second call only adds to the visits');
SELECT is((SELECT sum(visits) FROM pg_temp.root_edges('mc') e(visits integer, total jsonb)), 3000::bigint,
          'the root edges'' visits add up to all iterations run');

-- Two sessions at once on one tree: neither waits forever, no visit is lost.
\o /dev/null
SELECT dblink_connect('one', pg_temp.connstr());
SELECT dblink_connect('two', pg_temp.connstr());
SELECT dblink_send_query('one', $$SELECT gametree.bestmove('tictactoe', gametree.initial('tictactoe'), NULL, 3, 'mcts', 'mc')$$);
SELECT dblink_send_query('two', $$SELECT gametree.bestmove('tictactoe', gametree.initial('tictactoe'), NULL, 2, 'mcts', 'mc')$$);
SELECT * FROM dblink_get_result('one') AS r(move jsonb);
SELECT * FROM dblink_get_result('one') AS r(move jsonb);
SELECT * FROM dblink_get_result('two') AS r(move jsonb);
SELECT * FROM dblink_get_result('two') AS r(move jsonb);
SELECT dblink_exec('one', $$SET statement_timeout = '200ms'$$);
\o
-- statement_timeout cancels a long search cleanly, whichever the method,
-- and the session goes on.
\o /dev/null
SELECT * FROM dblink('one', $$SELECT gametree.bestmove('chess', gametree.initial('chess'), '1 minute')$$, false) AS t(m jsonb);
\o
SELECT is(dblink_error_message('one'), 'ERROR:  canceling statement due to statement timeout',
          'statement_timeout cancels alpha-beta (57014)');
\o /dev/null
SELECT * FROM dblink('one', $$SELECT gametree.bestmove('tictactoe', gametree.initial('tictactoe'), '1 minute', NULL, 'mcts', 'mc')$$, false) AS t(m jsonb);
\o
SELECT is(dblink_error_message('one'), 'ERROR:  canceling statement due to statement timeout',
          'statement_timeout cancels Monte Carlo search with a tree');
\o /dev/null
SELECT dblink_disconnect('one');
SELECT dblink_disconnect('two');
\o
SELECT is((SELECT sum(visits) FROM pg_temp.root_edges('mc') e(visits integer, total jsonb)), 8000::bigint,
          'two concurrent calls add 3,000 and 2,000 visits');

-- Alpha-beta with a tree writes back the root and its best line.
\o /dev/null
SELECT gametree.create_tree('ab', 'connect4');
SELECT gametree.bestmove('connect4', gametree.initial('connect4'), NULL, 6, tree => 'ab');
\o
SELECT results_eq($$SELECT depth, count(*) FROM ab_states WHERE expanded GROUP BY depth ORDER BY depth$$,
                  $$SELECT d, 1::bigint FROM generate_series(0, 6) d$$,
                  'alpha-beta expands the root and the states along its line, one per ply');

-- Bad input: an error each, and the tree unchanged.
SELECT pg_temp.digest('mc') AS mc_digest \gset
SELECT throws_ok($$SELECT gametree.bestmove('connect4', gametree.initial('connect4'), '1 s', NULL, 'mcts', 'mc')$$,
                 '22023', 'tree "public.mc" plays tictactoe, not connect4', 'a tree of another game');
SELECT throws_ok($$SELECT gametree.bestmove('tictactoe', '[["cell",1,1,"x"],["cell",2,2,"o"],["cell",3,3,"x"],["cell",1,3,"o"],["control","xplayer"]]',
                                            '1 s', NULL, 'mcts', 'mc')$$,
                 '22023', 'the state is not in tree "public.mc"', 'a state the tree does not hold');
SELECT throws_ok($$SELECT gametree.bestmove('tictactoe', '[["cell",1,1,"x"],["cell",1,2,"x"],["cell",1,3,"x"],["cell",2,1,"o"],["cell",2,2,"o"]]',
                                            '1 s', NULL, 'mcts', 'mc')$$,
                 '22023', 'the state is terminal: there is no move to make', 'a terminal state');
SELECT throws_ok($$SELECT gametree.bestmove('tictactoe', gametree.initial('tictactoe'), '0 s', NULL, 'mcts', 'mc')$$,
                 '22023', 'time_limit must be positive', 'a time limit of zero');
SELECT is(pg_temp.digest('mc'), :'mc_digest', 'after the errors the tree is unchanged');

\o /dev/null
SELECT gametree.drop_tree(name) FROM gametree.trees;
\o
SELECT * FROM finish();
