-- connect four through the game interface
SELECT gametree.initial('connect4');
SELECT gametree.legal('connect4', gametree.initial('connect4'));

-- discs fall to the lowest empty cell
SELECT gametree.board('connect4',
  gametree.next('connect4', gametree.next('connect4', gametree.next('connect4',
    gametree.initial('connect4'), '["drop",4]'), '["drop",4]'), '["drop",3]'));
SELECT gametree.next('connect4', gametree.initial('connect4'),
                     '[["does","red",["drop",4]],["does","black","noop"]]');

-- red wins with a vertical four; a full column is no longer legal
\set red_wins '[["cell",1,1,"red"],["cell",1,2,"red"],["cell",1,3,"red"],["cell",2,1,"black"],["cell",2,2,"black"],["cell",2,3,"black"],["control","red"]]'
SELECT s AS after, gametree.terminal('connect4', s), gametree.goal('connect4', s),
       gametree.control('connect4', s)
FROM gametree.next('connect4', :'red_wins', '["drop",1]') s;
SELECT array_agg(m) FROM gametree.legal('connect4',
  '[["cell",1,1,"red"],["cell",1,2,"black"],["cell",1,3,"red"],["cell",1,4,"black"],["cell",1,5,"red"],["cell",1,6,"black"],["control","red"]]') m;
-- diagonal four for black
SELECT gametree.goal('connect4',
  '[["cell",1,1,"black"],["cell",2,1,"red"],["cell",2,2,"black"],["cell",3,1,"red"],["cell",3,2,"red"],
    ["cell",3,3,"black"],["cell",4,1,"red"],["cell",4,2,"black"],["cell",4,3,"red"],["cell",4,4,"black"]]');

-- perft 0..8 by both rules (test/data/perft.tsv keeps both): at depth 8 the
-- 13032 lines won by red at ply 7 count as leaves only with include_terminal.
SELECT d, gametree.perft('connect4', gametree.initial('connect4'), d) AS perft,
       gametree.perft('connect4', gametree.initial('connect4'), d, include_terminal => true) AS with_early_ends
FROM generate_series(0, 8) d;
-- a line that ends early is not counted at the deeper ply
SELECT gametree.perft('connect4', :'red_wins', 1) AS d1, gametree.perft('connect4', :'red_wins', 2) AS d2;

WITH a AS (SELECT gametree.next('connect4', gametree.next('connect4', gametree.next('connect4',
              gametree.initial('connect4'), '["drop",1]'), '["drop",2]'), '["drop",3]') AS s),
     b AS (SELECT gametree.next('connect4', gametree.next('connect4', gametree.next('connect4',
              gametree.initial('connect4'), '["drop",3]'), '["drop",2]'), '["drop",1]') AS s)
SELECT a.s = b.s AS same_state,
       gametree.state_hash('connect4', a.s) = gametree.state_hash('connect4', b.s) AS same_hash
FROM a, b;
