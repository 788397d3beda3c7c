-- What a GGP player (gametree ggp) asks of the extension: from_kif and to_kif,
-- KIF terms and their JSON, on every form and on every legal move and
-- initial fact of the 16 GDL samples (test/data/gdl, table reference_gdl),
-- and recorded matches (gametree.matches): a tic-tac-toe match and a
-- roshambo2.kif one (simultaneous moves) played, ended and replayed; the
-- match's tree dropped unless kept; another role's match read, not played.
-- In one transaction, but for a match alice begins through dblink, which
-- must be committed to be hers: it is deleted at the end (and leftovers of
-- a run that stopped half way first).
SET client_min_messages = warning;

\ir helpers.psql

\o /dev/null
SELECT pg_temp.make_roles('alice', 'bob');
SELECT dblink_connect('ggp_match_alice', pg_temp.connstr('alice'));
SELECT dblink_connect('ggp_match_admin', pg_temp.connstr());
SELECT dblink_exec('ggp_match_admin', $$DELETE FROM gametree.matches WHERE match_id LIKE 'ggp\_match.%'$$);
\o

BEGIN;
SELECT plan(141);

-- KIF to JSON: the README's conventions for GDL games.
SELECT is(gametree.from_kif('(cell 1 1 b)'), '["cell", 1, 1, "b"]', 'from_kif: (cell 1 1 b), numbers as JSON numbers');
SELECT is(gametree.from_kif('noop'), '"noop"', 'from_kif: a constant is a string');
SELECT is(gametree.from_kif('(noop)'), '"noop"', 'from_kif: (noop), a list of the name alone, is the constant');
SELECT is(gametree.from_kif('( open )'), '"open"', 'from_kif: ( open ) too');
SELECT is(gametree.from_kif('(MARK 2 2)'), '["mark", 2, 2]', 'from_kif: symbols are case-insensitive, lower-cased');
SELECT is(gametree.from_kif(E'\n\t (move\n  (pos 1 2)\r\n   UP) \n'), '["move", ["pos", 1, 2], "up"]',
          'from_kif: nested terms, any whitespace and newlines');
SELECT is(gametree.from_kif('7'), '7', 'from_kif: a symbol that spells a non-negative integer is a number');
SELECT is(gametree.from_kif('(step 0 10 007 -1 1.5)'), '["step", 0, 10, "007", "-1", "1.5"]',
          'from_kif: 0 and 10 are numbers; 007, -1 and 1.5 are symbols of other spellings');
SELECT is(gametree.from_kif('(beaten White s0) ; a comment'), '["beaten", "white", "s0"]',
          'from_kif: a comment after the term');

-- JSON to KIF.
SELECT is(gametree.to_kif('["mark", 2, 2]'), '(mark 2 2)', 'to_kif: (mark 2 2)');
SELECT is(gametree.to_kif('"noop"'), 'noop', 'to_kif: noop');
SELECT is(gametree.to_kif('["move", ["pos", 1, 2], "up"]'), '(move (pos 1 2) up)', 'to_kif: nested terms');
SELECT is(gametree.to_kif('["Mark", 2, "X"]'), '(mark 2 x)', 'to_kif: lower-case');
SELECT is(gametree.to_kif('["open"]'), 'open', 'to_kif: ["open"], a fact without arguments, is the constant open');
SELECT is(gametree.to_kif('42'), '42', 'to_kif: a number');
SELECT is(gametree.to_kif('["does", "white", ["mark", 1, 3]]'), '(does white (mark 1 3))', 'to_kif: a role''s move');

-- What is no KIF term: 22P02, with a hint.
SELECT throws_ok($$SELECT gametree.from_kif('')$$, '22P02', 'KIF term: the text holds no term', 'from_kif: empty text (22P02)');
SELECT throws_ok($$SELECT gametree.from_kif(E' \n ; only a comment')$$, '22P02', 'KIF term: the text holds no term',
                 'from_kif: blanks and a comment (22P02)');
SELECT throws_ok($$SELECT gametree.from_kif('(mark 1 2')$$, '22P02',
                 'KIF term, line 1: unbalanced parentheses: "(" is never closed', 'from_kif: "(" never closed (22P02)');
SELECT throws_ok($$SELECT gametree.from_kif('(mark 1 2))')$$, '22P02',
                 'KIF term, line 1: unbalanced parentheses: ")" without "("', 'from_kif: a ")" too many (22P02)');
