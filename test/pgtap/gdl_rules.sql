-- The rules of games loaded from GDL (test/data/gdl, table reference_gdl):
-- perft of the sample files against the built-in games and published counts
-- (test/data/gdl/README.md), and what initial, next, legal, successors,
-- control, terminal, goal, board and state_hash give for them.
-- In one transaction: the games are loaded here and gone with the rollback.
BEGIN;
SET client_min_messages = warning;
SELECT plan(53);

\ir helpers.psql

-- The published counts of reference_perft (test/data/perft.tsv), comma-separated as perfts gives them.
CREATE FUNCTION pg_temp.published(game text, depth integer, name text DEFAULT 'initial') RETURNS text LANGUAGE sql AS $$
  SELECT string_agg(count::text, ',' ORDER BY r.depth) FROM reference_perft r
  WHERE r.game = published.game AND r.name = published.name AND r.depth <= published.depth
$$;

-- Loads kif as name at gametree.gdl_memory network_memory and as name_prover
-- at prover_memory: the two engines chosen, space-separated.
CREATE FUNCTION pg_temp.load_at(name text, kif text, network_memory text, prover_memory text)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  network_engine text;
  prover_engine text;
BEGIN
  PERFORM set_config('gametree.gdl_memory', network_memory, true);
  SELECT engine INTO network_engine FROM gametree.load_game(name, kif);
  PERFORM set_config('gametree.gdl_memory', prover_memory, true);
  SELECT engine INTO prover_engine FROM gametree.load_game(name || '_prover', kif);
  RESET gametree.gdl_memory;
  RETURN network_engine || ' ' || prover_engine;
END
$$;

-- perft 1..depth of name and of name_prover, space-separated.
CREATE FUNCTION pg_temp.perfts_both(name text, depth integer) RETURNS text LANGUAGE sql AS $$
  SELECT pg_temp.perfts(name, depth) || ' ' || pg_temp.perfts(name || '_prover', depth)
$$;

SELECT is(pg_temp.load('gdl_rules_ttt', 'ticTacToe')
          || ' ' || pg_temp.load('gdl_rules_c4_8x6', 'connectFour')
          || ' ' || pg_temp.load('gdl_rules_c4', 'connect4')
          || ' ' || pg_temp.load('gdl_rules_ttt3', 'tictactoe_3player')
          || ' ' || pg_temp.load('gdl_rules_roshambo', 'roshambo2')
          || ' ' || pg_temp.load('gdl_rules_prisoner', 'gt_prisoner')
          || ' ' || pg_temp.load('gdl_rules_c4_simultaneous', 'connectFourSimultaneous')
          || ' ' || pg_temp.load('gdl_rules_nim', 'nim1')
          || ' ' || pg_temp.load('gdl_rules_draughts', 'englishDraughts')
          || ' ' || pg_temp.load('gdl_rules_checkers', 'checkers'),
          'ok ok ok ok ok ok ok ok ok ok', 'the ten descriptions load');

-- Tic-tac-toe: the same game as the built-in one.
SELECT is(pg_temp.perfts('gdl_rules_ttt', 9), pg_temp.perfts('tictactoe', 9),
          'ticTacToe.kif: perft 1..9 equals the built-in tictactoe''s at every depth');
SELECT is(pg_temp.perfts('gdl_rules_ttt', 9), '9,72,504,3024,15120,54720,148176,200448,127872',
          'ticTacToe.kif: perft 1..9 equals the published counts');
SELECT is(pg_temp.published('tictactoe', 9), '9,72,504,3024,15120,54720,148176,200448,127872',
          '(the counts of test/data/perft.tsv)');
SELECT is(pg_temp.val($$SELECT gametree.perft('gdl_rules_ttt', gametree.initial('gdl_rules_ttt'), 9, include_terminal => true)$$),
          '255168', 'ticTacToe.kif: 255,168 complete games');
SELECT is(gametree.initial('gdl_rules_ttt'), gametree.initial('tictactoe'),
          'ticTacToe.kif: the initial state is the built-in one''s, fact for fact');
SELECT is(gametree.initial('gdl_rules_ttt'),
          '[["cell",1,1,"b"],["cell",1,2,"b"],["cell",1,3,"b"],["cell",2,1,"b"],["cell",2,2,"b"],["cell",2,3,"b"],
            ["cell",3,1,"b"],["cell",3,2,"b"],["cell",3,3,"b"],["control","xplayer"]]',
          'facts as arrays, numbers as JSON numbers, in canonical order');
