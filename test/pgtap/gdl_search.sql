-- Trees and search over games loaded from GDL (test/data/gdl, table
-- reference_gdl): nim solved by a grown tree, bestmove for each of three
-- players, Monte Carlo search where both roles move at once, and immediate
-- wins in tic-tac-toe.  Depth-bounded searches without a time limit, so the
-- results do not depend on the machine.
-- In one transaction: the games and the tree are gone with the rollback.
BEGIN;
SET client_min_messages = warning;
SELECT plan(27);

\ir helpers.psql

SELECT is(pg_temp.load('gdl_search_nim', 'nim1') || ' ' || pg_temp.load('gdl_search_ttt3', 'tictactoe_3player')
          || ' ' || pg_temp.load('gdl_search_roshambo', 'roshambo2') || ' ' || pg_temp.load('gdl_search_ttt', 'ticTacToe'),
          'ok ok ok ok', 'nim1, tictactoe_3player, roshambo2 and ticTacToe load');

-- Nim, heaps 1, 5, 4, 2, whoever takes the last object wins: grown in full
-- and solved.  A position is won for the player to move exactly when the
-- heaps' nim-sum (xor) is not 0; 1 xor 5 xor 4 xor 2 = 2, and the only move
-- to a nim-sum of 0 empties heap d.  (344 positions and 2,000 moves by a
-- separate enumeration.)
SELECT gametree.create_tree('gdl_search_nim', 'gdl_search_nim') IS NOT NULL AS created \gset
CALL gametree.grow('gdl_search_nim');
SELECT is((SELECT row(states, edges, frontier, pending)::text FROM gametree.trees WHERE name = 'gdl_search_nim'),
          '(344,2000,0,0)', 'nim grown in full: 344 positions, 2,000 moves, nothing left to expand or propagate');
SELECT results_eq($$SELECT s.utility, s.proven FROM gdl_search_nim_states s JOIN gametree.trees t
                    ON t.name = 'gdl_search_nim' AND s.id = t.root_id$$,
                  $$VALUES ('{"player1": 100, "player2": 0}'::jsonb, true)$$,
                  'the root is a proven win for player1');
SELECT is((SELECT m.move FROM gdl_search_nim_states s JOIN gametree.trees t ON t.name = 'gdl_search_nim' AND s.id = t.root_id
           JOIN gdl_search_nim_moves m ON m.id = s.best_move),
          '[["does", "player1", ["reduce", "d", 0]], ["does", "player2", "noop"]]',
          'its best move empties heap d');
SELECT is(gametree.propagate('gdl_search_nim'), 342::bigint,
          'propagate() from scratch: one evaluation per expanded non-terminal position');
SELECT results_eq($$SELECT s.utility, s.proven FROM gdl_search_nim_states s JOIN gametree.trees t
                    ON t.name = 'gdl_search_nim' AND s.id = t.root_id$$,
                  $$VALUES ('{"player1": 100, "player2": 0}'::jsonb, true)$$,
                  'and the root is again a proven win for player1');
CREATE TEMP TABLE nim AS
SELECT s.control, s.utility, s.proven, (SELECT bit_xor((f->>2)::integer) FROM jsonb_array_elements(s.state) f
                                        WHERE f->>0 = 'heap') AS nim_sum
FROM gdl_search_nim_states s WHERE s.goal IS NULL;
SELECT is((SELECT count(*) FROM nim), 342::bigint, '342 positions where play goes on (all heaps empty twice: either player to move)');
SELECT is((SELECT count(*) FROM nim WHERE NOT proven
             OR (utility->>control)::integer <> CASE WHEN nim_sum <> 0 THEN 100 ELSE 0 END), 0::bigint,
          'every one proven, won for the player to move exactly when the nim-sum is not 0');
SELECT is((SELECT count(*) FROM gdl_search_nim_states WHERE goal IS NOT NULL AND (goal->>(state->0->>1))::integer <> 0),
          0::bigint, 'where all heaps are empty, the player to move has lost');
SELECT is(pg_temp.val($$SELECT gametree.bestmove('gdl_search_nim', gametree.initial('gdl_search_nim'), NULL, 12, 'alphabeta')$$),
          '[["does", "player1", ["reduce", "d", 0]], ["does", "player2", "noop"]]',
          'bestmove (alpha-beta) finds the winning move');
SELECT is(pg_temp.val($$SELECT count(*) FROM gametree.analyse('gdl_search_nim', gametree.initial('gdl_search_nim'), NULL, 12, 'alphabeta')
                        WHERE proven AND (utility->>'player1')::numeric = 100$$),
          '1', 'analyse: one first move is a proven win');

