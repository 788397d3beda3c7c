-- gametree.state (issue 23), the type of stored states, beyond what the
-- conformance suite checks for every game (its states round-trip through
-- JSON, text and bytea casts): the binary I/O of COPY for every game, a
-- state of a GDL game kept while the game is unloaded and loaded again,
-- bad input (each with its SQLSTATE), type modifiers, the operators and the
-- plans they allow, and the implicit cast to jsonb that lets JSON operators
-- and every function taking a JSON state take a stored one.
-- Not in one transaction: a backend compiles a game from GDL once it is
-- committed.  The games loaded here are named state_type_<file>.
SET client_min_messages = warning;
SELECT plan(58);

\ir helpers.psql
\o /dev/null
SELECT pg_temp.clean_up('state_type');
DROP TABLE IF EXISTS public.state_type_kept;
SELECT gametree.load_game('state_type_' || name, kif) FROM reference_gdl;
\o

-- A JSON state of game g as gametree.state(g): the type modifier is a
-- literal of the query, so the game is formatted in.
CREATE FUNCTION pg_temp.stored(g text, state jsonb) RETURNS gametree.state LANGUAGE plpgsql AS $$
DECLARE
  v gametree.state;
BEGIN
  EXECUTE format('SELECT $1::gametree.state(%L)', g) INTO v USING state;
  RETURN v;
END $$;

-- States of every game: the initial state and those two plies on, at most 40 per game.
CREATE TEMP TABLE states AS
  SELECT g.game, pg_temp.stored(g.game, s.state) AS state, s.state AS json
  FROM gametree.games() g, LATERAL (
    SELECT gametree.initial(g.game) AS state
    UNION
    (SELECT f.next FROM gametree.successors(g.game, gametree.initial(g.game)) f LIMIT 10)
    UNION
    (SELECT f2.next FROM gametree.successors(g.game, gametree.initial(g.game)) f,
                         gametree.successors(g.game, f.next) f2 LIMIT 30)) s;

-- Binary COPY: state_send out, state_recv in, through a file of the server.
SELECT format('/tmp/gametree_state_type_%s.bin', pg_backend_pid()) AS copy_file \gset
COPY (SELECT game, state FROM states) TO :'copy_file' (FORMAT binary);
CREATE TEMP TABLE copied (game text, state gametree.state);
COPY copied FROM :'copy_file' (FORMAT binary);
SELECT is((SELECT count(DISTINCT game)::int FROM copied), (SELECT count(*)::int FROM gametree.games()),
          'binary COPY carries states of every game');
SELECT is((SELECT count(*) FROM ((SELECT game, state::text FROM states EXCEPT SELECT game, state::text FROM copied)
                                 UNION ALL (SELECT game, state::text FROM copied EXCEPT SELECT game, state::text FROM states)) d),
          0::bigint, 'binary COPY out and in gives every state back, JSON text identical');
SELECT is((SELECT count(*) FROM states s WHERE NOT EXISTS (
             SELECT FROM copied c WHERE c.state = s.state AND c.state::bytea = s.state::bytea)),
          0::bigint, 'binary COPY out and in gives equal values, byte for byte');
SELECT is((SELECT count(*) FROM copied WHERE gametree.game_of(state) <> game), 0::bigint,
          'each state read back is of its game');
-- Into a column of one game, the recv function checks the game of each value.
CREATE TEMP TABLE ttt_only (state gametree.state('tictactoe'));
COPY (SELECT state FROM states WHERE game = 'tictactoe') TO :'copy_file' (FORMAT binary);
COPY ttt_only FROM :'copy_file' (FORMAT binary);
SELECT is((SELECT count(*) FROM ttt_only), (SELECT count(*) FROM states WHERE game = 'tictactoe'),
          'binary COPY into a gametree.state(''tictactoe'') column takes tic-tac-toe states');
COPY (SELECT state FROM states WHERE game = 'connect4') TO :'copy_file' (FORMAT binary);
SELECT throws_ok(format('COPY ttt_only FROM %L (FORMAT binary)', :'copy_file'), '42804',
                 'a connect4 state cannot be a gametree.state(''tictactoe'')',
                 'binary COPY of connect4 states into a tic-tac-toe column is 42804');