SELECT is(pg_temp.val($$SELECT gametree.next('gdl_rules_ttt', gametree.initial('gdl_rules_ttt'), '["mark",2,2]')$$),
          gametree.next('tictactoe', gametree.initial('tictactoe'), '["mark",2,2]')::text,
          'next() with the bare action ["mark",2,2]: the built-in game''s state');
SELECT is(gametree.next('gdl_rules_ttt', gametree.initial('gdl_rules_ttt'), '["mark",2,2]'),
          gametree.next('gdl_rules_ttt', gametree.initial('gdl_rules_ttt'),
                        '[["does","xplayer",["mark",2,2]],["does","oplayer","noop"]]'),
          'the bare action and the joint move give the same state');
SELECT results_eq($$SELECT m FROM gametree.legal('gdl_rules_ttt', pg_temp.play('gdl_rules_ttt', '[["mark",2,2]]')) m$$,
                  $$SELECT m FROM gametree.legal('tictactoe', pg_temp.play('tictactoe', '[["mark",2,2]]')) m$$,
                  'legal() after ["mark",2,2]: the built-in game''s joint moves, in the same order');
SELECT throws_ok($$SELECT gametree.next('gdl_rules_ttt', pg_temp.play('gdl_rules_ttt', '[["mark",2,2]]'), '["mark",2,2]')$$,
                 '22023', NULL, 'next() with an illegal action (22023)');
SELECT is(ARRAY[gametree.control('gdl_rules_ttt', gametree.initial('gdl_rules_ttt')),
                gametree.control('gdl_rules_ttt', pg_temp.play('gdl_rules_ttt', '[["mark",2,2]]'))],
          ARRAY['xplayer', 'oplayer'], 'control(): the player to move, xplayer then oplayer');
-- x: (1,1) (1,2) (1,3), o: (2,1) (2,2)
SELECT results_eq($$SELECT gametree.terminal('gdl_rules_ttt', s), gametree.goal('gdl_rules_ttt', s),
                           gametree.control('gdl_rules_ttt', s)
                    FROM pg_temp.play('gdl_rules_ttt', '[["mark",1,1],["mark",2,1],["mark",1,2],["mark",2,2],["mark",1,3]]') s$$,
                  $$VALUES (true, '{"xplayer": 100, "oplayer": 0}'::jsonb, NULL::text)$$,
                  'a row of crosses: terminal, goals 100 and 0, nobody in control');
SELECT is((SELECT count(*) FROM gametree.legal('gdl_rules_ttt',
             pg_temp.play('gdl_rules_ttt', '[["mark",1,1],["mark",2,1],["mark",1,2],["mark",2,2],["mark",1,3]]'))),
          0::bigint, 'and no legal move');
SELECT is(gametree.goal('gdl_rules_ttt', gametree.initial('gdl_rules_ttt')), NULL, 'goal() is NULL while play goes on');

-- board() draws the facts (R X Y V...) of the game's grid relation as a grid,
-- every coordinate the game's facts can take shown (empty cells '.'), and
-- lists the other facts under it; without such a relation it lists them all.
SELECT is(gametree.board('gdl_rules_ttt', pg_temp.play('gdl_rules_ttt', '[["mark",2,2]]')),
          E'3 | b b b\n2 | b x b\n1 | b b b\n  +------\n    1 2 3\n(cell x y ...): x across, y up\n(control oplayer)\n',
          'board(): tic-tac-toe from GDL as a 3x3 grid, then the other facts');
SELECT is(gametree.board('gdl_rules_c4_8x6', gametree.initial('gdl_rules_c4_8x6')),
          (SELECT string_agg(y || ' | .     .     .     .     .     .     .     .', E'\n' ORDER BY y DESC) FROM generate_series(1, 6) y)
          || E'\n  +' || repeat('-', 48) || E'\n    1     2     3     4     5     6     7     8\n(cell x y ...): x across, y up\n(control red)\n',
          'board(): an empty board still a grid, of the coordinates its facts can take, as wide as its widest piece');
SELECT is(split_part(gametree.board('gdl_rules_draughts', gametree.initial('gdl_rules_draughts')), E'\n', 1),
          '8 | black pawn .          black pawn .          black pawn .          black pawn .',
          'board(): facts with more than one argument after the coordinates; letters as coordinates');
