-- prove(game, state, time_limit, max_states): proof-number search in
-- memory (src/search/pns.c).  Values checked against what is known
-- without it: tic-tac-toe is a draw and, after a corner, only the centre
-- holds it (published theory); every tic-tac-toe position up to 4 plies
-- against the max^n values of the whole tree, grown and propagated (5,478
-- positions, the published count); nim with heaps 1, 5, 4 and 2 is the
-- first player's, only by emptying heap d (its nim-sum is 2); connect four
-- positions whose values tools/c4solve established outside the tests
-- (test/data/connect4_values.tsv); checkers endgames of kings that its
-- own retrograde count valued (test/data/checkers_kings.tsv).  Then the
-- limits and the games it refuses.  Without time limits but on the easy positions, so the results
-- do not depend on the machine.
BEGIN;
SET client_min_messages = warning;
SELECT plan(31);

\ir helpers.psql

-- Tic-tac-toe.
CREATE TEMP TABLE ttt AS SELECT * FROM gametree.prove('tictactoe');
SELECT is((SELECT utility FROM ttt), '{"xplayer": 50, "oplayer": 50}', 'tic-tac-toe is a draw');
SELECT ok((SELECT proven AND stopped IS NULL AND searches = 2 FROM ttt),
          'proven in two searches: at least a draw for x, then not more');
SELECT cmp_ok((SELECT states FROM ttt), '<', 5478::bigint, 'with fewer positions than the whole game has');
SELECT is((SELECT bounds FROM ttt), '{"xplayer": [50, 50], "oplayer": [50, 50]}', 'bounds closed at 50');
SELECT is((SELECT best_move->1->2 FROM gametree.prove('tictactoe',
             gametree.play('tictactoe', gametree.initial('tictactoe'), '[["mark", 1, 1]]'))),
          '["mark", 2, 2]', 'after a corner, o''s only drawing move is the centre');

SELECT gametree.create_tree('prove_ttt', 'tictactoe');
CALL gametree.grow('prove_ttt');
SELECT is((SELECT count(*) FROM prove_ttt_states), 5478::bigint, 'the whole tic-tac-toe tree: 5,478 positions');
CREATE TEMP TABLE ttt_proved AS
SELECT s.id, s.depth, s.utility AS tree_utility, p.*
FROM prove_ttt_states s, LATERAL gametree.prove('tictactoe', s.state::jsonb) p
WHERE s.depth <= 4 AND s.goal IS NULL;
SELECT is((SELECT count(*) FROM ttt_proved), 1090::bigint, 'the 1,090 positions of 0 to 4 plies that are not ends');
SELECT is((SELECT count(*) FROM ttt_proved WHERE NOT proven OR utility <> tree_utility), 0::bigint,
          'each proven, with the value the whole tree gives it');
SELECT is((SELECT count(*) FROM ttt_proved p JOIN prove_ttt_graph g ON g.init_id = p.id
           JOIN prove_ttt_moves m ON m.id = g.move_id
           WHERE m.move = p.best_move AND g.utility <> p.utility), 0::bigint,
          'each best move leads to a position of the same value');

-- Nim from GDL.
SELECT is(pg_temp.load('prove_nim', 'nim1'), 'ok', 'nim1 loads');
CREATE TEMP TABLE nim AS SELECT * FROM gametree.prove('prove_nim');
SELECT is((SELECT utility FROM nim), '{"player1": 100, "player2": 0}', 'nim 1, 5, 4, 2: the first player wins');
SELECT is((SELECT best_move->0->2 FROM nim), '["reduce", "d", 0]', 'only by emptying heap d');

-- Connect four, positions after 16 to 22 plies that c4solve valued: the
-- hardest keeps 1.4 million positions, more than the default
-- search_memory holds.
SET gametree.search_memory = '256MB';
CREATE TEMP TABLE c4 AS
SELECT r.moves, r.plies, r.value, string_to_array(r.column_values, ',') AS column_values,
       CASE WHEN r.plies % 2 = 0 THEN 'red' ELSE 'black' END AS mover, p.*
