-- perft by move rules alone (draw_rules => false) against Stockfish's and
-- rapid-draughts' counts in test/data/perft_move_rules.tsv (loaded by
-- tools/check.sh), and the default, which lets draws by rule end a line
BEGIN;
SELECT plan(14);

SELECT results_eq(
  $$SELECT game, name, depth,
           gametree.perft(game, gametree.from_fen(game, position), depth, draw_rules => false)
    FROM reference_perft_move_rules ORDER BY game, name, depth$$,
  $$SELECT game, name, depth, count FROM reference_perft_move_rules ORDER BY game, name, depth$$,
  'perft with draw_rules => false equals Stockfish and rapid-draughts');

-- Where a draw by rule is reached before the last ply, the default count is
-- lower.  Dead positions: promotions to bishop or knight, captures down to
-- K v K, K+minor v K, or bishops of one colour.  Fifty moves: the clock
-- reaches 100 after 1-2 plies but pawn moves and captures reset it.
-- Checkers: both sides have kings to step until the clock reaches 80.
-- fifty_rook_pawn_96 at depth 4 reaches 100 only at the leaves (which
-- count), and 4 plies cannot capture a rook and two pawns: no difference.
SELECT results_eq(
  $$SELECT game, name, depth,
           sign(gametree.perft(game, gametree.from_fen(game, position), depth) - count)::int
    FROM reference_perft_move_rules ORDER BY game, name, depth$$,
  $$VALUES ('checkers', 'kings_2v2_h76', 8, -1), ('checkers', 'kings_3v2_h75', 8, -1),
           ('checkers', 'kings_v_man_h79', 8, -1), ('checkers', 'men_and_kings_h77', 8, -1),
           ('chess', 'bishop_v_pawns_ep', 6, -1), ('chess', 'bishops_opposite', 5, -1),
           ('chess', 'bishops_same_colour', 5, -1), ('chess', 'fifty_castling_99', 5, -1),
           ('chess', 'fifty_pawn_98', 7, -1), ('chess', 'fifty_rook_pawn_96', 4, 0),
           ('chess', 'fifty_rook_pawn_96', 5, -1), ('chess', 'knight_takes_pawn', 6, -1),
           ('chess', 'knight_v_knight', 5, -1), ('chess', 'knight_v_pawn', 6, -1),
           ('chess', 'kp_v_k', 8, -1), ('chess', 'promotion_dead', 7, -1),
           ('chess', 'promotion_minor', 6, -1)$$,
  'the default count is lower exactly where a draw rule is reached before the last ply');

-- README.md's example: 369 lines end at once in a dead position.
SELECT is(gametree.perft('chess', gametree.from_fen('chess', '8/2P5/p2k4/P5K1/8/8/8/8 b - - 0 45'), 7),
          2681462::bigint, 'the example of README.md counts 2,681,462 by the game-tree rule');

-- include_terminal takes the generic perft through legal_by_move_rules() and
-- next(); lines that end in checkmate, stalemate or a side without moves
-- count as one leaf.  Expected values: Stockfish's move lists walked to the
-- depth, and rapid-draughts likewise, counting a node without moves as a leaf.
SELECT is(gametree.perft('chess', gametree.from_fen('chess', position), 6, true, false), 487214::bigint,
          'chess: generic perft by move rules with early ends equals Stockfish''s move lists')
FROM reference_perft_move_rules WHERE name = 'promotion_dead';

SELECT is(gametree.perft('chess', gametree.from_fen('chess', position), 6, true, false), 275049::bigint,
          'chess: generic perft by move rules with early ends, promotions to minor pieces')
FROM reference_perft_move_rules WHERE name = 'promotion_minor';

SELECT is(gametree.perft('checkers', gametree.from_fen('checkers', position), 8, true, false), 235380::bigint,
          'checkers: generic perft by move rules with early ends equals rapid-draughts')
FROM reference_perft_move_rules WHERE name = 'kings_2v2_h76';

-- The fast path counts like the generic one: perft(d) is the sum over the
-- successors of perft(d - 1), the roots being before any draw.
SELECT is(
  (SELECT sum(gametree.perft('chess', gametree.next('chess', s, m), 6, draw_rules => false))
   FROM gametree.from_fen('chess', '8/2P5/p2k4/P5K1/8/8/8/8 b - - 0 45') s,
        gametree.legal('chess', s) m),
  2681831::numeric,
  'chess: perft 7 by move rules is the sum of perft 6 over the successors');

SELECT is(
  (SELECT sum(gametree.perft('checkers', gametree.next('checkers', s, m), 7, draw_rules => false))
   FROM gametree.from_fen('checkers', 'W:WK10,K22,K27:BK5,K13:H75') s,
        gametree.legal('checkers', s) m),
  1638779::numeric,
  'checkers: perft 8 by move rules is the sum of perft 7 over the successors');

-- Clocks at their limits: chess's halfmove clock stays at 65535, checkers'
-- runs past 80; by move rules alone neither matters.
SELECT is(gametree.perft('chess', gametree.from_fen('chess', '8/5k2/8/8/1p6/8/1P6/R3K3 w - - 65535 70'), 5,
                         draw_rules => false),
          294788::bigint, 'chess: a halfmove clock of 65535 changes nothing by move rules');

SELECT is(gametree.perft('checkers', gametree.from_fen('checkers', 'B:WK14,K19:BK5,K28:H80'), 8, true, false),
          235380::bigint, 'checkers: a draw clock run out changes nothing by move rules');

SELECT is(gametree.perft('checkers', gametree.from_fen('checkers', 'B:WK14,K19:BK5,K28:H80'), 8, true),
          1::bigint, 'checkers: by default a run-out draw clock ends the game at the root');

-- Games without draws by rule count alike either way.
SELECT is(gametree.perft('tictactoe', gametree.initial('tictactoe'), 9, true, false),
          (SELECT count_with_early_ends FROM reference_perft WHERE game = 'tictactoe' AND depth = 9),
          'tictactoe: draw_rules => false changes nothing');

SELECT is(gametree.perft('chess', gametree.initial('chess'), 3, draw_rules => NULL), NULL,
          'perft is strict in draw_rules');

SELECT throws_ok($$SELECT gametree.perft('chess', gametree.initial('chess'), -1, draw_rules => false)$$,
                 '22023', 'perft depth must be between 0 and 1000, not -1',
                 'bad depth is reported as before');

SELECT * FROM finish();
ROLLBACK;
