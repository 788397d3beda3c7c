-- A search's write-back (bestmove with tree =>) beside other writers of the
-- tree: what is pending propagation stays counted whoever wrote it, the
-- writers take their locks in one order (no deadlock), and the write-back
-- keeps to the call's time_limit, leaving the tree consistent.
-- Not in one transaction: other sessions (dblink) must see the trees.
-- Everything made here is named cc_...; leftovers of a run that stopped
-- half way are removed first.
SET client_min_messages = warning;
SELECT plan(19);

\ir helpers.psql

-- Edges whose copy of their child's value differs from the child's row:
-- stale, which only pending propagation may leave.
CREATE FUNCTION pg_temp.stale_edges(tree text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  EXECUTE format('SELECT count(*) FROM %I g JOIN %I s ON s.id = g.next_id
                  WHERE (g.utility, g.mobility, g.proven) IS DISTINCT FROM
                        (CASE WHEN s.expanded THEN s.utility ELSE gametree.heuristic(s.state) END, s.mobility, s.proven)',
                 tree || '_graph', tree || '_states') INTO n;
  RETURN n;
END $$;

-- A digest of the values in a tree's tables.
CREATE FUNCTION pg_temp.values_digest(tree text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  d text;
BEGIN
  EXECUTE format('SELECT md5(concat((SELECT string_agg(concat_ws(''|'', id, utility, mobility, proven, best_move), '','' ORDER BY id) FROM %I),
                                    (SELECT string_agg(concat_ws(''|'', init_id, move_id, utility, mobility, proven), '','' ORDER BY init_id, move_id) FROM %I)))',
                 tree || '_states', tree || '_graph') INTO d;
  RETURN d;
END $$;

