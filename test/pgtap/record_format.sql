-- gametree.move_hint, short_board and record_format: what the command-line
-- client once knew about each game (the prompt's hint, the small boards of
-- show, the PGN and PDN records of play), asked of the games instead.
BEGIN;
SET client_min_messages = warning;
SELECT plan(14);

-- move_hint: short, for a prompt; JSON for a game without a short form
SELECT is(gametree.move_hint('chess'), 'SAN or UCI, such as Nf3, O-O, e4 or e2e4', 'move_hint: chess');
SELECT is(gametree.move_hint('checkers'), 'PDN, such as 11-15 or 22x15x8', 'move_hint: checkers');
SELECT is(gametree.move_hint('connect4'), 'the column, 1 to 7', 'move_hint: connect four');
SELECT is(gametree.move_hint('tictactoe'), 'row and column, such as 2 2 or 2,2', 'move_hint: tic-tac-toe');
SELECT lives_ok($$SELECT gametree.load_game('record_hint', '(role a) (init (c 1)) (legal a (take 1)) (<= (next (c 2)) (does a (take 1))) (<= terminal (true (c 2))) (goal a 100)')$$,
                'a game from GDL loads');
SELECT is(gametree.move_hint('record_hint'), 'JSON, as gametree.next() takes it', 'move_hint: JSON for a game from GDL');
SELECT throws_ok($$SELECT gametree.move_hint('chesss')$$, '22023', 'unknown game "chesss"', 'move_hint: an unknown game');

-- short_board: rows of text, the top row first
SELECT is(gametree.short_board('tictactoe', '[["cell",1,1,"o"],["cell",1,3,"x"],["cell",2,2,"x"],["control","oplayer"]]'),
          E'O.X\n.X.\n...', 'short_board: tic-tac-toe, X and O by row');
SELECT is(gametree.short_board('connect4', gametree.next('connect4', gametree.next('connect4', gametree.initial('connect4'), '["drop", 4]'), '["drop", 4]')),
          E'.......\n.......\n.......\n.......\n...B...\n...R...', 'short_board: connect four, the bottom row last');
SELECT is(gametree.short_board('chess', gametree.initial('chess')), NULL, 'short_board: NULL for a game without one');

-- record_format: the format, its tags, the first turn, the results
SELECT is(gametree.record_format('chess', gametree.initial('chess')),
          ROW('PGN'::text, ''::text, 1, NULL::text, '1-0'::text, '0-1'::text, '1/2-1/2'::text, '*'::text), 'record_format: chess writes PGN');
SELECT is((SELECT (r.first_turn, r.setup_fen) FROM gametree.record_format('chess',
              gametree.from_fen('chess', 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 12')) r),
          ROW(12, 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 12'::text),
          'record_format: a chess record from a position numbers from its fullmove number and sets up its FEN');
SELECT is(gametree.record_format('checkers', gametree.initial('checkers')),
          ROW('PDN'::text, E'[GameType "21"]\n'::text, 1, NULL::text, '1-0'::text, '0-1'::text, '1/2-1/2'::text, '*'::text), 'record_format: checkers writes PDN');
SELECT is(gametree.record_format('connect4', gametree.initial('connect4')),
          ROW(NULL::text, NULL::text, NULL::integer, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text),
          'record_format: every column NULL for a game without one');

SELECT * FROM finish();
ROLLBACK;
