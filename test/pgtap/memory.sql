-- gametree.max_memory, the administrator's ceiling over search_memory,
-- work_memory and gdl_memory, and searches that hold memory only while
-- they run and only within their budget.
-- Not in one transaction: dblink sessions log in as a role with a ceiling
-- of its own, and a fresh backend measures a search's peak memory.
SET client_min_messages = warning;
SELECT plan(22);

\ir helpers.psql

-- A figure of a backend's /proc status, in bytes: VmRSS now, VmHWM its peak.
CREATE FUNCTION pg_temp.proc_status(pid int, field text) RETURNS bigint LANGUAGE sql AS $$
  SELECT 1024 * (regexp_match(pg_read_file('/proc/' || pid || '/status'), field || ':\s+(\d+) kB'))[1]::bigint
$$;

SELECT gametree.initial('tictactoe') IS NOT NULL AS loaded \gset
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'memory_bob') THEN CREATE ROLE memory_bob LOGIN; END IF;
END $$;
ALTER ROLE memory_bob RESET ALL;
-- What a run stopped short may have left.
DO $$
BEGIN
  PERFORM gametree.drop_tree(name) FROM gametree.trees WHERE name = 'memory_ttt';
  PERFORM gametree.unload_game(name) FROM gametree.gdl_games WHERE name = 'memory_pick64';
END $$;

-- Only a superuser sets the ceiling.
SELECT is((SELECT row(setting, unit, context)::text FROM pg_settings WHERE name = 'gametree.max_memory'),
          '(1048576,kB,superuser)', 'gametree.max_memory: 1 GB by default, set by superusers only');
SELECT is(pg_temp.try_as('memory_bob', $$SET gametree.max_memory = '64GB'$$),
          '42501: permission denied to set parameter "gametree.max_memory"',
          'a role without superuser cannot raise the ceiling');

-- Each memory setting above the ceiling fails the call that would use it, at its start.
SELECT gametree.create_tree('memory_ttt', 'tictactoe') IS NOT NULL AS created \gset
SET gametree.max_memory = '64MB';
SET gametree.search_memory = '128MB';
SELECT throws_ok($$SELECT gametree.bestmove('tictactoe', gametree.initial('tictactoe'), NULL, 2)$$, '53400',
                 'gametree.search_memory (131072 kB) is above gametree.max_memory (65536 kB)',
                 'bestmove: search_memory above max_memory is refused (53400)');
SELECT throws_ok($$SELECT * FROM gametree.analyse('tictactoe', gametree.initial('tictactoe'), NULL, 2)$$, '53400',
                 'gametree.search_memory (131072 kB) is above gametree.max_memory (65536 kB)',
                 'analyse: the same');
SET gametree.search_memory = '64MB';
SELECT is(gametree.bestmove('tictactoe', gametree.initial('tictactoe'), NULL, 1) IS NOT NULL, true,
          'search_memory equal to max_memory is allowed');
SET gametree.work_memory = '128MB';
SELECT throws_ok($$SELECT * FROM gametree.grow_step('memory_ttt', 10)$$, '53400',
                 'gametree.work_memory (131072 kB) is above gametree.max_memory (65536 kB)',
                 'grow: work_memory above max_memory is refused');
SELECT throws_ok($$SELECT gametree.propagate('memory_ttt')$$, '53400',
                 'gametree.work_memory (131072 kB) is above gametree.max_memory (65536 kB)',
                 'propagate: the same');
SET gametree.gdl_memory = '128MB';
SELECT throws_ok($$SELECT * FROM gametree.load_game('memory_nim', (SELECT kif FROM reference_gdl WHERE name = 'nim1'))$$,
                 '53400', 'gametree.gdl_memory (131072 kB) is above gametree.max_memory (65536 kB)',
                 'load_game: gdl_memory above max_memory is refused');
RESET gametree.gdl_memory;
RESET gametree.work_memory;
RESET gametree.search_memory;
RESET gametree.max_memory;
SELECT gametree.drop_tree('memory_ttt') IS NOT NULL AS dropped \gset

-- A ceiling per role, set by an administrator, holds in the role's sessions:
-- set before the library loads or after, by the role it is refused.
ALTER ROLE memory_bob SET gametree.max_memory = '32MB';
SELECT dblink_connect('bob', pg_temp.connstr('memory_bob')) AS connected \gset
SELECT is(dblink_exec('bob', $$SET gametree.max_memory = '1GB'$$, false), 'SET',
          'before the library loads, the name is only a placeholder: the role can set it');
SELECT is(dblink_exec('bob', $$SET gametree.search_memory = '16MB'$$), 'SET', 'the role may set search_memory');
SELECT is((SELECT m FROM dblink('bob', $$SELECT gametree.bestmove('tictactoe', gametree.initial('tictactoe'), NULL, 1)::text$$)
           AS t(m text)) IS NOT NULL, true, 'the role searches within its ceiling...');
SELECT is((SELECT m FROM dblink('bob', $$SELECT current_setting('gametree.max_memory')$$) AS t(m text)), '32MB',
          '...and its own max_memory was refused when the library loaded: the ceiling ALTER ROLE set holds');
