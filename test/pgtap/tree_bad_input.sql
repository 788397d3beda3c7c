-- bad input to the tree functions: an ERROR with a SQLSTATE, and the trees unchanged
BEGIN;
SELECT plan(16);

SELECT gametree.create_tree('bt', 'tictactoe');
SELECT gametree.expand('bt', (SELECT root_id FROM gametree.trees WHERE name = 'bt'));
CREATE TEMP TABLE before AS
SELECT (SELECT count(*) FROM bt_states) AS states, (SELECT count(*) FROM bt_graph) AS edges,
       (SELECT count(*) FROM gametree.trees) AS trees;

SELECT throws_ok($$SELECT gametree.expand('nosuchtree', 1)$$, '22023', 'unknown tree "nosuchtree"',
                 'expand: unknown tree');
SELECT throws_ok($$SELECT gametree.expand('bt', 42)$$, '22023', 'state 42 is not in tree "public.bt"',
                 'expand: a state_id not in the tree');
SELECT throws_ok($$SELECT gametree.create_tree('bad', 'nosuchgame')$$, '22023', 'unknown game "nosuchgame"',
                 'create_tree: unknown game');
SELECT throws_ok($$SELECT gametree.create_tree('bad', 'tictactoe', '{"x": 1}')$$, '22P02',
                 'invalid tictactoe state: not a JSON array', 'create_tree: a root that is not a state');
SELECT throws_ok($$SELECT gametree.create_tree('bad', 'tictactoe', '[["cell",1,1,"x"],["control","xplayer"]]')$$,
                 '22023', 'invalid tictactoe state: control is given to xplayer, but oplayer is to move',
                 'create_tree: an impossible root');
SELECT throws_ok($$SELECT gametree.create_tree('bt', 'tictactoe')$$, '42P07', 'tree "public.bt" already exists',
                 'create_tree: the name is taken');
SELECT throws_ok($$SELECT gametree.create_tree('a.b.c', 'tictactoe')$$, '22023', 'invalid tree name "a.b.c"',
                 'create_tree: a name with three parts');
SELECT throws_ok($$SELECT gametree.create_tree('bad', NULL)$$, '22004', 'tree name and game must not be NULL',
                 'create_tree: no game');
SELECT throws_ok($$SELECT gametree.create_tree('', 'tictactoe')$$, '22023', NULL,
                 'create_tree: an empty name');
SELECT throws_ok($$CALL gametree.grow('nosuchtree')$$, '22023', 'unknown tree "nosuchtree"', 'grow: unknown tree');
SELECT throws_ok($$CALL gametree.grow('bt', max_states => -1)$$, '22023', 'grow limits must not be negative',
                 'grow: negative max_states');
SELECT throws_ok($$CALL gametree.grow('bt', max_depth => -1)$$, '22023', 'grow limits must not be negative',
                 'grow: negative max_depth');
SELECT throws_ok($$CALL gametree.grow('bt', time_limit => '-5 minutes')$$, '22023',
                 'grow limits must not be negative', 'grow: negative time_limit');
SELECT throws_ok($$SELECT gametree.propagate('nosuchtree')$$, '22023', 'unknown tree "nosuchtree"',
                 'propagate: unknown tree');
SELECT throws_ok($$SELECT * FROM gametree.principal_variation('bt', 42)$$, '22023',
                 'state 42 is not in tree "public.bt"', 'principal_variation: a state_id not in the tree');

SELECT is((SELECT row((SELECT count(*) FROM bt_states), (SELECT count(*) FROM bt_graph),
                      (SELECT count(*) FROM gametree.trees))::text),
          (SELECT row(states, edges, trees)::text FROM before), 'the trees are unchanged');

SELECT * FROM finish();
ROLLBACK;
