-- tic-tac-toe through the game interface: states, joint moves, goals, perft
SELECT game, roles FROM gametree.games() WHERE game IN ('tictactoe', 'connect4') ORDER BY game;

SELECT gametree.initial('tictactoe');
SELECT gametree.board('tictactoe', gametree.initial('tictactoe'));
SELECT gametree.control('tictactoe', gametree.initial('tictactoe'));

-- legal joint moves, row-major order
SELECT gametree.legal('tictactoe', gametree.initial('tictactoe'));

-- next() takes the joint move or the bare action of the role in control
SELECT gametree.next('tictactoe', gametree.initial('tictactoe'),
                     '[["does","xplayer",["mark",2,2]],["does","oplayer","noop"]]')
     = gametree.next('tictactoe', gametree.initial('tictactoe'), '["mark",2,2]') AS same_next;

SELECT move, gametree.board('tictactoe', next) AS board
FROM gametree.successors('tictactoe',
  '[["cell",1,1,"x"],["cell",1,2,"x"],["cell",1,3,"b"],
    ["cell",2,1,"o"],["cell",2,2,"o"],["cell",2,3,"b"],
    ["cell",3,1,"x"],["cell",3,2,"o"],["cell",3,3,"b"],["control","xplayer"]]');

-- a won position: terminal, goals, no control, no moves
\set won '[["cell",1,1,"x"],["cell",1,2,"x"],["cell",1,3,"x"],["cell",2,1,"o"],["cell",2,2,"o"]]'
SELECT gametree.terminal('tictactoe', :'won'), gametree.goal('tictactoe', :'won'),
       gametree.control('tictactoe', :'won') IS NULL AS no_control,
       (SELECT count(*) FROM gametree.legal('tictactoe', :'won')) AS moves;
-- a drawn position
\set drawn '[["cell",1,1,"x"],["cell",1,2,"o"],["cell",1,3,"x"],["cell",2,1,"x"],["cell",2,2,"o"],["cell",2,3,"o"],["cell",3,1,"o"],["cell",3,2,"x"],["cell",3,3,"x"]]'
SELECT gametree.terminal('tictactoe', :'drawn'), gametree.goal('tictactoe', :'drawn');
SELECT gametree.goal('tictactoe', gametree.initial('tictactoe')) IS NULL AS no_goal_yet;

-- decoding accepts any fact order and omitted blanks, and re-encodes canonically
SELECT gametree.next('tictactoe', '[["control","oplayer"],["cell",2,2,"x"]]', '["mark",1,1]');

-- perft 0..9 (published: 1 9 72 504 3024 15120 54720 148176 200448 127872)
SELECT d, gametree.perft('tictactoe', gametree.initial('tictactoe'), d)
FROM generate_series(0, 10) d;
-- counting lines that end early gives the 255168 complete games
SELECT gametree.perft('tictactoe', gametree.initial('tictactoe'), 9, include_terminal => true) AS games;

-- transpositions: two move orders, one encoding, one hash
WITH a AS (SELECT gametree.next('tictactoe', gametree.next('tictactoe', gametree.next('tictactoe',
              gametree.initial('tictactoe'), '["mark",1,1]'), '["mark",2,2]'), '["mark",3,3]') AS s),
     b AS (SELECT gametree.next('tictactoe', gametree.next('tictactoe', gametree.next('tictactoe',
              gametree.initial('tictactoe'), '["mark",3,3]'), '["mark",2,2]'), '["mark",1,1]') AS s)
SELECT a.s = b.s AS same_state,
       gametree.state_hash('tictactoe', a.s) = gametree.state_hash('tictactoe', b.s) AS same_hash,
       gametree.state_hash('tictactoe', a.s)
FROM a, b;
-- the hash is stable across runs, builds and machines
SELECT gametree.state_hash('tictactoe', gametree.initial('tictactoe'));
