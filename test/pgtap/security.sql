-- A shared server: roles alice and bob, each with a schema of their own,
-- try what a hostile but ordinary role can.  No role may write gametree's
-- catalogs, squat or spoof another's tree, block another's growth, or run
-- its code as a caller through search_path.
-- Not in one transaction: other sessions (dblink) log in as alice and bob.
SET client_min_messages = warning;
SELECT plan(36);

\ir helpers.psql
SELECT pg_temp.make_roles('alice', 'bob');

DELETE FROM gametree.trees WHERE schema IN ('alice', 'bob', 'alice.d');
DROP SCHEMA IF EXISTS alice, bob, "alice.d", hostile CASCADE;
CREATE SCHEMA alice AUTHORIZATION alice;
CREATE SCHEMA bob AUTHORIZATION bob;
CREATE SCHEMA "alice.d" AUTHORIZATION alice;

-- The catalogs: read by all, written by gametree alone
SELECT is(pg_temp.try_as('bob', $$INSERT INTO gametree.trees (schema, name, game, root_id, owner, frontier)
                                  VALUES ('alice', 'future', 'tictactoe', 1, 'alice', 1)$$),
          '42501: permission denied for table trees', 'bob cannot squat a tree name in the catalog');
SELECT is(pg_temp.try_as('bob', $$INSERT INTO gametree.grow_progress
                                  SELECT p, now(), 'alice', 'x', now(), now(), 0, 0, 0, 0, NULL, false, 'bob'
                                  FROM generate_series(1, 4194304) p$$),
          '42501: permission denied for table grow_progress', 'bob cannot fill the progress table');
SELECT is(pg_temp.try_as('alice', $$SELECT gametree.create_tree('alice.future', 'tictactoe')$$), 'ok',
          'alice creates her tree');
SELECT is(pg_temp.try_as('bob', $$UPDATE gametree.trees SET states = 0$$),
          '42501: permission denied for table trees', 'bob cannot change catalog rows');
SELECT is(pg_temp.try_as('bob', $$SELECT 1 FROM gametree.trees FOR KEY SHARE$$),
          '42501: permission denied for table trees', 'bob cannot lock catalog rows');
SELECT is((SELECT owner::text FROM gametree.trees WHERE schema = 'alice' AND name = 'future'), 'alice',
          'the row names its creator');
SELECT is(pg_temp.try_as('bob', $$SELECT gametree.create_tree('alice.spoof', 'tictactoe')$$),
          '42501: permission denied for schema alice', 'bob cannot make trees in alice''s schema');

-- Games from GDL: anyone may load one, only its loader unload it, nobody write the table
SELECT gametree.unload_game(name) FROM gametree.gdl_games WHERE name = 'bobs_game';
SELECT is(pg_temp.try_as('bob', $$INSERT INTO gametree.gdl_games (name, kif, roles, description, loaded_by)
                                  VALUES ('spoof', '(role a)', '{a}', 'x', 'alice')$$),
          '42501: permission denied for table gdl_games', 'bob cannot write gdl_games');
SELECT is(pg_temp.try_as('bob', $$SELECT gametree.load_game('bobs_game',
            '(role a) (init (s)) (<= (legal a go) (true (s))) (<= terminal (true (s))) (<= (goal a 100) (true (s)))')$$),
          'ok', 'bob loads a game');
SELECT is((SELECT loaded_by::text FROM gametree.gdl_games WHERE name = 'bobs_game'), 'bob',
          'the row names its loader');
SELECT is(pg_temp.try_as('alice', $$SELECT gametree.perft('bobs_game', gametree.initial('bobs_game'), 1)$$),
          'ok', 'alice plays bob''s game');
SELECT is(pg_temp.try_as('alice', $$SELECT gametree.unload_game('bobs_game')$$),
          '42501: permission denied to unload game "bobs_game"', 'alice cannot unload bob''s game');
SELECT is(pg_temp.try_as('bob', $$SELECT gametree.unload_game('bobs_game')$$), 'ok', 'bob unloads it');

-- bob cannot write, grow, drop or spoof alice's tree
SELECT is(pg_temp.try_as('bob', $$CALL gametree.grow('alice.future')$$),
          '42501: permission denied to write tree "alice.future"', 'bob cannot grow alice''s tree');
SELECT is(pg_temp.try_as('bob', $$SELECT gametree.propagate('alice.future')$$),
          '42501: permission denied to write tree "alice.future"', 'bob cannot propagate it');
