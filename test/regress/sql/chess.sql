-- chess through the game interface
SELECT gametree.initial('chess');
SELECT gametree.board('chess', gametree.initial('chess'));
SELECT gametree.to_fen('chess', gametree.initial('chess'));
-- legal moves in their documented order: from-square, to-square (a1, b1, ..., h8)
SELECT count(*) FROM gametree.legal('chess', gametree.initial('chess'));
SELECT m->0->2 AS white_action FROM gametree.legal('chess', gametree.initial('chess')) m;
SELECT gametree.control('chess', gametree.initial('chess')),
       gametree.terminal('chess', gametree.initial('chess')),
       gametree.goal('chess', gametree.initial('chess'));

-- the same move as a jsonb action, a joint move and a UCI string
SELECT gametree.to_fen('chess', gametree.next('chess', gametree.initial('chess'), '["move","e2","e4"]')) AS jsonb_action,
       gametree.to_fen('chess', gametree.next('chess', gametree.initial('chess'),
         '[["does","white",["move","g1","f3"]],["does","black","noop"]]')) AS joint_move,
       gametree.to_fen('chess', gametree.next('chess', gametree.initial('chess'), '"b1c3"')) AS uci;

-- castling is the king's move; the rook follows
\set kiwipete 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'
SELECT gametree.to_fen('chess', gametree.next('chess', gametree.from_fen('chess', :'kiwipete'), '"e1g1"')) AS short,
       gametree.to_fen('chess', gametree.next('chess', gametree.from_fen('chess', :'kiwipete'), '["move","e1","c1"]')) AS long;
-- moving a rook or losing it to a capture costs the right; a king may not castle through check
SELECT gametree.to_fen('chess', gametree.next('chess', gametree.from_fen('chess', :'kiwipete'), '"h1f1"')) AS rook_moved,
       gametree.to_fen('chess', gametree.next('chess', gametree.from_fen('chess',
         'r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1'), '"a8a1"')) AS rook_captured;
SELECT m->0->2 AS king_moves
FROM gametree.legal('chess', gametree.from_fen('chess', 'k4r2/8/8/8/8/8/8/4K2R w K - 0 1')) m
WHERE m->0->2->>1 = 'e1';
SELECT count(*) AS moves_in_check_no_castling
FROM gametree.legal('chess', gametree.from_fen('chess', '1k2r3/8/8/8/8/8/8/R3K2R w KQ - 0 1')) m
WHERE m->0->2 IN ('["move","e1","g1"]', '["move","e1","c1"]');

-- en passant: the square is kept only while a capture there is legal
\set ep 'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3'
SELECT gametree.to_fen('chess', gametree.from_fen('chess', :'ep')) AS round_trip;
SELECT gametree.from_fen('chess', :'ep') @> '[["enpassant","f",6]]' AS has_fact;
SELECT gametree.board('chess', gametree.next('chess', gametree.from_fen('chess', :'ep'), '["move","e5","f6"]'));
SELECT gametree.to_fen('chess', gametree.from_fen('chess',
         'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1')) AS no_capturer_no_square;
-- a pinned pawn cannot take en passant, so the square is dropped
SELECT gametree.to_fen('chess', gametree.next('chess', gametree.from_fen('chess',
         '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1'), '"e2e4"')) AS pinned_capturer;

-- promotion: four moves per square, queen first
\set promo '1n5k/P7/8/8/8/8/8/K7 w - - 0 1'
SELECT m->0->2 AS promotions FROM gametree.legal('chess', gametree.from_fen('chess', :'promo')) m
WHERE m->0->2->>1 = 'a7';
SELECT gametree.to_fen('chess', gametree.next('chess', gametree.from_fen('chess', :'promo'), '["move","a7","b8","n"]')) AS jsonb,
       gametree.to_fen('chess', gametree.next('chess', gametree.from_fen('chess', :'promo'), '"a7a8q"')) AS uci;

-- FEN round trips
SELECT fen, gametree.to_fen('chess', gametree.from_fen('chess', fen)) = fen AS exact
FROM (VALUES ('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'),
             ('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'),
             ('8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1'),
             ('r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1'),
             ('rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8'),
             ('rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3'),
             ('4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 40')) AS t(fen);

