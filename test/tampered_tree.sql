-- A tree's tables belong to its owner, who may write anything into them:
-- what C reads back is checked, and bad rows give an error, never a crash.
BEGIN;
SET client_min_messages = warning;
SELECT plan(6);

SELECT gametree.create_tree('tampered', 'tictactoe') IS NOT NULL AS created \gset
SELECT gametree.expand('tampered', (SELECT root_id FROM gametree.trees WHERE name = 'tampered')) AS edges \gset
-- 200 more edges out of the root than tic-tac-toe allows (9)
INSERT INTO tampered_graph (init_id, move_id, next_id)
SELECT init_id, 1000 + i, next_id FROM (SELECT * FROM tampered_graph LIMIT 1) g, generate_series(1, 200) i;
SELECT throws_ok($$SELECT gametree.propagate('tampered')$$, '22000', NULL,
                 'more edges than the game allows: an error (22000), no crash');
UPDATE tampered_states SET stale = true WHERE depth = 0;
SELECT throws_ok($$SELECT gametree.propagate('tampered', false)$$, '22000', NULL,
                 'the same for incremental propagation');
DELETE FROM tampered_graph WHERE move_id BETWEEN 1001 AND 1200;
SELECT is(gametree.propagate('tampered'), 1::bigint, 'without the extra rows the tree propagates again');

-- Altered tables: C reads columns with fixed types and NOT NULL; a change is an error, not a crash
SAVEPOINT altered;
ALTER TABLE tampered_states ALTER COLUMN state DROP NOT NULL;
UPDATE tampered_states SET state = NULL WHERE depth = 1;
SELECT throws_ok($$CALL gametree.grow('tampered')$$, '42P16',
                 'column state of public.tampered_states must be jsonb NOT NULL', 'a NULL state column');
ROLLBACK TO altered;
ALTER TABLE tampered_graph ALTER COLUMN utility TYPE json USING utility::json;
SELECT throws_ok($$SELECT gametree.propagate('tampered')$$, '42P16',
                 'column utility of public.tampered_graph must be jsonb', 'utility of another type');
ROLLBACK TO altered;
CREATE RULE quiet AS ON INSERT TO tampered_moves DO INSTEAD NOTHING;
SELECT throws_ok($$CALL gametree.grow('tampered')$$, '42P16',
                 'table public.tampered_moves of tree "public.tampered" has rules', 'a rule on a table');
ROLLBACK TO altered;

SELECT * FROM finish();
ROLLBACK;
