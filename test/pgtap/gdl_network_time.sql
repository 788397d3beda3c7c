-- gametree.gdl_network_time and gametree.compile_network (issue 27): a
-- load whose network is not built in time loads the game on the prover,
-- whose rules are the same (englishDraughts.kif's perft, OEIS A133046:
-- 7, 49, 302, 1,469); compile_network builds and stores the network later,
-- and another session reads it; compile_network's refusals, each with its
-- SQLSTATE.  Not in one transaction: another session (dblink) must see the
-- stored network.  Every game and tree made here is named gdl_network_time_...
SET client_min_messages = warning;
SELECT plan(18);

\ir helpers.psql

\o /dev/null
SELECT pg_temp.clean_up('gdl_network_time');
SELECT pg_temp.make_roles('alice');
SELECT dblink_connect('other', pg_temp.connstr());
\o

CREATE FUNCTION pg_temp.draughts_perft(game text) RETURNS bigint[] LANGUAGE sql AS $$
  SELECT array_agg(gametree.perft(game, gametree.initial(game), d) ORDER BY d) FROM generate_series(1, 4) d
$$;

-- englishDraughts.kif's network takes tens of milliseconds: not in one.
SET gametree.gdl_network_time = '1ms';
SELECT is((SELECT engine FROM gametree.load_game('gdl_network_time_draughts',
                                                 (SELECT kif FROM reference_gdl WHERE name = 'englishDraughts'))),
          'prover', 'a network not built within gametree.gdl_network_time: the game is loaded on the prover');
SELECT is((SELECT (engine, network IS NULL)::text FROM gametree.gdl_games WHERE name = 'gdl_network_time_draughts'),
          '(prover,t)', 'and stored so: no network');
SELECT is(pg_temp.draughts_perft('gdl_network_time_draughts'), '{7,49,302,1469}'::bigint[],
          'the prover counts the published perft 1..4');
SELECT is(left(pg_temp.try($$SELECT gametree.compile_network('gdl_network_time_draughts')$$), 200),
          '54000: game "gdl_network_time_draughts": its network was not built within gametree.gdl_network_time (1 ms)',
          'compile_network holds to the same limit, and fails past it (54000)');

-- A tree's states are packed in the prover's layout of the facts.
SELECT ok(gametree.create_tree('gdl_network_time_tree', 'gdl_network_time_draughts') IS NOT NULL,
          'a tree of the game on the prover');
RESET gametree.gdl_network_time;
SELECT alike(pg_temp.try($$SELECT gametree.compile_network('gdl_network_time_draughts')$$),
             '2BP01: game "gdl_network_time_draughts" is used by trees',
             'compile_network is refused while a tree uses a game on the prover (2BP01)');
SELECT is((SELECT engine FROM gametree.gdl_games WHERE name = 'gdl_network_time_draughts'), 'prover',
          'the game stays on the prover');
SELECT gametree.drop_tree('gdl_network_time_tree') \g /dev/null
SELECT is(left(pg_temp.try_as('alice', $$SELECT gametree.compile_network('gdl_network_time_draughts')$$), 5),
          '42501', 'a role that did not load the game and is no superuser cannot compile its network (42501)');
SELECT is(left(pg_temp.try($$SELECT gametree.compile_network('gdl_network_time_nothing')$$), 5), '42704',
          'nor can anyone that of a game not loaded (42704)');

SELECT is((SELECT (engine, facts > 0, rules > 0, nodes > 0)::text
           FROM gametree.compile_network('gdl_network_time_draughts')),
          '(network,t,t,t)', 'without a limit, compile_network builds the network');
SELECT is((SELECT (engine, network IS NOT NULL)::text FROM gametree.gdl_games WHERE name = 'gdl_network_time_draughts'),
          '(network,t)', 'and stores it as the game''s engine');
SELECT is(pg_temp.draughts_perft('gdl_network_time_draughts'), '{7,49,302,1469}'::bigint[],
          'this session now counts on the network: the same perft');
SELECT is((SELECT n FROM dblink('other', $$SELECT gametree.perft('gdl_network_time_draughts',
           gametree.initial('gdl_network_time_draughts'), 4)$$) AS t(n bigint)), 1469::bigint,
          'and so does another session');
SELECT is((SELECT engine FROM gametree.compile_network('gdl_network_time_draughts')), 'network',
          'compiling the network of a game on the network again stores it anew');
SELECT ok(gametree.create_tree('gdl_network_time_tree', 'gdl_network_time_draughts') IS NOT NULL
          AND pg_temp.try($$SELECT gametree.compile_network('gdl_network_time_draughts')$$) = 'ok',
          'which trees do not prevent: the network''s layout is the same');
SELECT gametree.drop_tree('gdl_network_time_tree') \g /dev/null

-- Memory, the other limit: a relation of 30^3 atoms that terminal reads whole.
SET gametree.gdl_memory = '1MB';
SELECT is((SELECT engine FROM gametree.load_game('gdl_network_time_large',
  E'(role r) (init (s 0)) (legal r go) (next (s 1)) (<= terminal (true (s 1))) (goal r 100)\n'
  || (SELECT string_agg(format('(n %s)', i), ' ') FROM generate_series(0, 29) i)
  || E'\n(<= (unused ?a ?b ?c) (true (s ?p)) (n ?a) (n ?b) (n ?c))\n'
  || E'(<= terminal (true never) (unused ?a ?b ?c))\n')), 'prover',
          'a network larger than half of gametree.gdl_memory: the prover');
SELECT alike(pg_temp.try($$SELECT gametree.compile_network('gdl_network_time_large')$$),
             '54000: game "gdl_network_time_large": its network needs more than half of gametree.gdl_memory%',
             'compile_network fails the same way (54000)');
RESET gametree.gdl_memory;
SELECT is((SELECT engine FROM gametree.compile_network('gdl_network_time_large')), 'network',
          'with more memory it succeeds');

\o /dev/null
SELECT dblink_disconnect('other');
SELECT pg_temp.clean_up('gdl_network_time');
\o
SELECT * FROM finish();
