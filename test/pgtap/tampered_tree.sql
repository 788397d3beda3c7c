-- A tree's tables belong to its owner, who may write anything into them:
-- what C reads back is checked, and bad rows give an error, never a crash.
BEGIN;
SET client_min_messages = warning;
SELECT plan(16);

SELECT gametree.create_tree('tampered', 'tictactoe') IS NOT NULL AS created \gset
SELECT gametree.expand('tampered', (SELECT root_id FROM gametree.trees WHERE name = 'tampered')) AS edges \gset
-- 200 more edges out of the root than tic-tac-toe allows (9)
INSERT INTO tampered_edges (init_id, move_id, next_id)
SELECT init_id, 1000 + i, next_id FROM (SELECT * FROM tampered_edges LIMIT 1) g, generate_series(1, 200) i;
SELECT throws_ok($$SELECT gametree.propagate('tampered')$$, '22000', NULL,
                 'more edges than the game allows: an error (22000), no crash');
-- one more expansion, pending propagation
SELECT expanded FROM gametree.grow_step('tampered', 1) \gset
SELECT throws_ok($$SELECT gametree.propagate('tampered', false)$$, '22000', NULL,
                 'the same for incremental propagation');
DELETE FROM tampered_edges WHERE move_id BETWEEN 1001 AND 1200;
SELECT is(gametree.propagate('tampered'), 2::bigint, 'without the extra rows the tree propagates again');

