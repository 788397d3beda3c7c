-- chess perft against the published counts in test/data/perft.tsv (loaded by tools/check.sh)
BEGIN;
SELECT plan(4);

SELECT results_eq(
  $$SELECT depth, gametree.perft('chess', gametree.from_fen('chess', position), depth)
    FROM reference_perft WHERE game = 'chess' AND name = 'start' AND depth <= 5 ORDER BY depth$$,
  $$SELECT depth, count FROM reference_perft WHERE game = 'chess' AND name = 'start' AND depth <= 5 ORDER BY depth$$,
  'chess perft 1..5 of the start position equals the reference');

SELECT results_eq(
  $$SELECT depth, gametree.perft('chess', gametree.from_fen('chess', position), depth)
    FROM reference_perft WHERE game = 'chess' AND name = 'kiwipete' AND depth <= 4 ORDER BY depth$$,
  $$SELECT depth, count FROM reference_perft WHERE game = 'chess' AND name = 'kiwipete' AND depth <= 4 ORDER BY depth$$,
  'chess perft 1..4 of kiwipete equals the reference');

SELECT results_eq(
  $$SELECT depth, gametree.perft('chess', gametree.from_fen('chess', position), depth)
    FROM reference_perft WHERE game = 'chess' AND name = 'position3' AND depth <= 5 ORDER BY depth$$,
  $$SELECT depth, count FROM reference_perft WHERE game = 'chess' AND name = 'position3' AND depth <= 5 ORDER BY depth$$,
  'chess perft 1..5 of position 3 equals the reference');

-- include_terminal takes the generic path through legal() and next(); no
-- game ends within kiwipete's first two plies, so both count alike
SELECT is(gametree.perft('chess', gametree.from_fen('chess', position), 3),
          gametree.perft('chess', gametree.from_fen('chess', position), 3, include_terminal => true),
          'the fast path counts as the generic perft')
FROM reference_perft WHERE game = 'chess' AND name = 'kiwipete' AND depth = 1;

SELECT * FROM finish();
ROLLBACK;
