-- drop_tree racing the other tree functions (issue 20, found by
-- test/t/concurrency_check.sh): a call that finds a tree while another
-- session drops it must say the tree was dropped, not fail with an internal
-- error; and drop_tree must take the tables' locks in the order every other
-- call takes them, so that it cannot deadlock with a session that holds the
-- tree's states table.  Two sessions through dblink.
-- Not in one transaction: the sessions must see each other's commits.
SET client_min_messages = warning;
SELECT plan(7);

DELETE FROM gametree.trees WHERE schema = 'drop_race';
DROP SCHEMA IF EXISTS drop_race CASCADE;
CREATE SCHEMA drop_race;

\ir helpers.psql

SELECT dblink_connect('a', pg_temp.connstr());
SELECT dblink_connect('b', pg_temp.connstr());
SELECT dblink_exec('a', 'SET client_min_messages = warning');
SELECT dblink_exec('b', 'SET client_min_messages = warning');
-- The error message of session conn's query in flight, or 'ok'; then
-- reads the end of its results, so that the session takes queries again.
CREATE FUNCTION pg_temp.result_of(conn text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  message text;
BEGIN
  PERFORM * FROM dblink_get_result(conn, false) AS t(x text);
  message := coalesce(nullif(dblink_error_message(conn), 'OK'), 'ok');
  PERFORM * FROM dblink_get_result(conn, false) AS t(x text);
  RETURN message;
END $$;
-- The error message of a query of one column in session conn, or 'ok'.
CREATE FUNCTION pg_temp.error_in(conn text, sql text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  PERFORM * FROM dblink(conn, sql, false) AS t(x text);
  RETURN coalesce(nullif(dblink_error_message(conn), 'OK'), 'ok');
END $$;
-- Waits (at most 10 s) until session pid waits for a lock.
CREATE FUNCTION pg_temp.await_lock_wait(pid int) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  FOR i IN 1 .. 1000 LOOP
    IF EXISTS (SELECT FROM pg_stat_activity WHERE pg_stat_activity.pid = await_lock_wait.pid
               AND wait_event_type = 'Lock') THEN
      RETURN true;
    END IF;
    PERFORM pg_sleep(0.01);
  END LOOP;
  RETURN false;
END $$;
CREATE TEMP TABLE pids AS
SELECT (SELECT p FROM dblink('a', 'SELECT pg_backend_pid()') AS t(p int)) AS a,
       (SELECT p FROM dblink('b', 'SELECT pg_backend_pid()') AS t(p int)) AS b;

-- 1. b drops the tree in a transaction still open; a's grow_step found the
-- tree and its tables (the drop is not committed) and waits for their lock.
-- When b commits, the tables are gone: a must say so, not fail with
-- "could not open relation with OID" (XX000).
SELECT gametree.create_tree('drop_race.one', 'tictactoe');
SELECT dblink_exec('b', 'BEGIN');
SELECT * FROM dblink('b', $$SELECT gametree.drop_tree('drop_race.one')$$) AS t(x text);
SELECT dblink_send_query('a', $$SELECT expanded::text FROM gametree.grow_step('drop_race.one', 10)$$);
SELECT ok(pg_temp.await_lock_wait((SELECT a FROM pids)), 'a''s grow_step waits for the drop''s lock');
SELECT dblink_exec('b', 'COMMIT');
SELECT is(pg_temp.result_of('a'), 'ERROR:  tree "drop_race.one" was dropped by another session',
          'when the drop commits, grow_step says the tree was dropped (not XX000)');

-- 2. a holds the tree's states table (any query of it in an open
-- transaction does), b's drop_tree waits for it; a's grow_step then needs
-- the tree's other tables.  A drop that locked them first would wait for a
-- while a waits for it: a deadlock.  Locking them in the order of the other
-- calls, the drop waits with nothing of the tree held, grow_step goes on,
-- and the drop follows a's commit.
SELECT gametree.create_tree('drop_race.two', 'tictactoe');
SELECT dblink_exec('a', 'BEGIN');
SELECT * FROM dblink('a', 'SELECT count(*)::text FROM drop_race.two_states') AS t(n text);
SELECT dblink_send_query('b', $$SELECT gametree.drop_tree('drop_race.two')::text$$);
SELECT ok(pg_temp.await_lock_wait((SELECT b FROM pids)), 'b''s drop_tree waits for a''s lock');
SELECT is(pg_temp.error_in('a', $$SELECT expanded::text FROM gametree.grow_step('drop_race.two', 10)$$),
          'ok', 'a''s grow_step meanwhile succeeds (no deadlock)');
SELECT dblink_exec('a', 'COMMIT');
SELECT is(pg_temp.result_of('b'), 'ok', 'and b''s drop_tree, after a''s commit, too');
SELECT is((SELECT count(*) FROM gametree.trees WHERE schema = 'drop_race'), 0::bigint, 'both trees are gone');
SELECT is(to_regclass('drop_race.two_states'), NULL, 'with their tables');

SELECT dblink_disconnect('a');
SELECT dblink_disconnect('b');
DROP SCHEMA drop_race CASCADE;
SELECT * FROM finish();
