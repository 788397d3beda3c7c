\pset footer off
\echo '--- the games this server knows'
SELECT game, roles, description FROM gametree.games();

\echo '--- tic-tac-toe: a position, its legal joint moves, the next state'
\set s '[["cell",1,1,"x"],["cell",2,2,"o"],["cell",1,2,"x"],["control","oplayer"]]'
SELECT gametree.board('tictactoe', :'s');
SELECT gametree.legal('tictactoe', :'s') AS legal_joint_moves;
SELECT gametree.next('tictactoe', :'s', '[["does","xplayer","noop"],["does","oplayer",["mark",1,3]]]') AS next_state;

\echo '--- connect four: the board after three moves and its successors'
SELECT gametree.board('connect4',
  gametree.next('connect4', gametree.next('connect4', gametree.next('connect4',
    gametree.initial('connect4'), '["drop",4]'), '["drop",4]'), '["drop",5]'));

\echo '--- perft: leaf nodes of the move tree from the initial state'
SELECT d AS depth,
       gametree.perft('tictactoe', gametree.initial('tictactoe'), d) AS tictactoe,
       gametree.perft('connect4', gametree.initial('connect4'), d) AS connect4
FROM generate_series(1, 8) d;