-- fool's mate: black wins; the control fact stays, control() is null
WITH RECURSIVE game(ply, state) AS (
  SELECT 0, gametree.initial('chess')
  UNION ALL
  SELECT ply + 1, gametree.next('chess', state, to_jsonb((ARRAY['f2f3','e7e5','g2g4','d8h4'])[ply + 1]))
  FROM game WHERE ply < 4)
SELECT gametree.to_fen('chess', state), gametree.terminal('chess', state), gametree.goal('chess', state),
       gametree.control('chess', state), state @> '[["control","white"]]' AS control_fact,
       (SELECT count(*) FROM gametree.legal('chess', state)) AS legal
FROM game WHERE ply = 4;

-- draws: stalemate, fifty moves, insufficient material
SELECT name, gametree.terminal('chess', s), gametree.goal('chess', s)
FROM (VALUES
  ('stalemate', gametree.from_fen('chess', '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1')),
  ('fifty moves', gametree.from_fen('chess', '8/8/8/4k3/8/8/4K3/4R3 w - - 100 80')),
  ('ninety-nine halfmoves', gametree.from_fen('chess', '8/8/8/4k3/8/8/4K3/4R3 w - - 99 80')),
  ('fiftieth move played', gametree.next('chess', gametree.from_fen('chess', '8/8/8/4k3/8/8/4K3/4R3 w - - 99 80'), '"e1a1"')),
  ('mate on the hundredth halfmove', gametree.from_fen('chess', '7k/6Q1/6K1/8/8/8/8/8 b - - 100 80')),
  ('king v king', gametree.from_fen('chess', '8/8/8/4k3/8/8/4K3/8 w - - 0 1')),
  ('king and bishop v king', gametree.from_fen('chess', '8/8/8/4k3/8/8/4K3/2B5 b - - 0 1')),
  ('king and knight v king', gametree.from_fen('chess', '8/8/8/4k3/8/8/4K3/1N6 b - - 0 1')),
  ('bishops on one colour', gametree.from_fen('chess', '8/8/3b4/4k3/8/8/4K3/2B5 w - - 0 1')),
  ('bishops on both colours', gametree.from_fen('chess', '8/8/4b3/4k3/8/8/4K3/2B5 w - - 0 1')),
  ('two knights', gametree.from_fen('chess', '8/8/8/4k3/8/8/4K3/1N4N1 w - - 0 1')),
  ('a capture leaves king v king', gametree.next('chess', gametree.from_fen('chess', '8/8/8/4k3/8/3pK3/8/8 w - - 0 1'), '"e3d3"'))
) AS t(name, s);

-- transpositions: equal states, equal hashes; the clocks count
WITH a AS (SELECT gametree.next('chess', gametree.next('chess', gametree.next('chess',
              gametree.initial('chess'), '"g1f3"'), '"g8f6"'), '"b1c3"') AS s),
     b AS (SELECT gametree.next('chess', gametree.next('chess', gametree.next('chess',
              gametree.initial('chess'), '"b1c3"'), '"g8f6"'), '"g1f3"') AS s)
SELECT a.s = b.s AS same_state,
       gametree.state_hash('chess', a.s) = gametree.state_hash('chess', b.s) AS same_hash,
       gametree.state_hash('chess', a.s) <> gametree.state_hash('chess', gametree.initial('chess')) AS differs
FROM a, b;
SELECT gametree.state_hash('chess', gametree.initial('chess'));
-- facts in any order decode to the same state
SELECT gametree.to_fen('chess', (SELECT jsonb_agg(f ORDER BY f DESC) FROM jsonb_array_elements(gametree.initial('chess')) f));
-- the heuristic is not part of SQL, but perft is: start position, kiwipete, position 3
SELECT gametree.perft('chess', gametree.initial('chess'), 4) AS start4,
       gametree.perft('chess', gametree.from_fen('chess', :'kiwipete'), 3) AS kiwipete3,
       gametree.perft('chess', gametree.initial('chess'), 3, include_terminal => true) AS generic3;
-- chessprogramming.org's positions 4 and 5 at depth 3 (published: 9467 and 62379)
SELECT gametree.perft('chess', gametree.from_fen('chess', 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1'), 3) AS position4,
       gametree.perft('chess', gametree.from_fen('chess', 'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8'), 3) AS position5;
