-- The conformance suite: the promises of the game interface (README,
-- "Adding a game"), checked for every game gametree.games() lists when the
-- test runs, the compiled-in ones and the GDL samples of test/data/gdl
-- (loaded here as conformance_<file>), so that a game gets these tests by
-- registering.  Per game, 9 assertions:
--   roles        the roles are distinct, and every joint move names each, in order
--   initial      the initial state round-trips (JSON -> state -> JSON identical), is not terminal, has no goal
--   first moves  every legal move of the initial state is accepted by next, as perft 1 and successors agree
--   played moves the same in the first states of a random line of play (seeded)
--   end          that line reaches a terminal state: no legal move, goals 0..100 for each role
--   perft        perft from the initial state equals the reference of test/data/conformance.tsv
--   bad state    a state that is no JSON array is 22P02, a fact the game does not have 22023
--   bad move     a move the game does not have is 22023, "illegal <game> move"
--   compact      every state of the line round-trips through gametree.state
--                (JSON -> state -> JSON identical, state -> JSON -> state and
--                state -> bytea -> state equal, same bytes), and its hash is
--                the JSON state's (test/pgtap/state_type.sql tests the rest of the type)
-- A compiled-in game without a row in test/data/conformance.tsv fails its
-- perft test; a game from GDL without one skips it, saying so.
-- Not in one transaction: a backend compiles a game from GDL once it is
-- committed, and at every call before.  The games loaded here are unloaded
-- at the end; leftovers of a run that stopped half way are removed first.
SET client_min_messages = warning;
\ir helpers.psql

\o /dev/null
SELECT pg_temp.clean_up('conformance');
-- The same random lines on every run.
SELECT setseed(0.22);
CREATE TEMP TABLE loaded AS
  SELECT (gametree.load_game('conformance_' || name, kif)).game, name || '.kif' AS file FROM reference_gdl;
-- Each game under test, and its key in reference_conformance: the game's
-- name, or the file a GDL sample came from.
CREATE TEMP TABLE subjects AS
  SELECT g.game, g.roles, coalesce(l.file, g.game) AS reference,
         EXISTS (SELECT FROM gametree.gdl_games d WHERE d.name = g.game) AS from_gdl, g.ord
  FROM gametree.games() WITH ORDINALITY g(game, roles, description, ord) LEFT JOIN loaded l USING (game);
\o

SELECT plan(9 * (SELECT count(*)::int FROM subjects));

-- The longest line of play tried, and how many of its first states have
-- every legal move played.
\set max_plies 2000
\set checked_plies 20

-- A random line of play from the initial state, to a terminal state or max_plies plies.
CREATE TEMP TABLE lines (game text, ply integer, state jsonb, PRIMARY KEY (game, ply));
CREATE FUNCTION pg_temp.play_line(g text, max_plies integer) RETURNS void LANGUAGE plpgsql AS $f$
DECLARE
  s jsonb := gametree.initial(g);
BEGIN
  FOR ply IN 0 .. max_plies LOOP
    INSERT INTO lines VALUES (g, ply, s);
    s := (SELECT next FROM gametree.successors(g, s) ORDER BY random() LIMIT 1);
    EXIT WHEN s IS NULL;
  END LOOP;
END $f$;