SELECT throws_ok($$SELECT gametree.from_kif(')')$$, '22P02',
                 'KIF term, line 1: unbalanced parentheses: ")" without "("', 'from_kif: ")" alone (22P02)');
SELECT throws_ok($$SELECT gametree.from_kif(E'(mark 1 2)\n(mark 2 2)')$$, '22P02', 'KIF term, line 2: text after the term',
                 'from_kif: two terms (22P02)');
SELECT throws_ok($$SELECT gametree.from_kif('noop noop')$$, '22P02', 'KIF term, line 1: text after the term',
                 'from_kif: two symbols (22P02)');
SELECT throws_ok($$SELECT gametree.from_kif('(mark ?x 2)')$$, '22P02',
                 'KIF term, line 1: a variable ?x in a term that must be ground', 'from_kif: a variable (22P02)');
SELECT throws_ok($$SELECT gametree.from_kif(repeat('(f ', 101) || 'a' || repeat(')', 101))$$, '22P02',
                 'KIF term, line 1: lists nested more than 100 deep', 'from_kif: nesting past 100 (22P02)');
SELECT is(gametree.from_kif(repeat('(f ', 100) || 'a' || repeat(')', 100)) #>> array_fill('1'::text, '{100}'),
          'a', 'from_kif: nesting of 100 is read');
SELECT is(pg_temp.try($$SELECT gametree.from_kif(repeat('(f ', 1000000) || 'a' || repeat(')', 1000000))$$),
          '22P02: KIF term, line 1: lists nested more than 100 deep',
          'from_kif: a million levels stop at the limit, with no stack overflow (22P02)');
SELECT throws_ok($$SELECT gametree.from_kif('()')$$, '22P02', 'KIF term, line 1: an empty list "()"',
                 'from_kif: an empty list (22P02)');
SELECT throws_ok(format('SELECT gametree.from_kif(%L)', '(f ' || repeat('a', 201) || ')'), '42622',
                 'KIF term, line 1: a name of 201 characters is too long', 'from_kif: a name too long (42622)');
SELECT throws_ok(format('SELECT gametree.to_kif(%L)', to_jsonb(repeat('a', 201))), '22023', NULL,
                 'to_kif: a string too long for a symbol (22023)');

-- What is no term's JSON: 22023.
SELECT throws_ok(format('SELECT gametree.to_kif(%L)', j), '22023', NULL, format('to_kif: %s (22023)', why))
FROM (VALUES ('{"mark": 1}', 'an object'), ('null', 'null'), ('true', 'a boolean'), ('["mark", false]', 'a boolean inside'),
             ('-1', 'a negative number'), ('1.5', 'a fractional number'), ('["cell", 1, 2.5]', 'a fraction inside'),
             ('[]', 'an empty array'), ('["mark", []]', 'an empty array inside'), ('[1, 2]', 'an array led by a number'),
             ('[["mark"], 1]', 'an array led by an array'), ('"a b"', 'a string with a space'),
             ('"(mark"', 'a string with a parenthesis'), ('"?x"', 'a variable'), ('""', 'an empty string'),
             ('["mark", "1 2"]', 'a string with a space inside'), ('"a;b"', 'a string with a comment''s ";"')) v(j, why);
SELECT is(pg_temp.try($$SELECT gametree.to_kif('{"mark": 1}')$$),
          '22023: {"mark": 1} is not a GDL term: a term is a string, a number or an array', 'to_kif: the message names the value');

-- Round trips over every legal joint move's role moves and actions and every
-- fact of the initial state of the 16 samples: to_kif then from_kif gives the
-- term back (a fact without arguments, ["open"], as the constant "open"),
-- also from the KIF upper-cased and spread over lines, and to_kif writes
-- lower case with single spaces.
CREATE FUNCTION pg_temp.round_trip_mismatches(game text) RETURNS text LANGUAGE sql AS $$
  WITH terms AS (
    SELECT does AS term FROM gametree.legal(game, gametree.initial(game)) m, jsonb_array_elements(m) does
    UNION
    SELECT does->2 FROM gametree.legal(game, gametree.initial(game)) m, jsonb_array_elements(m) does
    UNION
    SELECT CASE WHEN jsonb_array_length(f) = 1 THEN f->0 ELSE f END FROM jsonb_array_elements(gametree.initial(game)) f
  ), kif AS (SELECT term, gametree.to_kif(term) AS kif FROM terms)
  SELECT coalesce(string_agg(kif, ', '), 'none') FROM kif
  WHERE gametree.from_kif(kif) IS DISTINCT FROM term
     OR gametree.from_kif(upper(replace(replace(replace(kif, ' ', E' \n\t '), '(', E'(\r\n '), ')', E' \n)')))
        IS DISTINCT FROM term
     OR kif !~ '^[^A-Z]*$' OR kif ~ '  |\( | \)'