-- The SQLSTATE of call after setup ('ok' when it succeeds); both are undone.
CREATE FUNCTION pg_temp.sqlstate_after(setup text, call text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  state text;
BEGIN
  BEGIN
    EXECUTE setup;
    BEGIN
      EXECUTE call;
      state := 'ok';
    EXCEPTION WHEN OTHERS THEN
      state := SQLSTATE || ' ' || SQLERRM;
    END;
    RAISE EXCEPTION USING ERRCODE = 'P0004';
  EXCEPTION WHEN assert_failure THEN
  END;
  RETURN state;
END $$;

-- Altered tables: C reads columns with fixed types and NOT NULL; a change is an error, not a crash
SELECT is(pg_temp.sqlstate_after($$ALTER TABLE tampered_states ALTER COLUMN state DROP NOT NULL;
                                    UPDATE tampered_states SET state = NULL WHERE depth = 1$$,
                                  $$CALL gametree.grow('tampered')$$),
          '42P16 column state of public.tampered_states must be gametree.state(''tictactoe'') NOT NULL', 'a NULL state column');
SELECT is(pg_temp.sqlstate_after($$DROP VIEW tampered_graph; ALTER TABLE tampered_states ALTER COLUMN utility TYPE json USING utility::json$$,
                                  $$SELECT gametree.propagate('tampered')$$),
          '42P16 column utility of public.tampered_states must be jsonb', 'utility of another type');
SELECT is(pg_temp.sqlstate_after($$DROP VIEW tampered_graph; ALTER TABLE tampered_edges ALTER COLUMN total TYPE json USING total::json$$,
                                  $$SELECT gametree.propagate('tampered')$$),
          '42P16 column total of public.tampered_edges must be jsonb', 'a total of another type');
SELECT is(pg_temp.sqlstate_after($$CREATE RULE quiet AS ON INSERT TO tampered_moves DO INSTEAD NOTHING$$,
                                  $$CALL gametree.grow('tampered')$$),
          '42P16 table public.tampered_moves of tree "public.tampered" has rules', 'a rule on a table');

-- A trigger of the owner's cannot change the tables under a call that has
-- checked them (it runs with gametree's search_path, hence public.)
CREATE FUNCTION pg_temp.alter_states() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN ALTER TABLE public.tampered_states ALTER COLUMN utility TYPE text; RETURN NULL; END $$;
CREATE FUNCTION pg_temp.add_rule() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN CREATE OR REPLACE RULE quiet AS ON UPDATE TO public.tampered_states DO INSTEAD NOTHING; RETURN NULL; END $$;
SELECT is(left(pg_temp.sqlstate_after(
            $$CREATE TRIGGER alter_states AFTER INSERT ON tampered_edges
              FOR EACH STATEMENT EXECUTE FUNCTION pg_temp.alter_states()$$,
            $$CALL gametree.grow('tampered')$$), 5),
          '55006', 'ALTER TABLE from a trigger during grow: 55006 (the table is in use)');
SELECT is(pg_temp.sqlstate_after(
            $$CREATE TRIGGER add_rule AFTER INSERT ON tampered_edges
              FOR EACH STATEMENT EXECUTE FUNCTION pg_temp.add_rule()$$,
            $$CALL gametree.grow('tampered')$$),
          '42P16 a rule rewrote gametree''s statement on a tree''s table', 'a rule made by a trigger during grow');

-- Out-of-range numbers written by hand are read at the nearest bound: the
-- goal of a terminal state, which propagation takes as its value
CALL gametree.grow('tampered');
UPDATE tampered_states SET goal = '{"xplayer": 1e300, "oplayer": 0}'
WHERE id = (SELECT max(id) FROM tampered_states WHERE goal IS NOT NULL);
SELECT gametree.propagate('tampered') IS NOT NULL AS propagated \gset
SELECT is((SELECT utility FROM tampered_states WHERE id = (SELECT max(id) FROM tampered_states WHERE goal IS NOT NULL)),
          '{"xplayer": 100, "oplayer": 0}'::jsonb, 'a goal of 1e300 counts as 100');

-- Columns the owner adds get their defaults, and the owner's triggers fire:
-- rows go straight to a table only where an INSERT would do just that
SELECT gametree.create_tree('owned', 'tictactoe') IS NOT NULL AS created \gset
ALTER TABLE owned_states ADD COLUMN note text NOT NULL DEFAULT 'mine';
CREATE TEMP TABLE fired (init_id bigint);
CREATE FUNCTION pg_temp.record_edge() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN INSERT INTO pg_temp.fired VALUES (NEW.init_id); RETURN NULL; END $$;
CREATE TRIGGER recorded AFTER INSERT ON owned_edges FOR EACH ROW EXECUTE FUNCTION pg_temp.record_edge();
CALL gametree.grow('owned');
SELECT is((SELECT count(*) FILTER (WHERE note = 'mine') FROM owned_states), 5478::bigint,
          'every state got the default of a column the owner added');
SELECT is((SELECT count(*) FROM fired), 16167::bigint, 'the owner''s row trigger fired for every edge');
SELECT gametree.create_tree('checked', 'tictactoe') IS NOT NULL AS created \gset
ALTER TABLE checked_states ADD CONSTRAINT shallow CHECK (depth < 3);
SELECT throws_ok($$CALL gametree.grow('checked')$$, '23514', NULL,
                 'a CHECK the owner added holds for the rows grow writes');
-- Only create_tree's own state-hash CHECK is left out for ids grow computed
SELECT gametree.create_tree('rechecked', 'tictactoe') IS NOT NULL AS created \gset
ALTER TABLE rechecked_states DROP CONSTRAINT rechecked_states_check,
  ADD CONSTRAINT hashed_and_shallow CHECK (id = gametree.state_hash('tictactoe', state) AND depth < 3);
SELECT throws_ok($$CALL gametree.grow('rechecked')$$, '23514',
                 'new row for relation "rechecked_states" violates check constraint "hashed_and_shallow"',
                 'a state-hash CHECK the owner rewrote is evaluated');
SELECT gametree.create_tree('indexed', 'tictactoe') IS NOT NULL AS created \gset
CREATE UNIQUE INDEX one_state_per_deep_level ON indexed_states (depth) WHERE depth >= 2;
SELECT throws_ok($$CALL gametree.grow('indexed')$$, '23505', NULL,
                 'an index the owner added is kept for the rows grow writes');
SELECT gametree.create_tree('stamped', 'tictactoe') IS NOT NULL AS created \gset
ALTER TABLE stamped_edges ADD COLUMN seen timestamptz DEFAULT clock_timestamp();
CALL gametree.grow('stamped');
SELECT ok((SELECT count(DISTINCT seen) > 1 AND count(seen) = 16167 FROM stamped_edges),
          'a volatile default the owner gave is evaluated for each row');

SELECT * FROM finish();
ROLLBACK;
