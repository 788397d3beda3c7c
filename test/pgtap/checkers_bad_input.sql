-- checkers bad input: an ERROR with a specific SQLSTATE and a message that names the problem
BEGIN;
SELECT plan(28);

-- PDN FEN syntax (22P02)
SELECT throws_ok($$SELECT gametree.from_fen('checkers', 'X:W21:B1')$$, '22P02',
  'invalid PDN FEN "X:W21:B1": it must start with the side to move, B or W', 'FEN without the side to move');
SELECT throws_ok($$SELECT gametree.from_fen('checkers', 'B:W21')$$, '22P02',
  'invalid PDN FEN "B:W21": the black pieces are missing (a section such as :B1,2)', 'FEN without black pieces');
SELECT throws_ok($$SELECT gametree.from_fen('checkers', 'B:W21;22:B1')$$, '22P02',
  'invalid PDN FEN "B:W21;22:B1": unexpected '';'' at position 6', 'FEN with a stray character');
SELECT throws_ok($$SELECT gametree.from_fen('checkers', 'B:W21:B1:W22')$$, '22P02',
  'invalid PDN FEN "B:W21:B1:W22": the white pieces are given twice', 'FEN with a side given twice');
SELECT throws_ok($$SELECT gametree.from_fen('checkers', 'B:W21,:B1')$$, '22P02',
  'invalid PDN FEN "B:W21,:B1": expected a square number at position 7', 'FEN with an empty square number');
SELECT throws_ok($$SELECT gametree.from_fen('checkers', 'B:W24-21:B1')$$, '22P02',
  'invalid PDN FEN "B:W24-21:B1": the range 24-21 runs backwards', 'FEN with a backward range');
SELECT throws_ok($$SELECT gametree.from_fen('checkers', 'B:W21:B1:')$$, '22P02',
  'invalid PDN FEN "B:W21:B1:": it ends with '':''', 'FEN ending in a colon');

-- impossible positions (22023)
SELECT throws_ok($$SELECT gametree.from_fen('checkers', 'B:W21,33:B1')$$, '22023',
  'invalid checkers state: square 33 does not exist (squares are numbered 1 to 32)', 'FEN square 33');
SELECT throws_ok($$SELECT gametree.from_fen('checkers', 'B:W21:B1,21')$$, '22023',
  'invalid checkers state: square 21 is given twice', 'FEN square given twice');
SELECT throws_ok($$SELECT gametree.from_fen('checkers', 'B:W21-32:B1-13')$$, '22023',
  'invalid checkers state: black has 13 pieces, but a side has at most 12', 'thirteen pieces');
SELECT throws_ok($$SELECT gametree.from_fen('checkers', 'W:W21:B10,30')$$, '22023',
  'invalid checkers state: a black man on square 30 would have been crowned', 'black man on its crowning row');
SELECT throws_ok($$SELECT gametree.from_fen('checkers', 'B:W2,21:B10')$$, '22023',
  'invalid checkers state: a white man on square 2 would have been crowned', 'white man on its crowning row');
SELECT throws_ok($$SELECT gametree.from_fen('checkers', 'B:W:B1')$$, '22023',
  'invalid checkers state: white moved last but has no pieces', 'the side that moved last has no pieces');
SELECT throws_ok($$SELECT gametree.from_fen('checkers', 'B:W21:B1:H81')$$, '22023',
  'invalid checkers state: the draw clock 81 exceeds 80', 'draw clock out of range');
SELECT throws_ok($$SELECT gametree.legal('checkers', '[["cell",33,"black","man"],["control","black"]]')$$, '22023',
  'invalid checkers state: argument 2 must be an integer from 1 to 32', 'fact with square 33');
SELECT throws_ok($$SELECT gametree.legal('checkers', '[["cell",1,"black","queen"],["control","black"]]')$$, '22023',
  'invalid checkers state: argument 4 must be one of "man", "king"', 'fact with an unknown piece');
SELECT throws_ok($$SELECT gametree.legal('checkers', '[["cell",1,"black","man"],["cell",1,"white","king"],["control","black"]]')$$,
  '22023', 'invalid checkers state: square 1 is given twice', 'fact square given twice');
SELECT throws_ok($$SELECT gametree.legal('checkers', '[["cell",1,"black","man"],["cell",30,"white","man"]]')$$, '22023',
  'invalid checkers state: the control fact is missing', 'no control fact');
SELECT throws_ok($$SELECT gametree.legal('checkers', '[["cell",1,"black","man"],["cell",30,"white","man"],["control","black"],["clock",81]]')$$,
  '22023', 'invalid checkers state: argument 2 must be an integer from 0 to 80', 'clock out of range');

-- illegal moves (22023)
SELECT throws_ok($$SELECT gametree.next('checkers', gametree.initial('checkers'), '"21-17"')$$, '22023',
  'illegal checkers move "21-17": square 21 holds a white piece, but black is to move', 'moving the other side''s piece');
SELECT throws_ok($$SELECT gametree.next('checkers', gametree.initial('checkers'),
  '[["does","black","noop"],["does","white",["move",21,17]]]')$$, '22023',
  'illegal checkers move [["does", "black", "noop"], ["does", "white", ["move", 21, 17]]]: role "white" is not in control and must do "noop"',
  'a joint move for the side not to move');
SELECT throws_ok($$SELECT gametree.next('checkers', gametree.initial('checkers'), '"13-17"')$$, '22023',
  'illegal checkers move "13-17": square 13 is empty', 'moving from an empty square');
SELECT throws_ok($$SELECT gametree.next('checkers', gametree.initial('checkers'), '["move",9,18]')$$, '22023',
  'illegal checkers move ["move", 9, 18]: not a legal action of role "black"', 'a move that is no step');
SELECT throws_ok($$SELECT gametree.next('checkers', gametree.initial('checkers'), '"9-33"')$$, '22023',
  'illegal checkers move "9-33": square 33 does not exist (squares are numbered 1 to 32)', 'a move to square 33');
SELECT throws_ok($$SELECT gametree.next('checkers', gametree.from_fen('checkers', 'B:W18:B1,14'), '["move",1,6]')$$, '22023',
  'illegal checkers move ["move", 1, 6]: a capture is mandatory, e.g. 14x23', 'a step when a capture is mandatory');
SELECT throws_ok($$SELECT gametree.next('checkers', gametree.from_fen('checkers', 'B:W6,14,15,24:B1'), '"1x10"')$$, '22023',
  'illegal checkers move "1x10": a multi-jump must be completed, e.g. 1x10x17', 'an unfinished multi-jump');
SELECT throws_ok($$SELECT gametree.next('checkers', gametree.from_fen('checkers', 'B:W14,15,22,23:BK10'), '"10x10"')$$, '22023',
  'illegal checkers move "10x10": 2 jump paths lead from 10 to 10; give the landing squares, e.g. 10x19x26x17x10',
  'an ambiguous short jump');
SELECT throws_ok($$SELECT gametree.next('checkers', gametree.from_fen('checkers', 'W:W29:B22,25'), '"29-25"')$$, '22023',
  'illegal checkers move "29-25": the state is terminal', 'a move in a finished game');

SELECT * FROM finish();
ROLLBACK;
