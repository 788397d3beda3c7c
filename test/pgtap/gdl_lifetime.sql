-- Games from GDL under concurrent sessions (issue 20): a game that a tree
-- uses never changes or vanishes under it, whatever another role's
-- isolation level; create_tree compiles the rules its lock keeps; load and
-- unload reach the compiled games and cached plans of every backend, and
-- nothing else does.  Roles alice and bob log in through dblink.
-- Not in one transaction: the sessions must see each other's commits.
SET client_min_messages = warning;
SELECT plan(26);

\ir helpers.psql
SELECT pg_temp.make_roles('alice', 'bob');

DELETE FROM gametree.trees WHERE schema = 'lt_alice';
DROP SCHEMA IF EXISTS lt_alice CASCADE;
CREATE SCHEMA lt_alice AUTHORIZATION alice;
SELECT gametree.unload_game(name) FROM gametree.gdl_games WHERE name LIKE 'lt\_%';

CREATE TEMP TABLE server AS SELECT pg_postmaster_start_time() AS started;
-- the sessions and the texts they load
SELECT dblink_connect('alice', pg_temp.connstr('alice'));
SELECT dblink_connect('bob', pg_temp.connstr('bob'));
CREATE FUNCTION pg_temp.load_as(conn text, game text, f text, tail text DEFAULT '') RETURNS text
LANGUAGE sql AS $$
  SELECT g FROM dblink(conn, format('SELECT game FROM gametree.load_game(%L, %L)', game,
                                     (SELECT kif FROM reference_gdl WHERE name = f) || tail)) AS t(g text)
