-- checkers (English draughts) through the game interface
SELECT gametree.initial('checkers');
SELECT gametree.board('checkers', gametree.initial('checkers'));
SELECT gametree.legal('checkers', gametree.initial('checkers'));
SELECT gametree.control('checkers', gametree.initial('checkers')),
       gametree.terminal('checkers', gametree.initial('checkers'));

-- the same move as a jsonb action, a joint move and PDN text
SELECT gametree.next('checkers', gametree.initial('checkers'), '["move",9,13]')
     = gametree.next('checkers', gametree.initial('checkers'), '"9-13"') AS pdn_same,
       gametree.next('checkers', gametree.initial('checkers'),
                     '[["does","black",["move",9,13]],["does","white","noop"]]')
     = gametree.next('checkers', gametree.initial('checkers'), '"9-13"') AS joint_same;
SELECT gametree.to_fen('checkers', gametree.next('checkers', gametree.initial('checkers'), '"11-15"'));

-- a capture is mandatory: 14x23 is the only move, and taking the last white piece wins
SELECT m FROM gametree.legal('checkers', gametree.from_fen('checkers', 'B:W18:B1,14')) m;
SELECT gametree.next('checkers', gametree.from_fen('checkers', 'B:W18:B1,14'), '"1-6"');
SELECT s AS after, gametree.terminal('checkers', s), gametree.goal('checkers', s),
       gametree.control('checkers', s)
FROM gametree.next('checkers', gametree.from_fen('checkers', 'B:W18:B1,14'), '"14x23"') s;

-- a multi-jump is one move; the two paths from 1 stay distinct
SELECT gametree.board('checkers', gametree.from_fen('checkers', 'B:W6,14,15,24:B1'));
SELECT m FROM gametree.legal('checkers', gametree.from_fen('checkers', 'B:W6,14,15,24:B1')) m;
SELECT gametree.to_fen('checkers', gametree.next('checkers', gametree.from_fen('checkers', 'B:W6,14,15,24:B1'), a))
FROM (VALUES ('["jump",1,10,19,28]'::jsonb), ('"1x10x19x28"'), ('"1x28"'), ('"1x17"')) v(a);
SELECT gametree.next('checkers', gametree.from_fen('checkers', 'B:W6,14,15,24:B1'), '"1x10"');

-- a man that reaches the far row is crowned and his move ends there,
-- although as a king he could go on over 27
SELECT m FROM gametree.legal('checkers', gametree.from_fen('checkers', 'B:W26,27:B22')) m;
SELECT gametree.board('checkers', s), gametree.to_fen('checkers', s)
FROM gametree.next('checkers', gametree.from_fen('checkers', 'B:W26,27:B22'), '"22x31"') s;

-- a side without a legal move loses
SELECT gametree.legal('checkers', gametree.from_fen('checkers', 'W:W29:B22,25'));
SELECT gametree.terminal('checkers', s), gametree.goal('checkers', s), gametree.control('checkers', s),
       gametree.perft('checkers', s, 1) AS perft1
FROM gametree.from_fen('checkers', 'W:W29:B22,25') s;
SELECT gametree.board('checkers', gametree.from_fen('checkers', 'W:W29:B22,25'));

-- the draw rule: 80 plies of king steps end the game 50/50; a man's move
-- or a capture resets the clock
SELECT s AS after, gametree.terminal('checkers', s), gametree.goal('checkers', s),
       gametree.control('checkers', s), gametree.to_fen('checkers', s)
FROM gametree.next('checkers', gametree.from_fen('checkers', 'B:WK32:BK1:H79'), '"1-6"') s;
SELECT gametree.to_fen('checkers', gametree.next('checkers', gametree.from_fen('checkers', 'B:WK32:BK1,12:H79'), '"12-16"'));
SELECT gametree.legal('checkers', gametree.from_fen('checkers', 'W:WK32:BK6:H80'));
SELECT gametree.board('checkers', gametree.from_fen('checkers', 'W:WK32:BK6:H80'));

-- kings move both ways; facts in any order decode to the same state
SELECT m FROM gametree.legal('checkers', '[["control","white"],["cell",18,"white","king"],["cell",1,"black","man"]]') m;
SELECT gametree.to_fen('checkers', '[["clock",3],["cell",18,"white","king"],["control","white"],["cell",1,"black","man"]]');
SELECT gametree.from_fen('checkers', 'B:W21-32:B1-12') = gametree.initial('checkers') AS ranges;

-- PDN FEN round trips
SELECT gametree.to_fen('checkers', gametree.initial('checkers'));
SELECT f, gametree.to_fen('checkers', gametree.from_fen('checkers', f)) = f AS round_trip
FROM (VALUES ('B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12'),
             ('W:WK3,21:B1,2'), ('B:WK32:BK1,12:H79'), ('W:W:B2,3,K26'), ('B:W5,15,K20,21,26,27,29,30,32:B3,4,9,16')) v(f);
SELECT gametree.to_fen('checkers', gametree.from_fen('checkers', ' W:B1-3,K5:WK30,K31-32:F12. '));
WITH RECURSIVE walk(ply, s) AS (
  SELECT 0, gametree.initial('checkers')
  UNION ALL
  SELECT ply + 1, gametree.next('checkers', s, (SELECT m FROM gametree.legal('checkers', s) m
                                                ORDER BY m::text DESC LIMIT 1))
  FROM walk WHERE ply < 30 AND NOT gametree.terminal('checkers', s))
SELECT count(*) AS states,
       bool_and(gametree.from_fen('checkers', gametree.to_fen('checkers', s)) = s) AS state_round_trip
FROM walk;

-- a transposition reaches the same state and hash
WITH a AS (SELECT gametree.next('checkers', gametree.next('checkers', gametree.next('checkers',
              gametree.initial('checkers'), '"9-13"'), '"22-18"'), '"10-14"') AS s),
     b AS (SELECT gametree.next('checkers', gametree.next('checkers', gametree.next('checkers',
              gametree.initial('checkers'), '"10-14"'), '"22-18"'), '"9-13"') AS s)
SELECT a.s = b.s AS same_state,
       gametree.state_hash('checkers', a.s) = gametree.state_hash('checkers', b.s) AS same_hash,
       gametree.state_hash('checkers', a.s) <> gametree.state_hash('checkers', gametree.initial('checkers')) AS differs
FROM a, b;
SELECT gametree.state_hash('checkers', gametree.initial('checkers'));

-- perft: the fast path agrees with the generic one where no line ends early
SELECT d, gametree.perft('checkers', gametree.initial('checkers'), d) AS perft,
       gametree.perft('checkers', gametree.initial('checkers'), d, include_terminal => true) AS generic
FROM generate_series(0, 6) d;
SELECT gametree.perft('checkers', gametree.from_fen('checkers', 'W:WK5,K13,K30:BK1,K2,K26,K28'), 5) AS kings,
       gametree.perft('checkers', gametree.from_fen('checkers', 'W:WK5,K13,K30:BK1,K2,K26,K28'), 5, true) AS generic;
