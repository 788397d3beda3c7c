-- CALL solve(tree, state, time_limit, max_states): proof-number search in a
-- tree (src/store/solve.c).  Its values are checked against the whole
-- tree, grown and propagated without it (tic-tac-toe's 5,478 positions,
-- the published count; nim1's whole game), and against tools/c4solve's
-- connect four values (test/data/connect4_values.tsv).  Its proofs are
-- checked by the README's query (pg_temp.proof_faults).  Inside this
-- test's transaction solve cannot commit: test/t/solve_check.sh has the
-- commits, cancels, kills and concurrent sessions.
BEGIN;
SET client_min_messages = warning;
SELECT plan(26);

\ir helpers.psql

-- Tic-tac-toe from its root.
SELECT gametree.create_tree('solve_ttt', 'tictactoe');
CALL gametree.solve('solve_ttt');
SELECT is((SELECT utility::text || ' ' || proven FROM solve_ttt_states WHERE depth = 0),
          '{"oplayer": 50, "xplayer": 50} true', 'tic-tac-toe is a draw');
SELECT is((SELECT lo || '..' || hi FROM solve_ttt_proof p JOIN solve_ttt_states s USING (id) WHERE s.depth = 0),
          '50..50', 'its _proof row says so');
SELECT cmp_ok((SELECT count(*) FROM solve_ttt_states), '<', 2500::bigint,
              'with fewer than half of the 5,478 positions stored');

SELECT gametree.create_tree('whole_ttt', 'tictactoe');
CALL gametree.grow('whole_ttt');
SELECT is((SELECT count(*) FROM solve_ttt_states s JOIN whole_ttt_states w USING (id)
           WHERE s.proven AND s.utility <> w.utility), 0::bigint,
          'every value solve proved is the whole tree''s');
SELECT cmp_ok((SELECT count(*) FROM solve_ttt_states WHERE proven AND goal IS NULL), '>', 300::bigint,
              'of more than 300 states');
SELECT is((SELECT count(*) FROM solve_ttt_states s JOIN whole_ttt_graph g ON g.init_id = s.id AND g.move_id = s.best_move
           WHERE s.proven AND s.goal IS NULL AND g.utility <> s.utility), 0::bigint,
          'each one''s best move leads, in the whole tree, to a position of the same value');
SELECT is((SELECT count(*) FROM solve_ttt_states WHERE proven AND goal IS NULL AND best_move IS NULL), 0::bigint,
          'and each has one');
SELECT is((SELECT faults || ' of ' || (checked > 300) FROM pg_temp.proof_faults('solve_ttt', 'xplayer')),
          '0 of true', 'the proof checks: every claim follows from its children, every best move keeps its value');

-- Propagation keeps what solve proved, from scratch too.
SELECT gametree.propagate('solve_ttt', from_scratch => true);
SELECT is((SELECT count(*) FROM solve_ttt_states s JOIN whole_ttt_states w USING (id)
           WHERE s.proven AND s.utility <> w.utility), 0::bigint,
          'a propagation from scratch leaves the solved values');
SELECT is((SELECT utility::text || ' ' || proven FROM solve_ttt_states WHERE depth = 0),
          '{"oplayer": 50, "xplayer": 50} true', 'and the root''s');

-- A state below the root, which then serves the root's proof.
SELECT gametree.create_tree('solve_corner', 'tictactoe');
SELECT gametree.expand('solve_corner', (SELECT root_id FROM gametree.trees WHERE name = 'solve_corner'));
CALL gametree.solve('solve_corner', gametree.play('tictactoe', gametree.initial('tictactoe'), '[["mark", 1, 1]]'));
SELECT is((SELECT m.move->1->2 FROM solve_corner_states s JOIN solve_corner_moves m ON m.id = s.best_move
           WHERE s.state::jsonb = gametree.play('tictactoe', gametree.initial('tictactoe'), '[["mark", 1, 1]]')),
          '["mark", 2, 2]', 'after a corner, o''s only drawing move is the centre');
SELECT is(pg_temp.try($$CALL gametree.solve('solve_corner', max_states => 3)$$), 'ok',
          'a solve cut short by max_states ends without an error');
CALL gametree.solve('solve_corner');
SELECT is((SELECT utility::text FROM solve_corner_states WHERE depth = 0), '{"oplayer": 50, "xplayer": 50}',
          'the root, solved on from what the two calls before stored');
SELECT is((SELECT faults FROM pg_temp.proof_faults('solve_corner', 'xplayer')), 0::bigint, 'its proof checks');
-- The check finds a false claim, and a best move that gives the value away.
UPDATE solve_corner_proof SET lo = 100, hi = 100 WHERE id = (SELECT root_id FROM gametree.trees WHERE name = 'solve_corner');
SELECT is((SELECT faults FROM pg_temp.proof_faults('solve_corner', 'xplayer')), 1::bigint,
          'the check finds a claim of a win where the root is a draw');
UPDATE solve_corner_proof SET lo = 50, hi = 50 WHERE id = (SELECT root_id FROM gametree.trees WHERE name = 'solve_corner');
UPDATE solve_corner_states SET best_move = (SELECT min(e.move_id) FROM solve_corner_edges e
                                            WHERE e.init_id = solve_corner_states.id AND e.move_id <> solve_corner_states.best_move)
WHERE state::jsonb = gametree.play('tictactoe', gametree.initial('tictactoe'), '[["mark", 1, 1]]');
SELECT is((SELECT faults FROM pg_temp.proof_faults('solve_corner', 'xplayer')), 1::bigint,
          'and a best move of o''s after a corner that loses');

-- Nim from GDL: the whole game against solve.
SELECT is(pg_temp.load('solve_nim', 'nim1'), 'ok', 'nim1 loads');
SELECT gametree.create_tree('solve_nim_t', 'solve_nim');
CALL gametree.solve('solve_nim_t');
SELECT gametree.create_tree('whole_nim', 'solve_nim');
CALL gametree.grow('whole_nim');
SELECT is((SELECT utility::text FROM solve_nim_t_states WHERE depth = 0), '{"player1": 100, "player2": 0}',
          'nim 1, 5, 4, 2: the first player wins');
SELECT cmp_ok((SELECT count(*) FROM solve_nim_t_states) * 10, '<', (SELECT count(*) * 7 FROM whole_nim_states),
              'with fewer than 70% of the whole game''s states stored');
SELECT is((SELECT m.move->0->2 FROM solve_nim_t_states s JOIN solve_nim_t_moves m ON m.id = s.best_move WHERE s.depth = 0),
          '["reduce", "d", 0]', 'only by emptying heap d');
SELECT is((SELECT count(*) FROM solve_nim_t_states s JOIN whole_nim_states w USING (id)
           WHERE s.proven AND s.utility <> w.utility), 0::bigint, 'every value it proved is the whole game''s');
SELECT is((SELECT faults FROM pg_temp.proof_faults('solve_nim_t', 'player1')), 0::bigint, 'its proof checks');

-- Refusals.
SELECT gametree.create_tree('solve_fresh', 'tictactoe');
SELECT is(pg_temp.try($$CALL gametree.solve('solve_fresh', gametree.play('tictactoe', gametree.initial('tictactoe'),
                       '[["mark", 1, 1]]'))$$) ~ '^22023: the state is not in tree',
          true, 'a state the tree does not hold: 22023');
SELECT is(pg_temp.try($$CALL gametree.solve('solve_ttt', time_limit => '0 s')$$),
          '22023: time_limit must be positive', 'time_limit 0: 22023');
SELECT is(pg_temp.try($$CALL gametree.solve('solve_ttt', max_states => 0)$$),
          '22023: max_states must be positive, not 0', 'max_states 0: 22023');
SELECT is(pg_temp.load('solve_ttt3', 'tictactoe_3player') || ' ' ||
          pg_temp.try($$SELECT gametree.create_tree('solve_t3', 'solve_ttt3')$$) || ' ' ||
          pg_temp.try($$CALL gametree.solve('solve_t3')$$),
          'ok ok 0A000: proof-number search proves games of one or two roles, and solve_ttt3 has 3',
          'three roles: refused');

SELECT * FROM finish();
ROLLBACK;