-- After propagate(tree, false), is every value what a propagation from
-- scratch computes?  'consistent', or how many edges were stale and that
-- values changed.
CREATE FUNCTION pg_temp.consistent(tree text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  stale bigint;
  before text;
BEGIN
  PERFORM gametree.propagate(tree, false);
  stale := pg_temp.stale_edges(tree);
  before := pg_temp.values_digest(tree);
  PERFORM gametree.propagate(tree, true);
  IF stale = 0 AND pg_temp.values_digest(tree) = before THEN
    RETURN 'consistent';
  END IF;
  RETURN format('%s stale edges; from scratch the values %s', stale,
                CASE WHEN pg_temp.values_digest(tree) = before THEN 'stay' ELSE 'change' END);
END $$;

-- Waits (up to 10 s) until backend pid waits for a lock.
CREATE FUNCTION pg_temp.await_lock(pid integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  FOR i IN 1..1000 LOOP
    IF EXISTS (SELECT FROM pg_stat_activity a WHERE a.pid = await_lock.pid AND a.wait_event_type = 'Lock') THEN
      RETURN 'waiting';
    END IF;
    PERFORM pg_sleep(0.01);
  END LOOP;
  RETURN 'not waiting';
END $$;

\o /dev/null
SELECT pg_temp.clean_up('cc');
\o

-- grow_step leaves expansions pending; a Monte Carlo search's write-back,
-- which propagates its own, must not take theirs back.  Three levels of
-- tic-tac-toe propagated, then a fourth expanded and not propagated.
\o /dev/null
SELECT gametree.create_tree('cc_six', 'tictactoe');
SELECT gametree.grow_step('cc_six', 500);
SELECT gametree.grow_step('cc_six', 500);
SELECT gametree.grow_step('cc_six', 500);
SELECT gametree.propagate('cc_six', false);
SELECT gametree.grow_step('cc_six', 500);
SET gametree.search_store_states = 1000;
SELECT gametree.bestmove('tictactoe', gametree.initial('tictactoe'), NULL, 2, 'mcts', 'cc_six');
RESET gametree.search_store_states;
\o
SELECT ok((SELECT count(*) FROM cc_six_states WHERE expanded AND depth >= 4) > 0,
          'the write-back expanded states below the ones grow_step expanded');
SELECT is((SELECT pending FROM gametree.trees WHERE name = 'cc_six'), 1::bigint,
          'grow_step''s expansion is still pending after the write-back propagated its own');
SELECT ok(gametree.propagate('cc_six', false) > 0, 'propagate(tree, false) has work to do');
SELECT is(pg_temp.consistent('cc_six'), 'consistent',
          'and afterwards every value is what a propagation from scratch gives');

-- Two Monte Carlo searches with write-back in other sessions, and
-- grow_step here, at once.
\o /dev/null
SELECT gametree.create_tree('cc_many', 'tictactoe');
SELECT gametree.grow_step('cc_many', 500);
SELECT gametree.grow_step('cc_many', 500);
SELECT gametree.grow_step('cc_many', 500);
SELECT gametree.propagate('cc_many', false);
SELECT dblink_connect('one', pg_temp.connstr());
SELECT dblink_connect('two', pg_temp.connstr());
SELECT dblink_exec(c, 'SET gametree.search_store_states = 1000') FROM unnest(ARRAY['one', 'two']) c;
SELECT dblink_send_query(c, $$SELECT gametree.bestmove('tictactoe', gametree.initial('tictactoe'), NULL, 3, 'mcts', 'cc_many')$$)
FROM unnest(ARRAY['one', 'two']) c;
SELECT gametree.grow_step('cc_many', 500);
CREATE TEMP TABLE many_results AS
SELECT r.move FROM dblink_get_result('one', false) AS r(move jsonb)
UNION ALL SELECT r.move FROM dblink_get_result('two', false) AS r(move jsonb);
SELECT * FROM dblink_get_result('one') AS r(move jsonb);
SELECT * FROM dblink_get_result('two') AS r(move jsonb);
\o
SELECT is((SELECT count(*) FROM many_results WHERE move IS NOT NULL), 2::bigint, 'both searches answered');
SELECT ok((SELECT pending FROM gametree.trees WHERE name = 'cc_many') > 0,
          'grow_step''s expansion is still pending after the write-backs');
SELECT is(pg_temp.consistent('cc_many'), 'consistent',
          'after propagate(tree, false) every value is what a propagation from scratch gives');

-- The lock order.  Session one holds the tree lock (propagate in an open
-- transaction); session two's grow_step takes a frontier state and waits
-- for the lock; then session one's write-back expands the frontier states
-- beside it, whose children are reached by the same moves.  grow_step must
-- wait for the lock before it writes any row (the moves among them), or
-- each session waits for the other: a deadlock.
\o /dev/null
SELECT gametree.create_tree('cc_seven', 'tictactoe');
SELECT gametree.grow_step('cc_seven', 1);
SELECT pid AS two_pid FROM dblink('two', 'SELECT pg_backend_pid()') AS t(pid integer) \gset
SELECT dblink_exec('one', 'BEGIN');
SELECT * FROM dblink('one', $$SELECT gametree.propagate('cc_seven', true)$$) AS t(n bigint);
SELECT dblink_send_query('two', $$SELECT expanded FROM gametree.grow_step('cc_seven', 1)$$);
\o
SELECT is(pg_temp.await_lock(:two_pid), 'waiting', 'grow_step waits for the tree lock');
\o /dev/null
SELECT * FROM dblink('one', $$SELECT gametree.bestmove('tictactoe', gametree.initial('tictactoe'), NULL, 2, 'mcts', 'cc_seven')$$, false)
  AS t(move jsonb);
\o
SELECT is(dblink_error_message('one'), 'OK', 'the write-back went on beside the waiting grow_step');
\o /dev/null
SELECT dblink_exec('one', 'COMMIT', false);
CREATE TEMP TABLE seven_result AS SELECT * FROM dblink_get_result('two', false) AS r(expanded bigint);
SELECT dblink_error_message('two') AS two_error \gset
SELECT * FROM dblink_get_result('two', false) AS r(expanded bigint);
\o
SELECT is(:'two_error'::text, 'OK', 'and grow_step, once the lock was free, without a deadlock');
SELECT is((SELECT expanded FROM seven_result), 1::bigint, 'grow_step expanded its state');
SELECT is(pg_temp.consistent('cc_seven'), 'consistent', 'the tree is consistent afterwards');

-- Nor does a propagation from scratch, holding the tree lock, wait for a
-- frontier state that another session holds (as a grow batch does while it
-- expands it, waiting for the lock to store it): it leaves it to the
-- holder, and one expansion pending.
\o /dev/null
SELECT gametree.create_tree('cc_scratch', 'tictactoe');
SELECT gametree.grow_step('cc_scratch', 500);
SELECT gametree.grow_step('cc_scratch', 500);
SELECT min(id) AS held_id FROM cc_scratch_states WHERE NOT expanded \gset
UPDATE cc_scratch_states SET utility = '{"xplayer": 1, "oplayer": 99}' WHERE id = :held_id;
SELECT dblink_exec('two', 'BEGIN');
SELECT * FROM dblink('two', format('SELECT id FROM cc_scratch_states WHERE id = %s FOR UPDATE', :held_id)) AS t(id bigint);
SET statement_timeout = '5s';
SELECT pg_temp.val($$SELECT gametree.propagate('cc_scratch', true)$$) AS scratch_result \gset
RESET statement_timeout;
SELECT dblink_exec('two', 'ROLLBACK');
\o
SELECT ok(:'scratch_result' ~ '^[0-9]+$', 'propagation from scratch does not wait for a frontier state another session holds');
SELECT is((SELECT pending FROM gametree.trees WHERE name = 'cc_scratch'), 1::bigint,
          'and leaves one expansion pending');
SELECT is((SELECT utility FROM cc_scratch_states WHERE id = :held_id), '{"xplayer": 1, "oplayer": 99}'::jsonb,
          'the held state keeps its value');
\o /dev/null
SELECT gametree.propagate('cc_scratch', true);
\o
SELECT is((SELECT row(pending, pg_temp.stale_edges('cc_scratch'))::text FROM gametree.trees WHERE name = 'cc_scratch'),
          '(0,0)', 'released, it is propagated: nothing pending, no stale edge');

-- The write-back keeps to the call's time_limit, whatever it may write.
\o /dev/null
SELECT gametree.create_tree('cc_eight', 'connect4');
SET gametree.search_store_states = 100000;
SET statement_timeout = '30s';
SELECT clock_timestamp() AS eight_began \gset
SELECT pg_temp.val($$SELECT gametree.bestmove('connect4', gametree.initial('connect4'), '1 s', NULL, 'mcts', 'cc_eight')$$)
  AS eight_move \gset
SELECT extract(epoch FROM clock_timestamp() - :'eight_began') AS eight_seconds \gset
RESET statement_timeout;
RESET gametree.search_store_states;
\o
SELECT ok(:'eight_move' LIKE '[[%', 'bestmove with a 1 s time_limit and search_store_states 100,000 answers');
SELECT ok(:eight_seconds::numeric < 10, 'within 10 s, its write-back included');
SELECT is(pg_temp.consistent('cc_eight'), 'consistent', 'and leaves the tree consistent');

\o /dev/null
SELECT dblink_disconnect('one');
SELECT dblink_disconnect('two');
SELECT pg_temp.clean_up('cc');
\o
SELECT * FROM finish();
