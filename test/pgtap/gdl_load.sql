-- GDL game descriptions loaded with gametree.load_game: the 16 sample files
-- (test/data/gdl, table reference_gdl, loaded by tools/check.sh), names that
-- clash, unloading, another session, and bad input: an error with its
-- SQLSTATE each, and for an error in the text the line it is on.
-- Not in one transaction: another session (dblink) must see the games.  Every
-- game and tree made here is named gdl_load_...; leftovers of a run that
-- stopped half way are removed first.
SET client_min_messages = warning;
SELECT plan(68);
SELECT now() AS started \gset

\ir helpers.psql

-- Loads a one-off description as game gdl_load_bad; 'ok' or the error.
CREATE FUNCTION pg_temp.load_text(kif text) RETURNS text LANGUAGE sql AS $$
  SELECT pg_temp.try(format('SELECT gametree.load_game(%L, %L)', 'gdl_load_bad', kif))
$$;

-- Loads reference_gdl's file f as game; returns the engine or the error.
CREATE FUNCTION pg_temp.engine(game text, f text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  RETURN (SELECT engine FROM gametree.load_game(game, (SELECT kif FROM reference_gdl WHERE name = f)));
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

\o /dev/null
-- What a run that stopped half way left.
SELECT pg_temp.clean_up('gdl_load');
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'alice') THEN CREATE ROLE alice LOGIN; END IF;
END $$;
-- opened before any game is loaded
SELECT dblink_connect('other', pg_temp.connstr());
\o

-- Every file loads.  The roles are those of the file's role facts, in order.
CREATE TEMP TABLE expected (file text, roles text[]);
INSERT INTO expected VALUES
  ('blocker', '{crosser,blocker}'), ('breakthrough', '{white,black}'), ('checkers', '{white,black}'),
  ('chess', '{white,black}'), ('chineseCheckers3', '{red,green,blue}'),
  ('chineseCheckers6', '{red,yellow,green,teal,blue,magenta}'), ('connect4', '{white,red}'),
  ('connectFour', '{red,black}'), ('connectFourSimultaneous', '{red,black}'),
  ('englishDraughts', '{white,black}'), ('gt_prisoner', '{white,black}'), ('nim1', '{player1,player2}'),
  ('pacman3p', '{pacman,blinky,inky}'), ('roshambo2', '{white,black}'), ('ticTacToe', '{xplayer,oplayer}'),
  ('tictactoe_3player', '{xplayer,oplayer,zplayer}');
CREATE TEMP TABLE loads (file text, roles text[], facts integer, actions integer, rules integer, nodes integer,
                         error text);

