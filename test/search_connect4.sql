-- Connect four: from 78 positions after 10 to 22 plies whose values the
-- project's own exact solver established outside the tests
-- (test/data/connect4_values.tsv, tools/c4solve), bestmove keeps the
-- game-theoretic value: it never turns a win into a draw or a loss, nor a
-- draw into a loss.  With a time limit the game's own solver (the solve
-- hook) has half of it to value the root's moves; most positions take a
-- fraction of a second, the hardest about two on a 2-core machine, so 10
-- seconds leave room on slower ones.
BEGIN;
SET client_min_messages = warning;
SELECT plan(4);

-- The position after the moves (digits: columns 1..7 from the left).
CREATE FUNCTION pg_temp.position(moves text) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  s jsonb := gametree.initial('connect4');
BEGIN
  FOR i IN 1..length(moves) LOOP
    s := gametree.next('connect4', s, jsonb_build_array('drop', substr(moves, i, 1)::int));
  END LOOP;
  RETURN s;
END $$;

CREATE TEMP TABLE played AS
SELECT moves, plies, value, string_to_array(column_values, ',') AS column_values,
       (SELECT (m->2->>1)::int FROM jsonb_array_elements(
          gametree.bestmove('connect4', pg_temp.position(moves), '10 seconds')) m
        WHERE m->2 <> '"noop"') AS col
FROM reference_connect4_values;

SELECT results_eq($$SELECT value, count(*) FROM played GROUP BY value ORDER BY value$$,
                  $$VALUES ('draw', 26::bigint), ('loss', 13::bigint), ('win', 39::bigint)$$,
                  'the set: 78 positions, plies 10 to 22');
SELECT is((SELECT count(*) FROM played WHERE value <> ALL (column_values)), 0::bigint,
          'in every position some move keeps the value (the data is consistent)');
SELECT is((SELECT count(*) FROM played WHERE EXISTS (SELECT FROM unnest(column_values) v WHERE v NOT IN (value, 'full'))
             AND value <> 'loss'),
          65::bigint, '65 positions where some move gives away what the position holds');
SELECT is((SELECT array_agg(moves) FROM played WHERE column_values[col] <> value), NULL,
          'bestmove keeps the value in every position');

SELECT * FROM finish();
ROLLBACK;