-- Text COPY: the input function gets the column's type modifier.
COPY (SELECT state FROM states WHERE game = 'tictactoe') TO :'copy_file';
TRUNCATE ttt_only;
COPY ttt_only FROM :'copy_file';
SELECT is((SELECT count(*) FROM ttt_only t JOIN states s ON s.state = t.state WHERE s.game = 'tictactoe'),
          (SELECT count(*) FROM states WHERE game = 'tictactoe'), 'text COPY into a gametree.state(''tictactoe'') column reads the JSON');

-- A state of a GDL game kept (as bytea and as gametree.state) while the game is unloaded and loaded again.
CREATE TABLE public.state_type_kept (bytes bytea, state gametree.state('state_type_ticTacToe'), json text);
INSERT INTO public.state_type_kept
  SELECT state::bytea, state, state::text FROM states WHERE game = 'state_type_ticTacToe';
SELECT lives_ok($$SELECT gametree.unload_game('state_type_ticTacToe')$$, 'the GDL game is unloaded');
SELECT throws_ok('SELECT bytes::gametree.state FROM public.state_type_kept', '42704', NULL,
                 'a state of the unloaded game is 42704 as bytea');
SELECT throws_ok('SELECT state::text FROM public.state_type_kept', '42704', NULL,
                 'a stored state of the unloaded game prints as 42704');
SELECT is(format_type('gametree.state'::regtype, (SELECT atttypmod FROM pg_attribute
                                                  WHERE attrelid = 'public.state_type_kept'::regclass AND attname = 'state')),
          format('gametree.state(%s)', (SELECT atttypmod FROM pg_attribute
                                        WHERE attrelid = 'public.state_type_kept'::regclass AND attname = 'state')),
          'the type modifier of an unloaded game prints as its number');
SELECT is(pg_temp.load('state_type_ticTacToe', 'ticTacToe'), 'ok', 'the GDL game is loaded again under the same name');
SELECT is((SELECT count(*) FROM public.state_type_kept
           WHERE bytes::gametree.state::text = json AND state::text = json AND bytes::gametree.state = state),
          (SELECT count(*) FROM states WHERE game = 'state_type_ticTacToe'),
          'after the reload, its states read back to the same JSON, from bytea and from a column');
SELECT is(format_type('gametree.state'::regtype, (SELECT atttypmod FROM pg_attribute
                                                  WHERE attrelid = 'public.state_type_kept'::regclass AND attname = 'state')),
          'gametree.state(''state_type_ticTacToe'')', 'the type modifier prints as the game''s name again');

-- Bad input: text and jsonb.
SELECT is('[["control",  "xplayer"]]'::gametree.state::text, '[["control", "xplayer"]]',
          'JSON without a type modifier is JSON of no game yet, printed as JSON');
SELECT throws_ok($$SELECT '[["control", "xplayer"]]'::jsonb::gametree.state::bytea$$, '22023',
                 'gametree.state JSON of no game', 'JSON of no game has no binary form (22023)');
SELECT throws_ok($$SELECT gametree.state_hash('[["control", "xplayer"]]'::gametree.state)$$, '22023',
                 'gametree.state JSON of no game', 'nor a hash of its position (22023)');
SELECT is((SELECT count(*) FROM (VALUES (gametree.initial('tictactoe')::gametree.state('tictactoe'))) v(s)
           WHERE s = '[["cell", 1, 1, "b"], ["cell", 1, 2, "b"], ["cell", 1, 3, "b"], ["cell", 2, 1, "b"], ["cell", 2, 2, "b"],
                       ["cell", 2, 3, "b"], ["cell", 3, 1, "b"], ["cell", 3, 2, "b"], ["cell", 3, 3, "b"], ["control", "xplayer"]]'),
          1::bigint, 'a JSON literal compared with a state reads as a state of its game');
SELECT throws_ok($$SELECT gametree.initial('connect4')::gametree.state('tictactoe')$$, '22023', NULL,
                 'the JSON of another game is 22023');