FROM reference_connect4_values r, LATERAL gametree.prove('connect4', pg_temp.c4_position(r.moves)) p
WHERE r.plies >= 16;
RESET gametree.search_memory;
SELECT is((SELECT count(*) FROM c4 WHERE proven), 42::bigint, 'the 42 positions of 16 to 22 plies are proven');
SELECT is((SELECT array_agg(moves) FROM c4
           WHERE (utility->>mover)::int <> CASE value WHEN 'win' THEN 100 WHEN 'draw' THEN 50 ELSE 0 END), NULL,
          'each with the value c4solve gives it');
SELECT is((SELECT array_agg(moves) FROM c4
           WHERE column_values[(best_move->(CASE mover WHEN 'red' THEN 0 ELSE 1 END)->2->>1)::int] <> value), NULL,
          'each best move keeps that value');

-- Memory full: the search lets its cheapest positions go and goes on.
-- 236474234 (black to move wins, c4solve) took 1.5 million positions
-- before; with the default 64 MB (about 500,000) it is proven.
SELECT is((SELECT proven || ' ' || (utility->>'black') || ' ' || (states < 500000)
           FROM gametree.prove('connect4', pg_temp.c4_position('236474234'))),
          'true 100 true', 'a proof larger than the memory: proven after letting the cheapest positions go');

-- Checkers endgames of kings only, valued by the project's own
-- retrograde solver (tools/ckretro, test/data/checkers_kings.tsv), clock 0.
-- With room for more than max_states positions, none is let go: the
-- search stops at 500,000.
SET gametree.search_memory = '256MB';
CREATE TEMP TABLE kings AS
SELECT k.fen, k.value, k.fen ~ 'K.*K.*K.*K' AS three_against_two,
       CASE WHEN k.fen LIKE 'W%' THEN 'white' ELSE 'black' END AS mover, p.*
FROM reference_checkers_kings k,
     LATERAL gametree.prove('checkers', gametree.from_fen('checkers', k.fen), max_states => 500000) p
WHERE k.fen !~ 'K.*K.*K.*K' OR k.value <> 'draw';
RESET gametree.search_memory;
SELECT is((SELECT count(*) FILTER (WHERE proven) || ' of ' || count(*) FROM kings WHERE NOT three_against_two),
          '20 of 20', 'two kings against one: all 20 positions proven, draws among them');
SELECT is((SELECT count(*) FILTER (WHERE proven) || ' of ' || count(*) FROM kings WHERE three_against_two),
          '10 of 12', 'three against two: 10 of the 12 won or lost positions proven within 500,000 positions');
SELECT is((SELECT array_agg(fen) FROM kings
           WHERE proven AND (utility->>mover)::int <> CASE value WHEN 'win' THEN 100 WHEN 'draw' THEN 50 ELSE 0 END),
          NULL, 'each with the value the retrograde count gives it');

-- Limits.
SELECT is((SELECT stopped || ' ' || proven || ' ' || bounds::text
           FROM gametree.prove('connect4', pg_temp.c4_position('2761661612'), max_states => 100)),
          'max_states false {"red": [0, 100], "black": [0, 100]}', 'max_states stops it unproven, with its bounds');
SELECT is((SELECT proven || ' ' || coalesce(best_move::text, 'no move') || ' ' || searches
           FROM gametree.prove('tictactoe', gametree.play('tictactoe', gametree.initial('tictactoe'),
             '[["mark", 1, 1], ["mark", 2, 1], ["mark", 1, 2], ["mark", 2, 2], ["mark", 1, 3]]'))),
          'true no move 0', 'an end needs no search');
SELECT is(pg_temp.try($$SELECT gametree.prove('tictactoe', NULL, time_limit => '0 s')$$),
          '22023: time_limit must be positive', 'time_limit must be positive');
SET gametree.search_memory = '1GB';
SET statement_timeout = '300ms';
SELECT is(pg_temp.try($$SELECT gametree.prove('connect4', pg_temp.c4_position('2761661612'))$$),
          '57014: canceling statement due to statement timeout', 'a long search can be cancelled');
RESET statement_timeout;
RESET gametree.search_memory;

