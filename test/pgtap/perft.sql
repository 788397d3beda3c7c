-- perft against the counts in test/data/perft.tsv (loaded by tools/check.sh)
BEGIN;
SELECT plan(4);

SELECT results_eq(
  $$SELECT depth, gametree.perft('tictactoe', gametree.initial('tictactoe'), depth)
    FROM reference_perft WHERE game = 'tictactoe' ORDER BY depth$$,
  $$SELECT depth, count FROM reference_perft WHERE game = 'tictactoe' ORDER BY depth$$,
  'tic-tac-toe perft 1..9 equals the reference');

SELECT results_eq(
  $$SELECT depth, gametree.perft('tictactoe', gametree.initial('tictactoe'), depth, include_terminal => true)
    FROM reference_perft WHERE game = 'tictactoe' AND count_with_early_ends IS NOT NULL ORDER BY depth$$,
  $$SELECT depth, count_with_early_ends FROM reference_perft
    WHERE game = 'tictactoe' AND count_with_early_ends IS NOT NULL ORDER BY depth$$,
  'tic-tac-toe has 255,168 complete games');

SELECT results_eq(
  $$SELECT depth, gametree.perft('connect4', gametree.initial('connect4'), depth)
    FROM reference_perft WHERE game = 'connect4' ORDER BY depth$$,
  $$SELECT depth, count FROM reference_perft WHERE game = 'connect4' ORDER BY depth$$,
  'connect four perft 1..8 equals the reference (a line that ends early is no leaf)');

-- Red wins at ply 7 earliest: the two rules part at depth 8 by 13,032 lines.
SELECT results_eq(
  $$SELECT depth, gametree.perft('connect4', gametree.initial('connect4'), depth, include_terminal => true)
    FROM reference_perft WHERE game = 'connect4' ORDER BY depth$$,
  $$SELECT depth, count_with_early_ends FROM reference_perft WHERE game = 'connect4' ORDER BY depth$$,
  'connect four perft 1..8 with early ends as leaves equals the reference');

SELECT * FROM finish();
ROLLBACK;
