-- the games' estimates of non-terminal states
BEGIN;
SELECT plan(8);

SELECT is(gametree.heuristic('chess', gametree.initial('chess')), '{"white": 50, "black": 50}',
          'chess: the initial position is even');
SELECT cmp_ok((gametree.heuristic('chess', gametree.from_fen('chess', '4k3/8/8/8/8/8/8/3QK3 w - - 0 1')) ->> 'white')::numeric,
              '>', 90::numeric, 'chess: a queen up is nearly won for white');
SELECT is((SELECT sum(value::numeric) FROM jsonb_each_text(gametree.heuristic('chess',
             gametree.from_fen('chess', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'))) v),
          100::numeric, 'chess: the two estimates sum to 100');
SELECT is(gametree.heuristic('checkers', gametree.initial('checkers')), '{"black": 50, "white": 50}',
          'checkers: the initial position is even');
SELECT cmp_ok((gametree.heuristic('connect4', gametree.next('connect4', gametree.initial('connect4'), '["drop",4]'))
               ->> 'red')::numeric, '>', 50::numeric, 'connect four: a centre disc favours red');
SELECT is(gametree.heuristic('tictactoe', gametree.initial('tictactoe')), NULL,
          'tic-tac-toe has no heuristic');
SELECT is(gametree.heuristic('chess', gametree.from_fen('chess', 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3')),
          NULL, 'no estimate for a terminal state (fool''s mate)');
SELECT is(gametree.terminal('chess', gametree.from_fen('chess', 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3')),
          true, 'fool''s mate is terminal');

SELECT * FROM finish();
ROLLBACK;