$$;
SELECT is(pg_temp.load('ggp_match_' || lower(name), name), 'ok', name || '.kif loads') FROM reference_gdl ORDER BY name;
SELECT is(pg_temp.round_trip_mismatches('ggp_match_' || lower(name)), 'none',
          name || '.kif: every move and initial fact round-trips through to_kif and from_kif')
FROM reference_gdl ORDER BY name;
SELECT cmp_ok((SELECT count(*) FROM reference_gdl r, gametree.legal('ggp_match_' || lower(r.name),
                                                                     gametree.initial('ggp_match_' || lower(r.name)))),
              '>=', 16::bigint, '(the legal moves compared: at least one per game)');

-- A tic-tac-toe match, with the tree the player searches, the moves as a
-- player makes them of the game manager's KIF.
CREATE FUNCTION pg_temp.joint(roles text[], VARIADIC kif text[]) RETURNS jsonb LANGUAGE sql AS $$
  SELECT jsonb_agg(jsonb_build_array('does', r, gametree.from_kif(k)) ORDER BY i)
  FROM unnest(roles, kif) WITH ORDINALITY AS m(r, k, i)
$$;
SELECT lives_ok($$SELECT gametree.create_tree('ggp_match_ttt', 'tictactoe')$$, 'a tree for the match');
SELECT gametree.match_begin('ggp_match.ttt.1', 'tictactoe', 'XPLAYER', '10 s', '2 s', 'ggp_match_ttt') AS ttt \gset
SELECT is((SELECT row(match_id, game, role, player, start_clock, play_clock, tree, moves, state = gametree.initial('tictactoe'),
                      goals, status, started_at = now(), ended_at)::text
           FROM gametree.matches WHERE id = :ttt),
          row('ggp_match.ttt.1', 'tictactoe', 'xplayer', session_user, '10 s'::interval, '2 s'::interval, 'public.ggp_match_ttt',
              '[]'::jsonb, true, NULL::jsonb, 'playing', true, NULL::timestamptz)::text,
          'match_begin: the row of a match begun, from the initial state, the role as the game spells it');
SELECT is(gametree.match_move(:ttt, pg_temp.joint('{xplayer,oplayer}', '(MARK 1 1)', 'NOOP')),
          gametree.next('tictactoe', gametree.initial('tictactoe'), '["mark", 1, 1]'),
          'match_move: the state after the move');
SELECT throws_ok(format('SELECT gametree.match_move(%s, %L)', :ttt, pg_temp.joint('{xplayer,oplayer}', '(mark 1 1)', 'noop')),
                 '22023', 'illegal tictactoe move [["does", "xplayer", ["mark", 1, 1]], ["does", "oplayer", "noop"]]: '
                          'role "xplayer" is not in control and must do "noop"',
                 'match_move: an illegal joint move, named (22023)');
SELECT throws_ok(format('SELECT gametree.match_move(%s, %L)', :ttt, '["mark", 2, 1]'), '22023',
                 format('match %s: ["mark", 2, 1] is not a joint move of tictactoe''s 2 roles', :ttt),
                 'match_move: a bare action is no joint move (22023)');
SELECT throws_ok(format('SELECT gametree.match_move(%s, %L)', :ttt, pg_temp.joint('{oplayer,xplayer}', '(mark 2 1)', 'noop')),
                 '22023', NULL, 'match_move: the roles out of order (22023)');
SELECT throws_ok(format('SELECT gametree.match_move(%s, NULL)', :ttt), '22004', 'joint_move must not be NULL',
                 'match_move: NULL (22004)');
SELECT throws_ok(format('SELECT gametree.match_end(%s)', :ttt), '22023',
                 format('match %s is not over: its state is not terminal', :ttt), 'match_end: not over, not aborted (22023)');
SELECT lives_ok(format('SELECT gametree.match_move(%s, %L)', :ttt, pg_temp.joint('{xplayer,oplayer}', 'noop', k)),
                format('match_move: o plays %s', k))
