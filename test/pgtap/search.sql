-- bestmove and analyse: alpha-beta over the game interface.  Depth-bounded
-- searches without a time limit, so the results do not depend on the
-- machine.
BEGIN;
SET client_min_messages = warning;
SELECT plan(27);

\ir helpers.psql

-- Tic-tac-toe, every non-terminal position of the grown and solved tree:
-- the move bestmove picks keeps the position's proven value for the mover.
SELECT gametree.create_tree('solved', 'tictactoe') IS NOT NULL AS created \gset
CALL gametree.grow('solved');
CREATE TEMP TABLE picked AS
SELECT s.control, s.utility AS before, c.utility AS after, c.proven
FROM solved_states s
CROSS JOIN LATERAL gametree.next('tictactoe', s.state, gametree.bestmove('tictactoe', s.state, NULL, 9)) n(state)
JOIN solved_states c ON c.id = gametree.state_hash('tictactoe', n.state)
WHERE s.control IS NOT NULL;
SELECT is((SELECT count(*) FROM picked), 4520::bigint, 'bestmove from all 4,520 non-terminal positions');
SELECT is((SELECT count(*) FROM picked WHERE (after->>control)::numeric < (before->>control)::numeric),
          0::bigint, 'no move bestmove picks is worse for the mover than the position''s proven value');
SELECT is((SELECT array_agg(DISTINCT utility::text) FROM gametree.analyse('tictactoe', gametree.initial('tictactoe'), NULL, 9)),
          ARRAY['{"oplayer": 50, "xplayer": 50}'], 'analyse: every first move of tic-tac-toe is a draw');
SELECT ok((SELECT bool_and(proven) AND bool_and(depth = 9) AND count(*) = 9
           FROM gametree.analyse('tictactoe', gametree.initial('tictactoe'), NULL, 9)),
          'analyse: nine moves, all proven at depth 9');
SELECT is((SELECT jsonb_array_length(pv) FROM gametree.analyse('tictactoe', gametree.initial('tictactoe'), NULL, 9) LIMIT 1),
          9, 'the expected line of a draw fills the board');

-- Connect four: an immediate win; an immediate threat blocked.
SELECT is(pg_temp.action(gametree.bestmove('connect4', pg_temp.play('connect4',
          '[["drop",1],["drop",1],["drop",2],["drop",2],["drop",3],["drop",3]]'), NULL, 4)),
          '["drop", 4]', 'connect four: red completes its row');
SELECT is(pg_temp.action(gametree.bestmove('connect4', pg_temp.play('connect4',
          '[["drop",1],["drop",2],["drop",1],["drop",2],["drop",1]]'), NULL, 4)),
          '["drop", 1]', 'connect four: black blocks the column');

-- Chess: mate in one; a hanging queen taken.
SELECT is(pg_temp.action(gametree.bestmove('chess', gametree.from_fen('chess', '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1'), NULL, 3)),
          '["move", "a1", "a8"]', 'chess: the back-rank mate');
SELECT is(pg_temp.action(gametree.bestmove('chess', gametree.from_fen('chess',
          'r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1'), NULL, 3)),
          '["move", "f3", "f7"]', 'chess: the scholar''s mate');
SELECT is(pg_temp.action(gametree.bestmove('chess', gametree.from_fen('chess', '4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1'), NULL, 4)),
          '["move", "d2", "d5"]', 'chess: the rook takes the hanging queen');
SELECT is((SELECT utility FROM gametree.analyse('chess', gametree.from_fen('chess', '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1'), NULL, 3) LIMIT 1),
          '{"black": 0, "white": 100}', 'analyse: the mate is a proven win');

-- Checkers (White moves up the board, towards square 1; captures are mandatory).
-- Of three captures, 22x15 is answered by 11x18x27 (two for one); the other two are free.
SELECT ok(gametree.bestmove('checkers', gametree.from_fen('checkers', 'W:W20,22,23,25:B7,8,11,18,19'), NULL, 6)->1->2
          IN ('["jump", 23, 16]', '["jump", 23, 14]'), 'checkers: takes a free man, not the one that costs two');
-- A lone man: 23-18 lands beside the man on 14, which jumps it; 23-19 is safe.
SELECT is(gametree.bestmove('checkers', gametree.from_fen('checkers', 'W:W23:B14'), NULL, 6)->1->2,
          '["move", 23, 19]', 'checkers: does not step a man where it is jumped for nothing');