SELECT is((SELECT g FROM dblink('bob', $$SELECT game FROM gametree.load_game('memory_small',
             '(role a) (init (s)) (<= (legal a go) (true (s))) (<= terminal (true (s))) (<= (goal a 100) (true (s)))')$$)
           AS t(g text)), 'memory_small',
          'gdl_memory, left at its default (1 GB), follows the role''s ceiling down: the role loads a game');
SELECT * FROM dblink('bob', $$SELECT gametree.unload_game('memory_small')$$) AS t(x text);
SELECT is(dblink_exec('bob', $$SET gametree.search_memory = '48MB'$$), 'SET', 'the role may set search_memory above it');
SELECT throws_ok($$SELECT * FROM dblink('bob', 'SELECT gametree.bestmove(''tictactoe'', gametree.initial(''tictactoe''), NULL, 1)::text') AS t(m text)$$,
                 '53400', 'gametree.search_memory (49152 kB) is above gametree.max_memory (32768 kB)',
                 'a search above the role''s ceiling is refused');
SELECT is(dblink_exec('bob', $$SET gametree.max_memory = '1GB'$$, false), 'ERROR',
          'once loaded, the role cannot raise its ceiling either');
SELECT dblink_disconnect('bob') AS disconnected \gset
ALTER ROLE memory_bob RESET ALL;

-- A search gives its memory back when it ends: neither memory contexts nor
-- the backend's resident memory stay up after a search at 512 MB.
SELECT gametree.bestmove('chess', gametree.initial('chess'), NULL, 1) IS NOT NULL AS warm \gset
SET gametree.max_memory = '2GB';
SET gametree.search_memory = '512MB';
SELECT sum(total_bytes) AS contexts_before, pg_temp.proc_status(pg_backend_pid(), 'VmRSS') AS rss_before
  FROM pg_backend_memory_contexts \gset
SELECT gametree.bestmove('chess', gametree.initial('chess'), NULL, 4) IS NOT NULL AS searched \gset
SELECT cmp_ok((SELECT sum(total_bytes) FROM pg_backend_memory_contexts) - :contexts_before, '<', 4 * 1024 * 1024::numeric,
              'after a search at search_memory 512MB the backend''s memory contexts hold no more than before (within 4 MB)');
SELECT cmp_ok(pg_temp.proc_status(pg_backend_pid(), 'VmRSS') - :rss_before, '<', 64 * 1024 * 1024::bigint,
              'and its resident memory is back within 64 MB of where it was');
RESET gametree.search_memory;
RESET gametree.max_memory;

-- Monte Carlo search of a game with 64 x 64 = 4,096 joint moves (two roles
-- pick one of 64 numbers at once, twice) stays within search_memory: in a
-- fresh backend, its peak resident memory grows by less than twice the
-- budget (the numbering of actions once took 400 MB here at 16 MB).
\set kif `cat test/data/games/pick64.kif`
SELECT actions FROM gametree.load_game('memory_pick64', :'kif') \gset
SELECT is(:actions, 128, 'the game has 64 actions per role');
SELECT dblink_connect('fresh', pg_temp.connstr()) AS connected \gset
SELECT pid FROM dblink('fresh', 'SELECT pg_backend_pid()') AS t(pid int) \gset
-- The game compiled in that backend first: its own memory is no search's.
SELECT n AS legal FROM dblink('fresh', $$SELECT count(*) FROM gametree.legal('memory_pick64', gametree.initial('memory_pick64'))$$) AS t(n bigint) \gset
SELECT is(:legal::bigint, 4096::bigint, 'and 4,096 joint moves at the start');
SELECT dblink_exec('fresh', $$SET gametree.search_memory = '16MB'$$) AS done \gset
SELECT pg_temp.proc_status(:pid, 'VmRSS') AS rss_before \gset
SELECT m IS NOT NULL AS searched
  FROM dblink('fresh', $$SELECT gametree.bestmove('memory_pick64', gametree.initial('memory_pick64'), '2 s', NULL, 'mcts')$$) AS t(m jsonb) \gset
SELECT cmp_ok(pg_temp.proc_status(:pid, 'VmHWM') - :rss_before, '<', 32 * 1024 * 1024::bigint,
              'MCTS over 4,096 joint moves at search_memory 16MB: peak memory grows by less than 32 MB');
SELECT dblink_exec('fresh', $$SET gametree.search_memory = '2MB'$$) AS done \gset
SELECT is((SELECT m FROM dblink('fresh', $$SELECT gametree.bestmove('memory_pick64', gametree.initial('memory_pick64'), '1 s', NULL, 'mcts')$$) AS t(m jsonb))
            IN (SELECT gametree.legal('memory_pick64', gametree.initial('memory_pick64'))), true,
          'at 2MB, less than the root''s moves and result take, it still plays a legal move');
SELECT dblink_disconnect('fresh') AS disconnected \gset
SELECT gametree.unload_game('memory_pick64') IS NOT NULL AS unloaded \gset

SELECT * FROM finish();