-- 'ok', or what is wrong with game g: the error of sql (a query with g as
-- $1), or the first problem it returns (a text column; no rows when none).
CREATE FUNCTION pg_temp.problem(g text, sql text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE
  p text;
BEGIN
  EXECUTE sql || ' LIMIT 1' INTO p USING g;
  RETURN coalesce(p, 'ok');
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $f$;

-- The problems of a state of game g: a legal move next refuses or whose
-- result does not round-trip, legal and terminal, perft 1 or successors
-- disagreeing.
CREATE FUNCTION pg_temp.move_problems(g text, s jsonb) RETURNS SETOF text LANGUAGE plpgsql AS $f$
DECLARE
  moves jsonb[] := ARRAY(SELECT gametree.legal(g, s));
  followers jsonb[] := '{}';
  m jsonb;
  n jsonb;
BEGIN
  IF gametree.terminal(g, s) <> (cardinality(moves) = 0) THEN
    RETURN NEXT format('terminal is %s, but %s has %s legal moves', gametree.terminal(g, s), s, cardinality(moves));
  END IF;
  IF gametree.perft(g, s, 1) <> cardinality(moves) THEN
    RETURN NEXT format('perft 1 is %s, but %s has %s legal moves', gametree.perft(g, s, 1), s, cardinality(moves));
  END IF;
  FOREACH m IN ARRAY moves LOOP
    BEGIN
      n := gametree.next(g, s, m);
    EXCEPTION WHEN OTHERS THEN
      RETURN NEXT format('next refuses the legal move %s of %s: %s: %s', m, s, SQLSTATE, SQLERRM);
      CONTINUE;
    END;
    followers := followers || n;
    IF gametree.canonical(g, n) IS DISTINCT FROM n THEN
      RETURN NEXT format('%s after %s is %s written canonically', n, m, gametree.canonical(g, n));
    END IF;
  END LOOP;
  IF ARRAY(SELECT f.move FROM gametree.successors(g, s) f) IS DISTINCT FROM moves
     OR ARRAY(SELECT f.next FROM gametree.successors(g, s) f) IS DISTINCT FROM followers THEN
    RETURN NEXT format('successors of %s are not legal''s moves with next''s states, in order', s);
  END IF;
END $f$;

-- The 9 tests of game g (a row of subjects).
CREATE FUNCTION pg_temp.conformance(g text, roles text[], reference text, from_gdl boolean,
                                    max_plies integer, checked_plies integer)
RETURNS SETOF text LANGUAGE plpgsql AS $f$
DECLARE
  line_problem text := 'ok';
  depth integer;
BEGIN
  BEGIN
    PERFORM pg_temp.play_line(g, max_plies);
  EXCEPTION WHEN OTHERS THEN
    line_problem := format('playing a random line: %s: %s', SQLSTATE, SQLERRM);
  END;

  RETURN NEXT is(pg_temp.problem(g, $$
    SELECT CASE WHEN cardinality(r.roles) = 0 THEN 'no roles'
                ELSE format('roles %s are not distinct', r.roles) END
    FROM gametree.games() r WHERE r.game = $1 AND (cardinality(r.roles) = 0
                                                  OR cardinality(r.roles) <> (SELECT count(DISTINCT x) FROM unnest(r.roles) x))
    UNION ALL
    SELECT format('joint move %s of %s does not name roles %s in order', m, l.state, r.roles)
    FROM gametree.games() r, lines l, gametree.legal($1, l.state) m
    WHERE r.game = $1 AND l.game = $1
      AND (jsonb_typeof(m) <> 'array' OR jsonb_array_length(m) <> cardinality(r.roles)
           OR EXISTS (SELECT FROM generate_series(1, cardinality(r.roles)) i
                      WHERE m -> (i - 1) ->> 0 IS DISTINCT FROM 'does' OR m -> (i - 1) ->> 1 IS DISTINCT FROM r.roles[i]))$$),
    'ok', format('%s: %s distinct roles, each named in every joint move, in order', g, cardinality(roles)));

  RETURN NEXT is(pg_temp.problem(g, $$
    SELECT p FROM (SELECT gametree.initial($1) AS s) i, LATERAL (VALUES
      (CASE WHEN jsonb_typeof(i.s) IS DISTINCT FROM 'array' THEN format('the initial state %s is no JSON array', i.s) END),
      (CASE WHEN gametree.canonical($1, i.s) IS DISTINCT FROM i.s
            THEN format('the initial state %s reads back as %s', i.s, gametree.canonical($1, i.s)) END),
      (CASE WHEN gametree.canonical($1, i.s::text::jsonb) IS DISTINCT FROM i.s THEN 'its JSON text does not read back' END),
      (CASE WHEN gametree.terminal($1, i.s) THEN 'the initial state is terminal' END),
      (CASE WHEN gametree.goal($1, i.s) IS NOT NULL THEN format('the initial state has goals %s', gametree.goal($1, i.s)) END),
      (CASE WHEN gametree.control($1, i.s) IS NOT NULL AND array_position((SELECT r.roles FROM gametree.games() r WHERE r.game = $1), gametree.control($1, i.s)) IS NULL
            THEN format('control %s is no role', gametree.control($1, i.s)) END)) v(p)
    WHERE p IS NOT NULL$$),
    'ok', format('%s: the initial state round-trips (JSON, state, JSON), is not terminal and has no goal', g));

  RETURN NEXT is(pg_temp.problem(g, 'SELECT pg_temp.move_problems($1, gametree.initial($1))'),
    'ok', format('%s: next accepts every legal move of the initial state, perft 1 and successors agree', g));

  RETURN NEXT is(CASE WHEN line_problem <> 'ok' THEN line_problem ELSE pg_temp.problem(g, format($$
    SELECT p FROM lines l, pg_temp.move_problems($1, l.state) p WHERE l.game = $1 AND l.ply BETWEEN 1 AND %s$$,
    checked_plies)) END,
    'ok', format('%s: the same in the first %s states of a random line of play', g, checked_plies));

  RETURN NEXT is(CASE WHEN line_problem <> 'ok' THEN line_problem ELSE pg_temp.problem(g, $$
    SELECT p FROM (SELECT state, ply FROM lines WHERE game = $1 ORDER BY ply DESC LIMIT 1) l,
                  (SELECT r.roles FROM gametree.games() r WHERE r.game = $1) r,
                  LATERAL (SELECT gametree.goal($1, l.state) AS goal) o, LATERAL (VALUES
      (CASE WHEN NOT gametree.terminal($1, l.state) THEN format('no terminal state within %s plies', l.ply) END),
      (CASE WHEN gametree.control($1, l.state) IS NOT NULL THEN 'a role is in control of a terminal state' END),
      (CASE WHEN o.goal IS NULL OR jsonb_typeof(o.goal) <> 'object'
              OR ARRAY(SELECT k FROM jsonb_object_keys(o.goal) k ORDER BY k) <> ARRAY(SELECT x FROM unnest(r.roles) x ORDER BY x)
              OR EXISTS (SELECT FROM jsonb_each(o.goal) e WHERE jsonb_typeof(e.value) <> 'number'
                                                            OR e.value::text::numeric NOT BETWEEN 0 AND 100)
            THEN format('goals %s of the terminal state %s are not 0..100 for each of %s', o.goal, l.state, r.roles) END)) v(p)
    WHERE p IS NOT NULL$$) END,
    'ok', format('%s: a random line of play ends in a terminal state, goals 0..100 for each role', g));

  SELECT c.max_depth INTO depth FROM reference_conformance c WHERE c.game = reference;
  IF depth IS NULL AND from_gdl THEN
    RETURN NEXT skip(format('%s: no reference perft for %s in test/data/conformance.tsv', g, reference));
  ELSIF depth IS NULL THEN
    RETURN NEXT fail(format('%s: perft equals the reference', g))
             || E'\n' || diag(format('no reference perft for %s: add a row to test/data/conformance.tsv', g));
  ELSE
    -- MATERIALIZED: perft runs on the reference rows of this game only.
    RETURN NEXT is(pg_temp.problem(g, format($$
      WITH wanted AS MATERIALIZED (
        SELECT p.depth, p.count FROM reference_conformance c
        JOIN reference_perft p ON p.game = c.perft_game AND p.name = c.perft_name
        WHERE c.game = %L AND p.depth <= c.max_depth),
      counted AS MATERIALIZED (SELECT w.*, gametree.perft($1, gametree.initial($1), w.depth) AS perft FROM wanted w)
      SELECT format('perft %%s is %%s, not %%s', depth, perft, count) FROM counted WHERE perft <> count
      UNION ALL
      SELECT format('reference_perft has %%s rows of %%s %%s to depth %%s', count(p.*), c.perft_game, c.perft_name, c.max_depth)
      FROM reference_conformance c LEFT JOIN reference_perft p ON p.game = c.perft_game AND p.name = c.perft_name
                                                                AND p.depth <= c.max_depth
      WHERE c.game = %1$L GROUP BY c.perft_game, c.perft_name, c.max_depth HAVING count(p.*) <> c.max_depth$$, reference)),
      'ok', format('%s: perft 1..%s equals the reference (%s)', g, depth, reference));
  END IF;

  RETURN NEXT is(pg_temp.problem(g, $$
    SELECT p FROM (VALUES
      (pg_temp.error_of(format('SELECT gametree.legal(%L, %L)', $1, '{"no": "array"}')),
       format('22P02: invalid %s state: not a JSON array', $1)),
      (split_part(pg_temp.error_of(format('SELECT gametree.legal(%L, %L)', $1, '[["no_such_fact_22", 1, 2]]')), ':', 1),
       '22023')) v(got, want), LATERAL (SELECT format('%s, not %s', got, want) AS p) f
    WHERE got IS DISTINCT FROM want$$),
    'ok', format('%s: a state that is no JSON array is 22P02, a fact it does not have 22023', g));

  RETURN NEXT is(pg_temp.problem(g, $$
    SELECT p FROM (SELECT pg_temp.error_of(format('SELECT gametree.next(%L, gametree.initial(%1$L), %L)', $1,
                                           (SELECT jsonb_agg(jsonb_build_array('does', r, jsonb_build_array('no_such_action_22')))
                                            FROM unnest((SELECT r.roles FROM gametree.games() r WHERE r.game = $1)) r))) AS got) e,
                  LATERAL (SELECT format('%s, not 22023: illegal %s move ...', got, $1) AS p) f
    WHERE got NOT LIKE format('22023: illegal %s move %%', $1)$$),
    'ok', format('%s: a move it does not have is 22023, illegal %s move', g, g));

  -- The type modifier is a literal of the query, so the game is formatted in.
  RETURN NEXT is(CASE WHEN line_problem <> 'ok' THEN line_problem ELSE pg_temp.problem(g, format($$
    SELECT p FROM lines l,
                  LATERAL (SELECT l.state::gametree.state(%1$L) AS v) c,
                  LATERAL (SELECT c.v::text AS text, c.v::text::jsonb::gametree.state(%1$L) AS again,
                                  c.v::bytea::gametree.state(%1$L) AS from_bytes) r, LATERAL (VALUES
      (CASE WHEN r.text IS DISTINCT FROM l.state::text THEN format('ply %%s: %%s reads back as %%s', l.ply, l.state, r.text) END),
      (CASE WHEN r.again <> c.v OR r.again::bytea <> c.v::bytea
            THEN format('ply %%s: %%s read from its JSON is not the same value (%%s, then %%s)', l.ply, l.state, c.v::bytea, r.again::bytea) END),
      (CASE WHEN r.from_bytes <> c.v OR r.from_bytes::text <> r.text
            THEN format('ply %%s: %%s read from its bytes %%s is not the same value', l.ply, l.state, c.v::bytea) END),
      (CASE WHEN gametree.state_hash(c.v) <> gametree.state_hash($1, l.state)
            THEN format('ply %%s: the hash of %%s stored differs from its JSON''s', l.ply, l.state) END),
      (CASE WHEN gametree.game_of(c.v) <> $1 THEN format('ply %%s: game_of says %%s', l.ply, gametree.game_of(c.v)) END)) x(p)
    WHERE l.game = $1 AND p IS NOT NULL$$, g)) END,
    'ok', format('%s: the states of the line round-trip through gametree.state (JSON, bytea) and keep their hash', g));
END $f$;

-- 'no error', or sql's error as "SQLSTATE: message".
CREATE FUNCTION pg_temp.error_of(sql text) RETURNS text LANGUAGE plpgsql AS $f$
BEGIN
  EXECUTE sql;
  RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $f$;

-- Every game's tests, game after game: TAP wants them in the order they were numbered.
CREATE FUNCTION pg_temp.conformance_of_all(max_plies integer, checked_plies integer) RETURNS SETOF text
LANGUAGE plpgsql AS $f$
DECLARE
  s record;
BEGIN
  FOR s IN SELECT * FROM subjects ORDER BY ord LOOP
    RETURN QUERY SELECT pg_temp.conformance(s.game, s.roles, s.reference, s.from_gdl, max_plies, checked_plies);
  END LOOP;
END $f$;
SELECT pg_temp.conformance_of_all(:max_plies, :checked_plies);

SELECT * FROM finish();
\o /dev/null
SELECT pg_temp.clean_up('conformance');
