-- growing trees: reference counts, concurrent sessions, interrupted and resumed jobs.
-- Not in one transaction: other sessions (dblink) must see the trees.
SET client_min_messages = warning;
SELECT plan(13);

\ir helpers.psql

-- Connect four to depth 6: positions per ply as published (OEIS A212693)
\o /dev/null
SELECT gametree.create_tree('c4', 'connect4');
CALL gametree.grow('c4', max_depth => 6);
\o
SELECT results_eq(
  $$SELECT depth, states FROM gametree.depth_stats('c4') ORDER BY depth$$,
  $$SELECT ply, count FROM reference_positions WHERE game = 'connect4' AND ply <= 6 ORDER BY ply$$,
  'connect four grown to depth 6 has the published positions per ply');
SELECT is((SELECT count(*) FROM c4_states WHERE depth = 6 AND expanded), 0::bigint,
          'states at max_depth stay unexpanded');

-- propagate() equals the incremental result, with heuristic estimates in play
CREATE TEMP TABLE c4_states_before AS TABLE c4_states;
CREATE TEMP TABLE c4_graph_before AS TABLE c4_graph;
\o /dev/null
SELECT gametree.propagate('c4');
\o
SELECT is((SELECT count(*) FROM ((TABLE c4_states_before EXCEPT TABLE c4_states)
                                 UNION ALL (TABLE c4_states EXCEPT TABLE c4_states_before)) d)
          + (SELECT count(*) FROM ((TABLE c4_graph_before EXCEPT TABLE c4_graph)
                                   UNION ALL (TABLE c4_graph EXCEPT TABLE c4_graph_before)) d),
          0::bigint, 'connect four: propagate() equals incremental propagation row for row');

-- One session, then two sessions at once on another tree: the same tables
\o /dev/null
SELECT gametree.create_tree('solo', 'tictactoe');
CALL gametree.grow('solo');
SELECT gametree.create_tree('duo', 'tictactoe');
SELECT dblink_connect('one', pg_temp.connstr());
SELECT dblink_connect('two', pg_temp.connstr());
SELECT dblink_send_query('one', $$CALL gametree.grow('duo')$$);
SELECT dblink_send_query('two', $$CALL gametree.grow('duo')$$);
SELECT * FROM dblink_get_result('one') AS r(status text);
SELECT * FROM dblink_get_result('one') AS r(status text);
SELECT * FROM dblink_get_result('two') AS r(status text);
SELECT * FROM dblink_get_result('two') AS r(status text);
\o
SELECT is(pg_temp.differences('solo', 'duo'), 0::bigint,
          'two concurrent grow sessions give the same tables as one');
SELECT is((SELECT count(*) FROM gametree.grow_progress WHERE tree = 'duo' AND done), 2::bigint,
          'each session left a finished progress row');
SELECT is((SELECT row(states, edges, frontier)::text FROM gametree.trees WHERE name = 'duo'),
          '(5478,16167,0)', 'the counters add up across sessions');

-- A grow stopped by statement_timeout, then resumed, equals an uninterrupted one
\o /dev/null
SELECT gametree.create_tree('whole', 'connect4');
CALL gametree.grow('whole', max_depth => 7);
SELECT gametree.create_tree('resumed', 'connect4');
-- (grown to depth 4 first: a batch that holds the whole frontier, as the
-- first one does, goes on in memory and would finish before the timeout)
CALL gametree.grow('resumed', max_depth => 4);
SELECT dblink_exec('one', $$SET statement_timeout = '400ms'$$);
SELECT dblink_send_query('one', $$CALL gametree.grow('resumed', max_depth => 7)$$);
SELECT * FROM dblink_get_result('one', false) AS r(status text);
SELECT * FROM dblink_get_result('one', false) AS r(status text);
\o
SELECT ok((SELECT states FROM gametree.trees WHERE name = 'resumed')
          < (SELECT states FROM gametree.trees WHERE name = 'whole'),
          'the timeout stopped the job early');
\o /dev/null
CALL gametree.grow('resumed', max_depth => 7);
\o
SELECT is(pg_temp.differences('whole', 'resumed'), 0::bigint,
          'resumed after a timeout, the tree equals an uninterrupted one');
SELECT is((SELECT count(*) FROM resumed_states), (SELECT states FROM gametree.trees WHERE name = 'resumed'),
          'the states counter matches the table');

-- Batches write each id as the state hash of its state: the CHECK that says
-- so is not evaluated for their rows, so here it is checked for every game
\o /dev/null
SELECT gametree.create_tree('hashed_chess', 'chess');
CALL gametree.grow('hashed_chess', max_states => 3000);
SELECT gametree.create_tree('hashed_checkers', 'checkers');
CALL gametree.grow('hashed_checkers', max_states => 3000);
\o
SELECT is((SELECT count(*) FROM whole_states WHERE id <> gametree.state_hash('connect4', state))
          + (SELECT count(*) FROM duo_states WHERE id <> gametree.state_hash('tictactoe', state))
          + (SELECT count(*) FROM hashed_chess_states WHERE id <> gametree.state_hash('chess', state))
          + (SELECT count(*) FROM hashed_checkers_states WHERE id <> gametree.state_hash('checkers', state)),
          0::bigint, 'every id grow wrote is the state hash of its state, in all four games');

-- A grow with a time_limit keeps to it while it waits for frontier states
-- that another session holds (it used to wait until they were free).
SELECT gametree.create_tree('held', 'tictactoe') IS NOT NULL AS created \gset
\o /dev/null
SELECT dblink_exec('one', 'BEGIN');
SELECT * FROM dblink('one', 'SELECT count(*) FROM (SELECT id FROM held_states WHERE NOT expanded FOR UPDATE) s') AS t(n bigint);
SELECT clock_timestamp() AS started \gset
-- at top level, where grow commits and so waits (the timeout ends this file otherwise)
SET statement_timeout = '20s';
CALL gametree.grow('held', time_limit => '1 s');
RESET statement_timeout;
\o
SELECT cmp_ok(clock_timestamp() - :'started'::timestamptz, '<', interval '10 s',
              'a grow waiting for held frontier states ends at its time_limit');

-- A time_limit too short to propagate the tree (a propagation reads all of
-- it) went to the reserve for propagation whole: grow stored nothing.  It
-- expands for the whole limit now and leaves the propagation pending.
\o /dev/null
SELECT gametree.create_tree('wide', 'connect4');
CALL gametree.grow('wide', max_depth => 7);
\o
SELECT states AS wide_before FROM gametree.trees WHERE name = 'wide' \gset
CALL gametree.grow('wide', time_limit => '50 ms');
SELECT cmp_ok((SELECT states FROM gametree.trees WHERE name = 'wide'), '>', :wide_before::bigint,
              'a grow whose time_limit is too short to propagate the tree expands states anyway');
SELECT cmp_ok((SELECT pending FROM gametree.trees WHERE name = 'wide'), '>', 0::bigint,
              'and leaves their propagation pending');

\o /dev/null
SELECT dblink_exec('one', 'ROLLBACK');
SELECT gametree.drop_tree('held');
SELECT dblink_disconnect('one');
SELECT dblink_disconnect('two');
SELECT gametree.drop_tree(name) FROM gametree.trees;
\o
SELECT * FROM finish();
