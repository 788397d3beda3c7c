-- canonical encoding and the stable hash over every reachable position
BEGIN;
SELECT plan(5);

CREATE TEMP TABLE ttt AS
WITH RECURSIVE reach(state) AS (
  SELECT gametree.initial('tictactoe')
  UNION
  SELECT s.next FROM reach, gametree.successors('tictactoe', reach.state) s
)
SELECT state, gametree.state_hash('tictactoe', state) AS hash FROM reach;

SELECT is((SELECT count(*) FROM ttt), 5478::bigint, 'tic-tac-toe has 5,478 reachable positions');
SELECT is((SELECT count(DISTINCT hash) FROM ttt), 5478::bigint, 'their state hashes are all distinct');
SELECT is((SELECT count(*) FROM ttt WHERE gametree.terminal('tictactoe', state)), 958::bigint,
          '958 of them are terminal');

CREATE TEMP TABLE c4 AS
WITH RECURSIVE reach(ply, state) AS (
  SELECT 0, gametree.initial('connect4')
  UNION
  SELECT ply + 1, s.next FROM reach, gametree.successors('connect4', reach.state) s WHERE ply < 5
)
SELECT ply, state, gametree.state_hash('connect4', state) AS hash FROM reach;

SELECT results_eq(
  $$SELECT ply, count(*) FROM c4 GROUP BY ply ORDER BY ply$$,
  $$SELECT ply, count FROM reference_positions WHERE game = 'connect4' AND ply <= 5 ORDER BY ply$$,
  'connect four positions per ply 0..5 equal OEIS A212693');
SELECT is((SELECT count(DISTINCT hash) FROM c4), (SELECT count(*) FROM c4),
          'connect four state hashes are distinct up to ply 5');

SELECT * FROM finish();
ROLLBACK;