SELECT is(gametree.board('gdl_rules_nim', gametree.initial('gdl_rules_nim')),
          E'(control player1)\n(heap a 1)\n(heap b 5)\n(heap c 4)\n(heap d 2)\n',
          'board(): no grid relation, the facts one a line');

-- state_hash: the same state, however reached or written, has the same hash.
SELECT is(gametree.state_hash('gdl_rules_ttt', pg_temp.play('gdl_rules_ttt', '[["mark",1,1],["mark",2,2],["mark",3,3]]')),
          gametree.state_hash('gdl_rules_ttt', pg_temp.play('gdl_rules_ttt', '[["mark",3,3],["mark",2,2],["mark",1,1]]')),
          'state_hash: a transposition has the same hash');
SELECT is(gametree.state_hash('gdl_rules_ttt', (SELECT jsonb_agg(f ORDER BY n DESC)
                                               FROM jsonb_array_elements(gametree.initial('gdl_rules_ttt')) WITH ORDINALITY x(f, n))),
          gametree.state_hash('gdl_rules_ttt', gametree.initial('gdl_rules_ttt')),
          'state_hash: the facts in reverse order, the same hash');
SELECT is(gametree.canonical('gdl_rules_ttt', (SELECT jsonb_agg(f ORDER BY n DESC)
                                              FROM jsonb_array_elements(gametree.initial('gdl_rules_ttt')) WITH ORDINALITY x(f, n))),
          gametree.initial('gdl_rules_ttt'), 'canonical() puts them back in order');
SELECT is(gametree.state_hash('gdl_rules_ttt', gametree.initial('gdl_rules_ttt')),
          gametree.state_hash('gdl_rules_ttt', gametree.initial('gdl_rules_ttt')), 'state_hash: the same on every call');
SELECT is((SELECT count(DISTINCT gametree.state_hash('gdl_rules_ttt', next)) FROM gametree.successors('gdl_rules_ttt', gametree.initial('gdl_rules_ttt'))),
          9::bigint, 'state_hash: the nine states after the first move differ');

-- Connect four, 8 columns x 6 rows (connectFour.kif): no line ends before ply 7.
SELECT is(pg_temp.perfts('gdl_rules_c4_8x6', 5), '8,64,512,4096,32768', 'connectFour.kif (8 x 6): perft 1..5 is 8^d');
-- Connect four, 7 x 6 (connect4.kif): as the built-in game.
SELECT is(pg_temp.perfts('gdl_rules_c4', 6), pg_temp.perfts('connect4', 6),
          'connect4.kif (7 x 6): perft 1..6 equals the built-in connect4''s');
SELECT is(pg_temp.perfts('gdl_rules_c4', 6), '7,49,343,2401,16807,117649',
          'connect4.kif: perft 1..6 equals the published counts');

-- English draughts (englishDraughts.kif, captures compulsory): as the built-in checkers.
SELECT is(pg_temp.perfts('gdl_rules_draughts', 6), pg_temp.perfts('checkers', 6),
          'englishDraughts.kif: perft 1..6 equals the built-in checkers''s');
SELECT is(pg_temp.perfts('gdl_rules_draughts', 6), pg_temp.published('checkers', 6),
          'englishDraughts.kif: perft 1..6 equals the published counts (OEIS A133046)');
-- checkers.kif keeps simple moves legal when a jump is possible (its legal
-- rules for moves have no condition on jumps): it agrees with English
-- draughts until ply 3, where the first captures arise, and then has more.
SELECT ok(pg_temp.perfts('gdl_rules_checkers', 2) = pg_temp.published('checkers', 2)
          AND split_part(pg_temp.perfts('gdl_rules_checkers', 3), ',', 3)::bigint > 302,
          'checkers.kif: perft 1..2 as English draughts, more at ply 3 (captures optional)');

-- Nim (heaps 1, 5, 4, 2): numbers as JSON numbers; control is the game's own relation.
SELECT is(gametree.initial('gdl_rules_nim'),
          '[["control","player1"],["heap","a",1],["heap","b",5],["heap","c",4],["heap","d",2]]',
          'nim1.kif: the initial state');