-- Cycles: each role in turn stops the game or passes to the other.  When
-- a stop by a gives 0 to a and a stop by b gives a 100, both would rather
-- pass, and no play ends: no value, and prove says so.  When a's stop
-- gives a draw and b's a win to b, a stops: the cycle does not matter.
CREATE FUNCTION pg_temp.stop_or_pass(name text, a_stops text, b_stops text) RETURNS text LANGUAGE sql AS $$
  SELECT pg_temp.try(format('SELECT gametree.load_game(%L, %L)', name, format($gdl$
    (role a) (role b)
    (init (control a))
    (<= (legal ?p stop) (true (control ?p)))
    (<= (legal ?p pass) (true (control ?p)))
    (<= (legal ?p noop) (role ?p) (not (true (control ?p))))
    (<= (next (control b)) (true (control a)) (does a pass))
    (<= (next (control a)) (true (control b)) (does b pass))
    (<= (next (stopped ?p)) (does ?p stop))
    (<= terminal (true (stopped ?p)))
    (<= (goal a %1$s) (true (stopped a)))
    (<= (goal b %2$s) (true (stopped a)))
    (<= (goal a %3$s) (true (stopped b)))
    (<= (goal b %4$s) (true (stopped b)))
  $gdl$, a_stops, 100 - a_stops::int, b_stops, 100 - b_stops::int)))
$$;
SELECT is(pg_temp.stop_or_pass('prove_cycle', '0', '100') || ' ' ||
          pg_temp.stop_or_pass('prove_cycle_draw', '50', '0'), 'ok ok', 'two games of stopping or passing load');
SELECT is((SELECT proven || ' ' || stopped || ' ' || bounds::text FROM gametree.prove('prove_cycle')),
          'false cycles {"a": [0, 100], "b": [0, 100]}', 'a value that rests on a cycle: none, and it says so');
SELECT is((SELECT utility::text || ' ' || (best_move->0->>2) FROM gametree.prove('prove_cycle_draw')),
          '{"a": 50, "b": 50} stop', 'a cycle that perfect play avoids: proven, a stops');

-- One role: a puzzle, counting to exactly 3 by ones and twos (4 is a
-- failure).  Its value is the best goal the role reaches; from 2, add 1.
SELECT is(pg_temp.try($$SELECT gametree.load_game('prove_count', '
    (role p)
    (init (count 0))
    (<= (legal p (add 1)) (true (count ?n)))
    (<= (legal p (add 2)) (true (count ?n)))
    (<= (next (count ?m)) (does p (add 1)) (true (count ?n)) (succ ?n ?m))
    (<= (next (count ?m)) (does p (add 2)) (true (count ?n)) (succ ?n ?k) (succ ?k ?m))
    (<= terminal (true (count ?n)) (over ?n))
    (over 3) (over 4)
    (<= (goal p 100) (true (count 3)))
    (<= (goal p 0) (true (count 4)))
    (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)')$$), 'ok', 'a puzzle of one role loads');
SELECT is((SELECT utility::text || ' ' || bounds::text FROM gametree.prove('prove_count')),
          '{"p": 100} {"p": [100, 100]}', 'one role: the best goal it reaches');
SELECT is((SELECT best_move->0->2 FROM gametree.prove('prove_count',
             gametree.play('prove_count', gametree.initial('prove_count'), '[["add", 2]]'))),
          '["add", 1]', 'from 2, add 1 (2 would pass 3)');

-- Games it does not prove.
SELECT is(pg_temp.load('prove_ttt3', 'tictactoe_3player') || ' ' ||
          pg_temp.try($$SELECT gametree.prove('prove_ttt3')$$),
          'ok 0A000: proof-number search proves games of one or two roles, and prove_ttt3 has 3',
          'three roles: refused');
SELECT is(pg_temp.load('prove_roshambo', 'roshambo2') || ' ' ||
          pg_temp.try($$SELECT gametree.prove('prove_roshambo')$$),
          'ok 0A000: proof-number search proves games whose roles take turns, and in a position of '
          'prove_roshambo both move at once', 'roles moving at once: refused');

ROLLBACK;
