-- checkers perft against the published counts (test/data/perft.tsv, loaded by
-- tools/check.sh) and, for positions with kings, against rapid-draughts
BEGIN;
SELECT plan(3);

SELECT results_eq(
  $$SELECT depth, gametree.perft('checkers', gametree.initial('checkers'), depth)
    FROM reference_perft WHERE game = 'checkers' AND depth <= 9 ORDER BY depth$$,
  $$SELECT depth, count FROM reference_perft WHERE game = 'checkers' AND depth <= 9 ORDER BY depth$$,
  'checkers perft 1..9 equals the reference');

-- Positions reached by random play; counts from the npm package rapid-draughts 1.0.6.
SELECT results_eq(
  $$SELECT fen, gametree.perft('checkers', gametree.from_fen('checkers', fen), 4)
    FROM (VALUES ('B:W17,18,19,23,27,28,29,30,32:B1,2,3,4,5,7,9,11,12,16,K31'), ('W:WK1,K10:B21,K26'),
                 ('W:WK1,K3:BK6'), ('B:WK3,K4,K26:BK5'), ('W:WK4,19,25,26,29,30,31:B5,7,10,14'),
                 ('W:WK1:BK19,21,K23,K24,K30,K31'), ('B:WK6,K8:BK1')) v(fen) ORDER BY fen$$,
  $$VALUES ('B:W17,18,19,23,27,28,29,30,32:B1,2,3,4,5,7,9,11,12,16,K31', 383::bigint),
           ('B:WK3,K4,K26:BK5', 288), ('B:WK6,K8:BK1', 29), ('W:WK1,K10:B21,K26', 724),
           ('W:WK1,K3:BK6', 0), ('W:WK1:BK19,21,K23,K24,K30,K31', 980),
           ('W:WK4,19,25,26,29,30,31:B5,7,10,14', 909)$$,
  'perft 4 of positions with kings equals rapid-draughts');

-- The fast path counts like the generic one: perft(d) is the sum over the
-- successors of perft(d - 1).
SELECT is(
  (SELECT sum(gametree.perft('checkers', gametree.next('checkers', s, m), 4))
   FROM gametree.from_fen('checkers', 'W:WK4,19,25,26,29,30,31:B5,7,10,14') s,
        gametree.legal('checkers', s) m),
  gametree.perft('checkers', gametree.from_fen('checkers', 'W:WK4,19,25,26,29,30,31:B5,7,10,14'), 5)::numeric,
  'perft 5 is the sum of perft 4 over the successors');

SELECT * FROM finish();
ROLLBACK;
