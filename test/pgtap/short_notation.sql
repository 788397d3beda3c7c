-- gametree.short_notation, parse_move and centipawns: moves as clients
-- print and read them without a position (UCI, PDN, the column, row,column;
-- compact JSON otherwise), and chess's evaluation behind a utility.
BEGIN;
SET client_min_messages = warning;
SELECT plan(21);

\ir helpers.psql

-- Every legal move of each built-in game's initial state has a short form,
-- and it reads back through parse_move to the same move (next() agrees).
SELECT is((SELECT count(*) FROM gametree.games() g, gametree.legal(g.game, gametree.initial(g.game)) m
           WHERE g.game IN ('chess', 'checkers', 'connect4', 'tictactoe')
             AND gametree.next(g.game, gametree.initial(g.game),
                               (gametree.parse_move(g.game, gametree.short_notation(g.game, m))).move)
                 IS DISTINCT FROM gametree.next(g.game, gametree.initial(g.game), m)),
          0::bigint, 'short form and parse_move round-trip every first move of the built-in games');
SELECT is(string_agg(gametree.short_notation('chess', m), ' ' ORDER BY m::text), 'a2a3 a2a4 b1a3 b1c3 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g1f3 g1h3 g2g3 g2g4 h2h3 h2h4',
          'chess: UCI') FROM gametree.legal('chess', gametree.initial('chess')) m;
SELECT is(gametree.short_notation('chess', '["move", "e7", "e8", "q"]'), 'e7e8q', 'chess: a promotion in UCI, from a bare action');
SELECT is(gametree.short_notation('checkers', '[["does", "black", "noop"], ["does", "white", ["jump", 22, 15, 8]]]'),
          '22x15x8', 'checkers: a jump in PDN, every landing square, the role that does not noop');
SELECT is(gametree.short_notation('checkers', '["move", 11, 15]'), '11-15', 'checkers: a step in PDN');
SELECT is(gametree.short_notation('connect4', '["drop", 4]'), '4', 'connect four: the column');
SELECT is(gametree.short_notation('tictactoe', '[["does", "xplayer", ["mark", 2, 1]], ["does", "oplayer", "noop"]]'),
          '2,1', 'tic-tac-toe: row,column');
SELECT is(gametree.short_notation('tictactoe', '["mark", 1, 1.5]'), '["mark",1,1.5]',
          'a shape the game does not write: compact JSON');
SELECT is(gametree.short_notation('tictactoe', '[["does", "xplayer", ["mark", 1, 1]], ["does", "oplayer", ["x", "a/b\"c"]]]'),
          '[["does","xplayer",["mark",1,1]],["does","oplayer",["x","a/b\"c"]]]',
          'several roles move: the whole joint move as compact JSON, strings escaped');
SELECT is(gametree.short_notation('tictactoe', '{"b": [1, {"a": null}], "a": true}'), '{"a":true,"b":[1,{"a":null}]}',
          'any JSON at all: objects too, never an error');

SELECT is(gametree.parse_move('chess', 'E2E7Q'), ROW('"e2e7q"'::jsonb, 'a move in SAN or UCI, such as Nf3, exd5, O-O, e8=Q or e2e4'::text),
          'chess: UCI in upper case, lowered (legal or not: next() decides)');
SELECT is((gametree.parse_move('chess', 'Qxf7#')).move, '"Qxf7#"', 'chess: SAN as a string next() reads');
SELECT is((gametree.parse_move('chess', 'Qxf7;')).move, NULL, 'chess: not SAN: no move');
SELECT is((gametree.parse_move('checkers', ' 22 X 15x 8 ')).move, '"22x15x8"', 'checkers: PDN with blanks and X, normalised');
SELECT is((gametree.parse_move('checkers', '11-15x18')).move, NULL, 'checkers: steps and jumps mixed: no move');
SELECT is((gametree.parse_move('checkers', '33-29')).move, NULL, 'checkers: a square off the board: no move');
SELECT is(gametree.parse_move('tictactoe', '1 1 9'), ROW(NULL::jsonb, 'a row and a column, such as 2 2 or 2,2'::text),
          'tic-tac-toe: three numbers: no move, and what is expected');
SELECT is(gametree.parse_move('connect4', '9'), ROW('["drop", 9]'::jsonb, 'a column from 1 to 7'::text),
          'connect four: any column is read; next() tells the illegal ones');

SELECT is(ARRAY[round(gametree.centipawns('chess', 50)::numeric, 6), round(gametree.centipawns('chess', 100 / (1 + 10 ^ (-1.5)))::numeric, 6),
                round(gametree.centipawns('chess', 0)::numeric), round(gametree.centipawns('chess', 100)::numeric)],
          ARRAY[0, 600, -1600, 1600]::numeric[], 'centipawns: the inverse of the curve, held within 0.01 and 99.99');
SELECT is(pg_temp.try($$SELECT gametree.centipawns('tictactoe', 50)$$),
          '0A000: game "tictactoe" has no evaluation in centipawns', 'centipawns: a game without the hook (0A000)');
SELECT is(pg_temp.try($$SELECT gametree.centipawns('chess', 'NaN')$$),
          '22023: the utility must be a number, not NaN', 'centipawns: NaN (22023)');

SELECT * FROM finish();
ROLLBACK;
