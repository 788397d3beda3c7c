-- Trees of a game loaded from GDL (ticTacToe.kif, table reference_gdl): grown
-- by one session, by two at once, and cancelled half way and resumed, each
-- the same tree as the built-in tictactoe's, row for row (compared by state
-- and move, since the ids of the two games' states differ).
-- Not in one transaction: other sessions (dblink) must see the game and the
-- trees.  Everything made here is named gdl_tree_...; leftovers of a run
-- that stopped half way are removed first.
SET client_min_messages = warning;
SELECT plan(19);

\ir helpers.psql

-- What pg_temp.differences (helpers.psql) counts, for trees of two games
-- whose states have the same facts: states with their values and best move,
-- and edges, by state and move, not id.
-- Where play has ended, the built-in tictactoe has no control fact, while
-- ticTacToe.kif's (control oplayer) or (control xplayer) is still true: the
-- states of terminal positions are compared without it.
CREATE FUNCTION pg_temp.facts(state jsonb, goal jsonb) RETURNS jsonb LANGUAGE sql AS $$
  SELECT CASE WHEN goal IS NULL THEN state
              ELSE (SELECT jsonb_agg(f ORDER BY n) FROM jsonb_array_elements(state) WITH ORDINALITY x(f, n)
                    WHERE f->>0 <> 'control') END
$$;
CREATE FUNCTION pg_temp.content(tree text) RETURNS TABLE (kind text, a jsonb, b jsonb, c jsonb, v text)
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY EXECUTE format(
    $q$SELECT 'state', pg_temp.facts(s.state, s.goal), m.move, NULL::jsonb,
              concat_ws('|', s.goal, s.depth, s.control, s.expanded, s.utility, s.mobility, s.proven)
       FROM %1$I s LEFT JOIN %2$I m ON m.id = s.best_move
       UNION ALL
       SELECT 'edge', i.state, m.move, pg_temp.facts(n.state, n.goal),
              concat_ws('|', g.utility, g.mobility, g.proven, g.visits, g.total)
       FROM %3$I g JOIN %1$I i ON i.id = g.init_id JOIN %1$I n ON n.id = g.next_id JOIN %2$I m ON m.id = g.move_id$q$,
    tree || '_states', tree || '_moves', tree || '_graph');
END $$;
CREATE FUNCTION pg_temp.content_differences(a text, b text) RETURNS bigint LANGUAGE sql AS $$
  SELECT count(*) FROM ((SELECT * FROM pg_temp.content(a) EXCEPT SELECT * FROM pg_temp.content(b))
                        UNION ALL (SELECT * FROM pg_temp.content(b) EXCEPT SELECT * FROM pg_temp.content(a))) d
$$;

-- Waits (up to 30 s) until backend pid's grow has committed batches that
-- expanded at least n states, and cancels it then; returns how many it had.
CREATE FUNCTION pg_temp.cancel_after(pid integer, n bigint) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  e bigint;
BEGIN
  FOR i IN 1..3000 LOOP
    SELECT p.expanded INTO e FROM gametree.grow_progress p WHERE p.pid = cancel_after.pid AND NOT p.done;
    IF e >= n THEN
      PERFORM pg_cancel_backend(cancel_after.pid);
      RETURN format('cancelled after %s expansions or more', n);
    END IF;
    PERFORM pg_sleep(0.01);
  END LOOP;
  RETURN format('not cancelled: %s expansions in 30 s, or the grow had ended', coalesce(e, 0));
END $$;

\o /dev/null
SELECT pg_temp.clean_up('gdl_tree');
SELECT gametree.load_game('gdl_tree_ttt', kif) FROM reference_gdl WHERE name = 'ticTacToe';
SELECT dblink_connect('one', pg_temp.connstr());
SELECT dblink_connect('two', pg_temp.connstr());
\o
SELECT pid AS one_pid FROM dblink('one', 'SELECT pg_backend_pid()') AS t(pid integer) \gset
SELECT pid AS two_pid FROM dblink('two', 'SELECT pg_backend_pid()') AS t(pid integer) \gset
\o /dev/null

-- The built-in game, and the loaded one, each grown by one session
SELECT gametree.create_tree('gdl_tree_native', 'tictactoe');
CALL gametree.grow('gdl_tree_native');
SELECT gametree.create_tree('gdl_tree_solo', 'gdl_tree_ttt');
CALL gametree.grow('gdl_tree_solo');
\o
SELECT is((SELECT row(states, edges, frontier, pending)::text FROM gametree.trees WHERE name = 'gdl_tree_native'),
          '(5478,16167,0,0)', 'the built-in tictactoe grown in full: 5,478 states, 16,167 edges');
SELECT is((SELECT row(states, edges, frontier, pending)::text FROM gametree.trees WHERE name = 'gdl_tree_solo'),
          '(5478,16167,0,0)', 'ticTacToe.kif grown in full: the same counts');
SELECT is((SELECT count(*) FROM gdl_tree_solo_states WHERE expanded AND goal IS NULL), 4520::bigint,
          '4,520 non-terminal states expanded');