SELECT throws_ok($$SELECT '[]'::jsonb::gametree.state('no_such_game')$$, '42704', NULL,
                 'a type modifier naming no loaded game is 42704 on input');
SELECT throws_ok($$SELECT '{"no": "array"}'::jsonb::gametree.state('tictactoe')$$, '22P02', NULL,
                 'JSON that is no array is 22P02');
SELECT is(pg_temp.val(format('SELECT %L::gametree.state(''tictactoe'')::text', gametree.initial('tictactoe'))),
          gametree.initial('tictactoe')::text, 'a JSON literal cast to gametree.state(''tictactoe'') reads as that game''s state');
-- Bad input: bytea.
SELECT throws_ok($$SELECT '\x000000'::bytea::gametree.state$$, '22P03',
                 'a gametree.state value of 3 bytes has no room for its game''s number', 'three bytes are 22P03');
SELECT throws_ok($$SELECT '\x00000001'::bytea::gametree.state$$, '42704',
                 'gametree.state value of game number 1, which no loaded game has', 'the number of no loaded game is 42704');
SELECT throws_ok($$SELECT '\x80000001'::bytea::gametree.state$$, '42704', NULL,
                 'a negative number is 42704');
SELECT throws_ok(format('SELECT %L::bytea::gametree.state',
                        (SELECT substr(state::bytea, 1, length(state::bytea) - 1) FROM states
                         WHERE game = 'chess' AND json = gametree.initial('chess'))), '22P03', NULL,
                 'the initial chess state less its last byte is 22P03');
SELECT throws_ok(format('SELECT %L::bytea::gametree.state',
                        substr(gametree.initial('checkers')::gametree.state('checkers')::bytea, 1, 4) || decode(repeat('ff', 256), 'hex')),
                 '22P03', NULL, '256 bytes, more than a checkers packing holds, are 22P03');
SELECT throws_ok(format('SELECT %L::bytea::gametree.state',
                        gametree.initial('tictactoe')::gametree.state('tictactoe')::bytea || '\x00'::bytea), '22P03', NULL,
                 'a packing with a byte too many (a trailing zero) is 22P03');
-- Every packing of up to two bytes, for tic-tac-toe: each is refused as no
-- packing (22P03) or as an illegal position (22023, the game's own check of
-- JSON), or reads back to the same bytes as a legal state.
CREATE TEMP TABLE ttt_packings AS
  SELECT b, pg_temp.val(format('SELECT %L::bytea::gametree.state::bytea', b)) AS answer FROM (
    SELECT substr(gametree.initial('tictactoe')::gametree.state('tictactoe')::bytea, 1, 4) || p AS b FROM (
      SELECT set_byte('\x00'::bytea, 0, i) AS p FROM generate_series(0, 255) i
      UNION ALL SELECT set_byte(set_byte('\x0000'::bytea, 0, i % 256), 1, i / 256) FROM generate_series(0, 65535) i) p) x;
SELECT is((SELECT count(*) FROM ttt_packings WHERE answer NOT LIKE '22P03: %' AND answer NOT LIKE '22023: %'
                                               AND answer <> b::text), 0::bigint,
          'every tic-tac-toe packing of 1 or 2 bytes is refused (22P03, 22023) or reads back to itself');
SELECT cmp_ok((SELECT count(*) FROM ttt_packings WHERE answer LIKE '22023: invalid tictactoe state: %'), '>', 0::bigint,
              'packings of illegal tic-tac-toe positions (as 3 x''s and no o) are refused as the JSON is, 22023');
SELECT is((SELECT count(*) FROM ttt_packings p
           WHERE CASE WHEN answer = b::text
                      THEN pg_temp.val(format('SELECT %L::jsonb::gametree.state(''tictactoe'')::bytea', b::gametree.state::text)) <> b::text
                 END),
          0::bigint, 'the tic-tac-toe packings accepted are states whose JSON reads back to the same bytes');