-- 17-14 gives a man: 10x17 is forced, then 21x14x5 takes the last two.
SELECT is(gametree.bestmove('checkers', gametree.from_fen('checkers', 'W:W17,18,21:B9,10'), NULL, 6)->1->2,
          '["move", 17, 14]', 'checkers: the two-for-one shot');

-- Black to move, kings on 32 (Black) and 14 (White): only 32-28 keeps the
-- draw; 15-18 loses (14x23), 32-27 too.  bestmove once played 15-18 from
-- max_depth 8 on: its search against 32-28's 0 failed low at 0, and the
-- tie rules (focus: White has fewer moves after it) preferred the bound.
SELECT is((SELECT array_agg(d) FROM generate_series(3, 12) d
           WHERE gametree.bestmove('checkers', gametree.from_fen('checkers', 'B:W24,K14:B15,K32'), NULL, d)->0->2
                 <> '["move", 32, 28]'),
          NULL, 'checkers: the drawing 32-28 at max_depth 3 to 12');
SELECT is(gametree.bestmove('checkers', gametree.from_fen('checkers', 'B:W24,K14:B15,K32'), '1 second')->0->2,
          '["move", 32, 28]', 'checkers: the drawing 32-28 with a time limit');
SELECT is((SELECT move->0->2 FROM gametree.analyse('checkers', gametree.from_fen('checkers', 'B:W24,K14:B15,K32'), NULL, 8)
           LIMIT 1), '["move", 32, 28]', 'checkers: analyse ranks 32-28 first at depth 8 too');

-- Monte Carlo search, in memory.
SELECT is(pg_temp.action(gametree.bestmove('connect4', pg_temp.play('connect4',
          '[["drop",1],["drop",1],["drop",2],["drop",2],["drop",3],["drop",3]]'), NULL, 1, 'mcts')),
          '["drop", 4]', 'mcts: connect four, red completes its row');
SELECT is(pg_temp.action(gametree.bestmove('tictactoe', pg_temp.play('tictactoe',
          '[["mark",1,1],["mark",2,1],["mark",1,2],["mark",2,2]]'), NULL, 1, 'mcts')),
          '["mark", 1, 3]', 'mcts: tic-tac-toe, the cross completes its row');
SELECT results_eq($$SELECT sum(visits), count(*) FILTER (WHERE visits > 0) FROM gametree.analyse('tictactoe', gametree.initial('tictactoe'), NULL, 3, 'mcts')$$,
                  $$VALUES (3000::numeric, 9::bigint)$$, 'mcts: 3 rounds are 3,000 iterations, every move visited');
SELECT results_eq($$SELECT pg_temp.action(move), proven, utility FROM gametree.analyse('chess', gametree.from_fen('chess', '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1'), NULL, 1, 'mcts') LIMIT 1$$,
                  $$VALUES ('["move", "a1", "a8"]'::jsonb, true, '{"black": 0, "white": 100}'::jsonb)$$,
                  'mcts: the mate in one is proven and first');

-- Max^n, in memory: the row completed.
SELECT is(pg_temp.action(gametree.bestmove('tictactoe', pg_temp.play('tictactoe',
          '[["mark",1,1],["mark",2,1],["mark",1,2],["mark",2,2]]'), NULL, 3, 'maxn')),
          '["mark", 1, 3]', 'maxn: tic-tac-toe, the cross completes its row');

-- Bad input: an error with its SQLSTATE each.
SELECT throws_ok($$SELECT gametree.bestmove('tictactoe', '[["cell", 9, 9, "x"]]')$$, '22023', NULL,
                 'an invalid state');
SELECT throws_ok($$SELECT gametree.bestmove('chess', gametree.from_fen('chess', '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1'))$$,
                 '22023', 'the state is terminal: there is no move to make', 'a terminal state');
SELECT throws_ok($$SELECT gametree.bestmove('connect4', gametree.initial('connect4'), '0 seconds')$$, '22023',
                 'time_limit must be positive', 'a time limit of zero');
SELECT throws_ok($$SELECT gametree.bestmove('connect4', gametree.initial('connect4'), NULL, -1)$$, '22023',
                 'max_depth must be positive, not -1', 'a negative depth');
SELECT throws_ok($$SELECT gametree.bestmove('connect4', gametree.initial('connect4'), method => 'minimax')$$, '22023',
                 'unknown search method "minimax"', 'an unknown method');

SELECT * FROM finish();
ROLLBACK;