SELECT is((SELECT count(*) FROM gametree.grow_progress WHERE owner = 'bob'), 0::bigint,
          'a refused grow leaves no progress row');
SELECT is(pg_temp.try_as('bob', $$SELECT gametree.drop_tree('alice.future')$$),
          '42501: must be owner of table future_states', 'bob cannot drop it');
GRANT USAGE ON SCHEMA alice TO bob;
GRANT SELECT ON alice.future_states, alice.future_moves, alice.future_edges, alice.future_graph TO bob;
SELECT is(pg_temp.try_as('bob', $$SELECT * FROM gametree.tree_stats('alice.future')$$), 'ok',
          'what alice lets bob read, he can analyse');
SELECT is(pg_temp.try_as('bob', $$SELECT gametree.expand('alice.future', 1)$$),
          '42501: permission denied to write tree "alice.future"', 'reading is not writing');

-- Lock keys of 0.1.0 (advisory) are gone: bob holding them blocks nothing
SELECT dblink_connect('bob', pg_temp.connstr('bob'));
SELECT dblink_connect('alice', pg_temp.connstr('alice'));
SELECT dblink_exec('alice', $$SET statement_timeout = '60s'$$);
SELECT lives_ok($$SELECT * FROM dblink('bob', 'SELECT pg_advisory_lock(k) FROM generate_series(-1000, 1000) k') AS r(l text)$$,
                'bob holds advisory locks');
SELECT is((SELECT status FROM dblink('alice', $$CALL gametree.grow('alice.future')$$) AS r(status text)),
          'CALL', 'alice grows her tree meanwhile');
SELECT is((SELECT states FROM gametree.trees WHERE schema = 'alice' AND name = 'future'), 5478::bigint,
          'to all 5,478 positions');
SELECT * FROM dblink('bob', 'SELECT pg_advisory_unlock_all()') AS r(unlocked text);

-- Progress rows of ended sessions go; a session's new row replaces them
UPDATE gametree.grow_progress SET backend_start = now() - interval '1 day', done = false
WHERE pid = (SELECT pid FROM dblink('alice', 'SELECT pg_backend_pid()') AS r(pid int));
INSERT INTO gametree.grow_progress (pid, backend_start, schema, tree, started, updated, states, edges, frontier, owner)
VALUES (4194304, now() - interval '1 day', 'alice', 'future', now(), now(), 0, 0, 0, 'alice');
SELECT is((SELECT status FROM dblink('alice', $$CALL gametree.grow('alice.future')$$) AS r(status text)),
          'CALL', 'a stale row with alice''s pid does not stop her grow');
SELECT is((SELECT count(*) FROM gametree.grow_progress WHERE backend_start < now() - interval '1 hour'),
          0::bigint, 'rows of ended sessions are gone');

-- Names: a tree is its (schema, name) pair, names are counted in bytes
SELECT is(pg_temp.try_as('alice', $$SELECT gametree.create_tree('alice."d.t"', 'tictactoe');
                                    SELECT gametree.create_tree('"alice.d".t', 'tictactoe');
                                    CALL gametree.grow('alice."d.t"')$$), 'ok', 'alice grows alice."d.t"');
SELECT is((SELECT array_agg(states ORDER BY schema) FROM gametree.trees
           WHERE (schema, name) IN (('alice', 'd.t'), ('alice.d', 't'))),
          ARRAY[5478, 1]::bigint[], '"alice.d".t is untouched');
SELECT is(pg_temp.try_as('alice', $$SELECT gametree.create_tree('pg_temp.t', 'tictactoe')$$),
          '0A000: a tree cannot be made in a temporary schema', 'no trees in pg_temp');
SELECT is(pg_temp.try_as('alice', format($$SELECT gametree.create_tree('alice.%s', 'tictactoe')$$, repeat('é', 29))),
          '42622: tree name "alice.' || repeat('é', 29) || '" is too long', '29 two-byte letters are too long');
SELECT is(pg_temp.try_as('alice', format($$SELECT gametree.create_tree('alice.%s', 'tictactoe')$$, repeat('é', 28))
                                  || format($$; SELECT 1 FROM alice.%I$$, repeat('é', 28) || '_states')), 'ok',
          '28 fit, and the tables have their full names');

-- What is left of a tree can be dropped, or its name taken again
SELECT is(pg_temp.try_as('alice', $$DROP TABLE alice.future_edges CASCADE; SELECT gametree.drop_tree('alice.future')$$),
          'ok', 'drop_tree when a table is gone');