SELECT is(pg_temp.val($$SELECT gametree.control('gdl_rules_nim', gametree.next('gdl_rules_nim', gametree.initial('gdl_rules_nim'), '["reduce","b",0]'))$$),
          'player2', 'nim1.kif: after player1 moves, player2 is in control');

-- Three players on a 5x5 board that wraps around, four in a line.
SELECT is((SELECT roles FROM gametree.games() WHERE game = 'gdl_rules_ttt3'), '{xplayer,oplayer,zplayer}',
          'tictactoe_3player.kif: three roles');
SELECT is(ARRAY(SELECT gametree.control('gdl_rules_ttt3', pg_temp.play('gdl_rules_ttt3', m))
                FROM (VALUES (0, '[]'::jsonb), (1, '[["mark",1,1]]'), (2, '[["mark",1,1],["mark",2,2]]'),
                             (3, '[["mark",1,1],["mark",2,2],["mark",3,3]]')) v(n, m) ORDER BY n),
          ARRAY['xplayer', 'oplayer', 'zplayer', 'xplayer'], 'control(): xplayer, oplayer, zplayer in turn');
SELECT is((SELECT count(*) FROM gametree.legal('gdl_rules_ttt3', gametree.initial('gdl_rules_ttt3'))), 25::bigint,
          '25 moves at first');
-- x completes row 1; o has three in row 2, z nothing in a line
SELECT results_eq($$SELECT gametree.terminal('gdl_rules_ttt3', s), gametree.goal('gdl_rules_ttt3', s)
                    FROM pg_temp.play('gdl_rules_ttt3', '[["mark",1,1],["mark",2,1],["mark",4,1],["mark",1,2],["mark",2,2],
                                                          ["mark",4,3],["mark",1,3],["mark",2,3],["mark",4,5],["mark",1,4]]') s$$,
                  $$VALUES (true, '{"xplayer": 100, "oplayer": 66, "zplayer": 0}'::jsonb)$$,
                  'tictactoe_3player: a line of four ends play; goal() gives three values: 100, 66 (three in a line), 0');