$$;
-- The message of the error of a query of one column in session conn, or 'ok'.
CREATE FUNCTION pg_temp.error_in(conn text, sql text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  PERFORM * FROM dblink(conn, sql, false) AS t(x text);
  RETURN coalesce(nullif(dblink_error_message(conn), 'OK'), 'ok');
END $$;

-- 1. bob unloads and reloads the game of alice's running grow inside a
-- REPEATABLE READ transaction whose snapshot predates her tree.  This
-- crashed the server (a use after free in her grow).
SELECT is(pg_temp.load_as('bob', 'lt_uaf', 'connect4'), 'lt_uaf', 'bob loads connect4.kif as lt_uaf');
SELECT dblink_exec('bob', 'BEGIN ISOLATION LEVEL REPEATABLE READ');
SELECT * FROM dblink('bob', 'SELECT count(*) FROM gametree.trees') AS t(n bigint);
SELECT is(pg_temp.error_in('alice', $$SELECT gametree.create_tree('lt_alice.uaf', 'lt_uaf')$$), 'ok',
          'alice creates a tree of it');
SELECT dblink_exec('alice', $$SET gametree.progress_interval = '50ms'$$);
SELECT dblink_exec('alice', 'SET gametree.grow_batch_size = 200');
SELECT dblink_send_query('alice', $$CALL gametree.grow('lt_alice.uaf', 300000)$$);
SELECT pg_sleep(0.3);
SELECT alike(pg_temp.error_in('bob', $$SELECT gametree.unload_game('lt_uaf')$$),
             'ERROR:  game "lt_uaf" is used by trees%',
             'bob cannot unload it, though his snapshot predates the tree');
SELECT pg_temp.error_in('bob', format('SELECT gametree.load_game(%L, %L)', 'lt_uaf',
                                      (SELECT kif FROM reference_gdl WHERE name = 'connect4') || E'\n; same rules'));
SELECT dblink_exec('bob', 'COMMIT');
SELECT alike(pg_temp.error_in('bob', format('SELECT gametree.load_game(%L, %L)', 'lt_uaf',
                                            (SELECT kif FROM reference_gdl WHERE name = 'connect4') || E'\n; same rules')),
             'ERROR:  game "lt_uaf" is already loaded%', 'nor load other text under its name');
SELECT pg_sleep(0.5);
SELECT dblink_cancel_query('alice');
SELECT is((SELECT count(*) FROM dblink_get_result('alice', false) AS t(s text)), 0::bigint,
          'alice cancels her grow');
SELECT alike(dblink_error_message('alice'), '%canceling statement due to user request%',
             'which was still growing, by the rules it began with');
SELECT * FROM dblink_get_result('alice', false) AS t(s text);
SELECT is((SELECT started FROM server), pg_postmaster_start_time(), 'the server did not restart');
SELECT is((SELECT states FROM gametree.trees WHERE schema = 'lt_alice' AND name = 'uaf'),
          (SELECT count(*) FROM lt_alice.uaf_states), 'the tree''s counter equals its states after the cancel');
SELECT is((SELECT count(*) FROM lt_alice.uaf_states WHERE id <> gametree.state_hash('lt_uaf', state)),
          0::bigint, 'every state is hashed by the game''s rules');

-- 2. READ COMMITTED: bob replaces a game alice has compiled while her
-- create_tree waits for his lock.  Her tree must not get the old rules.
SELECT is(pg_temp.load_as('bob', 'lt_swap', 'ticTacToe'), 'lt_swap', 'bob loads ticTacToe.kif as lt_swap');
SELECT is((SELECT n FROM dblink('alice', $$SELECT gametree.perft('lt_swap', gametree.initial('lt_swap'), 1)$$)
           AS t(n bigint)), 9::bigint, 'alice compiles it: 9 moves at the start');
SELECT dblink_exec('bob', 'BEGIN');
SELECT * FROM dblink('bob', $$SELECT gametree.unload_game('lt_swap')$$) AS t(x text);
SELECT * FROM dblink('bob', format('SELECT game FROM gametree.load_game(%L, %L)', 'lt_swap',
                                   (SELECT kif FROM reference_gdl WHERE name = 'connect4'))) AS t(g text);
SELECT dblink_send_query('alice', $$SELECT gametree.create_tree('lt_alice.swap', 'lt_swap')::text$$);
SELECT pg_sleep(0.3);
SELECT dblink_exec('bob', 'COMMIT');
SELECT is((SELECT count(*) FROM dblink_get_result('alice', false) AS t(id text)), 0::bigint,
          'her create_tree fails');
SELECT alike(dblink_error_message('alice'), '%game "lt_swap" was loaded by another session%',
             'because the game was replaced while she waited');
SELECT * FROM dblink_get_result('alice', false) AS t(id text);
SELECT is(pg_temp.error_in('alice', $$SELECT gametree.create_tree('lt_alice.swap', 'lt_swap')$$), 'ok',
          'her next try succeeds');
SELECT is((SELECT n FROM dblink('alice', $$SELECT gametree.perft('lt_swap', root.state, 1)
                                          FROM lt_alice.swap_states root, gametree.trees t
                                          WHERE t.schema = 'lt_alice' AND t.name = 'swap' AND root.id = t.root_id$$)
           AS t(n bigint)), 7::bigint, 'with the rules loaded now (connect four: 7 moves at the start)');

-- 3. Cached plans hold IMMUTABLE calls folded with the old rules: a reload
-- resets them, in this session and in others.
SELECT is(pg_temp.load_as('bob', 'lt_plan', 'ticTacToe'), 'lt_plan', 'bob loads ticTacToe.kif as lt_plan');
PREPARE lt_moves AS SELECT gametree.perft('lt_plan', gametree.initial('lt_plan'), 1) AS n;
CREATE TEMP TABLE before_reload AS EXECUTE lt_moves;
SELECT dblink_exec('alice', $$PREPARE lt_moves AS SELECT gametree.perft('lt_plan', gametree.initial('lt_plan'), 1)$$);
SELECT is((SELECT n FROM dblink('alice', 'EXECUTE lt_moves') AS t(n bigint)), 9::bigint,
          'a prepared statement of alice''s gives 9 moves');
SELECT * FROM dblink('bob', $$SELECT gametree.unload_game('lt_plan')$$) AS t(x text);
SELECT is(pg_temp.load_as('bob', 'lt_plan', 'connect4'), 'lt_plan', 'bob reloads the name as connect4.kif');
CREATE TEMP TABLE after_reload AS EXECUTE lt_moves;
SELECT is((SELECT n FROM before_reload) || ' then ' || (SELECT n FROM after_reload), '9 then 7',
          'this session''s prepared statement follows the reload');
SELECT is((SELECT n FROM dblink('alice', 'EXECUTE lt_moves') AS t(n bigint)), 7::bigint,
          'and alice''s too');

-- 4. Only changes of gametree.gdl_games make a backend look at it again.
BEGIN;
SELECT gametree.perft('lt_plan', gametree.initial('lt_plan'), 1);
CREATE TEMP TABLE scans AS
  SELECT seq_scan + coalesce(idx_scan, 0) AS n FROM pg_stat_xact_user_tables WHERE relid = 'gametree.gdl_games'::regclass;
CREATE TEMP TABLE lt_other (x int);
DROP TABLE lt_other;
SELECT gametree.perft('lt_plan', gametree.initial('lt_plan'), 1);
SELECT is((SELECT seq_scan + coalesce(idx_scan, 0) FROM pg_stat_xact_user_tables
           WHERE relid = 'gametree.gdl_games'::regclass) - (SELECT n FROM scans), 0::bigint,
          'DDL on other tables does not send GDL calls back to gametree.gdl_games');
COMMIT;

-- 5. Names and sizes
SELECT is(pg_temp.try_as('bob', $$SELECT gametree.load_game('CHESS', '(role a)')$$),
          '42710: game "chess" is built in', 'a name that differs from a built-in game only in case is refused');
SELECT is(pg_temp.try_as('bob', $$SELECT gametree.load_game('LT_Plan', '(role a)')$$),
          '42710: game "lt_plan" is already loaded', 'and one that differs from a loaded game only in case');
SELECT is(pg_temp.try_as('bob', $$SET gametree.gdl_max_size = '1GB'$$),
          '42501: permission denied to set parameter "gametree.gdl_max_size"',
          'only an administrator sets gametree.gdl_max_size');
SET gametree.gdl_max_size = '2kB';
SELECT is(pg_temp.load('lt_big', 'ticTacToe'),
          '54000: GDL description of 4 kB is larger than gametree.gdl_max_size (2 kB)',
          'a description over gametree.gdl_max_size is refused');
RESET gametree.gdl_max_size;
BEGIN;
SELECT game FROM gametree.load_game('lt_gone', (SELECT kif FROM reference_gdl WHERE name = 'nim1'));
ROLLBACK;
SELECT is(pg_temp.val($$SELECT gametree.initial('lt_gone')$$)::text, '22023: unknown game "lt_gone"',
          'a load rolled back leaves no game behind in its session');

SELECT gametree.drop_tree(t) FROM (VALUES ('lt_alice.uaf'), ('lt_alice.swap')) v(t);
SELECT gametree.unload_game(g) FROM (VALUES ('lt_uaf'), ('lt_swap'), ('lt_plan')) v(g);
SELECT dblink_disconnect('alice');
SELECT dblink_disconnect('bob');
DROP SCHEMA lt_alice CASCADE;
SELECT * FROM finish();