SELECT throws_ok($$SELECT '[["cell", 1, 1, "x"], ["cell", 1, 2, "x"], ["cell", 1, 3, "x"], ["cell", 2, 1, "b"], ["cell", 2, 2, "b"],
                            ["cell", 2, 3, "b"], ["cell", 3, 1, "b"], ["cell", 3, 2, "b"], ["cell", 3, 3, "b"], ["control", "oplayer"]]'::jsonb::gametree.state('tictactoe')$$,
                 '22023', NULL, 'the JSON of 3 x''s and no o is 22023');
-- A state of one game into a column of another.
CREATE TEMP TABLE c4_only (state gametree.state('connect4'));
SELECT throws_ok($$INSERT INTO c4_only SELECT state FROM states WHERE game = 'tictactoe'$$, '42804',
                 'a tictactoe state cannot be a gametree.state(''connect4'')', 'a tic-tac-toe state into a connect4 column is 42804');
SELECT throws_ok($$INSERT INTO c4_only VALUES (gametree.initial('tictactoe'))$$, '22023', NULL,
                 'tic-tac-toe JSON into a connect4 column is 22023');
SELECT throws_ok($$SELECT state::gametree.state('connect4') FROM states WHERE game = 'tictactoe'$$, '42804', NULL,
                 'a tic-tac-toe state cast to gametree.state(''connect4'') is 42804');
SELECT throws_ok(format('SELECT %L::bytea::gametree.state(''connect4'')',
                        gametree.initial('tictactoe')::gametree.state('tictactoe')::bytea), '42804', NULL,
                 'tic-tac-toe bytes cast to gametree.state(''connect4'') are 42804');
SELECT lives_ok($$INSERT INTO c4_only VALUES (gametree.initial('connect4'))$$, 'connect4 JSON goes into a connect4 column (assignment cast)');
-- Type modifiers.
SELECT throws_ok($$CREATE TEMP TABLE bad (s gametree.state('tictactoe', 'chess'))$$, '22023',
                 'gametree.state takes one type modifier, the game, not 2', 'two type modifiers are 22023');
SELECT throws_ok($$CREATE TEMP TABLE bad (s gametree.state('bad name!'))$$, '22023',
                 'invalid game name "bad name!" in gametree.state', 'a type modifier that is no game name is 22023');
SELECT throws_ok($$CREATE TEMP TABLE bad (s gametree.state(''))$$, '22023', NULL, 'an empty type modifier is 22023');
SELECT is(format_type('gametree.state'::regtype, (SELECT atttypmod FROM pg_attribute
                                                  WHERE attrelid = 'c4_only'::regclass AND attname = 'state')),
          'gametree.state(''connect4'')', 'a type modifier prints as the game''s name');

-- Operators and the plans they allow.  They live in schema gametree: off
-- the search path, state = state finds jsonb's = through the implicit cast
-- (JSON equality, blind to the game), so the path names gametree here.
SET search_path = public, gametree;
SELECT is((SELECT count(*) FROM states a JOIN states b ON a.state = b.state),
          (SELECT count(*) FROM states a JOIN states b ON a.game = b.game AND a.json = b.json), '= is equality of game and JSON');
SELECT is((SELECT count(*) FROM states a JOIN states b ON a.state <> b.state),
          (SELECT count(*) FROM states a JOIN states b ON a.game <> b.game OR a.json <> b.json), '<> is its negation');
SELECT is((SELECT count(DISTINCT state) FROM (SELECT state FROM states UNION ALL SELECT state FROM copied) u),
          (SELECT count(*) FROM states), 'DISTINCT counts each state once');
SET enable_hashagg = on;
SELECT is((SELECT count(*) FROM (SELECT state FROM (SELECT state FROM states UNION ALL SELECT state FROM copied) u
                                 GROUP BY state HAVING count(*) = 2) g),
          (SELECT count(*) FROM states), 'GROUP BY puts each state with its copy');