-- Loads reference_gdl's file as gdl_load_<file> and notes the result in
-- loads; returns the roles when the compiled game has facts, actions, nodes
-- and rules (none when the prover evaluates it), or what went wrong.
CREATE FUNCTION pg_temp.load(f text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  l record;
BEGIN
  SELECT * INTO STRICT l FROM gametree.load_game('gdl_load_' || f, (SELECT kif FROM reference_gdl WHERE name = f));
  INSERT INTO loads VALUES (f, l.roles, l.facts, l.actions, l.rules, l.nodes, NULL);
  IF l.facts > 0 AND l.actions > 0 AND (l.rules > 0 OR l.engine = 'prover') AND l.nodes > 0 THEN
    RETURN l.roles::text;
  END IF;
  RETURN format('%s: %s facts, %s actions, %s rules, %s nodes, engine %s', l.roles, l.facts, l.actions, l.rules,
                l.nodes, l.engine);
EXCEPTION WHEN OTHERS THEN
  INSERT INTO loads (file, error) VALUES (f, SQLSTATE || ': ' || SQLERRM);
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

SELECT is((SELECT count(*) FROM reference_gdl), 16::bigint, 'reference_gdl holds the 16 files of test/data/gdl');
-- (the large ones last: chess.kif takes longest)
SELECT is(pg_temp.load(file), roles::text, format('%s.kif loads: roles %s, and facts, actions, rules', file, roles))
FROM expected
ORDER BY file IN ('chess', 'checkers', 'chineseCheckers3', 'chineseCheckers6'), file = 'chess', file;

SELECT is((SELECT row(facts, actions)::text FROM loads WHERE file = 'ticTacToe'), '(29,20)',
          'ticTacToe.kif: 29 facts (27 cell, 2 control), 20 actions (9 marks and noop per role)');
SELECT is((SELECT count(*) FROM gametree.gdl_games g
           JOIN reference_gdl r ON g.name = 'gdl_load_' || r.name AND g.kif = r.kif
           JOIN expected e ON e.file = r.name AND g.roles = e.roles
           WHERE g.loaded_by = current_user AND g.loaded_at BETWEEN :'started' AND now()),
          16::bigint, 'gametree.gdl_games: each game''s text as given, its roles, who loaded it and when');
SELECT set_has($$SELECT game, roles FROM gametree.games()$$,
               $$SELECT 'gdl_load_' || file, roles FROM expected
                 UNION ALL VALUES ('tictactoe', '{xplayer,oplayer}'::text[]), ('connect4', '{red,black}'),
                                  ('chess', '{white,black}'), ('checkers', '{black,white}')$$,
               'games() lists the 16 loaded games with their roles beside the four built in');
SELECT is(pg_temp.perfts('gdl_load_nim1', 2), '12,115', 'nim1 (heaps 1, 5, 4, 2): perft 12, then 115 (counted by hand)');

-- Names that clash: the built-in games (their KIF files too), a game loaded already.
SELECT is((SELECT array_agg(left(pg_temp.try(format('SELECT gametree.load_game(%L, %L)', n, r.kif)), 5) ORDER BY n)
           FROM (VALUES ('tictactoe', 'ticTacToe'), ('connect4', 'connect4'), ('chess', 'chess'),
                        ('checkers', 'checkers')) v(n, f) JOIN reference_gdl r ON r.name = v.f),
          ARRAY['42710', '42710', '42710', '42710'],
          'a built-in game''s name is refused (42710), for each of the four');
SELECT is(pg_temp.try($$SELECT gametree.load_game('gdl_load_nim1', (SELECT kif FROM reference_gdl WHERE name = 'blocker'))$$),
          '42710: game "gdl_load_nim1" is already loaded', 'a name already loaded is refused (42710)');
SELECT is(pg_temp.perfts('gdl_load_nim1', 2), '12,115', 'and the game loaded under it is unchanged');

-- Another session, opened before the games were loaded.
SELECT is((SELECT n FROM dblink('other', $$SELECT gametree.perft('gdl_load_ticTacToe', gametree.initial('gdl_load_ticTacToe'), 4)$$, false)
           AS t(n bigint)), 3024::bigint, 'another session plays a game loaded here: perft 4 = 3,024');
SELECT is((SELECT n FROM dblink('other', $$SELECT count(*) FROM gametree.games() WHERE game LIKE 'gdl\_load\_%'$$)
           AS t(n bigint)), 16::bigint, 'and its games() lists the 16');
\o /dev/null
SELECT gametree.load_game('gdl_load_swap', kif) FROM reference_gdl WHERE name = 'ticTacToe';
SELECT * FROM dblink('other', $$SELECT gametree.perft('gdl_load_swap', gametree.initial('gdl_load_swap'), 2)$$, false) AS t(n bigint);
SELECT gametree.unload_game('gdl_load_swap');
\o
SELECT is((SELECT n FROM dblink('other', $$SELECT gametree.perft('gdl_load_swap', gametree.initial('gdl_load_swap'), 2)$$, false)
           AS t(n bigint)), NULL, 'unloaded here, a game the other session played is gone there');
SELECT alike(dblink_error_message('other'), '%unknown game "gdl_load_swap"%', 'with the error "unknown game"');
\o /dev/null
SELECT gametree.load_game('gdl_load_swap', kif) FROM reference_gdl WHERE name = 'nim1';
\o
SELECT is((SELECT n FROM dblink('other', $$SELECT gametree.perft('gdl_load_swap', gametree.initial('gdl_load_swap'), 2)$$, false)
           AS t(n bigint)), 115::bigint, 'loaded again with other rules, the other session plays the new rules');

-- Unloading.
\o /dev/null
SELECT gametree.create_tree('gdl_load_tree', 'gdl_load_blocker');
\o
SELECT alike(pg_temp.try($$SELECT gametree.unload_game('gdl_load_blocker')$$),
             '2BP01: %gdl_load_blocker%', 'unload_game is refused while a tree uses the game (2BP01)');
SELECT is(pg_temp.val($$SELECT count(*) FROM gametree.legal('gdl_load_blocker', gametree.initial('gdl_load_blocker'))$$), '256',
          'the game is still there: 16 x 16 joint moves (both roles mark a cell at once)');
\o /dev/null
SELECT gametree.drop_tree('gdl_load_tree');
\o
SELECT is(pg_temp.try($$SELECT gametree.unload_game('gdl_load_blocker')$$), 'ok', 'with the tree dropped it succeeds');
SELECT ok(NOT EXISTS (SELECT FROM gametree.games() WHERE game = 'gdl_load_blocker')
          AND NOT EXISTS (SELECT FROM gametree.gdl_games WHERE name = 'gdl_load_blocker'),
          'the game is in neither games() nor gdl_games');
SELECT throws_ok($$SELECT gametree.initial('gdl_load_blocker')$$, '22023', NULL, 'and unknown to the functions (22023)');
SELECT is(left(pg_temp.try($$SELECT gametree.unload_game('gdl_load_blocker')$$), 5), '42704',
          'a game not loaded cannot be unloaded (42704)');
SELECT is(left(pg_temp.try_as('alice', $$SELECT gametree.unload_game('gdl_load_nim1')$$), 5), '42501',
          'a role that did not load the game and is no superuser cannot unload it (42501)');
SELECT is(pg_temp.perfts('gdl_load_nim1', 1), '12', 'the game stays');

-- Errors in the text: syntax (42601), meaning (42P17), with the line.
SELECT alike(pg_temp.load_text(E'(role x)\n(init (p a))\n(<= (legal x a) (true (p a))\n(<= terminal (true (p b)))'),
             '42601: %line 3%', 'an unclosed "(": 42601 at line 3, where it opens');
SELECT alike(pg_temp.load_text(E'(role x)\n(init (p a)))\n(<= (legal x a) (true (p a)))\n'),
             '42601: %line 2%', 'a stray ")": 42601 at line 2');
SELECT alike(pg_temp.load_text(E'(role x)\n(init (p a))\n(<= (distinct a b) (role x))\n(<= (legal x a) (true (p a)))\n'),
             '42P17: %line 3%distinct%', 'distinct as the head of a rule: 42P17 at line 3');
SELECT alike(pg_temp.load_text(E'(role x)\n(init (p a))\n(<= (legal x a) (true (p a)))\n(<= (true (q a))\n    (role x))\n'),
             '42P17: %line 4%true%', 'true as the head of a rule: 42P17 at line 4');
SELECT alike(pg_temp.load_text(E'(role x)\n(init (p a))\n(<= (legal x a) (true (p a)))\n(<= (next (p a)) (true (p a)) (not (q ?y)))\n(<= (q a) (true (p a)))\n'),
             '42P17: %line 4%?y%', 'a variable bound only in a negation (unsafe): 42P17 at line 4');
SELECT matches(pg_temp.load_text(E'(role x)\n(init (p a))\n(<= (legal x a) (true (p a)))\n(<= p (not q))\n(<= q (not p))\n'),
               '^42P17: .*\mline [45]\M', 'recursion through negation (not stratified): 42P17 at line 4 or 5');
SELECT alike(pg_temp.load_text(E'(init (p a))\n(<= (legal x a) (true (p a)))\n'),
             '42P17: %role%', 'no roles: 42P17');
SELECT alike(pg_temp.load_text(E'(role x)\n(<= (legal x a) (role x))\n(<= terminal (role x))\n'),
             '42P17: %init%', 'no initial state: 42P17');
SELECT alike(pg_temp.load_text(E'(role x)\n(init (p a))\n\n(<= (legal x a) (does x a))\n'),
             '42P17: %line 4%', 'legal depending on does: 42P17 at line 4');
SELECT ok(NOT EXISTS (SELECT FROM gametree.gdl_games WHERE name = 'gdl_load_bad')
          AND NOT EXISTS (SELECT FROM gametree.games() WHERE game = 'gdl_load_bad'),
          'a description refused leaves nothing behind');

-- States with facts the game cannot have: 22023.
SELECT throws_ok($$SELECT gametree.next('gdl_load_ticTacToe', '[["cell",1,1,"q"],["control","xplayer"]]', '["mark",2,2]')$$,
                 '22023', NULL, 'next(): a cell marked q (22023)');
SELECT throws_ok($$SELECT gametree.legal('gdl_load_ticTacToe', '[["cell",9,9,"b"],["control","xplayer"]]')$$,
                 '22023', NULL, 'legal(): a cell off the board (22023)');
SELECT throws_ok($$SELECT gametree.legal('gdl_load_ticTacToe', '[["square",1,1,"b"]]')$$,
                 '22023', NULL, 'legal(): a relation the game does not have (22023)');

-- gametree.gdl_memory: a game whose network's grounding would take more
-- than half of it is evaluated by the prover, with the same moves; a description
-- whose grounding alone needs more is refused (54000), and the session goes
-- on.  1MB is the smallest setting.  The parsed rules count with their
-- grounding: pacman3p's hold about 1.25MB together.
SET gametree.gdl_memory = '2MB';
SELECT is(pg_temp.engine('gdl_load_small_bt', 'breakthrough'), 'prover', 'breakthrough loads within 2MB, with the prover');
SELECT is(pg_temp.engine('gdl_load_small_cc6', 'chineseCheckers6'), 'prover',
          'chineseCheckers6 loads within 2MB, with the prover');
SELECT is(pg_temp.engine('gdl_load_small_pacman', 'pacman3p'), 'prover', 'pacman3p loads within 2MB, with the prover');
SET gametree.gdl_memory = '1MB';
SELECT is(pg_temp.engine('gdl_load_small_ttt3', 'tictactoe_3player') || ' '
          || pg_temp.engine('gdl_load_small_draughts', 'englishDraughts') || ' '
          || pg_temp.engine('gdl_load_small_cc3', 'chineseCheckers3'), 'network prover prover',
          'within 1MB, tictactoe_3player loads on its network, englishDraughts and chineseCheckers3 with the prover');
SELECT matches(pg_temp.engine('gdl_load_small_pacman_1mb', 'pacman3p'),
               '^54000: game "gdl_load_small_pacman_1mb": grounding its rules needs more than gametree.gdl_memory \(1024 kB\)',
               'pacman3p does not: its grounding is counted before it grows past the setting (54000)');
SELECT alike(pg_temp.try(format($$SELECT gametree.load_game('gdl_load_big', %L)$$,
               E'(role r)\n(init (s 0))\n'
               || (SELECT string_agg(format('(n %s)', i), ' ') FROM generate_series(0, 39) i)
               || E'\n(<= (big ?a ?b ?c ?d) (n ?a) (n ?b) (n ?c) (n ?d))'
               || E'\n(<= (legal r (go ?a)) (true (s ?a)) (big ?a ?a ?a ?a))'
               || E'\n(<= (next (s ?a)) (does r (go ?a)))\n(<= terminal (true (s 1)))'
               || E'\n(<= (goal r 100) (true (s 1)))\n(<= (goal r 0) (true (s 0)))\n')),
             '54000: %gametree.gdl_memory%',
             'a static relation of 40^4 atoms within 1MB: 54000, naming the setting');
RESET gametree.gdl_memory;
SELECT ok(NOT EXISTS (SELECT FROM gametree.gdl_games WHERE name = 'gdl_load_big'), 'nothing of it is stored');
SELECT is(pg_temp.perfts('gdl_load_ticTacToe', 4), '9,72,504,3024', 'after it, the session plays a loaded game');
SELECT is(pg_temp.perfts('gdl_load_small_bt', 3), pg_temp.perfts('gdl_load_breakthrough', 3),
          'breakthrough loaded within 2MB: perft 1..3 as loaded with the default');
SELECT is(pg_temp.perfts('gdl_load_small_cc6', 4), pg_temp.perfts('gdl_load_chineseCheckers6', 4),
          'chineseCheckers6 loaded within 2MB: perft 1..4 as loaded with the default');
-- The prover and the network, two evaluations of the same grounding, agree.
-- pacman3p's network pairs its counts with the ways pacman eats a pellet
-- through a node of its own (src/gdl/products.c), and perft 6 moves pacman
-- three times; chineseCheckers3's jumps over a cell of any colour read a
-- node for the three colours there.
SELECT is(pg_temp.perfts('gdl_load_small_ttt3', 3) || ' ' || pg_temp.perfts('gdl_load_small_pacman', 6)
          || ' ' || pg_temp.perfts('gdl_load_small_draughts', 4),
          pg_temp.perfts('gdl_load_tictactoe_3player', 3) || ' ' || pg_temp.perfts('gdl_load_pacman3p', 6)
          || ' ' || pg_temp.perfts('gdl_load_englishDraughts', 4),
          'on the prover, tictactoe_3player, pacman3p and englishDraughts have the perft of their networks');
SELECT is(pg_temp.perfts('gdl_load_small_cc3', 5), pg_temp.perfts('gdl_load_chineseCheckers3', 5),
          'and chineseCheckers3, perft 1..5');
SELECT cmp_ok((SELECT rules FROM loads WHERE file = 'pacman3p'), '<', 20000,
              'pacman3p''s network: its rules that pair counts with moves factored (48,737 rules without)');

-- A node that copies another derived node (one rule of one literal), or
-- negates it, is read through: q2 and q3 leave the network with their
-- rules (21 nodes and 13 rules without this); q1, a copy of the fact p,
-- stays (src/gdl/copies.c says why).  The game plays as counted by hand:
-- flip from p, then flop or wait, then flip after flop, until step 3.
SELECT is((SELECT rules || ' rules, ' || nodes || ' nodes' FROM gametree.load_game('gdl_load_copies', $$
  (role a) (init (p)) (init (step 0))
  (<= (q1) (true (p))) (<= (q2) (q1)) (<= (q3) (not (q2)))
  (<= (legal a flip) (q2)) (<= (legal a flop) (q3)) (<= (legal a wait) (q3))
  (<= (next (p)) (does a flop))
  (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y)) (succ 0 1) (succ 1 2) (succ 2 3)
  (<= terminal (true (step 3)))
  (<= (goal a 100) (q2)) (<= (goal a 0) (q3))
$$)), '11 rules, 19 nodes', 'copies of a derived node, and a negated one, are folded into their readers');
SELECT is(pg_temp.perfts('gdl_load_copies', 4) || ' ' ||
          (SELECT string_agg(gametree.goal('gdl_load_copies', gametree.next('gdl_load_copies', gametree.next('gdl_load_copies',
             gametree.next('gdl_load_copies', gametree.initial('gdl_load_copies'), '"flip"'), '"wait"'), m))::text, ' ' ORDER BY m::text)
             FROM (VALUES ('"flop"'::jsonb), ('"wait"')) v(m)),
          '1,2,3,0 {"a": 100} {"a": 0}', 'and the folded game plays as counted by hand: perft 1..4, goals after flip, wait, flop or wait');

-- A load rolled back leaves nothing, in this session's memory either.
BEGIN;
SELECT pg_temp.try($$SELECT gametree.load_game('gdl_load_rolled_back', (SELECT kif FROM reference_gdl WHERE name = 'nim1'))$$)
       AS rolled_back_load \gset
ROLLBACK;
SELECT ok(:'rolled_back_load' = 'ok' AND NOT EXISTS (SELECT FROM gametree.gdl_games WHERE name = 'gdl_load_rolled_back')
          AND NOT EXISTS (SELECT FROM gametree.games() WHERE game = 'gdl_load_rolled_back'),
          'a load rolled back leaves nothing in gdl_games or games()');
SELECT throws_ok($$SELECT gametree.initial('gdl_load_rolled_back')$$, '22023', NULL,
                 'and the game is unknown to the session that loaded it (22023)');

\o /dev/null
SELECT dblink_disconnect('other');
SELECT pg_temp.clean_up('gdl_load');
\o
SELECT is((SELECT count(*) FROM gametree.gdl_games WHERE name LIKE 'gdl\_load\_%'), 0::bigint, 'all unloaded at the end');
SELECT * FROM finish();
