-- One rule for bestmove and analyse (alpha-beta): the move bestmove returns
-- at a max_depth is one that analyse, at the same depth, values best: the
-- same utility and proven flag as analyse's first move, and where that is
-- proven, a line as long (the shortest win, the longest loss: a proven
-- move's line runs to the end of the game).  Over positions of seeded
-- random self-play in every built-in game and in the two-player GDL games
-- the tests load, plus the README's examples.  Depth-bounded searches
-- without a time limit, so the results do not depend on the machine.
BEGIN;
SET client_min_messages = warning;
SELECT plan(12);

\ir helpers.psql

-- The distinct positions of games of random legal moves (seeded: the same
-- every run), each game at most plies long, terminal positions left out.
CREATE FUNCTION pg_temp.self_play(game text, games integer, plies integer, seed float8)
RETURNS SETOF jsonb LANGUAGE plpgsql AS $$
DECLARE
  s jsonb;
  moves jsonb[];
  seen jsonb[] := '{}';
BEGIN
  PERFORM setseed(seed);
  FOR g IN 1..games LOOP
    s := gametree.initial(game);
    FOR p IN 1..plies LOOP
      EXIT WHEN gametree.terminal(game, s);
      IF NOT s = ANY (seen) THEN
        seen := seen || s;
        RETURN NEXT s;
      END IF;
      moves := ARRAY(SELECT gametree.legal(game, s));
      s := gametree.next(game, s, moves[1 + floor(random() * cardinality(moves))::integer]);
    END LOOP;
  END LOOP;
END $$;

-- Where bestmove at depth breaks the rule: the position, bestmove's move
-- and analyse's rows of both (empty when it holds).
CREATE FUNCTION pg_temp.breaks(game text, s jsonb, depth integer)
RETURNS TABLE (state jsonb, played jsonb, best jsonb, chosen jsonb) LANGUAGE plpgsql AS $$
DECLARE
  b jsonb := gametree.bestmove(game, s, NULL, depth, 'alphabeta');
  rows jsonb := (SELECT jsonb_agg(jsonb_build_object('move', a.move, 'utility', a.utility, 'proven', a.proven,
                                                     'plies', jsonb_array_length(a.pv)) ORDER BY a.n)
                 FROM gametree.analyse(game, s, NULL, depth, 'alphabeta') WITH ORDINALITY a(move, utility, proven,
                      mobility, visits, depth, pv, n));
  first jsonb := rows->0;
  mine jsonb := (SELECT r FROM jsonb_array_elements(rows) r WHERE r->'move' = b);
BEGIN
  IF mine IS NULL OR mine->'utility' <> first->'utility' OR mine->'proven' <> first->'proven'
     OR ((first->>'proven')::boolean AND mine->'plies' <> first->'plies') THEN
    RETURN QUERY SELECT s, b, first, mine;
  END IF;
END $$;

CREATE TEMP TABLE positions (game text, state jsonb, depth integer);
-- The built-in games: 500 positions and more each, depths 1 to 3 in turn
-- (chess and checkers to 2 and 3, where a search of 3 plies takes longest).
INSERT INTO positions
SELECT 'tictactoe', s, 1 + (row_number() OVER () % 3)::integer FROM pg_temp.self_play('tictactoe', 150, 9, 0.1) s;
INSERT INTO positions
SELECT 'connect4', s, 1 + (row_number() OVER () % 3)::integer FROM pg_temp.self_play('connect4', 30, 42, 0.2) s;
INSERT INTO positions
SELECT 'chess', s, 1 + (row_number() OVER () % 3)::integer FROM pg_temp.self_play('chess', 10, 60, 0.3) s;
INSERT INTO positions
SELECT 'checkers', s, 1 + (row_number() OVER () % 3)::integer FROM pg_temp.self_play('checkers', 12, 60, 0.4) s;
-- The README's examples (Search), at their depths.
INSERT INTO positions VALUES
  ('chess', gametree.from_fen('chess', 'r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1'), 3),
  ('checkers', gametree.from_fen('checkers', 'W:W17,18,21:B9,10'), 6),
  ('connect4', pg_temp.play('connect4', '[["drop",4],["drop",4],["drop",3]]'), 10),
  ('tictactoe', pg_temp.play('tictactoe', '[["mark",2,2]]'), 8);

SELECT cmp_ok((SELECT count(*) FROM positions WHERE game = g), '>=', 500::bigint, g || ': 500 positions or more')
FROM unnest(ARRAY['tictactoe', 'connect4', 'chess', 'checkers']) g;

SELECT is((SELECT array_agg(b::text) FROM positions p, pg_temp.breaks(p.game, p.state, p.depth) b WHERE p.game = g),
          NULL, g || ': bestmove plays a move analyse values best, at every position')
FROM unnest(ARRAY['tictactoe', 'connect4', 'chess', 'checkers']) g;

-- The two-player GDL games the other tests load, in turn: 100 positions each.
SELECT is(pg_temp.load('prop_nim', 'nim1') || ' ' || pg_temp.load('prop_ttt', 'ticTacToe') || ' ' ||
          pg_temp.load('prop_c4', 'connect4') || ' ' || pg_temp.load('prop_draughts', 'englishDraughts'),
          'ok ok ok ok', 'nim1, ticTacToe, connect4 and englishDraughts load');
CREATE TEMP TABLE gdl_positions (game text, state jsonb, depth integer);
INSERT INTO gdl_positions
SELECT 'prop_nim', s, 1 + (row_number() OVER () % 3)::integer FROM pg_temp.self_play('prop_nim', 60, 20, 0.5) s;
INSERT INTO gdl_positions
SELECT 'prop_ttt', s, 1 + (row_number() OVER () % 3)::integer FROM pg_temp.self_play('prop_ttt', 40, 9, 0.6) s;
INSERT INTO gdl_positions
SELECT 'prop_c4', s, 1 + (row_number() OVER () % 2)::integer FROM pg_temp.self_play('prop_c4', 8, 42, 0.7) s;
INSERT INTO gdl_positions
SELECT 'prop_draughts', s, 1 + (row_number() OVER () % 2)::integer FROM pg_temp.self_play('prop_draughts', 3, 60, 0.8) s;
SELECT is((SELECT array_agg(game ORDER BY game) FROM (SELECT game FROM gdl_positions GROUP BY game HAVING count(*) >= 100) g),
          ARRAY['prop_c4', 'prop_draughts', 'prop_nim', 'prop_ttt'], 'GDL: 100 positions or more of each game');
SELECT is((SELECT array_agg(b::text) FROM gdl_positions p, pg_temp.breaks(p.game, p.state, p.depth) b),
          NULL, 'GDL: bestmove plays a move analyse values best, at every position');

-- With a time limit: in tic-tac-toe every search ends, proven, long before
-- 10 seconds, so bestmove must play a move that the complete search (9
-- plies) values best.
SELECT is((SELECT array_agg(p.state::text) FROM positions p
           WHERE p.game = 'tictactoe' AND p.depth = 1
             AND NOT EXISTS (SELECT FROM gametree.analyse('tictactoe', p.state, NULL, 9) a
                             WHERE a.move = gametree.bestmove('tictactoe', p.state, '10 s')
                               AND a.utility = (SELECT utility FROM gametree.analyse('tictactoe', p.state, NULL, 9) LIMIT 1))),
          NULL, 'tic-tac-toe with a time limit: bestmove plays a move the complete search values best');

SELECT * FROM finish();
ROLLBACK;
