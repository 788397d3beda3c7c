\pset footer off
\echo '=== the games this server knows'
SELECT game, roles, description FROM gametree.games();

\echo '=== tic-tac-toe: a position, its legal joint moves, the next state'
\set s '[["cell",1,1,"x"],["cell",2,2,"o"],["cell",1,2,"x"],["control","oplayer"]]'
\pset tuples_only on
\pset format unaligned
SELECT gametree.board('tictactoe', :'s');
\pset format aligned
\pset tuples_only off
SELECT gametree.legal('tictactoe', :'s') AS legal_joint_moves;
SELECT gametree.next('tictactoe', :'s', '[["does","xplayer","noop"],["does","oplayer",["mark",1,3]]]') AS next_state;

\echo '=== connect four after three moves'
\pset tuples_only on
\pset format unaligned
SELECT gametree.board('connect4',
  gametree.next('connect4', gametree.next('connect4', gametree.next('connect4',
    gametree.initial('connect4'), '["drop",4]'), '["drop",4]'), '["drop",5]'));

\echo '=== chess: kiwipete (FEN), its board and 48 legal moves'
\set kiwi 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'
SELECT gametree.board('chess', gametree.from_fen('chess', :'kiwi'));
SELECT string_agg(m -> 0 -> 2 ->> 1 || '-' || (m -> 0 -> 2 ->> 2) || coalesce(m -> 0 -> 2 ->> 3, ''), ' ')
FROM gametree.legal('chess', gametree.from_fen('chess', :'kiwi')) m;
\echo '--- after castling kingside (UCI e1g1), as FEN'
SELECT gametree.to_fen('chess', gametree.next('chess', gametree.from_fen('chess', :'kiwi'), '"e1g1"'));

\echo '=== checkers: the initial position and its legal moves'
SELECT gametree.board('checkers', gametree.initial('checkers'));
SELECT string_agg(m -> 0 -> 2 ->> 1 || '-' || (m -> 0 -> 2 ->> 2), ' ')
FROM gametree.legal('checkers', gametree.initial('checkers')) m;
\echo '--- after 11-15 (PDN), as PDN FEN'
SELECT gametree.to_fen('checkers', gametree.next('checkers', gametree.initial('checkers'), '"11-15"'));
\pset format aligned
\pset tuples_only off

\echo '=== perft: leaf nodes of the move tree from the initial state'
SELECT d AS depth,
       gametree.perft('tictactoe', gametree.initial('tictactoe'), d) AS tictactoe,
       gametree.perft('connect4', gametree.initial('connect4'), d) AS connect4,
       gametree.perft('chess', gametree.initial('chess'), d) AS chess,
       gametree.perft('checkers', gametree.initial('checkers'), d) AS checkers
FROM generate_series(1, 6) d;

\echo '=== a tree: tic-tac-toe grown in full and solved in tables'
\o /dev/null
SET client_min_messages = warning;
SELECT gametree.drop_tree(name) FROM gametree.trees WHERE name = 'demo_ttt';
SELECT gametree.create_tree('demo_ttt', 'tictactoe');
CALL gametree.grow('demo_ttt');
RESET client_min_messages;
\o
SELECT states, edges, moves, terminal, proven, root_utility, root_mobility, root_proven
FROM gametree.tree_stats('demo_ttt');
\echo '--- the expected line of play from the root (a draw)'
SELECT ply, move -> (CASE WHEN ply % 2 = 0 THEN 0 ELSE 1 END) -> 2 AS action, utility, proven
FROM gametree.principal_variation('demo_ttt', (SELECT root_id FROM gametree.trees WHERE name = 'demo_ttt'));
\echo '--- positions per depth, and who wins where'
SELECT * FROM gametree.depth_stats('demo_ttt');
SELECT * FROM gametree.outcomes('demo_ttt');
\echo '--- plain SQL over the graph: distinct positions reached by a move'
SELECT count(DISTINCT next_id) FROM demo_ttt_graph;