SELECT is(pg_temp.try_as('alice', $$SELECT gametree.create_tree('alice.again', 'connect4');
                                    DROP VIEW alice.again_graph; DROP TABLE alice.again_states, alice.again_moves, alice.again_edges, alice.again_proof;
                                    SELECT gametree.create_tree('alice.again', 'tictactoe')$$),
          'ok', 'a name whose tables are gone can be created again');

-- Messages quote at most the first 100 bytes of a value, however long
SELECT cmp_ok(max(length(pg_temp.try_as('alice', sql))), '<', 400, 'errors cut megabyte inputs short')
FROM unnest(ARRAY[
  $$SELECT gametree.initial(repeat('g', 1000000))$$,
  $$SELECT gametree.tree_stats(repeat('t', 1000000))$$,
  $$SELECT gametree.tree_stats('"' || repeat('t', 200) || '"')$$,
  $$SELECT gametree.from_fen('chess', repeat('r', 1000000))$$,
  $$SELECT gametree.from_fen('checkers', repeat('W', 1000000))$$,
  $$SELECT gametree.legal('tictactoe', jsonb_build_array(jsonb_build_array(repeat('c', 1000000))))$$,
  $$SELECT gametree.legal('chess', jsonb_build_array(jsonb_build_array('control', repeat('w', 1000000))))$$,
  $$SELECT gametree.next('tictactoe', gametree.initial('tictactoe'), to_jsonb(repeat('m', 1000000)))$$]) sql;

-- Four sessions on one tree share it to the end; none quits early
SELECT is(pg_temp.try_as('alice', $$SELECT gametree.create_tree('alice.c4', 'connect4')$$), 'ok', 'alice.c4');
SELECT dblink_connect('alice' || i, pg_temp.connstr('alice')) FROM generate_series(2, 4) i;
-- (grown to depth 5 first: a batch that holds the whole frontier, as the
-- first one does, goes on alone in memory)
SELECT dblink_exec('alice', $$CALL gametree.grow('alice.c4', max_depth => 5)$$);
SELECT dblink_send_query(c, $$CALL gametree.grow('alice.c4', max_depth => 6)$$)
FROM unnest(ARRAY['alice', 'alice2', 'alice3', 'alice4']) c;
SELECT count(*) FROM unnest(ARRAY['alice', 'alice2', 'alice3', 'alice4']) c,
  LATERAL dblink_get_result(c) AS r(status text);
SELECT results_eq(
  $$SELECT (SELECT array_agg(ROW(depth, states)::text ORDER BY depth) FROM gametree.depth_stats('alice.c4')),
           (SELECT count(*) FROM gametree.grow_progress WHERE schema = 'alice' AND tree = 'c4' AND done AND expanded > 0)$$,
  $$SELECT (SELECT array_agg(ROW(ply, count)::text ORDER BY ply) FROM reference_positions
            WHERE game = 'connect4' AND ply <= 6), 4::bigint$$,
  'four sessions grow connect four to the published counts, each expanding a share');
SELECT dblink_disconnect('alice' || i) FROM generate_series(2, 4) i;

-- search_path: objects of a schema ahead of pg_catalog never run in gametree's functions
CREATE SCHEMA hostile;
CREATE FUNCTION hostile.trap() RETURNS boolean LANGUAGE plpgsql AS $$BEGIN RAISE EXCEPTION 'hijacked'; END $$;
CREATE FUNCTION hostile.eq(bigint, bigint) RETURNS boolean LANGUAGE sql AS 'SELECT hostile.trap()';
CREATE FUNCTION hostile.eq(name, name) RETURNS boolean LANGUAGE sql AS 'SELECT hostile.trap()';
CREATE FUNCTION hostile.eq(text, text) RETURNS boolean LANGUAGE sql AS 'SELECT hostile.trap()';
CREATE FUNCTION hostile.lt(integer, integer) RETURNS boolean LANGUAGE sql AS 'SELECT hostile.trap()';
CREATE OPERATOR hostile.= (LEFTARG = bigint, RIGHTARG = bigint, FUNCTION = hostile.eq);
CREATE OPERATOR hostile.= (LEFTARG = name, RIGHTARG = name, FUNCTION = hostile.eq);
CREATE OPERATOR hostile.= (LEFTARG = text, RIGHTARG = text, FUNCTION = hostile.eq);
CREATE OPERATOR hostile.< (LEFTARG = integer, RIGHTARG = integer, FUNCTION = hostile.lt);
CREATE FUNCTION hostile.cardinality(text[]) RETURNS integer LANGUAGE sql AS 'SELECT hostile.trap()::int';
CREATE FUNCTION hostile.array_position(name[], name) RETURNS integer LANGUAGE sql AS 'SELECT hostile.trap()::int';
CREATE FUNCTION hostile.now() RETURNS timestamptz LANGUAGE sql AS 'SELECT hostile.trap()::int::text::timestamptz';
CREATE FUNCTION hostile.pg_backend_pid() RETURNS integer LANGUAGE sql AS 'SELECT hostile.trap()::int';
CREATE FUNCTION hostile.unnest(text[]) RETURNS SETOF text LANGUAGE sql AS 'SELECT hostile.trap()::text';
CREATE FUNCTION hostile.format(text, VARIADIC text[]) RETURNS text LANGUAGE sql AS 'SELECT hostile.trap()::text';
GRANT USAGE ON SCHEMA hostile TO PUBLIC;