CREATE FUNCTION pg_temp.plan_of(sql text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  line text;
  plan text := '';
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || sql LOOP
    plan := plan || line || E'\n';
  END LOOP;
  RETURN plan;
END $$;
\set join_query 'SELECT count(*) FROM states s JOIN copied c ON s.state = c.state'
SET enable_mergejoin = off;
SET enable_nestloop = off;
SELECT matches(pg_temp.plan_of(:'join_query'), 'Hash Join', 'a join on = can be a hash join');
SELECT is(pg_temp.val(:'join_query')::bigint, (SELECT count(*) FROM states), 'the hash join matches each state with its copy');
RESET enable_mergejoin;
SET enable_hashjoin = off;
SELECT matches(pg_temp.plan_of(:'join_query'), 'Merge Join', 'a join on = can be a merge join');
SELECT is(pg_temp.val(:'join_query')::bigint, (SELECT count(*) FROM states), 'the merge join matches each state with its copy');
RESET enable_hashjoin;
RESET enable_nestloop;
SELECT is(ARRAY(SELECT state::bytea FROM states WHERE game = 'connect4' ORDER BY state),
          ARRAY(SELECT state::bytea FROM states WHERE game = 'connect4' ORDER BY state::bytea),
          'ORDER BY orders the states of a game as their bytes');
SELECT is((SELECT count(*) FROM states a JOIN states b ON a.state < b.state),
          (SELECT count(*) FROM states a JOIN states b ON gametree.state_cmp(a.state, b.state) < 0),
          '< agrees with the btree comparison');
SELECT is((SELECT count(*) FROM states a JOIN states b ON a.state < b.state AND b.state < a.state), 0::bigint,
          'no two states are each before the other');
CREATE TEMP TABLE indexed AS SELECT state FROM copied;
CREATE INDEX ON indexed USING hash (state);
CREATE INDEX ON indexed USING btree (state);
SELECT is((SELECT count(*) FROM states s WHERE EXISTS (SELECT FROM indexed i WHERE i.state = s.state)),
          (SELECT count(*) FROM states), 'btree and hash indexes on a gametree.state column build and find each state');
RESET search_path;

-- The implicit cast to jsonb, on a column of gametree.state.
CREATE TEMP TABLE ttt AS SELECT state, json FROM states WHERE game = 'tictactoe';
SELECT is((SELECT count(*) FROM ttt WHERE state::jsonb = json AND state -> 0 = json -> 0
                                      AND state @> '[["control", "xplayer"]]' = json @> '[["control", "xplayer"]]'),
          (SELECT count(*) FROM ttt), 'state::jsonb, state -> 0 and state @> ... are those of its JSON');
SELECT is((SELECT count(*) FROM ttt t, jsonb_array_elements(t.state) e), (SELECT count(*) FROM ttt t, jsonb_array_elements(t.json) e),
          'jsonb_array_elements takes a stored state');
SELECT is((SELECT count(*) FROM ttt
           WHERE ARRAY(SELECT gametree.legal('tictactoe', state)) = ARRAY(SELECT gametree.legal('tictactoe', json))
             AND gametree.terminal('tictactoe', state) = gametree.terminal('tictactoe', json)
             AND gametree.control('tictactoe', state) IS NOT DISTINCT FROM gametree.control('tictactoe', json)
             AND gametree.board('tictactoe', state) = gametree.board('tictactoe', json)
             AND gametree.goal('tictactoe', state) IS NOT DISTINCT FROM gametree.goal('tictactoe', json)
             AND gametree.canonical('tictactoe', state) = json
             AND gametree.state_hash('tictactoe', state) = gametree.state_hash(state)),
          (SELECT count(*) FROM ttt), 'legal, terminal, control, board, goal, canonical and state_hash take a stored state');
SELECT is(ARRAY(SELECT gametree.next('tictactoe', t.state, m) FROM ttt t, gametree.legal('tictactoe', t.state) m ORDER BY t.json, m),
          ARRAY(SELECT gametree.next('tictactoe', t.json, m) FROM ttt t, gametree.legal('tictactoe', t.json) m ORDER BY t.json, m),
          'next takes a stored state');
SELECT is((SELECT gametree.bestmove('tictactoe', state, '10 s', 3) FROM ttt WHERE json = gametree.initial('tictactoe')),
          gametree.bestmove('tictactoe', gametree.initial('tictactoe'), '10 s', 3), 'bestmove takes a stored state');

SELECT * FROM finish();
\o /dev/null
DROP TABLE public.state_type_kept;
SELECT pg_temp.clean_up('state_type');
