-- The baseline players of bestmove and analyse: method 'random' (a
-- uniformly random legal move) and 'flat' (flat Monte Carlo, depth charges
-- from each root move in turn, as ggp-base's SampleMonteCarloGamer), over
-- tic-tac-toe, connect four and roshambo2.kif (both roles move at once).
-- Flat searches are bounded by max_depth (rounds of 1,000 charges), so
-- their results do not depend on the machine; the random player's do not
-- repeat, so its tests hold for any draw.
-- In one transaction: the game and the tree are gone with the rollback.
BEGIN;
SET client_min_messages = warning;
SELECT plan(27);

\ir helpers.psql

SELECT is(pg_temp.load('baselines_roshambo', 'roshambo2'), 'ok', 'roshambo2.kif loads');

-- Plays games of game by the random player until it has made at least
-- calls moves; each move is checked against legal().  'calls illegal'.
CREATE FUNCTION pg_temp.random_games(game text, calls integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  s jsonb := gametree.initial(game);
  m jsonb;
  made integer := 0;
  illegal integer := 0;
BEGIN
  WHILE made < calls LOOP
    IF gametree.terminal(game, s) THEN
      s := gametree.initial(game);
    END IF;
    m := gametree.bestmove(game, s, method => 'random');
    made := made + 1;
    IF m NOT IN (SELECT l FROM gametree.legal(game, s) l) THEN
      illegal := illegal + 1;
    ELSE
      s := gametree.next(game, s, m);
    END IF;
  END LOOP;
  RETURN made || ' ' || illegal;
END $$;

SELECT is(pg_temp.random_games('tictactoe', 34), '34 0', 'random: 34 moves of tic-tac-toe games, every one legal');
SELECT is(pg_temp.random_games('connect4', 33), '33 0', 'random: 33 moves of connect four games, every one legal');
SELECT is(pg_temp.random_games('baselines_roshambo', 33), '33 0',
          'random: 33 joint moves of roshambo2 games (both roles move at once), every one legal');
SELECT cmp_ok((SELECT count(DISTINCT gametree.bestmove('tictactoe', gametree.initial('tictactoe'), method => 'random'))
               FROM generate_series(1, 50)), '>=', 5::bigint,
              'random: 50 calls from the same position give at least 5 distinct moves');
SELECT cmp_ok((SELECT count(DISTINCT gametree.bestmove('baselines_roshambo', gametree.initial('baselines_roshambo'),
                                                       method => 'random'))
               FROM generate_series(1, 50)), '>=', 5::bigint,
              'random: and 50 joint moves of roshambo2 at least 5 distinct ones');
SELECT is(pg_temp.val($$SELECT count(DISTINCT m->0->2) || ' ' || count(DISTINCT m->1->2)
                        FROM (SELECT gametree.bestmove('baselines_roshambo', gametree.initial('baselines_roshambo'),
                                                       method => 'random') m FROM generate_series(1, 100)) r$$),
          '4 4', 'random: over 100 roshambo2 joint moves each role throws each of its 4 throws');

-- x: (1,1) (1,2), o: (2,1) (2,2); x to move: (1,3) wins at once, any other
-- move leaves o (2,3).
SELECT pg_temp.play('tictactoe', '[["mark",1,1],["mark",2,1],["mark",1,2],["mark",2,2]]') AS ttt_win \gset
SELECT is(gametree.bestmove('tictactoe', :'ttt_win', NULL, 1, 'flat'),
          '[["does", "xplayer", ["mark", 1, 3]], ["does", "oplayer", "noop"]]',
          'flat: tic-tac-toe, the cross completes its row');
-- x: (1,1) (1,2) (3,3), o: (2,1) (2,2); o to move: (2,3) wins.
SELECT is(gametree.bestmove('tictactoe',
            pg_temp.play('tictactoe', '[["mark",1,1],["mark",2,1],["mark",1,2],["mark",2,2],["mark",3,3]]'), NULL, 1, 'flat'),
          '[["does", "xplayer", "noop"], ["does", "oplayer", ["mark", 2, 3]]]',
          'flat: tic-tac-toe, the nought wins rather than block');
-- Red 1, black 1, red 2, black 2, red 3, black 3: red's drop in 4 completes
-- the bottom row (and any other lets black complete the second).
SELECT pg_temp.play('connect4', '[["drop",1],["drop",1],["drop",2],["drop",2],["drop",3],["drop",3]]') AS c4_win \gset
SELECT is(gametree.bestmove('connect4', :'c4_win', NULL, 1, 'flat'),
          '[["does", "red", ["drop", 4]], ["does", "black", "noop"]]',
          'flat: connect four, red completes four in a row');
SELECT is(gametree.bestmove('tictactoe', :'ttt_win', NULL, 2, 'flat'),
          gametree.bestmove('tictactoe', :'ttt_win', NULL, 2, 'flat'),
          'flat: without a time limit the same call gives the same move (seeded by the position)');

-- analyse: every move once, its mean result per role, the charges through it.
CREATE TEMP TABLE flat_ttt AS
  SELECT ordinality AS rank, move, utility, proven, mobility, visits, depth, pv
  FROM gametree.analyse('tictactoe', :'ttt_win', NULL, 2, 'flat') WITH ORDINALITY;
SELECT is((SELECT sum(visits) FROM flat_ttt), 2000::numeric,
          'analyse flat: the visits sum to the charges run, 2 rounds of 1,000');
SELECT is((SELECT array_agg(visits ORDER BY visits) FROM flat_ttt), '{400,400,400,400,400}'::bigint[],
          'analyse flat: the charges go round the 5 moves evenly');
SELECT is((SELECT array_agg(move ORDER BY move::text) FROM flat_ttt),
          (SELECT array_agg(m ORDER BY m::text) FROM gametree.legal('tictactoe', :'ttt_win') m),
          'analyse flat: a row per legal move');
SELECT is((SELECT row(move, utility)::text FROM flat_ttt WHERE rank = 1),
          row('[["does", "xplayer", ["mark", 1, 3]], ["does", "oplayer", "noop"]]'::jsonb,
              '{"oplayer": 0, "xplayer": 100}'::jsonb)::text,
          'analyse flat: the win first, its every charge won');
SELECT ok((SELECT bool_and((utility->>'xplayer')::numeric < 100) FROM flat_ttt WHERE rank > 1),
          'analyse flat: every other move below 100 for the cross');
SELECT is((SELECT array_agg((utility->>'xplayer')::numeric ORDER BY rank) FROM flat_ttt),
          (SELECT array_agg((utility->>'xplayer')::numeric ORDER BY (utility->>'xplayer')::numeric DESC) FROM flat_ttt),
          'analyse flat: the moves best first, by the cross''s mean');
SELECT is((SELECT count(*) FROM flat_ttt WHERE NOT proven AND mobility IS NULL AND depth = 1 AND pv = jsonb_build_array(move)),
          5::bigint, 'analyse flat: nothing proven, no mobility, depth 1, the line is the move');

-- Both roles throw at once: a charge per joint move in turn; each role's
-- throw valued by its mean over the joint moves that have it.
CREATE TEMP TABLE flat_rps AS
  SELECT ordinality AS rank, move, utility, visits
  FROM gametree.analyse('baselines_roshambo', gametree.initial('baselines_roshambo'), NULL, 2, 'flat') WITH ORDINALITY;
SELECT is((SELECT count(*) || ' ' || sum(visits) || ' ' || min(visits) || ' ' || max(visits) FROM flat_rps),
          '16 2000 125 125', 'analyse flat, roshambo2: 16 joint moves, 125 charges each');
SELECT is((SELECT move FROM flat_rps WHERE rank = 1),
          gametree.bestmove('baselines_roshambo', gametree.initial('baselines_roshambo'), NULL, 2, 'flat'),
          'flat, roshambo2: bestmove is analyse''s first joint move');
SELECT ok((SELECT move IN (SELECT m FROM gametree.legal('baselines_roshambo', gametree.initial('baselines_roshambo')) m)
           FROM flat_rps WHERE rank = 1), 'flat, roshambo2: a legal joint move');

-- With a time limit: as many charges as fit, at least one.
SELECT ok((SELECT sum(visits) > 0 AND count(*) = 9
           FROM gametree.analyse('tictactoe', gametree.initial('tictactoe'), '100 ms', NULL, 'flat')),
          'flat with a time limit: every first move, and charges run');

-- Bad input: an error with its SQLSTATE each.
SELECT gametree.create_tree('baselines_tree', 'tictactoe') IS NOT NULL AS created \gset
SELECT throws_ok($$SELECT * FROM gametree.analyse('tictactoe', gametree.initial('tictactoe'), method => 'random')$$,
                 '22023', 'analyse: the random player values no move', 'analyse refuses the random player');
SELECT throws_ok($$SELECT gametree.bestmove('tictactoe', gametree.initial('tictactoe'), method => 'random',
                                            tree => 'baselines_tree')$$,
                 '0A000', 'method ''random'' keeps no tree', 'random with a tree');
SELECT throws_ok($$SELECT gametree.bestmove('tictactoe', gametree.initial('tictactoe'), NULL, 1, 'flat', 'baselines_tree')$$,
                 '0A000', 'method ''flat'' keeps no tree', 'flat with a tree');
SELECT throws_ok($$SELECT gametree.bestmove('tictactoe', gametree.initial('tictactoe'), NULL, NULL, 'flat')$$,
                 '22023', 'a search needs a time_limit or a max_depth', 'flat without a limit');
SELECT throws_ok($$SELECT gametree.bestmove('tictactoe',
                     pg_temp.play('tictactoe', '[["mark",1,1],["mark",2,1],["mark",1,2],["mark",2,2],["mark",1,3]]'),
                     method => 'random')$$,
                 '22023', 'the state is terminal: there is no move to make', 'random from a terminal state');

SELECT * FROM finish();
ROLLBACK;