SELECT is((SELECT count(*) FROM jsonb_object_keys(gametree.goal('gdl_rules_ttt3',
             pg_temp.play('gdl_rules_ttt3', '[["mark",1,1],["mark",2,1],["mark",4,1],["mark",1,2],["mark",2,2],
                                               ["mark",4,3],["mark",1,3],["mark",2,3],["mark",4,5],["mark",1,4]]')))),
          3::bigint, 'one goal per role');
-- the board wraps: (1,5) (1,1) (1,2) (1,3) is a line
SELECT is(gametree.goal('gdl_rules_ttt3', pg_temp.play('gdl_rules_ttt3',
            '[["mark",1,1],["mark",2,1],["mark",3,1],["mark",1,2],["mark",2,2],["mark",3,2],
              ["mark",1,3],["mark",2,4],["mark",3,4],["mark",1,5]]')),
          '{"xplayer": 100, "oplayer": 0, "zplayer": 0}', 'a line across the edge counts: 100, and 0 for the others');

-- Moves at the same time: no role in control.
SELECT is(pg_temp.val($$SELECT count(*) FROM gametree.legal('gdl_rules_roshambo', gametree.initial('gdl_rules_roshambo'))$$),
          '16', 'roshambo2.kif: 16 joint moves at first (4 throws each)');
SELECT is(pg_temp.val($$SELECT count(*) FROM gametree.successors('gdl_rules_roshambo', gametree.initial('gdl_rules_roshambo'))$$),
          '16', 'and 16 successors');
SELECT is(pg_temp.val($$SELECT coalesce(gametree.control('gdl_rules_roshambo', gametree.initial('gdl_rules_roshambo')), 'NULL')$$),
          'NULL', 'roshambo2.kif: control() is NULL');
SELECT is(pg_temp.val($$SELECT count(*) FROM gametree.legal('gdl_rules_prisoner', gametree.initial('gdl_rules_prisoner'))$$),
          '4', 'gt_prisoner.kif: 4 joint moves at first');
SELECT is(pg_temp.val($$SELECT coalesce(gametree.control('gdl_rules_prisoner', gametree.initial('gdl_rules_prisoner')), 'NULL')$$),
          'NULL', 'gt_prisoner.kif: control() is NULL');
-- connectFourSimultaneous has a control relation of its own, (control red 1)
SELECT is(pg_temp.val($$SELECT count(*) FROM gametree.legal('gdl_rules_c4_simultaneous', gametree.initial('gdl_rules_c4_simultaneous'))$$),
          '64', 'connectFourSimultaneous.kif: 8 x 8 joint moves at first');
SELECT is(pg_temp.val($$SELECT coalesce(gametree.control('gdl_rules_c4_simultaneous', gametree.initial('gdl_rules_c4_simultaneous')), 'NULL')$$),
          'NULL', 'connectFourSimultaneous.kif: control() is NULL');

-- A frame rule over 50 cells of 10 values and 450 moves (src/gdl/split.h):
-- whole, 216,090 instances, past SPLIT_ABOVE (ground.c), so its action
-- goes into a part, one per cell ("some move leaves cell ?c alone, and
-- the cell is kept"), 21,609 ground rules.  Its network then fits in a
-- quarter of 16MB, where the whole rule's needs 32MB (measured).  A value
-- 1..9 may be set in one cell at a time (used), a cell of two values ends
-- the moves (twice), and cell 0 is not kept (its part never holds: its
-- value is gone after the next move, and may be set again): perft 1..4 =
-- 9, 9*8, 9*8*8, 9*8*8*7 as counted by hand, on the network and on the
-- prover (the part taken as always holding: a set cell keeps its old value
-- too, and the game has no legal move past it, 42P17; a part that never
-- holds ending the join: 9,72,576,4608).
SELECT '(role a) (init (cursor 0)) '
  || (SELECT string_agg(format('(init (cell %s 0))', c), ' ') FROM generate_series(0, 49) c) || ' '
  || (SELECT string_agg(format('(succ %s %s)', c, c + 1), ' ') FROM generate_series(0, 48) c) || ' '
  || (SELECT string_agg(format('(val %s)', v), ' ') FROM generate_series(1, 9) v)
  || ' (<= (legal a (set ?c ?v)) (true (cursor ?c)) (val ?v) (not (used ?v)) (not twice))'
  || ' (<= (used ?v) (true (cell ?c ?v)) (val ?v))'
  || ' (<= twice (true (cell ?c ?v)) (true (cell ?c ?w)) (distinct ?v ?w))'
  || ' (<= (next (cell ?c ?v)) (does a (set ?c ?v)))'
  || ' (<= (next (cell ?c ?v)) (true (cell ?c ?v)) (does a (set ?d ?w)) (distinct ?c ?d) (kept ?c ?k))'
  || (SELECT string_agg(format(' (kept %s yes)', c), '') FROM generate_series(1, 49) c)
  || ' (<= (next (cursor ?d)) (true (cursor ?c)) (succ ?c ?d))'
  || ' (<= terminal (true (cursor 4)))'
  || ' (<= (goal a 100) (true (cell 0 1))) (<= (goal a 0) (not (true (cell 0 1))))' AS frame_kif \gset
SELECT is(pg_temp.load_at('gdl_rules_frame', :'frame_kif', '16MB', '1MB'), 'network prover',
          'a frame rule of 216,090 instances, split: a network within 16MB (1MB: the prover)');
SELECT is(pg_temp.perfts_both('gdl_rules_frame', 4), '9,72,576,4032 9,72,576,4032',
          'its perft 1..4 as counted by hand, on the network and the prover');

-- A literal whose variables no other literal has, asked as a part of its
-- own (src/gdl/split.c, project_literals): the frame game and marks 0..99,
-- each set when a move is made at a cell near it, (<= (next (mark ?e))
-- (does a (set ?c ?v)) (near ?c ?e ?f) (fv ?f)), near 49 cells x 100 marks
-- x 25 ?f: 1.1 million instances whole, the move's value ?v its own;
-- projected, the move asked as "some move at ?c".  The network fits within
-- gametree.gdl_memory 64MB, where whole it needs 256MB (measured: prover
-- at 128MB).  And (<= (next flag) (does a (set ?c ?v)) (fv ?f)): 25
-- copies of each move's rule, too few to split, whose runs of one action
-- overran factor.c's room for the actions (a crash before 0.4.0).  Goal 100
-- also holds with mark 99 or the flag and cell 0 at 1, so both are read
-- and the perft is the frame game's.
SELECT :'frame_kif' || (SELECT string_agg(format(' (value %s)', e), '') FROM generate_series(0, 99) e)
  || (SELECT string_agg(format(' (fv %s)', f), '') FROM generate_series(0, 24) f)
  || ' (<= (near ?c ?e ?f) (kept ?c yes) (value ?e) (fv ?f))'
  || ' (<= (next (mark ?e)) (does a (set ?c ?v)) (near ?c ?e ?f) (fv ?f))'
  || ' (<= (goal a 100) (true (mark 99)) (true (cell 0 1)))'
  || ' (<= (next flag) (does a (set ?c ?v)) (fv ?f)) (<= (goal a 100) (true flag) (true (cell 0 1)))' AS mark_kif \gset
SELECT is(pg_temp.load_at('gdl_rules_mark', :'mark_kif', '64MB', '16MB'), 'network prover',
          'a rule of 1.1 million instances, its move asked once: a network within 64MB (16MB: the prover)');
SELECT is(pg_temp.perfts_both('gdl_rules_mark', 4), '9,72,576,4032 9,72,576,4032',
          'its perft 1..4: the frame game''s, on the network and the prover');

-- An argument that changes nothing costs no node (src/gdl/copies.c).  A
-- row of cells 1..6, all blank; a cell may be filled when the cells
-- before it are blank ((clear 0 ?c), a line walk), so the fills go right
-- to left and perft n = C(6, n): 6,15,20,15,6,1.  The second game's walk
-- carries a colour of three that it only passes on, as chess.kif's walks
-- carry the square they ignore: its nodes are each the first game's, once
-- three, and its network is the first game's, rules and nodes.
SELECT '(role p) (init (cell 1 b)) (init (cell 2 b)) (init (cell 3 b)) (init (cell 4 b)) (init (cell 5 b)) (init (cell 6 b))'
  || ' (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6) (succ 6 7)'
  || ' (<= (next (cell ?c s)) (does p (fill ?c)))'
  || ' (<= (next (cell ?c ?x)) (true (cell ?c ?x)) (does p (fill ?d)) (distinct ?c ?d))'
  || ' (<= terminal (true (cell 1 s)))'
  || ' (<= (goal p 100) (true (cell 1 s))) (<= (goal p 0) (not (true (cell 1 s))))' AS row_kif \gset
SELECT :'row_kif'
  || ' (<= (clear ?a ?b) (succ ?a ?b)) (<= (clear ?a ?b) (succ ?a ?c) (true (cell ?c b)) (clear ?c ?b))'
  || ' (<= (legal p (fill ?c)) (true (cell ?c b)) (clear 0 ?c))' AS row_plain_kif \gset
SELECT :'row_kif' || ' (colour red) (colour green) (colour blue)'
  || ' (<= (clear ?a ?b ?k) (succ ?a ?b) (colour ?k))'
  || ' (<= (clear ?a ?b ?k) (succ ?a ?c) (true (cell ?c b)) (clear ?c ?b ?k))'
  || ' (<= (legal p (fill ?c)) (true (cell ?c b)) (clear 0 ?c ?k))' AS row_colour_kif \gset
SELECT format('%s %s %s', engine, rules, nodes) AS row_plain FROM gametree.load_game('gdl_rules_row', :'row_plain_kif') \gset
SELECT format('%s %s %s', engine, rules, nodes) AS row_colour FROM gametree.load_game('gdl_rules_row_colour', :'row_colour_kif') \gset
SELECT is(:'row_colour'::text, :'row_plain',
          'a line walk that passes on an argument of three values: the network (engine, rules, nodes) of the walk without it');
SELECT is(pg_temp.perfts('gdl_rules_row', 6) || ' ' || pg_temp.perfts('gdl_rules_row_colour', 6),
          '6,15,20,15,6,1 6,15,20,15,6,1', 'both: perft 1..6 = C(6, n)');

-- Chess (chess.kif): the start position's perft from chessprogramming.org.
SET LOCAL statement_timeout = '5min';
SELECT is(pg_temp.load('gdl_rules_chess', 'chess'), 'ok', 'chess.kif loads');
SET LOCAL statement_timeout = '5min';
-- To depth 4, where checks come in (about 2 s on the prover).
SELECT is(pg_temp.perfts('gdl_rules_chess', 4), pg_temp.published('chess', 4, 'start'),
          'chess.kif: perft 1..4 = 20, 400, 8,902, 197,281');
RESET statement_timeout;

SELECT * FROM finish();
ROLLBACK;
