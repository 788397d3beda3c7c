-- perft against the published counts in ../shared/reference (loaded by tools/check.sh)
BEGIN;
SELECT plan(4);

SELECT results_eq(
  $$SELECT depth, gametree.perft('tictactoe', gametree.initial('tictactoe'), depth)
    FROM reference_perft WHERE game = 'tictactoe' ORDER BY depth$$,
  $$SELECT depth, count FROM reference_perft WHERE game = 'tictactoe' ORDER BY depth$$,
  'tic-tac-toe perft 1..9 equals the reference');

SELECT is(gametree.perft('tictactoe', gametree.initial('tictactoe'), 9, include_terminal => true),
          255168::bigint, 'tic-tac-toe has 255,168 complete games');

-- connect4.tsv counts a line that ends before the last ply as one leaf (its
-- depth 8 exceeds the strict count by the 13,032 lines red wins at ply 7).
SELECT results_eq(
  $$SELECT depth, gametree.perft('connect4', gametree.initial('connect4'), depth, include_terminal => true)
    FROM reference_perft WHERE game = 'connect4' ORDER BY depth$$,
  $$SELECT depth, count FROM reference_perft WHERE game = 'connect4' ORDER BY depth$$,
  'connect four perft 1..8 equals the reference');

SELECT results_eq(
  $$SELECT depth, gametree.perft('connect4', gametree.initial('connect4'), depth)
    FROM reference_perft WHERE game = 'connect4' AND depth <= 7 ORDER BY depth$$,
  $$SELECT depth, count FROM reference_perft WHERE game = 'connect4' AND depth <= 7 ORDER BY depth$$,
  'connect four strict perft 1..7 equals the reference (no line ends before ply 7)');

SELECT * FROM finish();
ROLLBACK;