-- Runs sql (as the superuser) with search_path = hostile, pg_catalog, public.
CREATE FUNCTION pg_temp.under_hostile_path(sql text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  saved text := pg_catalog.current_setting('search_path');
BEGIN
  PERFORM pg_catalog.set_config('search_path', 'hostile, pg_catalog, public', true);
  EXECUTE sql;
  PERFORM pg_catalog.set_config('search_path', saved, true);
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
SELECT is(pg_temp.under_hostile_path($$
  SELECT gametree.create_tree('h', 'tictactoe');
  SELECT gametree.expand('h', gametree.state_hash('tictactoe', gametree.initial('tictactoe')));
  CALL gametree.grow('h', max_depth => 3);
  SELECT gametree.propagate('h');
  SELECT gametree.tree_info('h');
  SELECT * FROM gametree.tree_stats('h');
  SELECT * FROM gametree.depth_stats('h');
  SELECT * FROM gametree.outcomes('h');
  SELECT * FROM gametree.principal_variation('h', gametree.state_hash('tictactoe', gametree.initial('tictactoe')));
  SELECT gametree.drop_tree('h')$$), 'ok', 'a superuser with a hostile schema first in search_path runs none of it');

-- The install script under the same attack, in a new database
SELECT dblink_exec(pg_temp.connstr('postgres', 'postgres'), 'DROP DATABASE IF EXISTS gametree_hostile');
SELECT dblink_exec(pg_temp.connstr('postgres', 'postgres'), 'CREATE DATABASE gametree_hostile');
SELECT dblink_connect('hostile', pg_temp.connstr('postgres', 'gametree_hostile'));
SELECT dblink_exec('hostile', $$
  CREATE FUNCTION public.trap() RETURNS boolean LANGUAGE plpgsql AS 'BEGIN RAISE EXCEPTION ''hijacked''; END';
  CREATE FUNCTION public.eq(name, text) RETURNS boolean LANGUAGE sql AS 'SELECT public.trap()';
  CREATE OPERATOR public.= (LEFTARG = name, RIGHTARG = text, FUNCTION = public.eq);
  CREATE FUNCTION public.pg_extension_config_dump(text, text) RETURNS void LANGUAGE sql AS 'SELECT public.trap()';
  CREATE FUNCTION public.cardinality(text[]) RETURNS integer LANGUAGE sql AS 'SELECT public.trap()::int';
  SET search_path = public, pg_catalog$$);
SELECT is((SELECT status FROM dblink('hostile', $$
  CREATE EXTENSION gametree;
  SELECT gametree.create_tree('t', 'tictactoe');
  CALL gametree.grow('t', max_depth => 2);
  SELECT count(*) FROM gametree.tree_stats('t')$$) AS r(status text)), '1',
  'CREATE EXTENSION with hostile objects in public ahead of pg_catalog installs a working extension');
SELECT dblink_disconnect('hostile');
SELECT dblink_exec(pg_temp.connstr('postgres', 'postgres'), 'DROP DATABASE gametree_hostile');

SELECT dblink_disconnect('alice');
SELECT dblink_disconnect('bob');
DELETE FROM gametree.trees WHERE schema IN ('alice', 'bob', 'alice.d');
DROP SCHEMA alice, bob, "alice.d", hostile CASCADE;
SELECT * FROM finish();
