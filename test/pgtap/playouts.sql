-- playouts(game, state, max_playouts, time_limit, seed): uniformly random
-- games to the end (src/search/playout.c, the playouts Monte Carlo search
-- runs).  Their means against values known without them: under random play
-- x wins tic-tac-toe with probability 737/1260 and draws with 8/63
-- (published; a mean goal of 64.85 for x, 35.15 for o), and the first
-- player of test/data/games/cycles.kif wins with 0.529246 in 5.131598 moves
-- on average (tools/gdl_cycles_perft.py, from the rules written out by
-- hand).  cycles.kif has positive recursion, the network's cycle groups,
-- which none of the sixteen sample games has: its perft is checked against
-- the same script.  Then the GDL network against the prover: with one seed,
-- every random game must be the same move for move, which holds only if
-- both give the same legal moves in the same order and the same next state
-- at every step; tic-tac-toe over 300 games in one call, as the network's
-- counters carry over from game to game (a double flip of a trigger once
-- left one counted twice, and games went wrong after a few dozen).  Then the
-- limits and bad arguments.
BEGIN;
SET client_min_messages = warning;
SELECT plan(49);

\ir helpers.psql

-- Loads kif as game on the prover: within 1MB, with a relation of 30^3
-- atoms over fact that leaves its network too large (terminal reads it
-- whole after a fact that never holds, which the prover asks first: the
-- network grounding derives no relation that nothing reads, demand.h).
CREATE FUNCTION pg_temp.load_on_prover(game text, kif text, fact text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  memory text := current_setting('gametree.gdl_memory');
  loaded text;
BEGIN
  PERFORM set_config('gametree.gdl_memory', '1MB', true);
  SELECT l.engine INTO loaded FROM gametree.load_game(game, kif || E'\n'
           || (SELECT string_agg(format('(n %s)', i), ' ') FROM generate_series(0, 29) i)
           || format(E'\n(<= (unused ?a ?b ?c) (true %s) (n ?a) (n ?b) (n ?c))\n', fact)
           || E'(<= terminal (true never) (unused ?a ?b ?c))\n') l;
  PERFORM set_config('gametree.gdl_memory', memory, true);
  RETURN loaded;
END $$;

-- Tic-tac-toe, native and from GDL.
CREATE TEMP TABLE ttt AS SELECT * FROM gametree.playouts('tictactoe', max_playouts => 200000, seed => 1);
SELECT ok((SELECT abs((utility->>'xplayer')::numeric - 64.85) < 0.4 AND abs((utility->>'oplayer')::numeric - 35.15) < 0.4
             FROM ttt),
          'tic-tac-toe, 200,000 random games: x''s mean goal within 0.4 of 64.85, o''s of 35.15');
SELECT ok((SELECT playouts = 200000 AND states BETWEEN 5 * playouts AND 9 * playouts FROM ttt),
          'every game counted, of 5 to 9 moves');
\set kif `cat test/data/gdl/ticTacToe.kif`
SELECT gametree.load_game('playouts_ttt', :'kif') IS NOT NULL AS loaded \gset
SELECT ok((SELECT abs((utility->>'xplayer')::numeric - 64.85) < 0.4 FROM
             gametree.playouts('playouts_ttt', max_playouts => 200000, seed => 1)),
          'ticTacToe.kif on the network: the same mean within 0.4');

-- Positive recursion: cycles.kif.
\set kif `cat test/data/games/cycles.kif`
SELECT engine FROM gametree.load_game('playouts_cycles', :'kif') \gset
SELECT is(:'engine'::text, 'network', 'cycles.kif loads on the network');
SELECT is(pg_temp.perfts('playouts_cycles', 6), '12,144,1608,16236,151884,1375260',
          'its perft 1..6 is that of tools/gdl_cycles_perft.py: removing an edge undoes the reach it supported');
CREATE TEMP TABLE cyc AS SELECT * FROM gametree.playouts('playouts_cycles', max_playouts => 100000, seed => 2);
SELECT ok((SELECT abs((utility->>'first')::numeric - 52.92) < 0.5 FROM cyc),
          'random games: the first player''s mean goal within 0.5 of 52.92');
SELECT ok((SELECT abs(states::numeric / playouts - 5.1316) < 0.02 FROM cyc), 'of 5.1316 moves on average');
-- On the prover (a relation of 30^3 atoms leaves its network too large
-- for 1MB): the reach of a node to itself through a
-- cycle of edges is a cycle of ground queries, which the prover's compiled
-- queries leave to its joins (they once answered it from a half-evaluated
-- query, and perft 5 came out 152,004).
SELECT pg_temp.load_on_prover('playouts_prover_cycles', :'kif', '(control ?p)') AS engine \gset
SELECT is(:'engine'::text, 'prover', 'cycles.kif with a large relation loads on the prover');
SELECT is(pg_temp.perfts('playouts_prover_cycles', 5), '12,144,1608,16236,151884', 'its perft 1..5: the same');

-- A static relation of symbols is looked up by a bit per combination of
-- its values on the prover (join.h, DenseSet): asked with a compound term
-- ((mark (p q))) or a symbol it never has (w), (adj x ?t) holds for
-- neither, so no jump is legal: from x, six steps and stay; from a
-- neighbour, back or stay (perft counted by hand).
\set dense_kif '(role a) (init (at x)) (init (step 0)) (init (mark (p q))) (init (mark w)) (adj x y) (adj x z) (adj x v) (adj x u) (adj x s) (adj x r) (adj y x) (adj z x) (adj v x) (adj u x) (adj s x) (adj r x) (<= (legal a (go ?t)) (true (at ?f)) (adj ?f ?t)) (<= (legal a (jump ?t)) (true (at ?f)) (true (mark ?t)) (adj ?f ?t)) (<= (legal a stay) (true (at ?f)) (not (adj ?f w))) (<= (next (at ?t)) (does a (go ?t))) (<= (next (at ?t)) (does a (jump ?t))) (<= (next (at ?f)) (does a stay) (true (at ?f))) (<= (next (mark ?m)) (true (mark ?m))) (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y)) (succ 0 1) (succ 1 2) (succ 2 3) (<= terminal (true (step 3))) (<= (goal a 100) (true (at x))) (<= (goal a 0) (not (true (at x))))'
SELECT pg_temp.load_on_prover('playouts_prover_dense', :'dense_kif', '(step ?p)') AS engine \gset
SELECT gametree.load_game('playouts_dense', :'dense_kif') IS NOT NULL AS loaded \gset
SELECT is(:'engine'::text, 'prover', 'a game of a static relation of symbols, with a large relation, on the prover');
SELECT is(pg_temp.perfts('playouts_prover_dense', 4) || ' ' || pg_temp.perfts('playouts_dense', 4), '7,19,73,0 7,19,73,0',
          'its perft 1..4 as counted by hand, on the prover and the network: a compound term or a symbol the relation lacks never matches');

-- Arguments a relation passes on unread are shared by its ground queries
-- on the prover (passthrough.h): (clear ?u ?x ?i) walks from ?u to ?x
-- with cell ?i ignored, (lift ?i) asks (clear 1 4 ?i), and cells 5 and 6,
-- off the walk, share one compiled query; a cell on the walk (2, 3) is
-- read by the rule that skips it.  Perft 1..4 from the rules written out
-- by hand (tools/gdl_skipline_perft.py): 3, 9, 29, none past the third step.
\set skip_kif '(role p) (index 1) (index 2) (index 3) (index 4) (index 5) (index 6) (succ 1 2) (succ 2 3) (succ 3 4) (mid 2) (mid 3) (count 0 1) (count 1 2) (count 2 3) (init (cell 1 b)) (init (cell 2 o)) (init (cell 3 b)) (init (cell 4 b)) (init (cell 5 o)) (init (cell 6 o)) (init (step 0)) (<= (clear ?u ?x ?i) (succ ?u ?x) (index ?i)) (<= (clear ?u ?x ?i) (succ ?u ?i) (clear ?i ?x ?i)) (<= (clear ?u ?x ?i) (succ ?u ?v) (true (cell ?v b)) (clear ?v ?x ?i)) (<= (open_path ?i) (clear 1 4 ?i)) (<= (legal p (lift ?i)) (true (cell ?i o)) (open_path ?i)) (<= (legal p (drop ?c)) (mid ?c) (true (cell ?c b))) (legal p noop) (<= (touched ?c) (does p (lift ?c))) (<= (touched ?c) (does p (drop ?c))) (<= (next (cell ?c b)) (does p (lift ?c))) (<= (next (cell ?c o)) (does p (drop ?c))) (<= (next (cell ?c ?s)) (true (cell ?c ?s)) (not (touched ?c))) (<= (next (step ?m)) (true (step ?n)) (count ?n ?m)) (<= terminal (true (step 3))) (<= (goal p 100) (true (cell 3 o))) (<= (goal p 0) (not (true (cell 3 o))))'
SELECT pg_temp.load_on_prover('playouts_prover_skip', :'skip_kif', '(step ?p)') AS engine \gset
SELECT gametree.load_game('playouts_skip', :'skip_kif') IS NOT NULL AS loaded \gset
SELECT is(:'engine'::text, 'prover', 'a game of a walk that ignores a cell, with a large relation, on the prover');
SELECT is(pg_temp.perfts('playouts_prover_skip', 4) || ' ' || pg_temp.perfts('playouts_skip', 4), '3,9,29,0 3,9,29,0',
          'its perft 1..4 as the model counts, on the prover and the network: only queries ignoring a cell off the walk share');

-- Deterministic: without a seed, the state's hash seeds the games.
SELECT is((SELECT (utility, playouts, states)::text FROM gametree.playouts('connect4', max_playouts => 300)),
          (SELECT (utility, playouts, states)::text FROM gametree.playouts('connect4', max_playouts => 300)),
          'two equal calls play the same games');
SELECT isnt((SELECT states FROM gametree.playouts('connect4', max_playouts => 300, seed => 1)),
            (SELECT states FROM gametree.playouts('connect4', max_playouts => 300, seed => 2)),
            'another seed, other games');

-- The network against the prover, game by game: the same games, each
-- listing every legal move (random playouts of a game whose legality is
-- costly draw a move and check it alone, below: the same distribution,
-- other draws).
SET LOCAL gametree.gdl_lazy_legality = off;
CREATE FUNCTION pg_temp.games_played(game text, n integer) RETURNS text LANGUAGE sql AS $$
  SELECT (utility, playouts, states)::text FROM gametree.playouts(game, max_playouts => n, seed => 3)
$$;
SET LOCAL gametree.gdl_memory = '2MB';
SELECT pg_temp.load('playouts_bt_prover', 'breakthrough') || pg_temp.load('playouts_pacman_prover', 'pacman3p') AS loaded \gset
SET LOCAL gametree.gdl_memory = '1MB';
SELECT pg_temp.load('playouts_draughts_prover', 'englishDraughts') AS loaded \gset
-- ticTacToe.kif's and tictactoe_3player.kif's networks fit in 1 MB, the
-- least gametree.gdl_memory: a relation of 27,000 atoms that terminal
-- reads whole makes them too large.
SELECT pg_temp.load_on_prover('playouts_ttt3_prover', (SELECT kif FROM reference_gdl WHERE name = 'tictactoe_3player'),
                              '(control ?p)') AS engine \gset
SELECT gametree.load_game('playouts_ttt_prover', (SELECT kif FROM reference_gdl WHERE name = 'ticTacToe') || E'\n'
         || (SELECT string_agg(format('(n %s)', i), ' ') FROM generate_series(0, 29) i)
         || E'\n(<= (unused ?a ?b ?c) (true (control ?p)) (n ?a) (n ?b) (n ?c))\n'
         || E'(<= terminal (true never) (unused ?a ?b ?c))\n') IS NOT NULL AS loaded \gset
RESET gametree.gdl_memory;
SELECT pg_temp.load('playouts_bt', 'breakthrough') || pg_temp.load('playouts_pacman', 'pacman3p')
       || pg_temp.load('playouts_draughts', 'englishDraughts') || pg_temp.load('playouts_ttt3', 'tictactoe_3player') AS loaded \gset
SELECT is((SELECT string_agg(engine, ' ' ORDER BY name) FROM gametree.gdl_games WHERE name LIKE 'playouts\_%\_prover'),
          'prover prover prover prover prover', 'five games loaded again on the prover');
SELECT is(pg_temp.games_played('playouts_bt_prover', 3), pg_temp.games_played('playouts_bt', 3),
          'breakthrough: 3 random games, the same on the prover and the network');
SELECT is(pg_temp.games_played('playouts_pacman_prover', 3), pg_temp.games_played('playouts_pacman', 3),
          'pacman3p (three roles, moving at once): the same');
SELECT is(pg_temp.games_played('playouts_draughts_prover', 2), pg_temp.games_played('playouts_draughts', 2),
          'englishDraughts: the same');
SELECT is(pg_temp.games_played('playouts_ttt3_prover', 5), pg_temp.games_played('playouts_ttt3', 5),
          'tictactoe_3player: the same');
SELECT is(pg_temp.games_played('playouts_ttt_prover', 300), pg_temp.games_played('playouts_ttt', 300),
          'ticTacToe: 300 games in a row, the same');

-- A network that mostly sleeps (forward.c's dormant nodes, none of the
-- sample games but chess.kif's: 99 of its 322 live nodes awake in the
-- initial state, measured): test/data/games/lamps.kif asks of every cell
-- whether the 12 lamps from it are lit, and only the walker's neighbours
-- need the answer, only while the cell before is dark (a rule's costly
-- derived literals needed one after another, cheapest first: its run is
-- counted from both ends, a cone of 2^12 rules).  Nodes asleep while
-- the lamps they read toggle must wake to the right values when the
-- walker comes next to them or the cell before goes dark: perft 1..5 from
-- the rules written out by hand (tools/gdl_lamps_perft.py), and the same
-- random games as on the prover.  Needing the first literal alone, never
-- the run, gave 24, 576, 13,824, 331,776, 7,962,624.
\set kif `cat test/data/games/lamps.kif`
SELECT engine FROM gametree.load_game('playouts_lamps', :'kif') \gset
SELECT is(:'engine'::text, 'network', 'lamps.kif loads on the network');
SELECT is(pg_temp.perfts('playouts_lamps', 5), '25,611,14798,356915,8590648',
          'its perft 1..5 is tools/gdl_lamps_perft.py''s');
SELECT pg_temp.load_on_prover('playouts_prover_lamps', :'kif', '(step ?p)') AS engine \gset
SELECT is(:'engine'::text, 'prover', 'lamps.kif with a large relation loads on the prover');
SELECT is(pg_temp.games_played('playouts_prover_lamps', 300), pg_temp.games_played('playouts_lamps', 300),
          'lamps.kif: 300 random games, the same on the prover and the network');

-- The prover compiles from rules with single-rule relations unfolded
-- (src/gdl/unfold.c): test/data/games/unfold.kif has them in the rules
-- of the ground queries it compiles, through chains, with function terms,
-- variables of their own and relations used only negated.  Its perft and
-- exact mean goals under random play: tools/gdl_unfold_perft.py, from the
-- rules written out by hand (white 62.003059).  Unfolded with the
-- unfolded rule's own variables not renamed apart, the prover's perft 2
-- came out 43.
\set kif `cat test/data/games/unfold.kif`
SELECT engine FROM gametree.load_game('playouts_unfold', :'kif') \gset
SET LOCAL gametree.gdl_memory = '1MB';
SELECT engine || ' ' || :'engine' AS engines FROM gametree.load_game('playouts_unfold_prover', :'kif' || E'\n'
         || (SELECT string_agg(format('(n %s)', i), ' ') FROM generate_series(0, 29) i)
         || E'\n(<= (unused ?a ?b ?c) (true (control ?p)) (n ?a) (n ?b) (n ?c))\n'
         || E'(<= terminal (true never) (unused ?a ?b ?c))\n') \gset
RESET gametree.gdl_memory;
SELECT is(:'engines'::text, 'prover network', 'unfold.kif on the network, and with a large relation on the prover');
SELECT is(pg_temp.perfts('playouts_unfold', 6) || ' ' || pg_temp.perfts('playouts_unfold_prover', 6),
          '7,33,137,405,1135,2509 7,33,137,405,1135,2509',
          'its perft 1..6 on both: tools/gdl_unfold_perft.py''s');
SELECT ok((SELECT abs((utility->>'white')::numeric - 62.003059) < 1.2
             FROM gametree.playouts('playouts_unfold_prover', max_playouts => 20000, seed => 1))
          AND pg_temp.games_played('playouts_unfold_prover', 300) = pg_temp.games_played('playouts_unfold', 300),
          'on the prover, 20,000 random games: white''s mean goal within 1.2 of 62.003; 300 games the same as the network''s');

-- chess.kif's rules on a 4x4 board (test/data/games/chess4x4.kif): the
-- network grounds them, the prover answers them as it does chess.kif's,
-- with (threatened_with_capture ...), a relation whose captured square only
-- filters, joined rather than compiled (src/gdl/prover.c,
-- filtered_relations).  Its perft 1..5 on the network, and on the prover
-- the same, and 200 seeded games move for move; with that relation taken
-- as never holding, the prover's perft 3 came out 116 and the games
-- differed.
\set kif `cat test/data/games/chess4x4.kif`
SELECT engine FROM gametree.load_game('playouts_chess4x4', :'kif') \gset
SET LOCAL gametree.gdl_memory = '4MB';
SELECT engine || ' ' || :'engine' AS engines FROM gametree.load_game('playouts_chess4x4_prover', :'kif') \gset
RESET gametree.gdl_memory;
SELECT is(:'engines'::text, 'prover network', 'chess4x4.kif on the network, and on the prover at 4 MB');
SELECT is(pg_temp.perfts('playouts_chess4x4', 5) || ' ' || pg_temp.perfts('playouts_chess4x4_prover', 5),
          '6,21,112,547,3201 6,21,112,547,3201', 'its perft 1..5 on both');
SELECT is(pg_temp.games_played('playouts_chess4x4_prover', 200), pg_temp.games_played('playouts_chess4x4', 200),
          '200 random games, the same on the prover and the network');

-- chess.kif itself on a network: grounded by demand (src/gdl/demand.h)
-- and through projections (unlike.h), 2.2 million rules within
-- the 1GB default of gametree.gdl_memory (before demand.c asked the
-- positions that true and does bind, it needed 3GB; before ground.c made
-- only the ground rules an output reads, 4GB), on the prover at 512MB.
-- Its perft 1..4 is chess's published 20, 400, 8,902 and 197,281, and it
-- plays the same 20 random games as chess.kif on the prover, move for
-- move.
SELECT pg_temp.load('playouts_chess_network', 'chess') AS loaded \gset
SET LOCAL gametree.gdl_memory = '512MB';
SELECT pg_temp.load('playouts_chess_prover', 'chess') AS loaded \gset
RESET gametree.gdl_memory;
SELECT is((SELECT string_agg(engine, ' ' ORDER BY name) FROM gametree.gdl_games WHERE name LIKE 'playouts\_chess\_%'),
          'network prover', 'chess.kif on a network at the default gametree.gdl_memory, on the prover at 512MB');
SELECT is(pg_temp.perfts('playouts_chess_network', 4), '20,400,8902,197281', 'its perft 1..4 on the network: chess''s');
SELECT is(pg_temp.games_played('playouts_chess_prover', 20), pg_temp.games_played('playouts_chess_network', 20),
          'chess.kif: 20 random games, the same on the prover and the network');

-- A test game of a rewrite of the network grounding, file.kif: on the
-- network, and with a large relation on the prover, which reads the rules
-- as written; perft 1..5 of both against its oracle's; 300 random games
-- move for move.
CREATE FUNCTION pg_temp.rewrite_checks(file text, kif text, perfts text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  network text := 'playouts_' || file;
  prover text := 'playouts_' || file || '_prover';
  engines text;
BEGIN
  SELECT pg_temp.load_on_prover(prover, kif, '(step ?p)') || ' ' || l.engine INTO engines
    FROM gametree.load_game(network, kif) l;
  RETURN NEXT is(engines, 'prover network', file || '.kif on the network, and with a large relation on the prover');
  RETURN NEXT is(pg_temp.perfts(network, 5) || ' ' || pg_temp.perfts(prover, 5), perfts || ' ' || perfts,
                 'its perft 1..5 on both: tools/gdl_' || file || '_perft.py''s');
  RETURN NEXT is(pg_temp.games_played(prover, 300), pg_temp.games_played(network, 300),
                 file || '.kif: 300 random games, the same on the prover and the network');
END $$;

-- A rule that keeps a head value apart from a body value through a static
-- inequality is grounded through projections on the network
-- (src/gdl/unlike.h): test/data/games/apart.kif reads chess.kif's
-- different_cells so, from two rules of one relation, positively and
-- negated.  Its perft 1..5 (tools/gdl_apart_perft.py, from the rules
-- written out by hand) on the network and on the prover, which reads the
-- rules as written, and 300 random games move for move.
\set kif `cat test/data/games/apart.kif`
SELECT pg_temp.rewrite_checks('apart', :'kif', '8,65,520,4190,0');

-- A fact that a literal implies is written beside it on the network, so
-- that it guards the rule's other derived literals (src/gdl/implied.h):
-- test/data/games/implied.kif's relations imply a fact in some rules and
-- not others, through a head that fixes an argument and a reading that
-- fixes one.  Its perft 1..5 (tools/gdl_implied_perft.py, from the rules
-- written out by hand) on the network and on the prover, which reads the
-- rules as written (a fact taken from the first rule alone, not from all,
-- made the network's 7,29,77,171,0), and 300 random games move for move.
\set kif `cat test/data/games/implied.kif`
SELECT pg_temp.rewrite_checks('implied', :'kif', '8,50,276,1427,0');

RESET gametree.gdl_lazy_legality;

-- Costly legality checked for the move drawn alone (src/gdl/lazy_legal.h):
-- lamps.kif's step needs 12 lit lamps from the cell stepped to, a cone of
-- 2^12 rules, and the walker's exact mean goal under uniformly random play
-- is 7.488061 (tools/gdl_lamps_perft.py random, from the rules written out
-- by hand); 200,000 games drawn so, within 0.25 of it (the standard error
-- is 0.06).  chess4x4.kif's and chess.kif's king safety is checked so: their
-- random games are other games than those of the listing of every legal
-- move with the same seed, of the same mean length and goals.
SELECT ok((SELECT abs((utility->>'walker')::numeric - 7.488061) < 0.25
             FROM gametree.playouts('playouts_lamps', max_playouts => 200000, seed => 1)),
          'lamps.kif, its steps checked as drawn: the walker''s mean goal within 0.25 of 7.488061');
CREATE TEMP TABLE drawn AS
  SELECT g.name, p.* FROM (VALUES ('playouts_chess4x4', 3000), ('playouts_chess_network', 300)) g(name, n),
         gametree.playouts(g.name, max_playouts => g.n, seed => 5) p;
SET LOCAL gametree.gdl_lazy_legality = off;
CREATE TEMP TABLE listed AS
  SELECT g.name, p.* FROM (VALUES ('playouts_chess4x4', 3000), ('playouts_chess_network', 300)) g(name, n),
         gametree.playouts(g.name, max_playouts => g.n, seed => 5) p;
RESET gametree.gdl_lazy_legality;
-- the mean length within 4 standard errors of the difference: the games
-- of chess4x4.kif end anywhere (a standard deviation of about 50 moves),
-- chess.kif's at its step limit of 201 mostly
SELECT is((SELECT string_agg(format('%s %s %s', d.name, d.states <> l.states,
                                    abs(d.states::numeric / d.playouts - l.states::numeric / l.playouts)
                                      < CASE d.name WHEN 'playouts_chess4x4' THEN 6 ELSE 10 END), ' ' ORDER BY d.name)
             FROM drawn d JOIN listed l USING (name)),
          'playouts_chess4x4 t t playouts_chess_network t t',
          'chess4x4.kif and chess.kif: other random games than the listing''s, of the same mean length');
SELECT is((SELECT count(*)::int FROM drawn d JOIN listed l USING (name), jsonb_object_keys(d.utility) r
             WHERE abs((d.utility->>r)::numeric - (l.utility->>r)::numeric) >= CASE d.name WHEN 'playouts_chess4x4' THEN 5 ELSE 6 END),
          0, 'and of the same mean goals, each role''s within 4 standard errors');

-- Limits.
SELECT ok((SELECT seconds >= 0.2 AND seconds < 1 AND playouts > 0 FROM gametree.playouts('chess', time_limit => '200 ms')),
          'time_limit 200 ms: chess playouts for 0.2 s, not a second');
SELECT is((SELECT (utility, playouts, states)::text
             FROM gametree.playouts('tictactoe', '[["cell",1,1,"x"],["cell",1,2,"x"],["cell",1,3,"x"],["cell",2,1,"o"],["cell",2,2,"o"]]', 4)),
          '("{""oplayer"": 0, ""xplayer"": 100}",4,0)', 'from a terminal state: its goals, no moves');
SELECT is(pg_temp.try($$SELECT gametree.playouts('tictactoe')$$),
          '22023: playouts needs max_playouts or time_limit', 'neither limit: 22023');
SELECT is(pg_temp.try($$SELECT gametree.playouts('tictactoe', NULL, 0)$$),
          '22023: max_playouts must be positive, not 0', 'max_playouts 0: 22023');
SELECT is(pg_temp.try($$SELECT gametree.playouts('tictactoe', NULL, NULL, '-1 s')$$),
          '22023: time_limit must be positive', 'a negative time_limit: 22023');
SELECT is(pg_temp.try($$SELECT gametree.playouts(NULL, NULL, 1)$$), '22004: game must not be NULL', 'no game: 22004');

SELECT * FROM finish();
ROLLBACK;
