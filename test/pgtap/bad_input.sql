-- Bad input: an ERROR with a specific SQLSTATE, a message that names the
-- problem, and the DETAIL and HINT that help.  Each report is compared
-- whole, as psql prints it (pg_temp.report), or by SQLSTATE and message
-- (throws_ok).  Every game's own bad input: <game>_bad_input.sql; what every
-- game must refuse alike: conformance.sql.
BEGIN;
SELECT plan(28);

-- 'no error', or the error sql raises as "SQLSTATE: message", then its
-- DETAIL and HINT lines as psql prints them (a cancel by statement_timeout too).
CREATE FUNCTION pg_temp.report(sql text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE
  state text;
  message text;
  detail text;
  hint text;
BEGIN
  EXECUTE sql;
  RETURN 'no error';
EXCEPTION WHEN OTHERS OR query_canceled THEN
  GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT,
                          detail = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT;
  RETURN state || ': ' || message || coalesce(E'\nDETAIL:  ' || nullif(detail, ''), '')
                                  || coalesce(E'\nHINT:  ' || nullif(hint, ''), '');
END $f$;

-- an unknown game
SELECT is(pg_temp.report($$SELECT gametree.initial('chesss')$$), $$22023: unknown game "chesss"
HINT:  Known games: tictactoe, connect4, chess, checkers. SELECT * FROM gametree.games() lists them.$$,
  'unknown game');

-- states that are no array of facts
SELECT is(pg_temp.report($$SELECT gametree.legal('tictactoe', '{"cell": 1}')$$), $$22P02: invalid tictactoe state: not a JSON array
HINT:  A state is a JSON array of facts such as [["control", "xplayer"], ...]; gametree.initial('tictactoe') shows one.$$,
  'state that is not an array');
SELECT is(pg_temp.report($$SELECT gametree.legal('tictactoe', '"x"')$$), $$22P02: invalid tictactoe state: not a JSON array
HINT:  A state is a JSON array of facts such as [["control", "xplayer"], ...]; gametree.initial('tictactoe') shows one.$$,
  'state that is a string');
SELECT is(pg_temp.report($$SELECT gametree.legal('tictactoe', '[["cell",1,1,"x"], 7]')$$), $$22P02: invalid tictactoe state: element 2 is not a fact (a non-empty JSON array)
HINT:  A state is a JSON array of facts such as [["control", "xplayer"], ...]; gametree.initial('tictactoe') shows one.$$,
  'element that is not a fact');
SELECT is(pg_temp.report($$SELECT gametree.legal('tictactoe', '[[1,1,"x"]]')$$), $$22P02: invalid tictactoe state: fact 1 does not start with a relation name (a string)
HINT:  A state is a JSON array of facts such as [["control", "xplayer"], ...]; gametree.initial('tictactoe') shows one.$$,
  'fact without a relation name');

-- facts the game does not have
SELECT is(pg_temp.report($$SELECT gametree.legal('tictactoe', '[["square",1,1,"x"],["control","xplayer"]]')$$), $$22023: invalid tictactoe state: unknown fact "square" with 3 arguments
DETAIL:  Fact 1 is ["square", 1, 1, "x"].$$,
  'unknown fact');
SELECT is(pg_temp.report($$SELECT gametree.legal('tictactoe', '[["cell",1,4,"x"],["control","oplayer"]]')$$), $$22023: invalid tictactoe state: argument 3 must be an integer from 1 to 3
DETAIL:  Fact 1 is ["cell", 1, 4, "x"].$$,
  'value out of range');
SELECT is(pg_temp.report($$SELECT gametree.legal('tictactoe', '[["cell",1,1,"z"],["control","oplayer"]]')$$), $$22023: invalid tictactoe state: argument 4 must be one of "x", "o", "b"
DETAIL:  Fact 1 is ["cell", 1, 1, "z"].$$,
  'mark that is neither x, o nor b');
SELECT is(pg_temp.report($$SELECT gametree.legal('tictactoe', '[["cell",1,1,"x"],["cell",1,1,"o"],["control","oplayer"]]')$$),
  $$22023: invalid tictactoe state: cell (1, 1) is given twice$$,
  'a cell given twice');
SELECT is(pg_temp.report($$SELECT gametree.legal('connect4', '[["cell",8,1,"red"],["control","black"]]')$$), $$22023: invalid connect4 state: argument 2 must be an integer from 1 to 7
DETAIL:  Fact 1 is ["cell", 8, 1, "red"].$$,
  'connect four column out of range');

-- positions play cannot reach
SELECT is(pg_temp.report($$SELECT gametree.legal('tictactoe', '[["cell",1,1,"x"],["cell",1,2,"x"],["cell",1,3,"x"],
  ["cell",2,1,"x"],["cell",3,3,"x"],["cell",2,2,"o"],["cell",2,3,"o"]]')$$),
  $$22023: invalid tictactoe state: 5 x's and 2 o's cannot arise, since xplayer moves first and they alternate$$,
  'five x''s and two o''s');
SELECT is(pg_temp.report($$SELECT gametree.legal('tictactoe', '[["cell",1,1,"x"],["control","xplayer"]]')$$),
  $$22023: invalid tictactoe state: control is given to xplayer, but oplayer is to move$$,
  'control to the wrong side');
SELECT is(pg_temp.report($$SELECT gametree.legal('tictactoe', '[["cell",1,1,"x"]]')$$),
  $$22023: invalid tictactoe state: the control fact is missing (oplayer is to move)$$,
  'control missing');
SELECT is(pg_temp.report($$SELECT gametree.legal('tictactoe', '[["cell",1,1,"x"],["cell",1,2,"x"],["cell",1,3,"x"],
  ["cell",2,1,"o"],["cell",2,2,"o"],["control","oplayer"]]')$$),
  $$22023: invalid tictactoe state: play has ended, but control is given to oplayer$$,
  'ended, but control says otherwise');
SELECT is(pg_temp.report($$SELECT gametree.legal('tictactoe', '[["cell",1,1,"x"],["cell",1,2,"x"],["cell",1,3,"x"],
  ["cell",2,1,"o"],["cell",2,2,"o"],["cell",3,3,"o"]]')$$),
  $$22023: invalid tictactoe state: play went on after the game had ended$$,
  'move after the end');
SELECT is(pg_temp.report($$SELECT gametree.legal('connect4', '[["cell",3,2,"red"],["control","black"]]')$$),
  $$22023: invalid connect4 state: the disc at (3, 2) floats above an empty cell$$,
  'floating disc');
SELECT throws_ok($$SELECT gametree.legal('connect4', '[["cell",1,1,"red"],["control","red"]]')$$, '22023',
  'invalid connect4 state: control is given to red, but black is to move', 'connect four control');

-- illegal moves: occupied cell, not a joint move, wrong role acting, noop by the mover, no move left
SELECT is(pg_temp.report($$SELECT gametree.next('tictactoe', '[["cell",2,2,"x"],["control","oplayer"]]', '["mark",2,2]')$$), $$22023: illegal tictactoe move ["mark", 2, 2]: not a legal action of role "oplayer"
HINT:  SELECT gametree.legal('tictactoe', state) lists the legal joint moves.$$,
  'occupied cell');
SELECT is(pg_temp.report($$SELECT gametree.next('tictactoe', gametree.initial('tictactoe'), '[["does","oplayer",["mark",1,1]],["does","xplayer","noop"]]')$$), $$22023: illegal tictactoe move [["does", "oplayer", ["mark", 1, 1]], ["does", "xplayer", "noop"]]: entry 1 must be the move of role "xplayer"
HINT:  SELECT gametree.legal('tictactoe', state) lists the legal joint moves.$$,
  'joint move in the wrong order');
SELECT is(pg_temp.report($$SELECT gametree.next('tictactoe', gametree.initial('tictactoe'), '[["does","xplayer",["mark",1,1]],["does","oplayer",["mark",1,2]]]')$$), $$22023: illegal tictactoe move [["does", "xplayer", ["mark", 1, 1]], ["does", "oplayer", ["mark", 1, 2]]]: role "oplayer" is not in control and must do "noop"
HINT:  SELECT gametree.legal('tictactoe', state) lists the legal joint moves.$$,
  'a role out of turn');
SELECT is(pg_temp.report($$SELECT gametree.next('tictactoe', gametree.initial('tictactoe'), '[["does","xplayer","noop"],["does","oplayer","noop"]]')$$), $$22023: illegal tictactoe move [["does", "xplayer", "noop"], ["does", "oplayer", "noop"]]: not a legal action of role "xplayer"
HINT:  SELECT gametree.legal('tictactoe', state) lists the legal joint moves.$$,
  'noop by the role in control');
SELECT is(pg_temp.report($$SELECT gametree.next('connect4', gametree.initial('connect4'), '["drop",0]')$$), $$22023: illegal connect4 move ["drop", 0]: not a legal action of role "red"
HINT:  SELECT gametree.legal('connect4', state) lists the legal joint moves.$$,
  'connect four column 0');
SELECT throws_ok($$SELECT gametree.next('connect4', '[["cell",1,1,"red"],["cell",1,2,"black"],["cell",1,3,"red"],
  ["cell",1,4,"black"],["cell",1,5,"red"],["cell",1,6,"black"],["control","red"]]', '["drop",1]')$$, '22023',
  'illegal connect4 move ["drop", 1]: not a legal action of role "red"', 'a full column');
SELECT is(pg_temp.report($$SELECT gametree.next('tictactoe', '[["cell",1,1,"x"],["cell",1,2,"x"],["cell",1,3,"x"],["cell",2,1,"o"],["cell",2,2,"o"]]', '["mark",3,3]')$$), $$22023: illegal tictactoe move ["mark", 3, 3]: the state is terminal
HINT:  SELECT gametree.legal('tictactoe', state) lists the legal joint moves.$$,
  'a move after the end');

-- perft: a negative depth, and a cancel
SELECT is(pg_temp.report($$SELECT gametree.perft('tictactoe', gametree.initial('tictactoe'), -1)$$),
  $$22023: perft depth must be between 0 and 1000, not -1$$,
  'negative depth');
SELECT throws_ok($$SELECT gametree.perft('connect4', gametree.initial('connect4'), -1)$$, '22023',
  'perft depth must be between 0 and 1000, not -1', 'negative depth, connect four');
SET LOCAL statement_timeout = '300ms';
SELECT is(pg_temp.report($$SELECT gametree.perft('connect4', gametree.initial('connect4'), 14)$$),
  $$57014: canceling statement due to statement timeout$$,
  'perft stops at statement_timeout');
RESET statement_timeout;

-- A state of two million facts is refused before anything is allocated for them
SELECT throws_ok($$SELECT gametree.heuristic('checkers', (SELECT jsonb_agg(NULL::int) FROM generate_series(1, 2097152)))$$,
                 '22023', 'invalid checkers state: 2097152 facts, more than any position has (1024)',
                 'a state of 2M facts: 22023, not an out-of-memory XX000');

SELECT * FROM finish();
ROLLBACK;