FROM unnest(ARRAY['(mark 2 1)']) k;
SELECT lives_ok(format('SELECT gametree.match_move(%s, %L)', :ttt, pg_temp.joint('{xplayer,oplayer}', x, o)), 'match_move: ' || x || o)
FROM (VALUES (1, '(mark 1 2)', 'noop'), (2, 'noop', '(mark 2 2)'), (3, '(mark 1 3)', 'noop')) m(i, x, o) ORDER BY i;
SELECT throws_ok(format('SELECT gametree.match_move(%s, %L)', :ttt, pg_temp.joint('{xplayer,oplayer}', 'noop', '(mark 3 3)')),
                 '22023', format('match %s: the match''s state is terminal', :ttt), 'match_move: a terminal state (22023)');
SELECT is((SELECT moves FROM gametree.matches WHERE id = :ttt),
          '[[["does", "xplayer", ["mark", 1, 1]], ["does", "oplayer", "noop"]],
            [["does", "xplayer", "noop"], ["does", "oplayer", ["mark", 2, 1]]],
            [["does", "xplayer", ["mark", 1, 2]], ["does", "oplayer", "noop"]],
            [["does", "xplayer", "noop"], ["does", "oplayer", ["mark", 2, 2]]],
            [["does", "xplayer", ["mark", 1, 3]], ["does", "oplayer", "noop"]]]',
          'the moves recorded, as legal() writes them');
SELECT is(gametree.match_end(:ttt), '{"xplayer": 100, "oplayer": 0}', 'match_end: x won the top row: the goals');
SELECT is((SELECT row(status, goals, ended_at = now(), tree, gametree.terminal(game, state))::text FROM gametree.matches WHERE id = :ttt),
          row('done', '{"xplayer": 100, "oplayer": 0}'::jsonb, true, NULL::text, true)::text,
          'the row of a match done: its goals, its end, its state terminal, no tree');
SELECT is((SELECT count(*) FROM gametree.trees WHERE name = 'ggp_match_ttt'), 0::bigint, 'match_end dropped the match''s tree');
SELECT throws_ok(format('SELECT gametree.match_end(%s)', :ttt), '55000', format('match %s is over (done)', :ttt),
                 'match_end: a match over (55000)');
SELECT throws_ok(format('SELECT gametree.match_move(%s, %L)', :ttt, pg_temp.joint('{xplayer,oplayer}', 'noop', '(mark 3 3)')),
                 '55000', NULL, 'match_move: a match over (55000)');
SELECT is((SELECT array_agg(ply ORDER BY ply) FROM gametree.match_replay(:ttt)), '{0,1,2,3,4,5}', 'match_replay: plies 0 to 5');
SELECT is((SELECT row(move, state, goals)::text FROM gametree.match_replay(:ttt) WHERE ply = 0),
          row(NULL::jsonb, gametree.initial('tictactoe'), NULL::jsonb)::text, 'match_replay: ply 0 is the initial state');
SELECT is((SELECT jsonb_agg(move ORDER BY ply) FROM gametree.match_replay(:ttt) WHERE ply > 0),
          (SELECT moves FROM gametree.matches WHERE id = :ttt), 'match_replay: the moves recorded, in order');
SELECT is((SELECT row(state, goals)::text FROM gametree.match_replay(:ttt) WHERE ply = 5),
          (SELECT row(state, goals)::text FROM gametree.matches WHERE id = :ttt),
          'match_replay: the same final state and goals');
SELECT is((SELECT count(*) FROM gametree.match_replay(:ttt) WHERE goals IS NOT NULL), 1::bigint,
          'match_replay: goals on the terminal state only');

-- The tree is kept on request; one dropped already is no matter.
SELECT gametree.create_tree('ggp_match_kept', 'tictactoe') IS NOT NULL AS made \gset
SELECT gametree.match_begin('ggp_match.ttt.2', 'tictactoe', 'oplayer', '10 s', '2 s', 'ggp_match_kept') AS kept \gset
SELECT is(gametree.match_end(:kept, aborted => true, keep_tree => true), NULL, 'match_end: aborted before the end, no goals');
SELECT is((SELECT row(status, goals, tree)::text FROM gametree.matches WHERE id = :kept),
          row('aborted', NULL::jsonb, 'public.ggp_match_kept')::text, 'an aborted match with its tree kept');
SELECT is((SELECT count(*) FROM gametree.trees WHERE name = 'ggp_match_kept'), 1::bigint, 'keep_tree: the tree stays');
SELECT gametree.match_begin('ggp_match.ttt.3', 'tictactoe', 'oplayer', '10 s', '2 s', 'ggp_match_kept') AS gone \gset
SELECT lives_ok($$SELECT gametree.drop_tree('ggp_match_kept')$$, 'the tree dropped while its match runs');
SELECT lives_ok(format('SELECT gametree.match_end(%s, true)', :gone), 'match_end: a tree already gone is fine');
SELECT is((SELECT tree FROM gametree.matches WHERE id = :gone), NULL, '... and the row names it no more');

