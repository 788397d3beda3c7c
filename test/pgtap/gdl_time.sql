-- Time limits on a game the GDL prover evaluates (chess.kif: one
-- evaluation of a position takes milliseconds, an expansion hundreds): each
-- engine's bestmove and grow return near their time_limit, a search cut
-- short mid-evaluation still returns a legal move, and the rules answer
-- right afterwards.  The bounds are generous (the defect was 13 to 26 s for
-- limits of 200 ms to 5 s); bench/search_speed.sh measures the overruns.
BEGIN;
SET client_min_messages = warning;
SELECT plan(13);

\ir helpers.psql

-- Seconds that sql takes.
CREATE FUNCTION pg_temp.seconds(sql text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
  t timestamptz := clock_timestamp();
BEGIN
  EXECUTE sql;
  RETURN extract(epoch FROM clock_timestamp() - t);
END $$;

-- at 512MB, where its network does not fit (it does at the 1GB default)
SET LOCAL gametree.gdl_memory = '512MB';
SELECT is(pg_temp.load('gdl_time_chess', 'chess'), 'ok', 'chess.kif loads at 512MB');
RESET gametree.gdl_memory;
SELECT is((SELECT engine FROM gametree.gdl_games WHERE name = 'gdl_time_chess'), 'prover',
          'and the prover evaluates it');
-- Compiled for this session before anything is timed.
SELECT gametree.initial('gdl_time_chess') IS NOT NULL AS compiled \gset

CREATE TEMP TABLE moves AS SELECT m FROM gametree.legal('gdl_time_chess', gametree.initial('gdl_time_chess')) m;
CREATE TEMP TABLE timed (method text, seconds float8, move jsonb);
INSERT INTO timed
SELECT method, pg_temp.seconds(format($$SELECT set_config('gdl_time.move', gametree.bestmove('gdl_time_chess',
         gametree.initial('gdl_time_chess'), '200 ms', NULL, %L)::text, true)$$, method)),
       current_setting('gdl_time.move')::jsonb
FROM unnest(ARRAY['auto', 'alphabeta', 'maxn', 'mcts']) method;
SELECT cmp_ok(seconds, '<', 3.0::float8, format('bestmove %s with 200 ms returns within 3 s', method))
FROM timed ORDER BY method;
SELECT is((SELECT count(*) FROM timed WHERE move IN (SELECT m FROM moves)), 4::bigint,
          'each returns a legal move');

-- A limit shorter than one evaluation: the search gives up inside the
-- prover and still plays one of the root's moves.
SELECT ok(pg_temp.val($$SELECT gametree.bestmove('gdl_time_chess', gametree.initial('gdl_time_chess'), '1 ms')$$)::jsonb
          IN (SELECT m FROM moves), 'bestmove with 1 ms returns a legal move');

SELECT gametree.create_tree('gdl_time_tree', 'gdl_time_chess') IS NOT NULL AS created \gset
SELECT cmp_ok(pg_temp.seconds($$CALL gametree.grow('gdl_time_tree', time_limit => '1 s')$$), '<', 3.0::float8,
              'grow with time_limit 1 s returns within 3 s');
-- An expansion cut short left nothing behind: every expanded state has one
-- edge per legal move, and the counters match the tables.
SELECT is((SELECT count(*) FROM gdl_time_tree_states s
           WHERE s.expanded AND s.goal IS NULL
             AND (SELECT count(*) FROM gdl_time_tree_graph g WHERE g.init_id = s.id)
                 <> (SELECT count(*) FROM gametree.legal('gdl_time_chess', s.state))),
          0::bigint, 'every expanded state has all its moves');
SELECT ok((SELECT count(*) FROM gdl_time_tree_states WHERE expanded) > 0, 'and grow expanded the root at least');
SELECT is((SELECT row(states, edges)::text FROM gametree.trees WHERE name = 'gdl_time_tree'),
          (SELECT row((SELECT count(*) FROM gdl_time_tree_states), (SELECT count(*) FROM gdl_time_tree_graph))::text),
          'the tree''s counters match its tables');

-- The prover forgets what it had half computed when it gave up (its
-- compiled queries too): perft as published (chessprogramming.org); depth
-- 4 goes through 469 checks and 1,576 captures, the threat queries the
-- prover shares (passthrough.h) among the squares a move leaves.
SELECT is(pg_temp.perfts('gdl_time_chess', 4), '20,400,8902,197281',
          'perft of chess.kif after the searches: 20, 400, 8,902, 197,281');

SELECT * FROM finish();
ROLLBACK;
