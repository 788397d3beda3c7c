-- Propagation over the in-memory graph: the values it writes, row for row,
-- against fingerprints of what 0.2.0's first propagation (set-based waves of
-- SQL, commit 4eff49d) wrote for the same trees, incrementally and from
-- scratch alike (tic-tac-toe's best_move column since ties go to the move
-- that leaves the opponent the fewest non-losing moves, "focus"); time limits that cut it short; expand()'s propagation up
-- from one state; the memory ceiling.
BEGIN;
SET client_min_messages = warning;
SELECT plan(14);

-- md5 of every state's and every edge's values, in key order.
CREATE FUNCTION pg_temp.fingerprint(tree text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  states text;
  edges text;
BEGIN
  -- an unexpanded state's utility is the game's estimate, which 0.2.0 stored in its row
  EXECUTE format($q$SELECT md5(string_agg(concat_ws('|', id, CASE WHEN expanded THEN utility ELSE gametree.heuristic(state) END,
                                                    mobility, proven, best_move, expanded, depth),
                                          ',' ORDER BY id)) FROM %I$q$, tree || '_states') INTO states;
  EXECUTE format($q$SELECT md5(string_agg(concat_ws('|', init_id, move_id, next_id, utility, mobility, proven),
                                          ',' ORDER BY init_id, move_id)) FROM %I$q$, tree || '_graph') INTO edges;
  RETURN states || ' ' || edges;
END $$;

\set ttt '\'6138a13cfee0a56b8fb487f741b09cb9 9f80316a8632b305af42764599512631\''
\set c4 '\'92f81b7bd2fa0ac3b1e8d4d762fa2841 802c1c30d5e83cc8260dbd7e1568c636\''

SELECT gametree.create_tree('ttt', 'tictactoe') IS NOT NULL AS created \gset
CALL gametree.grow('ttt');
SELECT is(pg_temp.fingerprint('ttt'), :ttt, 'tic-tac-toe grown in full: the values 0.2.0 wrote');
SELECT is(gametree.propagate('ttt', false), 0::bigint, 'nothing pending: incremental propagation has nothing to do');
SELECT is(gametree.propagate('ttt'), 4520::bigint, 'from scratch: one evaluation per expanded non-terminal state');
SELECT is(pg_temp.fingerprint('ttt'), :ttt, 'from scratch: the same values');

SELECT gametree.create_tree('c4', 'connect4') IS NOT NULL AS created \gset
CALL gametree.grow('c4', max_depth => 6);
SELECT is(pg_temp.fingerprint('c4'), :c4, 'connect four to depth 6, estimates at the frontier: the values 0.2.0 wrote');
-- the owner scribbles over values: from scratch rewrites them, estimates included
UPDATE c4_states SET utility = '{"red": 1, "yellow": 2}', best_move = NULL WHERE id % 7 = 0;
UPDATE c4_states SET mobility = NULL WHERE id % 5 = 0;
SELECT is(gametree.propagate('c4'), 5678::bigint, 'from scratch after tampering');
SELECT is(pg_temp.fingerprint('c4'), :c4, 'from scratch: the same values again');

-- Grown in slices of 20 ms, each cut short by its time limit (in one
-- transaction here, so no slice commits): the same tree in the end.  (A
-- slice of 100 ms grew all 22,100 states at once on an idle machine.)
SELECT gametree.create_tree('sliced', 'connect4') IS NOT NULL AS created \gset
CREATE TEMP TABLE slices (n integer);
DO $$
DECLARE
  n integer := 0;
BEGIN
  LOOP
    n := n + 1;
    CALL gametree.grow('sliced', max_depth => 6, time_limit => '20 ms');
    EXIT WHEN n = 1000 OR (SELECT states = 22100 AND pending = 0 FROM gametree.trees WHERE name = 'sliced');
  END LOOP;
  INSERT INTO slices VALUES (n);
END $$;
SELECT ok((SELECT n BETWEEN 2 AND 999 FROM slices) AND
          (SELECT (states, pending) = (22100::bigint, 0::bigint) FROM gametree.trees WHERE name = 'sliced'),
          'sliced: several calls, then every state stored and nothing pending');
SELECT is(pg_temp.fingerprint('sliced'), :c4, 'sliced: the same values');

-- pending counts expansions not yet propagated
SELECT expanded FROM gametree.grow_step('sliced', 1) \gset
SELECT gametree.create_tree('stepped', 'tictactoe') IS NOT NULL AS created \gset
SELECT expanded FROM gametree.grow_step('stepped', 3) \gset
SELECT expanded FROM gametree.grow_step('stepped', 5) \gset
SELECT is((SELECT pending FROM gametree.trees WHERE name = 'stepped'), 2::bigint, 'two grow_step calls: two pending');
SELECT gametree.propagate('stepped', false) IS NOT NULL AS propagated \gset
SELECT is((SELECT pending FROM gametree.trees WHERE name = 'stepped'), 0::bigint, 'propagated: none pending');

-- expand() propagates up from the state at once: expanding every state to
-- depth 3 one call at a time gives what grow gives
SELECT gametree.create_tree('by_hand', 'tictactoe') IS NOT NULL AS created \gset
SELECT gametree.create_tree('by_grow', 'tictactoe') IS NOT NULL AS created \gset
CALL gametree.grow('by_grow', max_depth => 3);
DO $$
BEGIN
  FOR d IN 0..2 LOOP
    PERFORM gametree.expand('by_hand', id) FROM by_hand_states WHERE depth = d ORDER BY id;
  END LOOP;
END $$;
SELECT is(pg_temp.fingerprint('by_hand'), pg_temp.fingerprint('by_grow'), 'expand() state by state equals grow');
SELECT is((SELECT pending FROM gametree.trees WHERE name = 'by_hand'), 0::bigint, 'expand() leaves nothing pending');

-- the memory ceiling is a setting, and a clear error
SET LOCAL gametree.work_memory = '1MB';
SELECT throws_ok($$SELECT gametree.propagate('c4')$$, '54000', NULL,
                 'a tree larger than gametree.work_memory: error 54000, not an allocation failure');

SELECT * FROM finish();
ROLLBACK;
