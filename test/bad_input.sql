-- bad input: an ERROR with a specific SQLSTATE and a message that names the problem
BEGIN;
SELECT plan(17);

SELECT throws_ok($$SELECT gametree.initial('chesss')$$, '22023', 'unknown game "chesss"', 'unknown game');
SELECT throws_ok($$SELECT gametree.legal('tictactoe', '{"cell": 1}')$$, '22P02',
  'invalid tictactoe state: not a JSON array', 'state that is not an array');
SELECT throws_ok($$SELECT gametree.legal('tictactoe', '[["cell",1,1,"x"], 7]')$$, '22P02',
  'invalid tictactoe state: element 2 is not a fact (a non-empty JSON array)', 'element that is not a fact');
SELECT throws_ok($$SELECT gametree.legal('tictactoe', '[["square",1,1,"x"],["control","xplayer"]]')$$, '22023',
  'invalid tictactoe state: unknown fact "square" with 3 arguments', 'unknown fact');
SELECT throws_ok($$SELECT gametree.legal('tictactoe', '[["cell",1,4,"x"],["control","oplayer"]]')$$, '22023',
  'invalid tictactoe state: argument 3 must be an integer from 1 to 3', 'value out of range');
SELECT throws_ok($$SELECT gametree.legal('tictactoe', '[["cell",1,1,"x"],["cell",1,2,"x"],["cell",1,3,"x"],
  ["cell",2,1,"x"],["cell",3,3,"x"],["cell",2,2,"o"],["cell",2,3,"o"]]')$$, '22023',
  'invalid tictactoe state: 5 x''s and 2 o''s cannot arise, since xplayer moves first and they alternate',
  'five x''s and two o''s');
SELECT throws_ok($$SELECT gametree.legal('tictactoe', '[["cell",1,1,"x"],["control","xplayer"]]')$$, '22023',
  'invalid tictactoe state: control is given to xplayer, but oplayer is to move', 'control to the wrong side');
SELECT throws_ok($$SELECT gametree.legal('tictactoe', '[["cell",1,1,"x"],["cell",1,2,"x"],["cell",1,3,"x"],
  ["cell",2,1,"o"],["cell",2,2,"o"],["control","oplayer"]]')$$, '22023',
  'invalid tictactoe state: play has ended, but control is given to oplayer', 'ended, but control says otherwise');
SELECT throws_ok($$SELECT gametree.legal('tictactoe', '[["cell",1,1,"x"],["cell",1,2,"x"],["cell",1,3,"x"],
  ["cell",2,1,"o"],["cell",2,2,"o"],["cell",3,3,"o"]]')$$, '22023',
  'invalid tictactoe state: play went on after the game had ended', 'move after the end');
SELECT throws_ok($$SELECT gametree.legal('connect4', '[["cell",3,2,"red"],["control","black"]]')$$, '22023',
  'invalid connect4 state: the disc at (3, 2) floats above an empty cell', 'floating disc');
SELECT throws_ok($$SELECT gametree.legal('connect4', '[["cell",1,1,"red"],["control","red"]]')$$, '22023',
  'invalid connect4 state: control is given to red, but black is to move', 'connect four control');
SELECT throws_ok($$SELECT gametree.next('tictactoe', '[["cell",2,2,"x"],["control","oplayer"]]', '["mark",2,2]')$$,
  '22023', 'illegal tictactoe move ["mark", 2, 2]: not a legal action of role "oplayer"', 'occupied cell');
SELECT throws_ok($$SELECT gametree.next('tictactoe', gametree.initial('tictactoe'),
  '[["does","xplayer",["mark",1,1]],["does","oplayer",["mark",1,2]]]')$$, '22023',
  'illegal tictactoe move [["does", "xplayer", ["mark", 1, 1]], ["does", "oplayer", ["mark", 1, 2]]]: role "oplayer" is not in control and must do "noop"',
  'a role out of turn');
SELECT throws_ok($$SELECT gametree.next('connect4', '[["cell",1,1,"red"],["cell",1,2,"black"],["cell",1,3,"red"],
  ["cell",1,4,"black"],["cell",1,5,"red"],["cell",1,6,"black"],["control","red"]]', '["drop",1]')$$, '22023',
  'illegal connect4 move ["drop", 1]: not a legal action of role "red"', 'a full column');
SELECT throws_ok($$SELECT gametree.perft('connect4', gametree.initial('connect4'), -1)$$, '22023',
  'perft depth must be between 0 and 1000, not -1', 'negative depth');

-- a cancel is not caught by throws_ok (WHEN OTHERS), so catch it here
CREATE FUNCTION pg_temp.perft_cancelled() RETURNS boolean LANGUAGE plpgsql AS $f$
BEGIN
  PERFORM gametree.perft('connect4', gametree.initial('connect4'), 14);
  RETURN false;
EXCEPTION WHEN query_canceled THEN
  RETURN true;
END $f$;
SET LOCAL statement_timeout = '300ms';
SELECT ok(pg_temp.perft_cancelled(), 'perft stops at statement_timeout');
RESET statement_timeout;

-- A state of two million facts is refused before anything is allocated for them
SELECT throws_ok($$SELECT gametree.heuristic('checkers', (SELECT jsonb_agg(NULL::int) FROM generate_series(1, 2097152)))$$,
                 '22023', 'invalid checkers state: 2097152 facts, more than any position has (1024)',
                 'a state of 2M facts: 22023, not an out-of-memory XX000');

SELECT * FROM finish();
ROLLBACK;