-- roshambo2.kif: simultaneous moves.  White's paper beats black's rock five
-- times after a tie: beaten white s5 is terminal, white won.
SELECT gametree.match_begin('ggp_match.roshambo.1', 'ggp_match_roshambo2', 'black', '10 s', '2 s') AS rps \gset
SELECT is(gametree.match_move(:rps, pg_temp.joint('{white,black}', 'rock', '(rock)')),
          '[["beaten", "black", "s0"], ["beaten", "white", "s0"], ["step", "s2"]]', 'roshambo2: a tie, nobody beaten');
SELECT throws_ok(format('SELECT gametree.match_move(%s, %L)', :rps, pg_temp.joint('{black,white}', 'rock', 'paper')), '22023',
                 'illegal ggp_match_roshambo2 move [["does", "black", "rock"], ["does", "white", "paper"]]: '
                 'entry 1 must be the move of role "white"', 'roshambo2: the roles out of order (22023)');
SELECT throws_ok(format('SELECT gametree.match_move(%s, %L)', :rps, pg_temp.joint('{white,black}', 'stone', 'paper')), '22023',
                 'illegal ggp_match_roshambo2 move [["does", "white", "stone"], ["does", "black", "paper"]]: '
                 'not a legal joint move of the state', 'roshambo2: no such throw (22023)');
SELECT is(gametree.match_move(:rps, pg_temp.joint('{white,black}', 'paper', 'rock')),
          '[["beaten", "black", "s0"], ["beaten", "white", "s1"], ["step", "s3"]]', 'roshambo2: paper beats rock');
SELECT is((SELECT count(*) FROM (SELECT gametree.match_move(:rps, pg_temp.joint('{white,black}', 'paper', 'rock'))
                                 FROM generate_series(1, 4)) m), 4::bigint, 'roshambo2: four more');
SELECT is((SELECT state FROM gametree.matches WHERE id = :rps),
          '[["beaten", "black", "s0"], ["beaten", "white", "s5"], ["step", "s7"]]', 'roshambo2: white beat black five times');
SELECT is(gametree.match_end(:rps), '{"white": 100, "black": 0}', 'roshambo2: match_end gives the goals, white won');
SELECT is((SELECT row(state, goals)::text FROM gametree.match_replay(:rps) ORDER BY ply DESC LIMIT 1),
          row('[["beaten", "black", "s0"], ["beaten", "white", "s5"], ["step", "s7"]]'::jsonb,
              '{"white": 100, "black": 0}'::jsonb)::text, 'roshambo2: the replay ends in the same state and goals');
SELECT is((SELECT count(*) FROM gametree.match_replay(:rps)), 7::bigint, 'roshambo2: 6 moves, 7 plies');
SELECT is((SELECT moves -> 0 FROM gametree.matches WHERE id = :rps), '[["does", "white", "rock"], ["does", "black", "rock"]]',
          'roshambo2: the joint moves recorded in role order');

-- Arguments that make no match.
SELECT throws_ok($$SELECT gametree.match_begin('ggp_match.x', 'no_such_game', 'white', '1 s', '1 s')$$, '42704',
                 'unknown game "no_such_game"', 'match_begin: an unknown game (42704)');
SELECT throws_ok($$SELECT gametree.match_begin('ggp_match.x', 'tictactoe', 'white', '1 s', '1 s')$$, '22023',
                 'game "tictactoe" has no role "white"', 'match_begin: a role the game has not (22023)');
SELECT throws_ok($$SELECT gametree.match_begin('ggp_match.x', 'tictactoe', 'xplayer', '0 s', '1 s')$$, '22023',
                 'start_clock must be positive, not 00:00:00', 'match_begin: a start clock of 0 (22023)');
SELECT throws_ok($$SELECT gametree.match_begin('ggp_match.x', 'tictactoe', 'xplayer', '1 s', '-1 s')$$, '22023',
                 'play_clock must be positive, not -00:00:01', 'match_begin: a negative play clock (22023)');
SELECT throws_ok($$SELECT gametree.match_begin('', 'tictactoe', 'xplayer', '1 s', '1 s')$$, '22023',
                 'a match id has 1 to 256 bytes, not 0', 'match_begin: an empty match id (22023)');
