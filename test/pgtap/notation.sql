-- gametree.notation: moves in each game's notation (SAN for chess, PDN for
-- checkers, the column, the row and column, JSON for games from GDL), SAN
-- read back wherever a chess move is taken, and FEN's first four fields.
BEGIN;
SET client_min_messages = warning;
SELECT plan(29);

\ir helpers.psql

-- The Opera Game, Morphy against the Duke of Brunswick and Count Isouard,
-- Paris 1858, as published: a capture by a pawn, Nbd7 (disambiguation),
-- O-O-O, checks and the mate.
CREATE TEMP TABLE opera (san text, uci text);
INSERT INTO opera VALUES (
  'e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#',
  'e2e4 e7e5 g1f3 d7d6 d2d4 c8g4 d4e5 g4f3 d1f3 d6e5 f1c4 g8f6 f3b3 d8e7 b1c3 c7c6 c1g5 b7b5 c3b5 c6b5 c4b5 b8d7 e1c1 a8d8 d1d7 d8d7 h1d1 e7e6 b5d7 f6d7 b3b8 d7b8 d1d8');

SELECT is(gametree.notation('chess', gametree.initial('chess'), to_jsonb(string_to_array(uci, ' '))), san,
          'the Opera Game in UCI reads as its published SAN, move for move')
FROM opera;
SELECT is(gametree.notation('chess', gametree.initial('chess'), to_jsonb(string_to_array(san, ' '))), san,
          'its SAN moves are read back (next() takes SAN) and written the same')
FROM opera;

-- The same game replayed move by move through next(), in SAN: it ends in mate.
CREATE FUNCTION pg_temp.replay(game text, state jsonb, moves text[]) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
  FOR i IN 1 .. coalesce(array_length(moves, 1), 0) LOOP
    state := gametree.next(game, state, to_jsonb(moves[i]));
  END LOOP;
  RETURN state;
END $$;
SELECT is(gametree.goal('chess', pg_temp.replay('chess', gametree.initial('chess'), string_to_array(san, ' '))),
          '{"white": 100, "black": 0}', 'replayed through next() in SAN: white has mated')
FROM opera;

-- Disambiguation by file, by rank, by both; promotions; en passant; mates.
SELECT is(gametree.notation('chess', gametree.from_fen('chess', '8/7k/8/8/8/Q7/8/Q1Q1K3 w - - 0 1'),
                            '["a1b2"]'), 'Qa1b2', 'file and rank when each alone is shared (Qa1b2)');
SELECT is(gametree.notation('chess', gametree.from_fen('chess', '8/7k/8/8/8/Q7/8/Q1Q1K3 w - - 0 1'),
                            '["a3b2"]'), 'Q3b2', 'the rank when the file is shared (Q3b2)');
SELECT is(gametree.notation('chess', gametree.from_fen('chess', '8/7k/8/8/8/Q7/8/Q1Q1K3 w - - 0 1'),
                            '["c1b2"]'), 'Qcb2', 'the file when it differs (Qcb2)');
SELECT is(gametree.notation('chess', gametree.from_fen('chess', 'R7/8/7k/8/8/8/8/R3K3 w - - 0 1'),
                            '["a1a4", "h6g6", "a8a5"]'), 'R1a4 Kg6 R8a5',
          'the rank when the rooks share the file (R1a4, and R8a5 with the other one on a4)');
SELECT is(gametree.notation('chess', gametree.from_fen('chess', '4k3/8/8/8/8/8/4K3/R6R w - - 0 1'), '["a1d1"]'),
          'Rad1', 'the file when they share the rank (Rad1)');
SELECT is(gametree.notation('chess', gametree.from_fen('chess', 'r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1'),
                            '["b7a8q"]'), 'bxa8=Q+', 'a capturing promotion that checks');
SELECT is(gametree.notation('chess', gametree.from_fen('chess', 'r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1'),
                            '["b7b8n"]'), 'b8=N', 'an underpromotion');
SELECT is(gametree.notation('chess', gametree.from_fen('chess', '4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1'),
                            '["e5d6"]'), 'exd6', 'en passant is a capture');
SELECT is(gametree.notation('chess', gametree.from_fen('chess', '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1'),
                            '["a1a8"]'), 'Ra8#', 'a back-rank mate');
SELECT is(gametree.next('chess', gametree.from_fen('chess', 'r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1'), '"bxa8Q"'),
          gametree.next('chess', gametree.from_fen('chess', 'r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1'), '"bxa8=Q+"'),
          'SAN read leniently where it cannot mislead: e8Q for e8=Q, check marks optional');
SELECT is(gametree.next('chess', gametree.initial('chess'), '[["does", "white", "Nf3"], ["does", "black", "noop"]]'),
          gametree.next('chess', gametree.initial('chess'), '"g1f3"'), 'SAN inside a joint move');
