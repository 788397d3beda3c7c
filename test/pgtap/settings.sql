-- The settings (GUCs) that _PG_init defines: defaults, units, bounds.
BEGIN;
SET client_min_messages = warning;
SELECT plan(4);

SELECT gametree.initial('tictactoe') IS NOT NULL AS loaded \gset
SELECT results_eq(
  $$SELECT name, setting, unit FROM pg_settings WHERE name LIKE 'gametree.%' ORDER BY name$$,
  $$VALUES ('gametree.gdl_lazy_legality', 'on', NULL::text),
           ('gametree.gdl_max_size', '1024', 'kB'), ('gametree.gdl_memory', '1048576', 'kB'),
           ('gametree.gdl_network_time', '0', 'ms'),
           ('gametree.grow_batch_size', '4000', NULL), ('gametree.max_memory', '1048576', 'kB'),
           ('gametree.progress_interval', '1000', 'ms'),
           ('gametree.propagate_interval', '300000', 'ms'), ('gametree.search_memory', '65536', 'kB'),
           ('gametree.search_store_states', '100', NULL), ('gametree.solve_write_interval', '5000', 'ms'),
           ('gametree.work_memory', '1048576', 'kB')$$,
  'twelve settings with their defaults');
SELECT throws_ok($$SET LOCAL gametree.grow_batch_size = 0$$, '22023', NULL,
                 'a batch size below 1 is refused');
SELECT throws_ok($$SET LOCAL gametree.no_such_setting = 1$$, '42602', NULL,
                 'the gametree prefix is reserved: unknown names are refused');

-- A smaller batch size still grows the same tree.
SET LOCAL gametree.grow_batch_size = 7;
SELECT gametree.create_tree('small_batches', 'tictactoe') IS NOT NULL AS created \gset
CALL gametree.grow('small_batches');
SELECT is((SELECT row(states, edges, frontier)::text FROM gametree.trees WHERE name = 'small_batches'),
          '(5478,16167,0)', 'grow with batches of 7 states grows the whole game');

SELECT * FROM finish();
ROLLBACK;
