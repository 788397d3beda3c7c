-- CALL grow where it cannot commit (a transaction block, a function), and
-- what a cancelled grow reports.
BEGIN;
SET client_min_messages = warning;
SELECT plan(8);

-- Inside this test's transaction block: one transaction, no intermediate commits.
SELECT gametree.create_tree('in_block', 'tictactoe') IS NOT NULL AS created \gset
SELECT lives_ok($$CALL gametree.grow('in_block')$$, 'CALL grow works inside a transaction block');
SELECT is((SELECT row(states, edges, frontier)::text FROM gametree.trees WHERE name = 'in_block'),
          '(5478,16167,0)', 'and grows the whole game there');
SELECT is((SELECT utility FROM in_block_states WHERE id = (SELECT root_id FROM gametree.trees WHERE name = 'in_block')),
          '{"oplayer": 50, "xplayer": 50}'::jsonb, 'and propagates at the end');
SELECT is((SELECT done FROM gametree.grow_progress WHERE pid = pg_backend_pid()), true,
          'its progress row says done');

-- The largest limits mean no limit (no overflow in the batch arithmetic).
SELECT lives_ok($$CALL gametree.grow('in_block', 9223372036854775807, 2147483647, '178000000 years')$$,
                'the largest max_states, max_depth and time_limit are accepted');

-- From a function, which always runs in its caller's transaction.
CREATE FUNCTION pg_temp.grow_some(tree text) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
  CALL gametree.grow(tree, max_states => 200);
  RETURN (SELECT states FROM gametree.trees WHERE name = tree);
END $$;
SELECT gametree.create_tree('in_function', 'connect4') IS NOT NULL AS created \gset
SELECT cmp_ok(pg_temp.grow_some('in_function'), '>=', 200::bigint, 'CALL grow works inside a function');

-- A statement_timeout during grow: SQLSTATE 57014, and the report leaves out
-- gametree's internal statements.
CREATE FUNCTION pg_temp.cancelled_grow(tree text) RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
  state text;
  context text;
BEGIN
  CALL gametree.grow(tree);
  RETURN NULL;
EXCEPTION WHEN query_canceled THEN
  GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, context = PG_EXCEPTION_CONTEXT;
  RETURN ARRAY[state, context];
END $$;
SELECT gametree.create_tree('cancelled', 'connect4') IS NOT NULL AS created \gset
SET LOCAL statement_timeout = '300ms';
SELECT pg_temp.cancelled_grow('cancelled') AS report \gset
RESET statement_timeout;
SELECT is((:'report'::text[])[1], '57014', 'a statement_timeout cancels grow with SQLSTATE 57014');
SELECT unalike(coalesce((:'report'::text[])[2], ''), '%INSERT%', 'the error context shows no internal statement');

SELECT * FROM finish();
ROLLBACK;