SELECT is(pg_temp.try($$SELECT gametree.next('chess', gametree.from_fen('chess', '8/7k/8/8/8/Q7/8/Q1Q1K3 w - - 0 1'), '"Qb2"')$$),
          '22023: illegal chess move "Qb2": not a legal action of role "white"', 'an ambiguous SAN (Qb2 of three queens) is no move');

-- Every legal move of the test positions (the perft positions, their
-- successors, the mates of test/data): its SAN is unique in the position
-- and reads back as the same move.
CREATE TEMP TABLE san_positions AS
  SELECT DISTINCT gametree.from_fen('chess', position) AS s FROM reference_perft WHERE game = 'chess'
  UNION SELECT gametree.from_fen('chess', fen) FROM reference_chess_mates
  UNION SELECT gametree.from_fen('chess', '4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1')
  UNION SELECT gametree.from_fen('chess', 'r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1');
INSERT INTO san_positions
  SELECT x.next FROM san_positions p, gametree.successors('chess', p.s) x;
CREATE TEMP TABLE san_moves AS
  SELECT p.s, m, gametree.notation('chess', p.s, jsonb_build_array(m)) AS san
  FROM (SELECT DISTINCT s FROM san_positions) p, gametree.legal('chess', p.s) m;
SELECT cmp_ok((SELECT count(*) FROM san_moves), '>', 20000::bigint, 'over 20,000 moves in their positions');
SELECT is((SELECT count(*) FROM san_moves WHERE gametree.next('chess', s, to_jsonb(san)) <> gametree.next('chess', s, m)),
          0::bigint, 'each SAN reads back as its move');
SELECT is((SELECT count(*) FROM (SELECT s, san FROM san_moves GROUP BY s, san HAVING count(*) > 1) d), 0::bigint,
          'no two moves of a position share a SAN');
SELECT is((SELECT count(*) FROM san_moves WHERE san !~ '^([NBRQK][a-h]?[1-8]?x?[a-h][1-8]|([a-h]x)?[a-h][1-8](=[NBRQ])?|O-O(-O)?)[+#]?$'),
          0::bigint, 'each SAN is well formed');

-- The other games' notations, and JSON for a game from GDL.
SELECT is(gametree.notation('checkers', gametree.initial('checkers'), '["11-15", "23-19", "8-11", "22-17"]')
          || ' / ' || gametree.notation('checkers', gametree.from_fen('checkers', 'B:W18:B14'), '[["jump", 14, 23]]'),
          '11-15 23-19 8-11 22-17 / 14x23', 'checkers: PDN, moves and jumps');
SELECT is(gametree.notation('connect4', gametree.initial('connect4'), '[["drop", 4], ["drop", 3]]')
          || ' / ' || gametree.notation('tictactoe', gametree.initial('tictactoe'), '[["mark", 2, 2]]'),
          '4 3 / 2,2', 'connect four: the column; tic-tac-toe: the row and the column');
SELECT is(pg_temp.load('notation_nim', 'nim1'), 'ok', 'a game from GDL loads');
SELECT is(gametree.notation('notation_nim', gametree.initial('notation_nim'), jsonb_build_array(m)), (m->0->2)::text,
          'a game from GDL without a notation of its own: the action as JSON')
FROM gametree.legal('notation_nim', gametree.initial('notation_nim')) m LIMIT 1;

-- FEN: EPD's first four fields are a position with clocks 0 and 1.
SELECT is(gametree.from_fen('chess', 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3'),
          gametree.from_fen('chess', 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1'),
          'from_fen: four fields, the clocks 0 and 1');

SELECT is(pg_temp.try($$SELECT gametree.notation('chess', gametree.initial('chess'), '"e2e4"')$$),
          '22023: the moves must be a JSON array of moves, not "e2e4"', 'notation: moves not in an array (22023)');

-- play: the state after a line is next() applied move by move, in any form next() takes.
SELECT is(gametree.play('chess', gametree.initial('chess'), '["e2e4", "e7e5", "Nf3"]'),
          gametree.next('chess', gametree.next('chess', gametree.next('chess', gametree.initial('chess'), '"e2e4"'),
                        '"e7e5"'), '"Nf3"'),
          'play: a line of UCI and SAN moves ends where next() move by move does');
SELECT is(gametree.play('connect4', gametree.initial('connect4'), '[]'), gametree.initial('connect4'),
          'play: an empty line stays where it starts');
SELECT is(pg_temp.try($$SELECT gametree.play('chess', gametree.initial('chess'), '"e2e4"')$$),
          '22023: the moves must be a JSON array of moves, not "e2e4"', 'play: moves not in an array (22023)');
SELECT is(left(pg_temp.try($$SELECT gametree.play('chess', gametree.initial('chess'), '["e2e4", "e2e4"]')$$), 6),
          '22023:', 'play: a move not legal where it is played (22023)');

SELECT * FROM finish();
ROLLBACK;