SELECT is((SELECT count(*) FROM gdl_tree_solo_states WHERE id <> gametree.state_hash('gdl_tree_ttt', state)), 0::bigint,
          'every id is the state hash of its state');
SELECT is(pg_temp.content_differences('gdl_tree_solo', 'gdl_tree_native'), 0::bigint,
          'the same states, values, best moves and edges as the built-in game''s tree');
SELECT results_eq($$SELECT s.utility, s.proven FROM gdl_tree_solo_states s JOIN gametree.trees t
                    ON t.name = 'gdl_tree_solo' AND s.id = t.root_id$$,
                  $$VALUES ('{"oplayer": 50, "xplayer": 50}'::jsonb, true)$$, 'the root is a proven draw');

-- Two sessions at once, in batches of 10 from depth 2 (a batch that holds
-- the whole frontier, as a fresh tree's first one does, goes on in memory)
\o /dev/null
SELECT gametree.create_tree('gdl_tree_duo', 'gdl_tree_ttt');
CALL gametree.grow('gdl_tree_duo', max_depth => 2);
SELECT dblink_exec('one', 'SET gametree.grow_batch_size = 10');
SELECT dblink_exec('two', 'SET gametree.grow_batch_size = 10');
SELECT dblink_send_query('one', $$CALL gametree.grow('gdl_tree_duo')$$);
SELECT dblink_send_query('two', $$CALL gametree.grow('gdl_tree_duo')$$);
SELECT * FROM dblink_get_result('one', false) AS r(status text);
SELECT * FROM dblink_get_result('one', false) AS r(status text);
SELECT * FROM dblink_get_result('two', false) AS r(status text);
SELECT * FROM dblink_get_result('two', false) AS r(status text);
\o
SELECT is(pg_temp.differences('gdl_tree_solo', 'gdl_tree_duo'), 0::bigint,
          'two concurrent grow sessions give the same tables as one');
SELECT is((SELECT count(*) FROM gametree.grow_progress WHERE pid IN (:one_pid, :two_pid) AND tree = 'gdl_tree_duo' AND done),
          2::bigint,
          'each session left a finished progress row');
SELECT is((SELECT row(states, edges, frontier, pending)::text FROM gametree.trees WHERE name = 'gdl_tree_duo'),
          '(5478,16167,0,0)', 'the counters add up across sessions');
SELECT is((SELECT sum(expanded) FROM gametree.grow_progress WHERE pid IN (:one_pid, :two_pid) AND tree = 'gdl_tree_duo'),
          4510::numeric, 'together they expanded each of the 4,510 non-terminal states below depth 2 once');
SELECT is((SELECT count(*) FROM gametree.grow_progress WHERE pid IN (:one_pid, :two_pid) AND tree = 'gdl_tree_duo'
           AND expanded > 0), 2::bigint, 'and both took part');
SELECT is(pg_temp.content_differences('gdl_tree_duo', 'gdl_tree_native'), 0::bigint,
          'and the tree is the built-in game''s');

-- A grow cancelled half way (pg_cancel_backend once its committed batches
-- expanded 200 states), then resumed
\o /dev/null
SELECT gametree.create_tree('gdl_tree_resumed', 'gdl_tree_ttt');
CALL gametree.grow('gdl_tree_resumed', max_depth => 2);
SELECT dblink_send_query('one', $$CALL gametree.grow('gdl_tree_resumed')$$);
\o
SELECT is(pg_temp.cancel_after(:one_pid, 200), 'cancelled after 200 expansions or more',
          'the grow is cancelled while it runs');
\o /dev/null
SELECT * FROM dblink_get_result('one', false) AS r(status text);
SELECT * FROM dblink_get_result('one', false) AS r(status text);
\o
SELECT is(dblink_error_message('one'), 'ERROR:  canceling statement due to user request', 'with the cancel''s error');
SELECT ok((SELECT states FROM gametree.trees WHERE name = 'gdl_tree_resumed') < 5478,
          'the cancel stopped it early');
\o /dev/null
CALL gametree.grow('gdl_tree_resumed');
\o
SELECT is(pg_temp.differences('gdl_tree_solo', 'gdl_tree_resumed'), 0::bigint,
          'resumed after the cancel, the tree equals an uninterrupted one');
SELECT is((SELECT row(states, edges, frontier, pending)::text FROM gametree.trees WHERE name = 'gdl_tree_resumed'),
          '(5478,16167,0,0)', 'and its counters');
SELECT is((SELECT count(*) FROM gdl_tree_resumed_states), (SELECT states FROM gametree.trees WHERE name = 'gdl_tree_resumed'),
          'the states counter matches the table');

\o /dev/null
SELECT dblink_disconnect('one');
SELECT dblink_disconnect('two');
SELECT pg_temp.clean_up('gdl_tree');
\o
SELECT ok(NOT EXISTS (SELECT FROM gametree.trees WHERE name LIKE 'gdl\_tree\_%')
          AND NOT EXISTS (SELECT FROM gametree.gdl_games WHERE name LIKE 'gdl\_tree\_%'), 'all dropped at the end');
SELECT * FROM finish();