SELECT throws_ok($$SELECT gametree.match_begin('ggp_match.x', 'tictactoe', 'xplayer', '1 s', '1 s', 'ggp_match_none')$$,
                 '22023', 'unknown tree "ggp_match_none"', 'match_begin: an unknown tree (22023)');
SELECT gametree.create_tree('ggp_match_c4', 'connect4') IS NOT NULL AS made \gset
SELECT throws_ok($$SELECT gametree.match_begin('ggp_match.x', 'tictactoe', 'xplayer', '1 s', '1 s', 'ggp_match_c4')$$,
                 '22023', 'tree "public.ggp_match_c4" is of game "connect4", not of the match''s game "tictactoe"',
                 'match_begin: a tree of another game (22023)');
SELECT is(pg_temp.try_as('alice', $$SELECT gametree.match_begin('ggp_match.x', 'connect4', 'red', '1 s', '1 s', 'public.ggp_match_c4')$$),
          '42501: permission denied to read tree "public.ggp_match_c4"', 'match_begin: a tree the caller cannot read (42501)');
SELECT throws_ok($$SELECT gametree.match_begin('ggp_match.x', 'tictactoe', NULL, '1 s', '1 s')$$, '22004',
                 'role must not be NULL', 'match_begin: NULL (22004)');
SELECT throws_ok($$SELECT gametree.match_move(-1, '[]')$$, '42704', 'unknown match -1', 'match_move: an unknown id (42704)');
SELECT throws_ok($$SELECT gametree.match_end(-1)$$, '42704', 'unknown match -1', 'match_end: an unknown id (42704)');
SELECT throws_ok($$SELECT * FROM gametree.match_replay(-1)$$, '42704', 'unknown match -1', 'match_replay: an unknown id (42704)');
SELECT is(pg_temp.try_as('bob', $$INSERT INTO gametree.matches (match_id, game, role, player, start_clock, play_clock,
                                                                 moves, state, status, started_at)
                                   VALUES ('ggp_match.x', 'tictactoe', 'xplayer', 'bob', '1 s', '1 s', '[]', '[]', 'done', now())$$),
          '42501: permission denied for table matches', 'nobody writes gametree.matches but gametree (42501)');

-- Alice's match, begun in her session: bob may read it, not play it.
SELECT a AS alice FROM dblink('ggp_match_alice',
  $$SELECT gametree.match_begin('ggp_match.alice', 'tictactoe', 'xplayer', '10 s', '2 s')$$) AS t(a bigint) \gset
SELECT is((SELECT player FROM gametree.matches WHERE id = :alice), 'alice', 'the match begun in alice''s session is hers');
SELECT is(pg_temp.try_as('bob', format('SELECT gametree.match_move(%s, %L)', :alice,
                                        pg_temp.joint('{xplayer,oplayer}', '(mark 2 2)', 'noop'))),
          format('42501: match %s is played by alice', :alice), 'bob cannot move alice''s match (42501)');
SELECT is(pg_temp.try_as('bob', format('SELECT gametree.match_end(%s, true)', :alice)),
          format('42501: match %s is played by alice', :alice), 'bob cannot end alice''s match (42501)');
SELECT is(pg_temp.try_as('bob', format('SELECT count(*) FROM gametree.match_replay(%s)', :alice)), 'ok',
          'bob can replay alice''s match');
SELECT is(pg_temp.try_as('bob', format('SELECT count(*) FROM gametree.matches WHERE id = %s', :alice)), 'ok',
          'bob can read alice''s row');
SELECT is((SELECT s FROM dblink('ggp_match_alice', format('SELECT gametree.match_move(%s, %L)', :alice,
                                pg_temp.joint('{xplayer,oplayer}', '(mark 2 2)', 'noop'))) AS t(s jsonb)),
          gametree.next('tictactoe', gametree.initial('tictactoe'), '["mark", 2, 2]'), 'alice moves in her match');
SELECT is((SELECT g FROM dblink('ggp_match_alice', format('SELECT gametree.match_end(%s, true)', :alice)) AS t(g jsonb)),
          NULL, 'alice aborts her match');

SELECT * FROM finish();
ROLLBACK;

\o /dev/null
SELECT dblink_exec('ggp_match_admin', $$DELETE FROM gametree.matches WHERE match_id LIKE 'ggp\_match.%'$$);
SELECT dblink_disconnect('ggp_match_alice');
SELECT dblink_disconnect('ggp_match_admin');
\o