-- Three players, 5x5 board that wraps around, four in a line: for each
-- mover, a position where it completes its own line with one move (the other
-- end of its three is taken).
CREATE TEMP TABLE three (mover text, state jsonb, win jsonb);
INSERT INTO three
SELECT v.mover, pg_temp.play('gdl_search_ttt3', v.moves), v.win
FROM (VALUES
  -- x: (1,1) (1,2) (1,3); o on (1,5)
  ('xplayer', '[["mark",1,1],["mark",1,5],["mark",3,1],["mark",1,2],["mark",5,5],["mark",3,3],["mark",1,3],["mark",5,3],
                ["mark",4,5]]'::jsonb, '["mark", 1, 4]'::jsonb),
  -- o: (2,1) (2,2) (2,3); x on (2,5)
  ('oplayer', '[["mark",2,5],["mark",2,1],["mark",5,1],["mark",4,2],["mark",2,2],["mark",5,3],["mark",3,4],["mark",2,3],
                ["mark",4,4],["mark",5,5]]', '["mark", 2, 4]'),
  -- z: (4,1) (4,2) (4,3); x on (4,5)
  ('zplayer', '[["mark",4,5],["mark",1,1],["mark",4,1],["mark",2,3],["mark",1,3],["mark",4,2],["mark",3,5],["mark",5,2],
                ["mark",4,3],["mark",1,5],["mark",3,1]]', '["mark", 4, 4]')) v(mover, moves, win);
SELECT results_eq($$SELECT t.mover, gametree.control('gdl_search_ttt3', t.state),
                           (SELECT array_agg(pg_temp.action(s.move)) FROM gametree.successors('gdl_search_ttt3', t.state) s
                            WHERE (gametree.goal('gdl_search_ttt3', s.next)->>t.mover)::integer = 100)
                    FROM three t ORDER BY t.mover$$,
                  $$SELECT mover, mover, ARRAY[win] FROM three ORDER BY mover$$,
                  'tictactoe_3player: the positions have the mover in control and one winning move each');
SELECT is(pg_temp.val(format('SELECT pg_temp.action(gametree.bestmove(%L, %L, NULL, 1))', 'gdl_search_ttt3', state)),
          win::text, format('bestmove (Monte Carlo, 1,000 iterations): %s completes its line', mover))
FROM three ORDER BY mover DESC;
SELECT is(pg_temp.val(format('SELECT pg_temp.action(gametree.bestmove(%L, %L, NULL, 2, %L))', 'gdl_search_ttt3', state, 'maxn')),
          win::text, format('bestmove (max^n, depth 2): %s completes its line', mover))
FROM three ORDER BY mover DESC;

-- Roshambo: both roles throw at once.
SELECT is(pg_temp.val($$SELECT gametree.bestmove('gdl_search_roshambo', gametree.initial('gdl_search_roshambo'), NULL, 1, 'mcts')
                          IN (SELECT m FROM gametree.legal('gdl_search_roshambo', gametree.initial('gdl_search_roshambo')) m)$$),
          'true', 'roshambo2: Monte Carlo search returns one of the legal joint moves');
SELECT is(pg_temp.val($$SELECT jsonb_array_length(gametree.bestmove('gdl_search_roshambo', gametree.initial('gdl_search_roshambo'), NULL, 1))$$),
          '2', 'and method auto gives a joint move of both roles');

-- Tic-tac-toe: an immediate win is taken, by either player.
-- x: (1,1) (1,2), o: (2,1) (2,2); x to move
SELECT is(pg_temp.val($$SELECT gametree.bestmove('gdl_search_ttt', pg_temp.play('gdl_search_ttt',
            '[["mark",1,1],["mark",2,1],["mark",1,2],["mark",2,2]]'), NULL, 4, 'alphabeta')$$),
          '[["does", "xplayer", ["mark", 1, 3]], ["does", "oplayer", "noop"]]', 'ticTacToe.kif: x completes its row');
-- x: (1,1) (1,2) (3,3), o: (2,1) (2,2); o to move, and x threatens (1,3)
SELECT is(pg_temp.val($$SELECT gametree.bestmove('gdl_search_ttt', pg_temp.play('gdl_search_ttt',
            '[["mark",1,1],["mark",2,1],["mark",1,2],["mark",2,2],["mark",3,3]]'), NULL, 4, 'alphabeta')$$),
          '[["does", "xplayer", "noop"], ["does", "oplayer", ["mark", 2, 3]]]', 'ticTacToe.kif: o wins rather than block');
SELECT is(pg_temp.val($$SELECT pg_temp.action(gametree.bestmove('gdl_search_ttt', pg_temp.play('gdl_search_ttt',
            '[["mark",1,1],["mark",2,1],["mark",1,2],["mark",2,2]]'), NULL, 1, 'mcts'))$$),
          '["mark", 1, 3]', 'ticTacToe.kif: Monte Carlo search takes the win too');
SELECT is(pg_temp.val($$SELECT array_agg(DISTINCT utility::text) FROM gametree.analyse('gdl_search_ttt', gametree.initial('gdl_search_ttt'), NULL, 9, 'alphabeta')$$),
          '{"{\"oplayer\": 50, \"xplayer\": 50}"}', 'analyse: every first move is a draw, as in the built-in game');

-- 'auto' on two-player games without a heuristic: Monte Carlo search, which
-- counts visits (alpha-beta values every move short of an end 50/50 there,
-- bench/gdl_match.sh); on the built-in tic-tac-toe, alpha-beta.
SELECT is(pg_temp.load('gdl_search_breakthrough', 'breakthrough'), 'ok', 'breakthrough loads');
SELECT is(pg_temp.val($$SELECT row(count(*), count(visits))::text FROM gametree.analyse('gdl_search_breakthrough',
                          gametree.initial('gdl_search_breakthrough'), NULL, 1)$$),
          '(22,22)', 'breakthrough, method auto: Monte Carlo (visits for each of the 22 first moves)');
SELECT is(pg_temp.val($$SELECT row(count(*), count(visits))::text FROM gametree.analyse('gdl_search_ttt',
                          gametree.initial('gdl_search_ttt'), NULL, 1)$$) || ' ' ||
          pg_temp.val($$SELECT row(count(*), count(visits))::text FROM gametree.analyse('tictactoe',
                          gametree.initial('tictactoe'), NULL, 1)$$),
          '(9,9) (9,0)', 'ticTacToe.kif, auto: Monte Carlo; the built-in tic-tac-toe: alpha-beta (no visits)');

SELECT * FROM finish();
ROLLBACK;
