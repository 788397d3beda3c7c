-- Chess tactics for bestmove: mates in 1, 2 and 3 from positions of the
-- project's own (test/data/chess_mates.tsv: semi-random games, each mate
-- verified by Debian's stockfish, with every first move that mates as
-- fast), and positions where some moves allow a mate in one
-- (test/data/chess_avoid_mate.tsv).
BEGIN;
SET client_min_messages = warning;
SELECT plan(8);

-- A joint move's action of the role in control, in UCI (e7e8q).
CREATE FUNCTION pg_temp.uci(move jsonb) RETURNS text LANGUAGE sql AS $$
  SELECT concat(m->2->>1, m->2->>2, m->2->>3) FROM jsonb_array_elements(move) m WHERE m->2 <> '"noop"'
$$;

-- Each position searched for at most 2 seconds (the search stops once the mate is proven).
CREATE TEMP TABLE mates AS
SELECT fen, mate_in, string_to_array(winning_moves, ',') AS winning,
       pg_temp.uci(gametree.bestmove('chess', gametree.from_fen('chess', fen), '2 seconds')) AS played
FROM reference_chess_mates;

SELECT results_eq($$SELECT mate_in, count(*) FROM mates GROUP BY mate_in ORDER BY mate_in$$,
                  $$VALUES (1, 40::bigint), (2, 30::bigint), (3, 20::bigint)$$,
                  'the suite: 40 mates in 1, 30 in 2, 20 in 3');
SELECT is((SELECT array_agg(fen) FROM mates WHERE mate_in = 1 AND NOT played = ANY (winning)), NULL,
          'every mate in 1 is played');
SELECT is((SELECT array_agg(fen) FROM mates WHERE mate_in = 2 AND NOT played = ANY (winning)), NULL,
          'every mate in 2 is started with a move that mates in 2');
SELECT is((SELECT array_agg(fen) FROM mates WHERE mate_in = 3 AND NOT played = ANY (winning)), NULL,
          'every mate in 3 is started with a move that mates in 3');

-- Deterministic: 4 plies see every reply that mates at once.
SELECT is((SELECT array_agg(fen) FROM reference_chess_avoid_mate
           WHERE pg_temp.uci(gametree.bestmove('chess', gametree.from_fen('chess', fen), NULL, 4))
                 = ANY (string_to_array(blundering_moves, ','))),
          NULL, 'no move that allows a mate in one is played');

-- Black mates in 2 with g7c3 (Stockfish: mate 2); e4f3 mates only in 6.
-- bestmove once played e4f3 from depth 2 on: e4f3's search against the
-- mate failed low, its bound tied the mate's score, and the tie rules
-- (focus) preferred it.  The shortest win, at every depth and in time.
SELECT is((SELECT array_agg(d) FROM generate_series(2, 8) d
           WHERE pg_temp.uci(gametree.bestmove('chess', gametree.from_fen('chess',
                   '2b1k2r/1p1p1pbp/n7/2p5/4q3/2N5/1p6/3K1B2 b k - 0 22'), NULL, d)) <> 'g7c3'),
          NULL, 'the mate in 2 (g7c3), not the mate in 6 (e4f3), at max_depth 2 to 8');
SELECT is(pg_temp.uci(gametree.bestmove('chess', gametree.from_fen('chess',
            '2b1k2r/1p1p1pbp/n7/2p5/4q3/2N5/1p6/3K1B2 b k - 0 22'), '1 second')),
          'g7c3', 'the mate in 2 with a time limit');
SELECT results_eq($$SELECT pg_temp.uci(move), proven, jsonb_array_length(pv)
                    FROM gametree.analyse('chess', gametree.from_fen('chess',
                           '2b1k2r/1p1p1pbp/n7/2p5/4q3/2N5/1p6/3K1B2 b k - 0 22'), NULL, 4) LIMIT 1$$,
                  $$VALUES ('g7c3', true, 3)$$, 'analyse: g7c3 first, proven, a line of 3 plies to the mate');

SELECT * FROM finish();
ROLLBACK;
