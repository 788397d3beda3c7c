-- every kind of bad input is an ERROR with a SQLSTATE, a message naming the problem and a hint
\set VERBOSITY default
CREATE FUNCTION pg_temp.sqlstate_of(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE query;
  RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE;
END $$;

SELECT gametree.initial('chesss');
SELECT gametree.legal('tictactoe', '{"cell": 1}');
SELECT gametree.legal('tictactoe', '"x"');
SELECT gametree.legal('tictactoe', '[["cell",1,1,"x"], 7]');
SELECT gametree.legal('tictactoe', '[[1,1,"x"]]');
SELECT gametree.legal('tictactoe', '[["square",1,1,"x"],["control","xplayer"]]');
SELECT gametree.legal('tictactoe', '[["cell",1,4,"x"],["control","oplayer"]]');
SELECT gametree.legal('tictactoe', '[["cell",1,1,"z"],["control","oplayer"]]');
SELECT gametree.legal('tictactoe', '[["cell",1,1,"x"],["cell",1,1,"o"],["control","oplayer"]]');
-- five x's and two o's
SELECT gametree.legal('tictactoe', '[["cell",1,1,"x"],["cell",1,2,"x"],["cell",1,3,"x"],["cell",2,1,"x"],
  ["cell",3,3,"x"],["cell",2,2,"o"],["cell",2,3,"o"]]');
-- control given to the wrong side, or missing
SELECT gametree.legal('tictactoe', '[["cell",1,1,"x"],["control","xplayer"]]');
SELECT gametree.legal('tictactoe', '[["cell",1,1,"x"]]');
-- play has ended, but control says otherwise
SELECT gametree.legal('tictactoe', '[["cell",1,1,"x"],["cell",1,2,"x"],["cell",1,3,"x"],["cell",2,1,"o"],
  ["cell",2,2,"o"],["control","oplayer"]]');
-- o moved after x had already won
SELECT gametree.legal('tictactoe', '[["cell",1,1,"x"],["cell",1,2,"x"],["cell",1,3,"x"],["cell",2,1,"o"],
  ["cell",2,2,"o"],["cell",3,3,"o"]]');
-- a floating connect four disc
SELECT gametree.legal('connect4', '[["cell",3,2,"red"],["control","black"]]');
SELECT gametree.legal('connect4', '[["cell",8,1,"red"],["control","black"]]');
-- illegal moves: occupied cell, not a joint move, wrong role acting, noop by the mover
SELECT gametree.next('tictactoe', '[["cell",2,2,"x"],["control","oplayer"]]', '["mark",2,2]');
SELECT gametree.next('tictactoe', gametree.initial('tictactoe'), '[["does","oplayer",["mark",1,1]],["does","xplayer","noop"]]');
SELECT gametree.next('tictactoe', gametree.initial('tictactoe'), '[["does","xplayer",["mark",1,1]],["does","oplayer",["mark",1,2]]]');
SELECT gametree.next('tictactoe', gametree.initial('tictactoe'), '[["does","xplayer","noop"],["does","oplayer","noop"]]');
SELECT gametree.next('connect4', gametree.initial('connect4'), '["drop",0]');
SELECT gametree.next('tictactoe', '[["cell",1,1,"x"],["cell",1,2,"x"],["cell",1,3,"x"],["cell",2,1,"o"],["cell",2,2,"o"]]', '["mark",3,3]');
-- negative depth
SELECT gametree.perft('tictactoe', gametree.initial('tictactoe'), -1);

-- the SQLSTATE of each
SELECT q, pg_temp.sqlstate_of(q) FROM (VALUES
  ($$SELECT gametree.initial('chesss')$$),
  ($$SELECT gametree.legal('tictactoe', '{"cell": 1}')$$),
  ($$SELECT gametree.legal('tictactoe', '[[1,1,"x"]]')$$),
  ($$SELECT gametree.legal('tictactoe', '[["cell",1,4,"x"],["control","oplayer"]]')$$),
  ($$SELECT gametree.legal('tictactoe', '[["cell",1,1,"x"],["control","xplayer"]]')$$),
  ($$SELECT gametree.legal('connect4', '[["cell",3,2,"red"],["control","black"]]')$$),
  ($$SELECT gametree.next('connect4', gametree.initial('connect4'), '["drop",0]')$$),
  ($$SELECT gametree.perft('tictactoe', gametree.initial('tictactoe'), -1)$$)
) v(q);

-- perft stops on statement_timeout
SET statement_timeout = '200ms';
SELECT gametree.perft('connect4', gametree.initial('connect4'), 14);
RESET statement_timeout;
