-- tools/fuzz_sql.sql: the generator of the SQL-level fuzzer (tools/fuzz_sql.sh
-- loads it into its own database, gametree_fuzz).
--
-- Everything lives in the schema fuzz.  Input number i is generated from
-- setseed(hash(seed, i)) alone, on top of pools that fuzz.setup(seed) builds
-- once (games loaded from the sample GDL descriptions, valid states from
-- random playouts and FENs, large values, small grown trees, the settings
-- of pg_settings), so any input can be generated again on its own:
--   SELECT fuzz.one(i, 'run')     generates input i, runs it, counts the outcome
--   SELECT fuzz.one(i, 'replay')  the same, but first sends each statement it
--                                 runs as a NOTICE (the reproducer) and counts nothing
-- Every call runs in a subtransaction (an exception block): an error is an
-- outcome, counted by SQLSTATE in fuzz.counts; internal errors (class XX),
-- faults of this generator and errors that say the installed library
-- changed are also kept in fuzz.findings.  Tree inputs edit a tree's tables
-- and call the tree functions inside one more subtransaction that is always
-- rolled back, so the pools stay as setup made them and every input starts
-- from them; so do the inputs of load_game and unload_game, with the calls
-- that use the game after them, and inputs that SET LOCAL settings first.
--
-- Every function is called by name only.  The catalog gametree.trees is not
-- read: the root ids are those that create_tree returned at setup.

SET client_min_messages = warning;
DROP SCHEMA IF EXISTS fuzz CASCADE;
CREATE SCHEMA fuzz;

CREATE TABLE fuzz.config (
    seed      integer NOT NULL,
    ddl       boolean NOT NULL,     -- also edit the tree tables' definitions (ALTER, rules, triggers)
    pool_size integer NOT NULL      -- valid states per game
);
CREATE TABLE fuzz.progress (done integer NOT NULL, pid integer);
CREATE TABLE fuzz.skip (i integer PRIMARY KEY);       -- inputs left out (they crashed)
CREATE TABLE fuzz.counts (
    fn       text NOT NULL,
    arg      text NOT NULL,          -- the argument that was mutated, 'none', 'tampered', 'followup', ...
    sqlstate text NOT NULL,          -- 00000: accepted
    n        bigint NOT NULL,
    PRIMARY KEY (fn, arg, sqlstate)
);
CREATE TABLE fuzz.findings (i integer, fn text, arg text, sqlstate text, message text);
CREATE TABLE fuzz.pool (game text, k integer, state jsonb NOT NULL, PRIMARY KEY (game, k));
CREATE TABLE fuzz.roles (game text PRIMARY KEY, roles text[] NOT NULL);
CREATE TABLE fuzz.big (k integer PRIMARY KEY, label text NOT NULL, expr text NOT NULL, val jsonb);
CREATE TABLE fuzz.bigtext (k integer PRIMARY KEY, label text NOT NULL, expr text NOT NULL, val text);
CREATE TABLE fuzz.trees (k integer PRIMARY KEY, name text NOT NULL, game text NOT NULL,
                         root_id bigint NOT NULL, setup text NOT NULL);
-- The sample GDL descriptions (test/data/gdl/*.kif), which fuzz_sql.sh
-- copies in before setup, and the games setup loads from them.
CREATE TABLE fuzz.kif (name text PRIMARY KEY, kif text NOT NULL);
CREATE TABLE fuzz.gdl (game text PRIMARY KEY, kif_name text NOT NULL);
-- The settings inputs change: gametree's own, read from pg_settings at setup
-- (so settings added later are covered too), and search_path.
CREATE TABLE fuzz.settings (name text PRIMARY KEY, vartype text NOT NULL, unit text,
                            min_val text, max_val text, enumvals text[], boot_val text,
                            cap text, cap_setting numeric,   -- the cap as pg_settings shows it
                            CHECK ((cap IS NULL) = (cap_setting IS NULL)));

-- Random helpers.  random() is seeded per input, so every draw is reproducible.
CREATE FUNCTION fuzz.rnd(n integer) RETURNS integer LANGUAGE sql VOLATILE
AS 'SELECT floor(random() * n)::integer';

CREATE FUNCTION fuzz.pick(a anyarray) RETURNS anyelement LANGUAGE sql VOLATILE
AS 'SELECT a[1 + floor(random() * cardinality(a))::integer]';

CREATE FUNCTION fuzz.rbigint() RETURNS bigint LANGUAGE sql VOLATILE
AS 'SELECT ((random() * 2 - 1) * 9.2e18)::bigint';

CREATE FUNCTION fuzz.games() RETURNS text[] LANGUAGE sql IMMUTABLE
AS $$SELECT ARRAY['tictactoe', 'connect4', 'chess', 'checkers']$$;

-- The games that setup loaded from GDL.
CREATE FUNCTION fuzz.gdl_names() RETURNS text[] LANGUAGE sql STABLE
AS $$SELECT array_agg(g.game ORDER BY g.game) FROM fuzz.gdl g$$;

-- SQL literals for the statements that inputs run (and print as their
-- reproducers), so they must give the value exactly: a long run of one
-- character is written as repeat(); the runner cuts long lines it prints.
CREATE FUNCTION fuzz.lit(v text, typ text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF v IS NULL THEN
        RETURN 'NULL::' || typ;
    ELSIF length(v) > 1000 AND v = repeat(left(v, 1), length(v)) THEN
        RETURN format('repeat(%L, %s)::%s', left(v, 1), length(v), typ);
    END IF;
    RETURN quote_literal(v) || '::' || typ;
END $$;

-- A value too big to print is shown by the expression that made it.
CREATE FUNCTION fuzz.lit(v jsonb) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT b.expr FROM fuzz.big b WHERE pg_column_size(v) > 30000 AND b.val = v LIMIT 1),
                    fuzz.lit(v::text, 'jsonb'))
$$;

CREATE FUNCTION fuzz.tlit(v text) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT b.expr FROM fuzz.bigtext b WHERE length(v) > 30000 AND b.val = v LIMIT 1),
                    fuzz.lit(v, 'text'))
$$;

CREATE FUNCTION fuzz.emit(mode text, stmt text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF mode <> 'run' THEN
        RAISE NOTICE '%', stmt;
    END IF;
END $$;

-- Runs one statement in a subtransaction: its SQLSTATE ('00000' when it
-- succeeds) and message.
CREATE FUNCTION fuzz.try(mode text, stmt text, OUT st text, OUT msg text) LANGUAGE plpgsql AS $$
BEGIN
    PERFORM fuzz.emit(mode, stmt || ';');
    EXECUTE stmt;
    st := '00000';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
    IF mode <> 'run' THEN
        RAISE NOTICE '-- => % %', st, left(msg, 300);
    END IF;
END $$;

-- ---------------------------------------------------------------------------
-- Values

-- JSON values that break assumptions: types, signs, sizes, precision.
CREATE FUNCTION fuzz.atom() RETURNS jsonb LANGUAGE sql VOLATILE AS $$
SELECT fuzz.pick(ARRAY[
    'null', 'true', 'false', '0', '-0', '1', '-1', '2', '3', '7', '8', '9', '10', '12', '13', '16',
    '32', '33', '64', '80', '81', '100', '101', '255', '256', '1024', '1025', '65535', '65536',
    '2147483647', '2147483648', '-2147483648', '-2147483649', '4294967296',
    '9223372036854775807', '9223372036854775808', '-9223372036854775808', '-9223372036854775809',
    '1e308', '1e309', '-1e309', '1e1000', '-1e1000', '1e-1000', '0.5', '1.5', '2.0', '1.0000000000000000001',
    '-0.5', '3.14159', '""', '" "', '"1"', '"01"', '"+1"', '" 1"', '"1 "', '"-1"', '"1e2"', '"0x10"',
    '"99999999999999999999"', '"NaN"', '"Infinity"', '"é"', '"日本"', '"\t"', '"b "', '"B"', '"X"',
    '"WK"', '"xx"', '"%s%s%n"', '[]', '{}', '[[]]', '[null]', '[1, 2, 3]', '{"a": 1}', '[["control"]]',
    '[[[[[[[[[[1]]]]]]]]]]', '"control"', '"cell"', '["cell"]', '{"cell": [1, 1]}'
]::jsonb[]) $$;

-- Words and numbers of the four games, to make facts that are nearly right.
CREATE FUNCTION fuzz.token() RETURNS jsonb LANGUAGE sql VOLATILE AS $$
SELECT fuzz.pick(ARRAY[
    '"cell"', '"control"', '"castling"', '"enpassant"', '"halfmove"', '"fullmove"', '"clock"',
    '"x"', '"o"', '"b"', '"xplayer"', '"oplayer"', '"red"', '"black"', '"white"', '"man"', '"king"',
    '"wp"', '"wn"', '"wb"', '"wr"', '"wq"', '"wk"', '"bp"', '"bn"', '"bb"', '"br"', '"bq"', '"bk"',
    '"kingside"', '"queenside"', '"a"', '"b"', '"c"', '"d"', '"e"', '"f"', '"g"', '"h"', '"i"',
    '"noop"', '"does"', '"mark"', '"drop"', '"move"', '"jump"', '"e2"', '"e4"', '"a1"', '"h8"',
    '"e1"', '"g1"', '"e8"', '"q"', '"n"', '"k"', '"1"', '"8"',
    '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '11', '12', '13', '20', '21', '28', '29',
    '31', '32', '33', '40', '50', '79', '80', '99', '100'
]::jsonb[]) $$;

CREATE FUNCTION fuzz.pool_state(g text) RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    n integer := (SELECT pool_size FROM fuzz.config);
    pick integer := fuzz.rnd(n);
    s jsonb;
BEGIN
    SELECT p.state INTO s FROM fuzz.pool p WHERE p.game = g AND p.k = pick;
    RETURN s;
END $$;

CREATE FUNCTION fuzz.big_value(medium_only boolean) RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    n integer := (SELECT count(*) FROM fuzz.big);
    pick integer;
    v jsonb;
BEGIN
    IF medium_only THEN
        -- inside a mutated value: smaller ones, so that reproducers stay printable
        RETURN fuzz.pick(ARRAY[
            (SELECT jsonb_agg(x) FROM generate_series(1, 2000) x),
            to_jsonb(repeat('x', 5000)),
            (repeat('[', 200) || repeat(']', 200))::jsonb,
            jsonb_build_array(repeat('cell', 1000))]);
    END IF;
    pick := fuzz.rnd(n);
    SELECT b.val INTO v FROM fuzz.big b WHERE b.k = pick;
    RETURN v;
END $$;

CREATE FUNCTION fuzz.big_text() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    n integer := (SELECT count(*) FROM fuzz.bigtext);
    pick integer := fuzz.rnd(n);
    v text;
BEGIN
    SELECT b.val INTO v FROM fuzz.bigtext b WHERE b.k = pick;
    RETURN v;
END $$;

-- A random path into v: a top-level element, often one of its arguments.
CREATE FUNCTION fuzz.rpath(v jsonb) RETURNS text[] LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    p text[] := '{}';
    cur jsonb := v;
    n integer;
    key text;
BEGIN
    LOOP
        EXIT WHEN cardinality(p) >= 6;
        IF jsonb_typeof(cur) = 'array' THEN
            n := jsonb_array_length(cur);
            EXIT WHEN n = 0 OR (cardinality(p) > 0 AND random() < 0.3);
            n := fuzz.rnd(n);
            p := p || n::text;
            cur := cur -> n;
        ELSIF jsonb_typeof(cur) = 'object' THEN
            n := fuzz.rnd((SELECT count(*) FROM jsonb_object_keys(cur))::integer);
            SELECT k INTO key FROM jsonb_object_keys(cur) k ORDER BY k OFFSET n LIMIT 1;
            EXIT WHEN key IS NULL OR (cardinality(p) > 0 AND random() < 0.3);
            p := p || key;
            cur := cur -> key;
        ELSE
            EXIT;
        END IF;
    END LOOP;
    RETURN p;
END $$;

-- jsonb_set that also replaces the whole value (empty path) and leaves scalars alone.
CREATE FUNCTION fuzz.jset(v jsonb, p text[], x jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF cardinality(p) = 0 THEN
        RETURN x;
    ELSIF jsonb_typeof(v) NOT IN ('array', 'object') THEN
        RETURN v;
    END IF;
    RETURN coalesce(jsonb_set(v, p, coalesce(x, 'null')), v);
EXCEPTION WHEN OTHERS THEN
    RETURN v;
END $$;

-- Applies nops random mutations to a JSON value (a state, a move, ...).
CREATE FUNCTION fuzz.mutate(v jsonb, g text, nops integer) RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    op integer;
    p text[];
    cur jsonb;
    parent jsonb;
    other jsonb;
    i integer;
    j integer;
    a integer;
    n integer;
BEGIN
    FOR step IN 1..nops LOOP
        op := fuzz.rnd(100);
        p := fuzz.rpath(v);
        cur := v #> p;
        parent := CASE WHEN cardinality(p) > 0 THEN v #> p[1:cardinality(p) - 1] END;
        IF op < 20 THEN                          -- a hostile value
            v := fuzz.jset(v, p, fuzz.atom());
        ELSIF op < 38 THEN                       -- a word of some game
            v := fuzz.jset(v, p, fuzz.token());
        ELSIF op < 46 THEN                       -- a nearby number, or the number as a string
            IF jsonb_typeof(cur) = 'number' THEN
                v := fuzz.jset(v, p, CASE fuzz.rnd(6)
                    WHEN 0 THEN to_jsonb(cur::text::numeric + 1)
                    WHEN 1 THEN to_jsonb(cur::text::numeric - 1)
                    WHEN 2 THEN to_jsonb(-cur::text::numeric)
                    WHEN 3 THEN to_jsonb(cur::text::numeric * 8)
                    WHEN 4 THEN to_jsonb(cur::text::numeric + 0.5)
                    ELSE to_jsonb(cur::text) END);
            ELSIF jsonb_typeof(cur) = 'string' THEN
                v := fuzz.jset(v, p, CASE fuzz.rnd(6)
                    WHEN 0 THEN to_jsonb(upper(cur #>> '{}'))
                    WHEN 1 THEN to_jsonb((cur #>> '{}') || 'x')
                    WHEN 2 THEN to_jsonb(left(cur #>> '{}', -1))
                    WHEN 3 THEN to_jsonb(' ' || (cur #>> '{}'))
                    WHEN 4 THEN to_jsonb(repeat(cur #>> '{}', 3))
                    ELSE to_jsonb((cur #>> '{}') || 'é') END);
            ELSE
                v := fuzz.jset(v, p, fuzz.token());
            END IF;
        ELSIF op < 55 THEN                       -- delete an element
            IF cardinality(p) = 0 THEN
                v := '[]';
            ELSIF jsonb_typeof(v) IN ('array', 'object') THEN
                v := v #- p;
            END IF;
        ELSIF op < 62 THEN                       -- duplicate an element
            IF jsonb_typeof(parent) = 'array' THEN
                v := jsonb_insert(v, p, cur);
            END IF;
        ELSIF op < 68 THEN                       -- a fact of another game's state
            other := fuzz.pool_state(fuzz.pick(fuzz.games()));
            IF jsonb_typeof(v) = 'array' AND jsonb_array_length(other) > 0 THEN
                v := jsonb_insert(v, ARRAY[fuzz.rnd(jsonb_array_length(v) + 1)::text],
                                  other -> fuzz.rnd(jsonb_array_length(other)));
            END IF;
        ELSIF op < 75 THEN                       -- a fact of another state of this game
            other := fuzz.pool_state(g);
            IF jsonb_typeof(v) = 'array' AND jsonb_array_length(v) > 0 AND jsonb_array_length(other) > 0 THEN
                v := jsonb_set(v, ARRAY[fuzz.rnd(jsonb_array_length(v))::text],
                               other -> fuzz.rnd(jsonb_array_length(other)));
            END IF;
        ELSIF op < 80 THEN                       -- swap one argument of two facts (moves pieces)
            IF jsonb_typeof(v) = 'array' AND jsonb_array_length(v) > 1 THEN
                n := jsonb_array_length(v);
                i := fuzz.rnd(n);
                j := fuzz.rnd(n);
                a := 1 + fuzz.rnd(3);
                IF jsonb_typeof(v -> i) = 'array' AND jsonb_typeof(v -> j) = 'array' THEN
                    other := v -> i -> a;
                    v := fuzz.jset(fuzz.jset(v, ARRAY[i::text, a::text], v -> j -> a),
                                   ARRAY[j::text, a::text], other);
                END IF;
            END IF;
        ELSIF op < 84 THEN                       -- wrap an element
            v := fuzz.jset(v, p, CASE WHEN random() < 0.7 THEN jsonb_build_array(cur)
                                      ELSE jsonb_build_object('k', cur) END);
        ELSIF op < 88 THEN                       -- reorder the facts
            IF jsonb_typeof(v) = 'array' THEN
                IF random() < 0.5 THEN
                    SELECT jsonb_agg(e ORDER BY ord DESC) INTO v FROM jsonb_array_elements(v) WITH ORDINALITY x(e, ord);
                ELSE
                    SELECT jsonb_agg(e ORDER BY r) INTO v
                    FROM (SELECT e, random() AS r FROM jsonb_array_elements(v) WITH ORDINALITY x(e, ord) ORDER BY ord) s;
                END IF;
                v := coalesce(v, '[]');
            END IF;
        ELSIF op < 92 THEN                       -- one argument more or fewer
            IF jsonb_typeof(cur) = 'array' THEN
                v := fuzz.jset(v, p, CASE WHEN random() < 0.5 THEN cur || jsonb_build_array(fuzz.token())
                                          ELSE cur - (-1) END);
            END IF;
        ELSIF op < 95 THEN                       -- drop every fact of one relation
            IF jsonb_typeof(v) = 'array' THEN
                other := fuzz.pick(ARRAY['"control"', '"castling"', '"enpassant"', '"halfmove"',
                                         '"fullmove"', '"clock"', '"cell"']::jsonb[]);
                SELECT coalesce(jsonb_agg(e ORDER BY ord), '[]') INTO v
                FROM jsonb_array_elements(v) WITH ORDINALITY x(e, ord) WHERE e -> 0 IS DISTINCT FROM other;
            END IF;
        ELSIF op < 98 THEN                       -- something else altogether
            v := fuzz.atom();
        ELSE                                     -- a large value somewhere inside
            v := fuzz.jset(v, p, fuzz.big_value(true));
        END IF;
    END LOOP;
    RETURN v;
END $$;

-- Argument generators.  target: this argument is the one to break.

CREATE FUNCTION fuzz.gen_game(g text, target boolean) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    r integer;
BEGIN
    IF NOT target THEN
        RETURN g;
    END IF;
    r := fuzz.rnd(100);
    IF r < 35 THEN
        RETURN fuzz.pick(fuzz.games());          -- a real game, often not the state's
    ELSIF r < 45 THEN                            -- a game loaded from GDL, or nearly its name
        RETURN fuzz.pick(ARRAY[fuzz.pick(fuzz.gdl_names()), upper(g), g || ' ', initcap(g), 'public.' || g]);
    ELSIF r < 92 THEN
        RETURN fuzz.pick(ARRAY['Chess', 'CHESS', 'chess ', ' chess', '', ' ', 'tic-tac-toe', 'tic tac toe',
            'connect 4', 'connectfour', 'draughts', 'go', 'nosuchgame', e'chess\n', 'chëss', '%s%s%n',
            'tictactoe;', '''', '"chess"', 'checkers.', repeat('x', 64), repeat('x', 5000),
            'checkerscheckers', 'c', 'ch', 'pg_catalog', 'NULL']);
    ELSIF r < 95 THEN
        RETURN fuzz.big_text();
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION fuzz.splice(a jsonb, b jsonb) RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    r integer := fuzz.rnd(3);
    res jsonb;
BEGIN
    IF jsonb_typeof(a) <> 'array' OR jsonb_typeof(b) <> 'array' THEN
        RETURN a;
    END IF;
    IF r = 0 THEN          -- first half of one, second half of the other
        SELECT jsonb_agg(e ORDER BY w, ord) INTO res FROM (
            SELECT 1 AS w, e, ord FROM jsonb_array_elements(a) WITH ORDINALITY x(e, ord) WHERE ord <= jsonb_array_length(a) / 2
            UNION ALL
            SELECT 2, e, ord FROM jsonb_array_elements(b) WITH ORDINALITY x(e, ord) WHERE ord > jsonb_array_length(b) / 2) s;
    ELSIF r = 1 THEN       -- all facts of both
        res := a || b;
    ELSE                   -- a random part of one
        SELECT jsonb_agg(e ORDER BY ord) INTO res
        FROM (SELECT e, ord, random() AS keep FROM jsonb_array_elements(a) WITH ORDINALITY x(e, ord) ORDER BY ord) s
        WHERE keep < 0.8;
    END IF;
    RETURN coalesce(res, '[]');
END $$;

CREATE FUNCTION fuzz.gen_state(g text, target boolean, huge boolean DEFAULT true) RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    s jsonb := fuzz.pool_state(g);
    r integer;
BEGIN
    IF NOT target THEN
        RETURN s;
    END IF;
    r := fuzz.rnd(100);
    IF r < 42 THEN
        RETURN fuzz.mutate(s, g, 1 + fuzz.rnd(3));
    ELSIF r < 52 THEN
        RETURN fuzz.mutate(s, g, 4 + fuzz.rnd(8));
    ELSIF r < 60 THEN
        RETURN fuzz.pool_state(fuzz.pick(fuzz.games()));
    ELSIF r < 65 THEN
        RETURN fuzz.mutate(fuzz.pool_state(fuzz.pick(fuzz.games())), g, 1 + fuzz.rnd(3));
    ELSIF r < 77 THEN
        RETURN fuzz.splice(s, fuzz.pool_state(g));
    ELSIF r < 86 THEN
        RETURN CASE fuzz.rnd(3) WHEN 0 THEN fuzz.atom() WHEN 1 THEN jsonb_build_array(fuzz.token())
               ELSE fuzz.pick(ARRAY['[]', '{}', '[[]]', '[[], []]', '[["control"]]', '[["cell"]]',
                    '[["control", "xplayer"], ["control", "xplayer"]]', '[[1, 2]]', '[["cell", 1, 1, "x", 5]]',
                    '[["cell", 1, 1, "x"]]', '[["control", "white"]]', '[["control", "black"], ["clock", 80]]',
                    '{"0": ["control", "red"]}', '[null]', '[{}]', '[["control", null]]', '"[]"',
                    '[["cell", 1, "black", "king"], ["control", "white"]]', '[["control", "red"], ["cell", 1, 1, "red"]]']::jsonb[]) END;
    ELSIF r < 91 THEN
        RETURN fuzz.big_value(NOT huge);
    ELSIF r < 96 THEN
        RETURN CASE WHEN random() < 0.5 THEN jsonb_build_array(s) ELSE jsonb_build_object('state', s) END;
    END IF;
    RETURN NULL;
END $$;

-- The action of the role in control within a joint move.
CREATE FUNCTION fuzz.action(m jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
SELECT e -> 2 FROM jsonb_array_elements(m) WITH ORDINALITY x(e, ord) WHERE e -> 2 <> '"noop"' ORDER BY ord LIMIT 1 $$;

-- A move in the game's own notation: UCI for chess, PDN for checkers.
CREATE FUNCTION fuzz.notation(g text, m jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    a jsonb := fuzz.action(m);
BEGIN
    IF g = 'chess' THEN
        RETURN to_jsonb((a ->> 1) || (a ->> 2) || coalesce(a ->> 3, ''));
    ELSIF g = 'checkers' THEN
        IF a ->> 0 = 'move' THEN
            RETURN to_jsonb((a ->> 1) || '-' || (a ->> 2));
        END IF;
        RETURN to_jsonb((SELECT string_agg(e #>> '{}', 'x' ORDER BY ord) FROM jsonb_array_elements(a) WITH ORDINALITY x(e, ord) WHERE ord > 1));
    END IF;
    RETURN a;
END $$;

CREATE FUNCTION fuzz.gen_move(g text, s jsonb, target boolean) RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    moves jsonb[];
    m jsonb;
    r integer;
    sq text;
BEGIN
    BEGIN
        moves := ARRAY(SELECT x FROM gametree.legal(g, s) x);
    EXCEPTION WHEN OTHERS THEN
        moves := '{}';
    END;
    IF cardinality(moves) = 0 THEN
        -- terminal: a move of another position of the game
        BEGIN
            moves := ARRAY(SELECT x FROM gametree.legal(g, fuzz.pool_state(g)) x);
        EXCEPTION WHEN OTHERS THEN
            moves := '{}';
        END;
    END IF;
    m := coalesce(fuzz.pick(moves), '[["does", "xplayer", ["mark", 2, 2]], ["does", "oplayer", "noop"]]');
    r := fuzz.rnd(100);
    IF NOT target THEN
        RETURN CASE WHEN r < 50 THEN m WHEN r < 75 THEN fuzz.action(m) ELSE fuzz.notation(g, m) END;
    END IF;
    IF r < 30 THEN
        RETURN fuzz.mutate(CASE WHEN random() < 0.5 THEN m ELSE fuzz.action(m) END, g, 1 + fuzz.rnd(2));
    ELSIF r < 42 THEN                            -- a move of another position or game
        BEGIN
            RETURN fuzz.pick(ARRAY(SELECT x FROM gametree.legal(fuzz.pick(fuzz.games()),
                                   fuzz.pool_state(fuzz.pick(fuzz.games()))) x));
        EXCEPTION WHEN OTHERS THEN
            RETURN m;
        END;
    ELSIF r < 52 THEN
        RETURN CASE WHEN random() < 0.5 THEN fuzz.atom() ELSE fuzz.token() END;
    ELSIF r < 70 THEN                            -- notation, nearly right
        IF g = 'chess' OR (g <> 'checkers' AND random() < 0.5) THEN
            sq := chr(96 + fuzz.rnd(10)) || fuzz.rnd(11)::text || chr(96 + fuzz.rnd(10)) || fuzz.rnd(11)::text
                  || fuzz.pick(ARRAY['', '', 'q', 'r', 'b', 'n', 'k', 'p', 'Q', 'x', '=q', 'qq']);
            RETURN to_jsonb(fuzz.pick(ARRAY[sq, sq, (fuzz.notation(g, m) #>> '{}') || 'q', 'e1g1', 'e1c1',
                'e8g8', 'O-O', '0000', 'a7a8q', 'h2h1n', 'e2e4', 'e2', '', 'e2e4e6', upper(sq)]));
        END IF;
        sq := fuzz.rnd(35)::text || fuzz.pick(ARRAY['-', 'x', 'x', '--', 'xx', ' ', 'X', '']) || fuzz.rnd(35)::text
              || fuzz.pick(ARRAY['', '', 'x' || fuzz.rnd(35)::text, 'x' || fuzz.rnd(35)::text || 'x' || fuzz.rnd(35)::text,
                                 '-', 'x', 'x1x2x3x4x5x6x7x8x9x10x11x12x13']);
        RETURN to_jsonb(fuzz.pick(ARRAY[sq, sq, sq, (fuzz.notation(g, m) #>> '{}') || 'x5', '11-15', '22x15x8',
            '22x8', '1x10x17', '-1-5', '99999999999-1', '9-13-', 'x', '-', ' 9-13', '9 - 13', '09-13']));
    ELSIF r < 82 THEN                            -- joint moves, wrongly put together
        RETURN fuzz.pick(ARRAY[
            (SELECT jsonb_agg(e ORDER BY ord DESC) FROM jsonb_array_elements(m) WITH ORDINALITY x(e, ord)),
            (SELECT jsonb_agg(jsonb_build_array('does', e -> 1, 'noop')) FROM jsonb_array_elements(m) e),
            m || m -> 0,
            jsonb_build_array(m -> 0),
            m -> 0,
            jsonb_build_array(m -> 0, m -> 0),
            (SELECT jsonb_agg(jsonb_build_array('does', e -> 1, fuzz.action(m))) FROM jsonb_array_elements(m) e),
            (SELECT jsonb_agg(jsonb_set(e, '{0}', '"Does"')) FROM jsonb_array_elements(m) e),
            (SELECT jsonb_agg(e - 2) FROM jsonb_array_elements(m) e),
            jsonb_build_array(m)]);
    ELSIF r < 88 THEN
        RETURN fuzz.big_value(false);
    ELSIF r < 95 THEN
        RETURN fuzz.pick(ARRAY['null', '"noop"', '[]', '{}', '[["does"]]', '["mark"]', '["mark", 2]', '["drop"]',
            '["move", "e2"]', '["move", 9]', '["jump", 9]', '["jump"]', '["drop", 0]', '["drop", 8]',
            '["mark", 0, 0]', '["move", "e2", "e4", "q", "q"]', '["jump", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]',
            '[["does", "white", "noop"], ["does", "black", "noop"]]']::jsonb[]);
    END IF;
    RETURN NULL;
END $$;

-- Mutates a text character by character: characters of the alphabet
-- (by default those of FENs) replace or join those of the text, some are
-- deleted, pieces of the text are copied elsewhere in it.
CREATE FUNCTION fuzz.mutate_text(t text, nops integer,
                                 chars text DEFAULT 'pnbrqkPNBRQK12345678/ wbKQkq-0123456789:WBx,.-HF9 e3')
RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    pos integer;
    c text;
BEGIN
    FOR step IN 1..nops LOOP
        pos := 1 + fuzz.rnd(greatest(length(t), 1));
        c := substr(chars, 1 + fuzz.rnd(length(chars)), 1);
        t := CASE fuzz.rnd(4)
            WHEN 0 THEN overlay(t PLACING c FROM pos FOR 1)
            WHEN 1 THEN overlay(t PLACING c FROM pos FOR 0)
            WHEN 2 THEN overlay(t PLACING '' FROM pos FOR 1 + fuzz.rnd(3))
            ELSE overlay(t PLACING substr(t, 1 + fuzz.rnd(greatest(length(t), 1)), 1 + fuzz.rnd(6)) FROM pos FOR 0) END;
    END LOOP;
    RETURN t;
END $$;

CREATE FUNCTION fuzz.gen_fen(g text, target boolean) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    base text;
    fields text[];
    sep text;
    r integer;
BEGIN
    BEGIN
        base := gametree.to_fen(CASE WHEN g IN ('chess', 'checkers') THEN g ELSE 'chess' END,
                                fuzz.pool_state(CASE WHEN g IN ('chess', 'checkers') THEN g ELSE 'chess' END));
    EXCEPTION WHEN OTHERS THEN
        base := 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
    END;
    IF NOT target THEN
        RETURN base;
    END IF;
    r := fuzz.rnd(100);
    IF r < 45 THEN
        RETURN fuzz.mutate_text(base, 1 + fuzz.rnd(4));
    ELSIF r < 60 THEN                            -- a field dropped, repeated, swapped or replaced
        sep := CASE WHEN base LIKE '%:%' THEN ':' ELSE ' ' END;
        fields := string_to_array(base, sep);
        r := 1 + fuzz.rnd(cardinality(fields));
        fields := CASE fuzz.rnd(4)
            WHEN 0 THEN fields[1:r - 1] || fields[r + 1:]
            WHEN 1 THEN fields[1:r] || fields[r:]
            WHEN 2 THEN fields[1:r - 1] || fields[cardinality(fields)] || fields[r + 1:cardinality(fields) - 1] || fields[r]
            ELSE fields[1:r - 1] || fuzz.pick(ARRAY['-1', '0', '65535', '65536', '99999999999999999999', '', ' ', 'x',
                                                   'H81', 'H-1', 'F0', 'WK', 'W', 'B', 'K', 'WK1-32', 'B33', 'W0',
                                                   '8', '9', '-', 'KQkqKQkq', 'e9', 'z3']) || fields[r + 1:] END;
        RETURN array_to_string(fields, sep);
    ELSIF r < 68 THEN
        RETURN gametree.to_fen(CASE WHEN g = 'chess' THEN 'checkers' ELSE 'chess' END,
                               fuzz.pool_state(CASE WHEN g = 'chess' THEN 'checkers' ELSE 'chess' END));
    ELSIF r < 82 THEN
        RETURN fuzz.pick(ARRAY['', ' ', '/', '-', ':', 'w', 'B', 'W', 'B:', 'B:W', 'B:W:B', 'W:W:B', 'B:B1:W2',
            'B:W1-32:B', 'B:WK1-32:B1', 'B:W21-32:B1-12:H80', 'B:W21-32:B1-12:H81', 'B:W21,21:B1', 'B:W0:B1',
            'B:W33:B1', 'B:W-1:B1', 'B:W1-:B2', 'B:W32-1:B2', 'B:W9999999999999999999:B1', 'B:W1:B2:F0',
            'B:W1:B2:H-1', 'B:W1:B2.', 'B:W1:B2..', 'B:W1:B2:', 'B:W1:B2:H', 'B:WK:B1', 'B:W1,,2:B3', 'B:W1-2-3:B4',
            'B:W1-32:B1-32', 'W:W:B', 'B:W:B', 'B:W29-32:B1-4', 'W:WK1-12:BK21-32', 'B:W1:B2:W3',
            '8/8/8/8/8/8/8/8 w - - 0 1', '8/8/8/8/8/8/8/8/8 w - - 0 1', 'k7/8/8/8/8/8/8/K7 w - - 0 1',
            'K7/8/8/8/8/8/8/k7 b - - 0 1', 'k7/8/8/8/8/8/8/KK6 w - - 0 1', 'kq6/8/8/8/8/8/8/K7 w - - 0 1',
            'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1',
            'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1',
            'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 65535 65535',
            'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 65536 1',
            'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 100 1',
            'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99 1',
            'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -0 1',
            'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0',
            'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - +1 1',
            'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w  KQkq  -  0  1',
            'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra',
            'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKQkq - 0 1',
            'rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
            'rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
            'rnbqkbnr/pppppppp/17/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
            'rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
            'Pnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
            'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1',
            'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', '4k3/8/8/8/8/8/8/4K2R w Qk - 0 1',
            '4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1', '4k3/8/8/3pP3/8/8/8/4K3 w - e6 0 1',
            '3qk3/8/8/3pP3/8/8/8/3K4 w - d6 0 1', 'k7/8/8/8/8/8/8/7K w - - 0 1' || repeat(' ', 1000)]);
    ELSIF r < 88 THEN
        RETURN base || repeat(fuzz.pick(ARRAY[' 1', '/8', ',5', ':B1', 'K', ' -']), 1 + fuzz.rnd(3000));
    ELSIF r < 92 THEN
        RETURN fuzz.big_text();
    ELSIF r < 96 THEN
        RETURN overlay(base PLACING fuzz.pick(ARRAY['é', e'\t', e'\n', e'\r', '日', '�', e'\u00a0', '\\'])
                       FROM 1 + fuzz.rnd(length(base)) FOR fuzz.rnd(2));
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION fuzz.gen_int(kind text, target boolean) RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    IF target THEN
        RETURN fuzz.pick(ARRAY[NULL, -1, -2, -1000, 0, -2147483648, 2147483647, 1001, 1000000, 65536]::bigint[]);
    END IF;
    RETURN CASE kind
        WHEN 'depth' THEN fuzz.rnd(3)
        WHEN 'batch' THEN 1 + fuzz.rnd(40)
        ELSE fuzz.rnd(4) END;
END $$;

CREATE FUNCTION fuzz.gen_bool(target boolean) RETURNS boolean LANGUAGE sql VOLATILE AS $$
SELECT CASE WHEN target AND random() < 0.4 THEN NULL ELSE random() < 0.5 END $$;

-- utility / mobility / goal JSON as a tree's owner might write it.
CREATE FUNCTION fuzz.gen_values(g text) RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    roles text[] := (SELECT r.roles FROM fuzz.roles r WHERE r.game = g);
    nums jsonb[] := ARRAY['0', '50', '100', '-1', '101', '1e300', '-1e300', '1e1000', '-1e1000', '0.001', '99.999',
                          '2147483648', '-2147483649', '9223372036854775807', '1e-1000', 'null', '"50"', 'true',
                          '[]', '{}', '1.5', '100.0000001', '-0.000001', '33.33', '4294967296', '1e19']::jsonb[];
    r integer := fuzz.rnd(100);
    v jsonb := '{}';
BEGIN
    IF r < 55 THEN
        FOR k IN 1..cardinality(roles) LOOP
            v := v || jsonb_build_object(roles[k], fuzz.pick(nums));
        END LOOP;
        RETURN v;
    ELSIF r < 65 THEN
        RETURN jsonb_build_object(fuzz.pick(ARRAY['white', 'red', 'xplayer', 'black']), fuzz.pick(nums));
    ELSIF r < 72 THEN
        RETURN jsonb_build_object(roles[1], fuzz.pick(nums), 'zz', 1);
    ELSIF r < 86 THEN
        RETURN fuzz.atom();
    ELSIF r < 88 THEN
        RETURN fuzz.big_value(true);
    END IF;
    RETURN NULL;
END $$;

-- ---------------------------------------------------------------------------
-- Tree names, state ids and table edits

CREATE FUNCTION fuzz.gen_tree(tn text, target boolean) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    r integer := fuzz.rnd(100);
BEGIN
    IF NOT target THEN
        RETURN CASE WHEN r < 70 THEN tn WHEN r < 90 THEN 'public.' || tn ELSE format('%I.%I', 'public', tn) END;
    END IF;
    IF r < 15 THEN
        RETURN (SELECT t.name FROM fuzz.trees t ORDER BY t.k OFFSET fuzz.rnd((SELECT count(*) FROM fuzz.trees)::integer) LIMIT 1);
    ELSIF r < 92 THEN
        RETURN fuzz.pick(ARRAY['nosuchtree', upper(tn), '"' || tn || '"', '"' || upper(tn) || '"', tn || '_states',
            'pg_catalog.' || tn, 'gametree.' || tn, 'nosuchschema.' || tn, 'public.public.' || tn, '.' || tn,
            tn || '.', 'public..' || tn, '', ' ', '.', '"', '""', '"."', 'a"b', tn || ' ', ' ' || tn, tn || ';',
            tn || '--', e'fz\n', repeat('x', 56), repeat('x', 57), repeat('é', 30), repeat('x', 300),
            repeat('x', 100000), 'public."' || tn || '"', '"public".' || tn, 'gametree.trees', 'trees',
            'pg_temp.' || tn, '%s%s%n', '$1', 'U&"\0066z"', tn || '_graph', 'information_schema.tables']);
    ELSIF r < 95 THEN
        RETURN fuzz.big_text();
    END IF;
    RETURN NULL;
END $$;

-- The id of a row of the tree's states that matches cond, or NULL (also when
-- the table is gone).
CREATE FUNCTION fuzz.pick_id(tn text, cond text) RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    n bigint;
    id bigint;
    r integer := fuzz.rnd(1000000);
BEGIN
    EXECUTE format('SELECT count(*) FROM public.%I WHERE %s', tn || '_states', cond) INTO n;
    IF n = 0 THEN
        RETURN NULL;
    END IF;
    EXECUTE format('SELECT id FROM public.%I WHERE %s ORDER BY id OFFSET $1 LIMIT 1', tn || '_states', cond)
        INTO id USING r % n;
    RETURN id;
EXCEPTION WHEN OTHERS THEN
    RETURN NULL;
END $$;

CREATE FUNCTION fuzz.pick_move(tn text) RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    n bigint;
    id bigint;
    r integer := fuzz.rnd(1000000);
BEGIN
    EXECUTE format('SELECT count(*) FROM public.%I', tn || '_moves') INTO n;
    IF n = 0 THEN
        RETURN fuzz.rbigint();
    END IF;
    EXECUTE format('SELECT id FROM public.%I ORDER BY id OFFSET $1 LIMIT 1', tn || '_moves') INTO id USING r % n;
    RETURN id;
EXCEPTION WHEN OTHERS THEN
    RETURN fuzz.rbigint();
END $$;

CREATE FUNCTION fuzz.gen_sid(tn text, root bigint, target boolean) RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    r integer := fuzz.rnd(100);
    other text;
BEGIN
    IF NOT target THEN
        RETURN CASE WHEN r < 35 THEN root
                    WHEN r < 65 THEN coalesce(fuzz.pick_id(tn, 'true'), root)
                    WHEN r < 90 THEN coalesce(fuzz.pick_id(tn, 'NOT expanded'), root)
                    ELSE coalesce(fuzz.pick_id(tn, 'expanded'), root) END;
    END IF;
    IF r < 20 THEN
        RETURN fuzz.rbigint();
    ELSIF r < 70 THEN
        RETURN fuzz.pick(ARRAY[0, -1, 1, 9223372036854775807, -9223372036854775808, root + 1, root - 1, -root]::bigint[]);
    ELSIF r < 82 THEN
        other := (SELECT t.name FROM fuzz.trees t ORDER BY t.k OFFSET fuzz.rnd((SELECT count(*) FROM fuzz.trees)::integer) LIMIT 1);
        RETURN coalesce(fuzz.pick_id(other, 'true'), 0);
    ELSIF r < 90 THEN
        BEGIN
            RETURN gametree.state_hash(fuzz.pick(fuzz.games()), fuzz.pool_state(fuzz.pick(fuzz.games())));
        EXCEPTION WHEN OTHERS THEN
            RETURN 42;
        END;
    END IF;
    RETURN NULL;
END $$;

-- Domains over the columns' types: the same values under another type name.
CREATE DOMAIN fuzz.jsonb_d AS jsonb;
CREATE DOMAIN fuzz.bigint_d AS bigint CHECK (VALUE <> 0);
CREATE DOMAIN fuzz.bool_d AS boolean;
CREATE DOMAIN fuzz.int_d AS integer;
CREATE DOMAIN fuzz.text_d AS text;

-- Trigger functions that a tree's owner might hang on its tables.
CREATE FUNCTION fuzz.trg_skip() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RETURN NULL;
END $$;

CREATE FUNCTION fuzz.trg_raise() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'rejected by a trigger of the tree''s owner';
END $$;

CREATE FUNCTION fuzz.trg_garble() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    j jsonb := to_jsonb(NEW);
BEGIN
    IF j ? 'state' THEN
        j := j || '{"state": [["garbled"]], "depth": -5}';
    END IF;
    IF j ? 'next_id' THEN
        j := j || '{"next_id": 4242, "utility": "garbled"}';
    END IF;
    IF j ? 'move' THEN
        j := j || '{"move": "garbled"}';
    END IF;
    NEW := jsonb_populate_record(NEW, j);
    RETURN NEW;
END $$;

CREATE FUNCTION fuzz.trg_unlink() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- every edge written takes its parent state away
    IF TG_TABLE_NAME LIKE '%\_edges' THEN
        EXECUTE format('DELETE FROM %I.%I WHERE id = $1', TG_TABLE_SCHEMA,
                       left(TG_TABLE_NAME, -length('_edges')) || '_states') USING NEW.init_id;
    END IF;
    RETURN NEW;
END $$;

CREATE FUNCTION fuzz.trg_alter() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    states text := regexp_replace(TG_TABLE_NAME, '_(states|moves|edges)$', '') || '_states';
    edges text := regexp_replace(TG_TABLE_NAME, '_(states|moves|edges)$', '') || '_edges';
BEGIN
    -- the tables change in the middle of a gametree call, after it checked them
    IF pg_trigger_depth() = 1 THEN
        CASE TG_ARGV[0]
        WHEN 'null_state' THEN
            EXECUTE format('ALTER TABLE %I.%I ALTER COLUMN state DROP NOT NULL', TG_TABLE_SCHEMA, states);
            EXECUTE format('UPDATE %I.%I SET state = NULL WHERE depth > 0', TG_TABLE_SCHEMA, states);
        WHEN 'text_utility' THEN
            EXECUTE format('ALTER TABLE %I.%I ALTER COLUMN utility TYPE text', TG_TABLE_SCHEMA, states);
            EXECUTE format('ALTER TABLE %I.%I ALTER COLUMN total TYPE text', TG_TABLE_SCHEMA, edges);
        WHEN 'numeric_id' THEN
            EXECUTE format('ALTER TABLE %I.%I DROP CONSTRAINT IF EXISTS %I', TG_TABLE_SCHEMA, states, states || '_check');
            EXECUTE format('ALTER TABLE %I.%I ALTER COLUMN id TYPE numeric', TG_TABLE_SCHEMA, states);
        ELSE
            EXECUTE format('CREATE RULE fuzz_late_rule AS ON UPDATE TO %I.%I DO INSTEAD SELECT 1', TG_TABLE_SCHEMA, states);
        END CASE;
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION fuzz.trg_dup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- every edge written gets a twin under another move id
    IF pg_trigger_depth() = 1 THEN
        EXECUTE format('INSERT INTO %I.%I (init_id, move_id, next_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
                       TG_TABLE_SCHEMA, TG_TABLE_NAME) USING NEW.init_id, NEW.move_id # 1, NEW.next_id;
    END IF;
    RETURN NEW;
END $$;

-- A subset of a tree's rows, by a salted hash of the key (stable whatever the scan order).
CREATE FUNCTION fuzz.subset(key text, tn text, root bigint) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    r integer := fuzz.rnd(100);
    id bigint;
BEGIN
    IF r < 30 THEN
        id := fuzz.pick_id(tn, 'true');
        RETURN format('%s = %s', key, coalesce(id, root));
    ELSIF r < 40 THEN
        RETURN format('%s = %s', key, root);
    ELSIF r < 85 THEN
        RETURN format('hashint8(%s # %s) %% %s = 0', key, fuzz.rnd(1000000), fuzz.pick(ARRAY[2, 3, 5, 10, 50]));
    END IF;
    RETURN 'true';
END $$;

-- Statements that edit a tree's tables as their owner may.
CREATE FUNCTION fuzz.tamper(tn text, tg text, root bigint, ddl boolean) RETURNS text[] LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    s text := format('public.%I', tn || '_states');
    m text := format('public.%I', tn || '_moves');
    g text := format('public.%I', tn || '_edges');
    pend text := format('SELECT * FROM gametree.grow_step(%L, 1)', tn);  -- makes propagation pending
    t text;
    r integer := fuzz.rnd(ddl::integer * 12 + 100);
    a bigint;
    b bigint;
    st jsonb;
    col text;
    games text[] := fuzz.games();
    other text;
BEGIN
    IF r < 9 THEN                                -- edges to states that do not exist
        a := coalesce(fuzz.pick_id(tn, fuzz.pick(ARRAY['expanded', 'NOT expanded', 'true'])), root);
        RETURN ARRAY[format('INSERT INTO %s (init_id, move_id, next_id, visits, total) VALUES (%s, %s, %s, %s, %s)',
                            g, a, fuzz.pick_move(tn), fuzz.rbigint(), fuzz.pick(ARRAY[0, 1, -1, 2147483647]),
                            fuzz.lit(fuzz.gen_values(tg)))];
    ELSIF r < 17 THEN                            -- more edges out of one state than the game allows
        a := coalesce(fuzz.pick_id(tn, fuzz.pick(ARRAY['expanded', 'true'])), root);
        b := coalesce(fuzz.pick_id(tn, 'true'), root);
        RETURN ARRAY[format('INSERT INTO %s (init_id, move_id, next_id, total) '
                            'SELECT %s, %s + i, %s, %s FROM generate_series(1, %s) i',
                            g, a, fuzz.rbigint() / 2, b, fuzz.lit(fuzz.gen_values(tg)),
                            fuzz.pick(ARRAY[1, 2, 7, 8, 9, 10, 30, 218, 219, 256, 300, 1024, 1025, 1100]))];
    ELSIF r < 23 THEN                            -- the edges of one state copied to another
        a := coalesce(fuzz.pick_id(tn, 'expanded'), root);
        b := coalesce(fuzz.pick_id(tn, 'true'), root);
        RETURN ARRAY[format('INSERT INTO %s (init_id, move_id, next_id, visits, total) '
                            'SELECT %s, move_id, next_id, visits, total FROM %s WHERE init_id = %s',
                            g, b, g, a)];
    ELSIF r < 30 THEN                            -- cycles: an edge back up, or to itself
        a := coalesce(fuzz.pick_id(tn, fuzz.pick(ARRAY['expanded', 'true', 'depth > 0'])), root);
        b := CASE WHEN random() < 0.4 THEN root WHEN random() < 0.5 THEN a ELSE coalesce(fuzz.pick_id(tn, 'true'), root) END;
        RETURN ARRAY[format('INSERT INTO %s (init_id, move_id, next_id) SELECT %s, %s, %s FROM %s WHERE id = %s',
                            g, a, fuzz.pick_move(tn), b, s, b),
                     format('UPDATE %s SET expanded = true WHERE id IN (%s, %s)', s, a, b), pend];
    ELSIF r < 35 THEN                            -- edges that point elsewhere
        RETURN ARRAY[format('UPDATE %s SET %s = %s WHERE %s', g,
                            fuzz.pick(ARRAY['next_id', 'next_id', 'init_id', 'move_id']),
                            fuzz.pick(ARRAY[root::text, fuzz.rbigint()::text, coalesce(fuzz.pick_id(tn, 'true'), root)::text,
                                            'init_id', 'next_id', '-next_id', 'next_id + 1']),
                            fuzz.subset('next_id', tn, root))];
    ELSIF r < 45 THEN                            -- new state rows: other games, bad JSON, wrong ids
        other := CASE WHEN random() < 0.5 THEN tg ELSE fuzz.pick(games) END;
        st := fuzz.gen_state(other, random() < 0.6, false);
        BEGIN
            a := gametree.state_hash(tg, st);
        EXCEPTION WHEN OTHERS THEN
            a := fuzz.rbigint();
        END;
        IF a IS NULL OR random() < 0.3 THEN
            a := fuzz.rbigint();
        END IF;
        b := coalesce(fuzz.pick_id(tn, fuzz.pick(ARRAY['expanded', 'true'])), root);
        RETURN ARRAY[format('INSERT INTO %s (id, state, goal, depth, control, expanded, utility, mobility, proven, best_move) '
                            'VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING',
                            s, a, fuzz.lit(coalesce(st, '[]')), fuzz.lit(CASE WHEN random() < 0.3 THEN fuzz.gen_values(tg) END),
                            fuzz.pick(ARRAY[0, 1, 2, 3, 5, -1, 2147483647, -2147483648]),
                            quote_nullable(fuzz.pick(ARRAY[NULL, 'xplayer', 'red', 'white', 'black', 'nobody', ''])),
                            (random() < 0.5)::text, fuzz.lit(fuzz.gen_values(tg)), fuzz.lit(fuzz.gen_values(tg)),
                            (random() < 0.5)::text, coalesce(fuzz.pick_move(tn)::text, 'NULL')),
                     format('INSERT INTO %s (init_id, move_id, next_id) VALUES (%s, %s, %s)',
                            g, b, fuzz.pick_move(tn), a)];
    ELSIF r < 51 THEN                            -- a state replaced by another position or bad JSON
        a := coalesce(fuzz.pick_id(tn, 'true'), root);
        BEGIN
            EXECUTE format('SELECT state FROM %s WHERE id = %s', s, a) INTO st;
        EXCEPTION WHEN OTHERS THEN
            st := NULL;
        END;
        st := CASE WHEN random() < 0.5 THEN fuzz.mutate(coalesce(st, '[]'), tg, 1 + fuzz.rnd(3))
                   ELSE fuzz.gen_state(fuzz.pick(games), random() < 0.5, false) END;
        RETURN ARRAY[format('UPDATE %s SET state = %s WHERE id = %s', s, fuzz.lit(st), a)];
    ELSIF r < 57 THEN                            -- the CHECK (id = state_hash(...)) dropped, then anything
        other := fuzz.pick(games);
        RETURN ARRAY[format('ALTER TABLE %s DROP CONSTRAINT IF EXISTS %I', s, tn || '_states_check'),
                     format('UPDATE %s SET state = %s WHERE %s', s,
                            fuzz.lit(coalesce(fuzz.gen_state(other, random() < 0.7, false), '[]')), fuzz.subset('id', tn, root))];
    ELSIF r < 61 THEN                            -- ids that are not the state's hash
        a := coalesce(fuzz.pick_id(tn, 'true'), root);
        RETURN ARRAY[format('UPDATE %s SET id = %s WHERE id = %s', s,
                            fuzz.pick(ARRAY['id + 1', '-id', fuzz.rbigint()::text, root::text, '0']), a)];
    ELSIF r < 73 THEN                            -- values of states
        col := fuzz.pick(ARRAY['utility', 'mobility', 'goal', 'proven', 'best_move', 'control',
                               'expanded', 'depth', 'utility', 'mobility']);
        t := CASE col
            WHEN 'utility' THEN fuzz.lit(fuzz.gen_values(tg))
            WHEN 'mobility' THEN fuzz.lit(fuzz.gen_values(tg))
            WHEN 'goal' THEN fuzz.lit(fuzz.gen_values(tg))
            WHEN 'proven' THEN fuzz.pick(ARRAY['true', 'false', 'NOT proven'])
            WHEN 'best_move' THEN fuzz.pick(ARRAY['NULL', fuzz.pick_move(tn)::text, fuzz.rbigint()::text, '0'])
            WHEN 'control' THEN quote_nullable(fuzz.pick(ARRAY[NULL, 'xplayer', 'oplayer', 'red', 'black', 'white', 'nobody', '', repeat('r', 1000)]))
            WHEN 'expanded' THEN fuzz.pick(ARRAY['true', 'false', 'NOT expanded'])
            ELSE fuzz.pick(ARRAY['0', '-1', 'depth + 1', '-depth', '2147483647', '-2147483648', '100', 'depth % 2']) END;
        RETURN ARRAY[format('UPDATE %s SET %I = %s WHERE %s', s, col, t, fuzz.subset('id', tn, root))]
               || CASE WHEN random() < 0.5 THEN ARRAY[pend] END;
    ELSIF r < 81 THEN                            -- values of edges
        col := fuzz.pick(ARRAY['visits', 'total', 'total']);
        t := CASE col
            WHEN 'visits' THEN fuzz.pick(ARRAY['-1', '2147483647', '0'])
            ELSE fuzz.lit(fuzz.gen_values(tg)) END;
        RETURN ARRAY[format('UPDATE %s SET %I = %s WHERE %s', g, col, t, fuzz.subset('init_id', tn, root)),
                     pend];
    ELSIF r < 88 THEN                            -- rows deleted
        RETURN ARRAY[fuzz.pick(ARRAY[
            format('DELETE FROM %s WHERE %s', s, fuzz.subset('id', tn, root)),
            format('DELETE FROM %s WHERE id = %s', s, root),
            format('DELETE FROM %s WHERE %s', g, fuzz.subset('init_id', tn, root)),
            format('DELETE FROM %s WHERE %s', m, fuzz.subset('id', tn, root)),
            format('DELETE FROM %s', g),
            format('DELETE FROM %s', s)])];
    ELSIF r < 93 THEN                            -- moves
        RETURN ARRAY[fuzz.pick(ARRAY[
            format('UPDATE %s SET move = %s WHERE %s', m, fuzz.lit(fuzz.mutate(
                '[["does", "xplayer", ["mark", 1, 1]], ["does", "oplayer", "noop"]]', tg, 2)), fuzz.subset('id', tn, root)),
            format('UPDATE %s SET move = move || %s WHERE %s', m, fuzz.lit(jsonb_build_array(fuzz.atom())), fuzz.subset('id', tn, root)),
            format('INSERT INTO %s (id, move) VALUES (%s, %s) ON CONFLICT DO NOTHING', m, fuzz.rbigint(), fuzz.lit(fuzz.atom())),
            format('UPDATE %s SET id = -id WHERE %s', m, fuzz.subset('id', tn, root))])];
    ELSIF r < 100 THEN                           -- the expanded marks changed, maybe propagation pending
        RETURN ARRAY[fuzz.pick(ARRAY[
            format('UPDATE %s SET expanded = false WHERE %s', s, fuzz.subset('id', tn, root)),
            format('UPDATE %s SET expanded = true WHERE NOT expanded AND %s', s, fuzz.subset('id', tn, root)),
            format('UPDATE %s SET expanded = false, goal = NULL WHERE goal IS NOT NULL', s)])]
               || CASE WHEN random() < 0.5 THEN ARRAY[pend] END;
    END IF;

    -- The definitions of the tables: their owner may change them too.
    r := fuzz.rnd(100);
    IF r < 12 THEN
        RETURN ARRAY[format('ALTER TABLE %s ALTER COLUMN state DROP NOT NULL', s),
                     format('UPDATE %s SET state = NULL WHERE %s', s, fuzz.subset('id', tn, root))];
    ELSIF r < 24 THEN
        col := fuzz.pick(ARRAY['depth', 'expanded', 'proven']);
        RETURN ARRAY[format('ALTER TABLE %s ALTER COLUMN %I DROP NOT NULL', s, col),
                     format('UPDATE %s SET %I = NULL WHERE %s', s, col, fuzz.subset('id', tn, root))];
    ELSIF r < 30 THEN
        col := fuzz.pick(ARRAY['next_id', 'init_id', 'visits']);
        RETURN ARRAY[format('ALTER TABLE %s ALTER COLUMN %I DROP NOT NULL', g, col),
                     format('UPDATE %s SET %I = NULL WHERE %s', g, col, fuzz.subset('init_id', tn, root))];
    ELSIF r < 50 THEN
        t := fuzz.pick(ARRAY[
            's|depth|bigint', 's|depth|smallint', 's|depth|numeric', 's|depth|text', 's|depth|float8',
            's|utility|json', 's|utility|text', 's|mobility|json', 's|mobility|text', 's|goal|text',
            's|proven|integer', 's|expanded|integer', 's|expanded|text', 's|control|name', 's|control|varchar(3)',
            's|best_move|numeric', 's|best_move|integer', 's|id|numeric', 's|state|json', 's|state|text',
            'g|total|json', 'g|total|text', 'g|visits|text', 'g|next_id|numeric', 'g|next_id|text',
            'g|move_id|numeric', 'g|visits|numeric', 'm|move|json', 'm|move|text', 'm|id|numeric',
            's|state|fuzz.jsonb_d', 's|id|fuzz.bigint_d', 's|expanded|fuzz.bool_d', 's|depth|fuzz.int_d',
            's|control|fuzz.text_d', 'g|total|fuzz.jsonb_d', 'g|next_id|fuzz.bigint_d', 'm|move|fuzz.jsonb_d',
            's|state|jsonb[]|ARRAY[state]', 's|depth|int4range|int4range(depth, depth + 1)']);
        -- the graph view reads the columns of both tables: it goes first
        RETURN ARRAY[format('DROP VIEW IF EXISTS public.%I', tn || '_graph'),
                     format('ALTER TABLE %s DROP CONSTRAINT IF EXISTS %I', s, tn || '_states_check'),
                     format('ALTER TABLE %s ALTER COLUMN %I TYPE %s USING %s',
                            CASE split_part(t, '|', 1) WHEN 's' THEN s WHEN 'g' THEN g ELSE m END,
                            split_part(t, '|', 2), split_part(t, '|', 3),
                            coalesce(nullif(split_part(t, '|', 4), ''),
                                     format('%I::%s', split_part(t, '|', 2), split_part(t, '|', 3))))];
    ELSIF r < 60 THEN
        RETURN ARRAY[format('CREATE RULE fuzz_rule AS ON %s TO %s DO INSTEAD %s',
                            fuzz.pick(ARRAY['INSERT', 'UPDATE', 'DELETE']),
                            fuzz.pick(ARRAY[s, g, m]), fuzz.pick(ARRAY['NOTHING', 'SELECT 1', 'SELECT 1 WHERE false']))];
    ELSIF r < 66 THEN                            -- a trigger that alters the tables once gametree writes them
        RETURN ARRAY[format('CREATE TRIGGER fuzz_alter AFTER %s ON %s FOR EACH STATEMENT EXECUTE FUNCTION fuzz.trg_alter(%L)',
                            fuzz.pick(ARRAY['INSERT', 'UPDATE', 'INSERT OR UPDATE']), fuzz.pick(ARRAY[m, g, s]),
                            fuzz.pick(ARRAY['null_state', 'text_utility', 'numeric_id', 'rule']))];
    ELSIF r < 72 THEN
        RETURN ARRAY[format('CREATE TRIGGER fuzz_trigger %s %s ON %s FOR EACH ROW EXECUTE FUNCTION fuzz.%s()',
                            fuzz.pick(ARRAY['BEFORE', 'AFTER']), fuzz.pick(ARRAY['INSERT', 'UPDATE', 'INSERT OR UPDATE']),
                            fuzz.pick(ARRAY[s, g, m]), fuzz.pick(ARRAY['trg_skip', 'trg_raise', 'trg_garble', 'trg_dup', 'trg_unlink']))];
    ELSIF r < 80 THEN
        RETURN ARRAY[fuzz.pick(ARRAY[format('DROP TABLE %s', s), format('DROP TABLE %s', g), format('DROP TABLE %s', m),
                                     format('ALTER TABLE %s RENAME TO %I', s, tn || '_old'),
                                     format('ALTER TABLE %s RENAME TO %I', g, tn || '_old')])];
    ELSIF r < 88 THEN
        RETURN ARRAY[fuzz.pick(ARRAY[format('ALTER TABLE %s DROP COLUMN %I', s, fuzz.pick(ARRAY['proven', 'expanded', 'depth', 'best_move', 'utility', 'goal', 'control', 'mobility'])),
                                     format('ALTER TABLE %s DROP COLUMN %I', g, fuzz.pick(ARRAY['next_id', 'move_id', 'visits', 'total'])),
                                     format('ALTER TABLE %s ADD COLUMN extra integer DEFAULT 7', s),
                                     format('ALTER TABLE %s RENAME COLUMN state TO stat', s),
                                     format('ALTER TABLE %s RENAME COLUMN total TO expanded2', g),
                                     format('ALTER TABLE %s DROP COLUMN proven, ADD COLUMN proven boolean NOT NULL DEFAULT true', s)])];
    ELSIF r < 92 THEN                            -- a child table: its rows show in the parent, keys not unique
        RETURN ARRAY[format('CREATE TABLE public.fz_child () INHERITS (%s)', CASE WHEN random() < 0.6 THEN s ELSE g END),
                     format('INSERT INTO public.fz_child SELECT * FROM %s WHERE %s', s, fuzz.subset('id', tn, root)),
                     format('INSERT INTO public.fz_child SELECT * FROM %s WHERE %s', g, fuzz.subset('init_id', tn, root))];
    ELSIF r < 96 THEN
        RETURN ARRAY[fuzz.pick(ARRAY[format('ALTER TABLE %s DROP CONSTRAINT %I', s, tn || '_states_pkey'),
                                     format('DROP INDEX public.%I', tn || '_edges_init_id_idx'),
                                     format('ALTER TABLE %s DROP CONSTRAINT %I', m, tn || '_moves_pkey'),
                                     format('ALTER TABLE %s DROP CONSTRAINT %I', m, tn || '_moves_move_key')]),
                     format('INSERT INTO %s SELECT * FROM %s WHERE %s', s, s, fuzz.subset('id', tn, root))];
    END IF;
    RETURN ARRAY[format('ALTER TABLE %s SET UNLOGGED', s), format('CREATE INDEX ON %s ((utility ->> %L))', s, 'x')];
END $$;

-- ---------------------------------------------------------------------------
-- Settings

-- Caps on what a value may set, for the settings whose legitimate values an
-- input cannot afford (every other setting, including those added later,
-- takes its hostile values as they come): a setting that sizes an
-- allocation made up front, or bounds work that nothing else bounds, needs
-- a row here.  A hostile SET beyond the cap still runs (its outcome is
-- counted) and is followed by a SET to the cap.
CREATE FUNCTION fuzz.setting_caps() RETURNS TABLE (name text, cap text) LANGUAGE sql IMMUTABLE AS $$
VALUES
    -- allocated whole and zero-filled by the first search (issue 20, defect 3)
    ('gametree.search_memory', '256MB'),
    -- grounding a recursive description runs until it fills this budget,
    -- about ten seconds a gigabyte; the fuzz sessions run with this much
    ('gametree.gdl_memory', '64MB'),
    -- the write-back of a search has no time limit (issue 20, defect 8)
    ('gametree.search_store_states', '10000')
$$;

CREATE FUNCTION fuzz.session_gdl_memory() RETURNS text LANGUAGE sql IMMUTABLE AS $$
SELECT c.cap FROM fuzz.setting_caps() c WHERE c.name = 'gametree.gdl_memory' $$;

-- A hostile value for a setting: its bounds and just past them, huge values
-- with units, negative numbers, garbage, units of the wrong kind.
CREATE FUNCTION fuzz.gen_setting_value(n text) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    s fuzz.settings;
    lo numeric;
    hi numeric;
    garbage text[] := ARRAY['', ' ', 'x', 'default', 'NULL', 'on', 'NaN', 'inf', '-inf', '0x10', '1e10', '1e-10',
                            '1,000', '1_000', '１', e'1\n', '1;', '%s%s%n', repeat('9', 100), repeat('x', 10000)];
BEGIN
    SELECT * INTO s FROM fuzz.settings x WHERE x.name = n;
    IF n = 'search_path' THEN
        RETURN fuzz.pick(ARRAY['', 'pg_catalog', 'gametree', 'nosuch', 'pg_temp, public', 'fuzz', '"gametree", fuzz']);
    ELSIF s.vartype = 'bool' THEN
        RETURN fuzz.pick(ARRAY['on', 'off', 'true', 'false', 'yes', 'no', '1', '0', 'tru', 'of', '2', ' on']
                         || garbage);
    ELSIF s.vartype = 'enum' THEN
        RETURN fuzz.pick(s.enumvals || ARRAY(SELECT upper(e) FROM unnest(s.enumvals) e) || garbage);
    ELSIF s.vartype = 'string' THEN
        RETURN fuzz.pick(garbage || ARRAY[repeat('x', 64), 'gametree', '-1']);
    END IF;
    lo := s.min_val::numeric;
    hi := s.max_val::numeric;
    IF random() < 0.5 THEN                       -- numbers, in the setting's own unit
        RETURN fuzz.pick(ARRAY[lo, hi, lo - 1, hi + 1, lo + 1, hi - 1, 0, -1, hi * 1024, s.boot_val::numeric,
                               2147483647, 2147483648, -2147483648, -2147483649, 9223372036854775808,
                               0.5, lo + 0.5, 1e300])::text;
    ELSIF random() < 0.3 THEN
        RETURN fuzz.pick(garbage || ARRAY['-0', '+1', ' 1', '1 ', '1.5', '-1.5', '00000000001', '1e3', '.5']);
    ELSIF s.unit IN ('B', 'kB', '8kB', 'MB', 'GB', 'TB') THEN
        RETURN fuzz.pick(ARRAY['2047GB', '2048GB', '16TB', '1TB', '16GB', '16384MB', '16777217kB', '1GB', '1MB',
                               '1023kB', '1024kB', '1kB', '0kB', '-1kB', '-1GB', '1.5MB', '0.5kB', '1 MB', '1mb',
                               '1KB', '1B', '1048576B', '1PB', '9999999999TB', '10ms', '1s', '1h', '1 day', 'MB',
                               hi::text || 'kB', (hi + 1)::text || 'kB', lo::text || 'kB']);
    ELSIF s.unit IN ('us', 'ms', 's', 'min', 'h', 'd') THEN
        RETURN fuzz.pick(ARRAY['1h', '24h', '25h', '1d', '2d', '1000000d', '1us', '999us', '1ms', '9ms', '10ms',
                               '0.5ms', '-1ms', '-1s', '1s', '1 s', '1 min', '1m', '1 hour', '1MB', '1kB',
                               '2147483647ms', '2147483648ms', '9999999999999d', 'ms',
                               hi::text || 'ms', (hi + 1)::text || 'ms', lo::text || 'ms']);
    END IF;
    -- a plain number: units are an error
    RETURN fuzz.pick(ARRAY['1kB', '1MB', '2047GB', '16TB', '1ms', '1s', '1h', '5 s', hi::text || 'kB']);
END $$;

-- SET LOCAL of one to three random settings to hostile values, before an
-- input's call (whose transaction undoes them): each SET's outcome, and a SET
-- to the cap when the value passed one.
CREATE FUNCTION fuzz.apply_settings(mode text, OUT fns text[], OUT args text[], OUT sts text[], OUT msgs text[])
LANGUAGE plpgsql AS $$
DECLARE
    n text;
    v text;
    s fuzz.settings;
    stmt text;
    res record;
    now_setting numeric;
BEGIN
    fns := '{}'; args := '{}'; sts := '{}'; msgs := '{}';
    FOR k IN 1..1 + fuzz.rnd(3) LOOP
        SELECT * INTO s FROM fuzz.settings x ORDER BY x.name OFFSET fuzz.rnd((SELECT count(*) FROM fuzz.settings)::integer) LIMIT 1;
        v := fuzz.gen_setting_value(s.name);
        stmt := CASE WHEN random() < 0.25 THEN format('SELECT set_config(%L, %s, true)', s.name, fuzz.lit(v, 'text'))
                     ELSE format('SET LOCAL %s = %L', s.name, v) END;
        res := fuzz.try(mode, stmt);
        fns := fns || 'setting'::text; args := args || s.name; sts := sts || res.st; msgs := msgs || res.msg;
        IF res.st = '00000' AND s.cap IS NOT NULL THEN
            SELECT p.setting::numeric INTO now_setting FROM pg_catalog.pg_settings p WHERE p.name = s.name;
            IF now_setting > s.cap_setting THEN
                res := fuzz.try(mode, format('SET LOCAL %s = %L', s.name, s.cap));
                fns := fns || 'setting'::text; args := args || 'capped'::text; sts := sts || res.st; msgs := msgs || res.msg;
            END IF;
        END IF;
    END LOOP;
END $$;

-- ---------------------------------------------------------------------------
-- GDL descriptions and game names

-- A sample description, as the SQL expression that reads it: mostly the
-- small ones, which load in milliseconds (chess.kif takes seconds).
CREATE FUNCTION fuzz.sample_kif() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    small boolean := random() < 0.93;
    names text[] := ARRAY(SELECT k.name FROM fuzz.kif k WHERE NOT small OR length(k.kif) < 7000 ORDER BY k.name);
BEGIN
    RETURN format('(SELECT kif FROM fuzz.kif WHERE name = %L)', fuzz.pick(names));
END $$;

-- 1 to 4 mutations of a description: characters of GDL's syntax put in or
-- taken out, GDL words and small bad rules inserted, the text cut short.
CREATE FUNCTION fuzz.mutate_kif(t text, nops integer) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    words text[] := ARRAY['(', ')', '?x', '?y', 'not', 'or', 'distinct', 'true', 'does', 'next', 'legal', 'goal',
                          'terminal', 'role', 'init', 'base', 'input', '<=', '0', '100', '101', '-1', 'noop',
                          '(<= (p ?x) (p ?x))', '(<= p (not p))', '(<= (q (f ?x)) (q ?x)) (q z)', '(true)', '()',
                          '(<= terminal (not terminal))', '(role ?r)', '(init ?x)', '(<= (legal ?p ?m) (does ?p ?m))'];
    pos integer;
BEGIN
    FOR step IN 1..nops LOOP
        pos := 1 + fuzz.rnd(greatest(length(t), 1));
        t := CASE fuzz.rnd(5)
            WHEN 0 THEN fuzz.mutate_text(t, 1, e'()?; \n<=xyz019-')
            WHEN 1 THEN overlay(t PLACING ' ' || fuzz.pick(words) || ' ' FROM pos FOR 0)
            WHEN 2 THEN overlay(t PLACING ' (<= ' || fuzz.pick(words) || ' ' || fuzz.pick(words) || ') ' FROM pos FOR 0)
            WHEN 3 THEN left(t, pos)
            ELSE overlay(t PLACING substr(t, 1 + fuzz.rnd(greatest(length(t), 1)), 1 + fuzz.rnd(200)) FROM pos FOR 0) END;
    END LOOP;
    RETURN t;
END $$;

-- A small hostile piece of GDL, as an SQL expression: unbalanced parentheses,
-- deep nesting, many facts, rules or roles (within gametree.gdl_max_size),
-- recursion, negation cycles, keywords misused, odd characters.
CREATE FUNCTION fuzz.hostile_gdl() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    d integer := fuzz.pick(ARRAY[64, 200, 1000, 10000, 100000]);
    n integer := fuzz.pick(ARRAY[100, 1000, 1024, 1025, 4096, 10000, 30000]);
BEGIN
    CASE fuzz.rnd(7)
    WHEN 0 THEN                                  -- unbalanced
        RETURN fuzz.pick(ARRAY[format('repeat(%L, %s)', '(', d), format('repeat(%L, %s)', ')', d),
            quote_literal('(<= (p ?x)'), quote_literal('(role a'), quote_literal(')))((('), quote_literal('(init (c 1)))'),
            quote_literal('(<= (legal ?p noop) (role ?p)'), quote_literal(')'), quote_literal('(')]);
    WHEN 1 THEN                                  -- deep nesting
        RETURN fuzz.pick(ARRAY[
            format('%L || repeat(%L, %s) || %L || repeat(%L, %s) || %L', '(init (f ', '(f ', d, 'x', ')', d, '))'),
            format('%L || repeat(%L, %s) || %L || repeat(%L, %s) || %L', '(<= (legal ?p (m ?x)) (role ?p) ', '(or ', d,
                   '(true (c ?x))', ')', d, ')'),
            format('%L || repeat(%L, %s) || %L || repeat(%L, %s) || %L', '(<= terminal ', '(not ', d, '(true (c 1))', ')', d, ')'),
            format('repeat(%L, %s) || repeat(%L, %s)', '(', d, ')', d),
            format('%L || repeat(%L, %s) || %L || repeat(%L, %s)', '(role ', '(r ', d, 'a', ')', d + 1)]);
    WHEN 2 THEN                                  -- many facts, rules, roles, arguments
        RETURN fuzz.pick(ARRAY[
            format('(SELECT string_agg(format(%L, k), %L) FROM generate_series(1, %s) k)', '(fact%s)', ' ', n),
            format('(SELECT string_agg(format(%L, k), %L) FROM generate_series(1, %s) k)', '(init (cell %s))', ' ', least(n, 5000)),
            format('(SELECT string_agg(format(%L, k), %L) FROM generate_series(1, %s) k)', '(role r%s)', ' ', least(n, 1025)),
            format('(SELECT string_agg(format(%L, k), %L) FROM generate_series(1, %s) k)',
                   '(<= (legal ?p (a%s)) (role ?p))', ' ', least(n, 5000)),
            format('(SELECT string_agg(format(%L, k, k + 1), %L) FROM generate_series(1, %s) k)', '(succ %s %s)', ' ', n),
            format('%L || repeat(%L, %s) || %L', '(init (wide', ' x', least(n, 10000), '))'),
            format('%L || repeat(%L, %s) || %L', '(init (', 's', 100000, '))'),
            format('%L || repeat(%L, %s) || %L', '(<= (legal ?p (go)) (role ?p)', ' (true (c 1))', least(n, 10000), ')')]);
    WHEN 3 THEN                                  -- recursion
        RETURN quote_literal(fuzz.pick(ARRAY[
            '(<= (p ?x) (p ?x)) (<= (legal ?p noop) (p ?p))',
            '(<= (q (f ?x)) (q ?x)) (q z) (<= (legal ?p (go ?x)) (role ?p) (q ?x))',
            '(<= (next (r (s ?x))) (true (r ?x))) (init (r 0))',
            '(<= (init (p ?x)) (p ?x)) (p 1) (<= (p (g ?x)) (p ?x))',
            '(<= (legal ?p (go ?x)) (role ?p) (legal ?p ?x))',
            '(<= (a ?x) (b ?x)) (<= (b ?x) (a ?x)) (<= terminal (a 1))',
            '(<= (big ?a ?b ?c ?d ?e) (succ ?a ?z1) (succ ?b ?z2) (succ ?c ?z3) (succ ?d ?z4) (succ ?e ?z5)) '
                '(<= (legal ?p (m ?a ?b ?c ?d ?e)) (true (control ?p)) (big ?a ?b ?c ?d ?e))',
            '(<= (next ?x) (true ?x)) (<= (next (f ?x)) (true ?x))']));
    WHEN 4 THEN                                  -- negation cycles and unsafe negation
        RETURN quote_literal(fuzz.pick(ARRAY[
            '(<= p (not q)) (<= q (not p)) (<= terminal p)', '(<= p (not p))',
            '(<= (legal ?p x) (role ?p) (not (legal ?p x)))', '(<= terminal (not terminal))',
            '(<= (goal ?p 100) (role ?p) (not (goal ?p 0))) (<= (goal ?p 0) (role ?p) (not (goal ?p 100)))',
            '(<= (p ?x) (not (q ?x)))', '(<= (next (c ?x)) (not (next (c ?x))) (true (c ?x)))',
            '(<= (legal ?p go) (role ?p) (not (does ?p go)))', '(<= (p ?x) (distinct ?x ?y))']));
    WHEN 5 THEN                                  -- keywords misused
        RETURN quote_literal(fuzz.pick(ARRAY[
            '(<= (init (p)) (true (p)))', '(<= (true (c 1)) (role a))', '(does a b)', '(<= (legal ?p go) (does ?p go))',
            '(<= (base ?x) (true ?x))', '(goal a 101)', '(goal xplayer -1)', '(<= (goal ?p ?x) (role ?p) (succ ?x ?y))',
            '(init ?x)', '(role ?x)', '(role (f a))', '(role a) (role a)', '(<= (role b) (true (c 1)))', '(or)',
            '(<= p (or))', '(<= p (and))', '(distinct)', '(<= p (distinct a))', '(true)', '()', '(<= )', '(<=)',
            '(next (c 1))', '(legal a go)', '(terminal)', 'terminal', '(goal)', '(goal a)', '(goal a 50 50)',
            '(<= (next ?x) (true ?x))', '(<= (legal ?p ?m) (input ?p ?m))', '(init (control nobody))']));
    ELSE                                         -- odd characters
        RETURN quote_literal(fuzz.pick(ARRAY[
            '(init (é))', e'(init (a\tb))', e'(init (c\r1))', '; an unterminated comment', '(init ("quoted"))',
            '(init (|sym bol|))', '(init (#x))', '(init (-1))', '(init (99999999999999999999))', '(init (1.5))',
            '(INIT (C 1))', '(Role A)', '(init (日本))', e'(init (a\u00a0b))', '(init (\\))', '(init (%s%n))']));
    END CASE;
END $$;

-- A GDL description as an SQL expression of type text.  target: a broken
-- one (mutated samples, hostile pieces in a sample or alone, degenerate
-- texts); else a sample.
CREATE FUNCTION fuzz.gen_kif(target boolean) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    r integer := fuzz.rnd(100);
    sample text := fuzz.sample_kif();
    t text;
BEGIN
    IF NOT target THEN
        RETURN sample;
    END IF;
    IF r < 35 THEN
        EXECUTE 'SELECT ' || sample INTO t;
        RETURN fuzz.lit(fuzz.mutate_kif(t, 1 + fuzz.rnd(4)), 'text');
    ELSIF r < 70 THEN                            -- a hostile piece after or before a game
        RETURN CASE WHEN random() < 0.8 THEN format('%s || %L || %s', sample, e'\n', fuzz.hostile_gdl())
                    ELSE format('%s || %L || %s', fuzz.hostile_gdl(), e'\n', sample) END;
    ELSIF r < 85 THEN                            -- a hostile piece alone
        RETURN fuzz.hostile_gdl();
    ELSIF r < 95 THEN
        RETURN fuzz.lit(fuzz.pick(ARRAY['', ' ', ';', '(', ')', '()', '(role a)', '(role a) (init (p))',
            e'(role a)\n(init (p))\n(<= (legal a go) (true (p)))\n(<= (next (p)) (true (p)))\n(<= terminal (true (p)))\n(goal a 100)',
            '$kif$', 'NULL', e'\\x00', '(role a) ;', repeat(';', 1000) || e'\n(role a)']), 'text');
    ELSIF r < 98 THEN
        RETURN fuzz.pick((SELECT array_agg(b.expr ORDER BY b.k) FROM fuzz.bigtext b));
    END IF;
    RETURN 'NULL::text';
END $$;

-- A name for load_game or unload_game.  target: built-in names in other
-- case, names already loaded, long names, odd characters, NULL.
CREATE FUNCTION fuzz.gen_gdl_name(target boolean) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    loaded text := fuzz.pick(fuzz.gdl_names());
    r integer := fuzz.rnd(100);
BEGIN
    IF NOT target THEN
        RETURN 'fz_gnew';
    ELSIF r < 25 THEN
        RETURN fuzz.pick(ARRAY['CHESS', 'Chess', 'chess', 'TicTacToe', 'TICTACTOE', 'Connect4', 'CHECKERS', 'checkers',
                               'tictactoe', 'connect4', 'chess ', ' chess']);
    ELSIF r < 45 THEN
        RETURN fuzz.pick(ARRAY[loaded, upper(loaded), initcap(loaded), loaded || ' ', ' ' || loaded, loaded || 'x',
                               'public.' || loaded, '"' || loaded || '"']);
    ELSIF r < 60 THEN
        RETURN fuzz.pick(ARRAY[repeat('g', 63), repeat('g', 64), repeat('g', 1000), repeat('g', 100000),
                               repeat('é', 40)]);
    ELSIF r < 93 THEN
        RETURN fuzz.pick(ARRAY['', ' ', 'a b', 'é', 'ゲーム', e'g\n', e'g\t', '%s%s%n', '"', '''', ';', '(', 'g)',
                               'g; DROP TABLE gametree.gdl_games', 'public.g', 'nosuch', '-', '0', '1game', '_', 'NULL',
                               'null', 'fz_gnew', 'FZ_GNEW', 'fz_t1', 'gametree', 'pg_catalog.chess', '\\', '*', '?x']);
    ELSIF r < 96 THEN
        RETURN fuzz.big_text();
    END IF;
    RETURN NULL;
END $$;

-- A call that uses the game named by the literal gl (just loaded, unloaded,
-- or never loaded), as SQL text; trees made by these calls are named fz_gnew.
CREATE FUNCTION fuzz.game_call(fn text, gl text) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    CASE fn
    WHEN 'games' THEN
        RETURN 'SELECT count(*) FROM gametree.games()';
    WHEN 'initial' THEN
        RETURN format('SELECT gametree.initial(%s)', gl);
    WHEN 'legal', 'successors' THEN
        RETURN format('SELECT count(*) FROM gametree.%s(%s, gametree.initial(%2$s))', fn, gl);
    WHEN 'next' THEN
        RETURN format('SELECT gametree.next(%1$s, s, (SELECT m FROM gametree.legal(%1$s, s) m ORDER BY m::text LIMIT 1 OFFSET %2$s)) '
                      'FROM gametree.initial(%1$s) s', gl, fuzz.rnd(3));
    WHEN 'perft' THEN
        -- depth 2 only where the first ply is small: a description may have thousands of moves
        RETURN format('SELECT gametree.perft(%1$s, s, CASE WHEN (SELECT count(*) FROM gametree.legal(%1$s, s)) <= 64 THEN %2$s ELSE 1 END) '
                      'FROM gametree.initial(%1$s) s', gl, 1 + fuzz.rnd(2));
    WHEN 'bestmove', 'analyse' THEN
        RETURN format('SELECT %sgametree.%s(%s, gametree.initial(%3$s), %L, %s, %L)',
                      CASE WHEN fn = 'analyse' THEN 'count(*) FROM ' ELSE '' END, fn, gl,
                      fuzz.pick(ARRAY['10 ms', '30 ms']), coalesce(fuzz.pick(ARRAY[NULL, 1, 2]::integer[])::text, 'NULL'),
                      fuzz.pick(ARRAY['auto', 'alphabeta', 'mcts']));
    WHEN 'bestmove_tree' THEN
        RETURN format('SELECT gametree.bestmove(%s, gametree.initial(%1$s), %L, NULL, %L, %L)', gl,
                      fuzz.pick(ARRAY['10 ms', '30 ms']), fuzz.pick(ARRAY['auto', 'alphabeta', 'mcts']), 'fz_gnew');
    WHEN 'create_tree' THEN
        RETURN format('SELECT gametree.create_tree(%L, %s)', 'fz_gnew', gl);
    WHEN 'grow_step' THEN
        RETURN format('SELECT * FROM gametree.grow_step(%L, %s, %s)', 'fz_gnew', 1 + fuzz.rnd(40), 1 + fuzz.rnd(3));
    WHEN 'grow' THEN
        RETURN format('CALL gametree.grow(%L, %s, %s, %L)', 'fz_gnew', fuzz.pick(ARRAY[10, 100, 300]), 1 + fuzz.rnd(3), '200 ms');
    WHEN 'propagate' THEN
        RETURN format('SELECT gametree.propagate(%L)', 'fz_gnew');
    WHEN 'drop_tree' THEN
        RETURN format('SELECT gametree.drop_tree(%L)', 'fz_gnew');
    WHEN 'unload_game' THEN
        RETURN format('SELECT gametree.unload_game(%s)', gl);
    WHEN 'load_game' THEN
        RETURN format('SELECT * FROM gametree.load_game(%s, %s)', gl, fuzz.gen_kif(random() < 0.3));
    ELSE                                         -- terminal, goal, control, board, ...: of the initial state
        RETURN format('SELECT gametree.%s(%s, gametree.initial(%2$s))', fn, gl);
    END CASE;
END $$;

-- ---------------------------------------------------------------------------
-- Inputs

-- Counts an outcome (and keeps internal errors and signs of a changed install).
CREATE FUNCTION fuzz.note(i integer, fn text, arg text, st text, msg text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO fuzz.counts AS c VALUES (fn, arg, st, 1)
    ON CONFLICT ON CONSTRAINT counts_pkey DO UPDATE SET n = c.n + 1;
    -- XX: internal errors; HARNESS: faults of this generator; the others say
    -- that the installed library changed under the run
    IF st LIKE 'XX%' OR st = 'HARNESS' OR st LIKE '58%' OR (st = '42883' AND msg LIKE 'could not find function%') THEN
        INSERT INTO fuzz.findings VALUES (i, fn, arg, st, msg);
    END IF;
END $$;

-- The argument positions of each function (for the rules: the C functions' order).
CREATE FUNCTION fuzz.args(fn text) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
SELECT CASE fn
    WHEN 'games' THEN '{}'
    WHEN 'initial' THEN '{game}'
    WHEN 'next' THEN '{game,state,move}'
    WHEN 'perft' THEN '{game,state,depth,include_terminal,draw_rules}'
    WHEN 'from_fen' THEN '{game,fen}'
    WHEN 'create_tree' THEN '{name,game,root}'
    WHEN 'drop_tree' THEN '{name}'
    WHEN 'tree_info' THEN '{tree}'
    WHEN 'tree_stats' THEN '{tree}'
    WHEN 'depth_stats' THEN '{tree}'
    WHEN 'outcomes' THEN '{tree}'
    WHEN 'expand' THEN '{tree,state_id}'
    WHEN 'principal_variation' THEN '{tree,state_id}'
    WHEN 'grow_step' THEN '{tree,batch_size,max_depth}'
    WHEN 'propagate' THEN '{tree,from_scratch}'
    WHEN 'grow' THEN '{tree,max_states,max_depth,time_limit}'
    WHEN 'bestmove' THEN '{game,state,time_limit,max_depth,method,tree}'
    WHEN 'analyse' THEN '{game,state,time_limit,max_depth,method,tree}'
    WHEN 'load_game' THEN '{name,kif}'
    WHEN 'unload_game' THEN '{name}'
    ELSE '{game,state}' END::text[] $$;

-- Which function input i calls, by weight.
CREATE FUNCTION fuzz.choose_fn() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    fns text[] := ARRAY['games', 'initial', 'legal', 'next', 'successors', 'terminal', 'goal', 'control', 'perft',
                        'board', 'state_hash', 'from_fen', 'to_fen', 'canonical', 'heuristic', 'state_type',
                        'create_tree', 'drop_tree', 'tree_info', 'expand', 'grow_step', 'propagate', 'grow',
                        'tree_stats', 'depth_stats', 'outcomes', 'principal_variation', 'bestmove', 'analyse',
                        'load_game', 'unload_game'];
    -- per 1000 inputs: the tree and GDL functions are slower, so they get fewer
    weights integer[] := ARRAY[4, 15, 45, 70, 50, 45, 45, 45, 55, 45, 50, 50, 45, 50, 45, 70,
                               8, 10, 12, 35, 25, 30, 15, 12, 12, 12, 20, 15, 10,
                               30, 15];
    r integer := fuzz.rnd(1000);
BEGIN
    FOR k IN 1..cardinality(fns) LOOP
        r := r - weights[k];
        IF r < 0 THEN
            RETURN fns[k];
        END IF;
    END LOOP;
    RETURN 'next';
END $$;

-- One input of a rules or notation function: arguments generated, one of
-- them (or none) broken, then the call.
CREATE FUNCTION fuzz.case_rules(i integer, fn text, mode text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    args text[] := fuzz.args(fn);
    tgt text;
    g text;
    s jsonb;
    a_game text;
    a_state jsonb;
    a_move jsonb;
    a_depth integer;
    a_b1 boolean;
    a_b2 boolean;
    a_fen text;
    st text := '00000';
    msg text;
    sql text;
    d bigint;
    with_settings boolean;
    s_fn text[] := '{}';                         -- the settings changed first, and their outcomes
    s_arg text[] := '{}';
    s_st text[] := '{}';
    s_msg text[] := '{}';
    harness text;
BEGIN
    -- 'none' leaves every argument valid
    tgt := CASE WHEN cardinality(args) = 0 OR random() < 0.08 THEN 'none' ELSE fuzz.pick(args) END;
    g := CASE WHEN fn IN ('from_fen', 'to_fen') AND random() < 0.85 THEN fuzz.pick(ARRAY['chess', 'checkers'])
              WHEN random() < 0.25 THEN fuzz.pick(fuzz.gdl_names())
              ELSE fuzz.pick(fuzz.games()) END;
    s := fuzz.pool_state(g);
    a_game := fuzz.gen_game(g, tgt = 'game');
    a_state := CASE WHEN tgt = 'state' THEN fuzz.gen_state(g, true) ELSE s END;
    IF fn = 'next' THEN
        a_move := fuzz.gen_move(g, s, tgt = 'move');
    ELSIF fn = 'perft' THEN
        d := fuzz.gen_int('depth', tgt = 'depth');
        -- keep perft fast: a large depth only where the game ends soon
        IF d > 3 AND NOT (a_game = 'tictactoe' AND tgt = 'depth') THEN
            d := fuzz.pick(ARRAY[-1, -2147483648, 2147483647, 1001, 0]);
        END IF;
        IF d = 3 AND (g IN ('chess', 'checkers') OR tgt <> 'none') THEN
            d := 2;
        END IF;
        a_depth := d;
        a_b1 := fuzz.gen_bool(tgt = 'include_terminal');
        a_b2 := fuzz.gen_bool(tgt = 'draw_rules');
    ELSIF fn = 'from_fen' THEN
        a_fen := fuzz.gen_fen(g, tgt = 'fen');
    END IF;
    with_settings := random() < 0.08;

    IF mode <> 'run' THEN
        IF with_settings THEN
            RAISE NOTICE '\set ON_ERROR_ROLLBACK on';
            RAISE NOTICE 'BEGIN;';
        END IF;
        sql := CASE fn
            WHEN 'games' THEN 'SELECT * FROM gametree.games()'
            WHEN 'initial' THEN format('SELECT gametree.initial(%s)', fuzz.tlit(a_game))
            WHEN 'legal' THEN format('SELECT * FROM gametree.legal(%s, %s)', fuzz.tlit(a_game), fuzz.lit(a_state))
            WHEN 'successors' THEN format('SELECT * FROM gametree.successors(%s, %s)', fuzz.tlit(a_game), fuzz.lit(a_state))
            WHEN 'next' THEN format('SELECT gametree.next(%s, %s, %s)', fuzz.tlit(a_game), fuzz.lit(a_state), fuzz.lit(a_move))
            WHEN 'perft' THEN format('SELECT gametree.perft(%s, %s, %s, %s, %s)', fuzz.tlit(a_game), fuzz.lit(a_state),
                                     coalesce(a_depth::text, 'NULL'), coalesce(a_b1::text, 'NULL'), coalesce(a_b2::text, 'NULL'))
            WHEN 'from_fen' THEN format('SELECT gametree.from_fen(%s, %s)', fuzz.tlit(a_game), fuzz.tlit(a_fen))
            ELSE format('SELECT gametree.%s(%s, %s)', fn, fuzz.tlit(a_game), fuzz.lit(a_state)) END;
    END IF;

    -- With settings changed first, all of it is rolled back, as they would
    -- otherwise last until the end of the batch's transaction.
    BEGIN
        IF with_settings THEN
            SELECT * INTO s_fn, s_arg, s_st, s_msg FROM fuzz.apply_settings(mode);
        END IF;
        PERFORM fuzz.emit(mode, sql || ';');
        BEGIN
            CASE fn
            WHEN 'games' THEN PERFORM count(*) FROM gametree.games();
            WHEN 'initial' THEN PERFORM gametree.initial(a_game);
            WHEN 'legal' THEN PERFORM count(*) FROM gametree.legal(a_game, a_state);
            WHEN 'next' THEN PERFORM gametree.next(a_game, a_state, a_move);
            WHEN 'successors' THEN PERFORM count(*) FROM gametree.successors(a_game, a_state);
            WHEN 'terminal' THEN PERFORM gametree.terminal(a_game, a_state);
            WHEN 'goal' THEN PERFORM gametree.goal(a_game, a_state);
            WHEN 'control' THEN PERFORM gametree.control(a_game, a_state);
            WHEN 'perft' THEN PERFORM gametree.perft(a_game, a_state, a_depth, a_b1, a_b2);
            WHEN 'board' THEN PERFORM gametree.board(a_game, a_state);
            WHEN 'state_hash' THEN PERFORM gametree.state_hash(a_game, a_state);
            WHEN 'from_fen' THEN PERFORM gametree.from_fen(a_game, a_fen);
            WHEN 'to_fen' THEN PERFORM gametree.to_fen(a_game, a_state);
            WHEN 'canonical' THEN PERFORM gametree.canonical(a_game, a_state);
            WHEN 'heuristic' THEN PERFORM gametree.heuristic(a_game, a_state);
            END CASE;
        EXCEPTION WHEN OTHERS THEN
            GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
        END;
        IF with_settings THEN
            RAISE SQLSTATE 'FZ999';
        END IF;
    EXCEPTION
        WHEN SQLSTATE 'FZ999' THEN NULL;
        WHEN OTHERS THEN                         -- a fault of this generator, not of gametree
            GET STACKED DIAGNOSTICS harness = MESSAGE_TEXT;
            fn := 'fuzzer'; tgt := 'harness'; st := 'HARNESS'; msg := harness;
    END;
    IF mode = 'run' THEN
        FOR k IN 1..cardinality(s_fn) LOOP
            PERFORM fuzz.note(i, s_fn[k], s_arg[k], s_st[k], s_msg[k]);
        END LOOP;
        PERFORM fuzz.note(i, fn, tgt, st, msg);
    ELSE
        RAISE NOTICE '-- => % %', st, coalesce(left(msg, 300), '');
        IF with_settings THEN
            RAISE NOTICE 'ROLLBACK;';
        END IF;
    END IF;
END $$;

-- A call of a tree function, as SQL text, with arguments generated (one broken).
CREATE FUNCTION fuzz.tree_call(fn text, tgt text, tn text, tg text, root bigint) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    name text := fuzz.gen_tree(tn, tgt IN ('tree', 'name'));
    ms bigint;
    md bigint;
    tl text;
BEGIN
    CASE fn
    WHEN 'create_tree' THEN
        IF tgt <> 'name' THEN
            name := fuzz.pick(ARRAY['fz_new', 'public.fz_new', '"FZ new"', 'gametree.fz_new', 'fz_' || repeat('é', 26)]);
        ELSIF random() < 0.3 THEN
            name := fuzz.pick(ARRAY['fz_' || repeat('x', 53), 'fz_' || repeat('x', 54), 'fz_' || repeat('é', 27),
                                    repeat('s', 63) || '.fz', repeat('s', 64) || '.fz', 'pg_temp.fz_new', 'nosuch.fz_new']);
        END IF;
        RETURN format('SELECT gametree.create_tree(%s, %s, %s)', fuzz.tlit(name),
                      fuzz.tlit(fuzz.gen_game(tg, tgt = 'game')),
                      fuzz.lit(CASE WHEN tgt = 'root' THEN fuzz.gen_state(tg, true)
                                    WHEN random() < 0.3 THEN NULL ELSE fuzz.pool_state(tg) END));
    WHEN 'drop_tree' THEN
        RETURN format('SELECT gametree.drop_tree(%s)', fuzz.tlit(name));
    WHEN 'tree_info' THEN
        RETURN format('SELECT * FROM gametree.tree_info(%s)', fuzz.tlit(name));
    WHEN 'tree_stats' THEN
        RETURN format('SELECT * FROM gametree.tree_stats(%s)', fuzz.tlit(name));
    WHEN 'depth_stats' THEN
        RETURN format('SELECT * FROM gametree.depth_stats(%s)', fuzz.tlit(name));
    WHEN 'outcomes' THEN
        RETURN format('SELECT * FROM gametree.outcomes(%s)', fuzz.tlit(name));
    WHEN 'expand' THEN
        RETURN format('SELECT gametree.expand(%s, %s)', fuzz.tlit(name),
                      coalesce(fuzz.gen_sid(tn, root, tgt = 'state_id')::text, 'NULL'));
    WHEN 'principal_variation' THEN
        RETURN format('SELECT * FROM gametree.principal_variation(%s, %s)', fuzz.tlit(name),
                      coalesce(fuzz.gen_sid(tn, root, tgt = 'state_id')::text, 'NULL'));
    WHEN 'grow_step' THEN
        RETURN format('SELECT * FROM gametree.grow_step(%s, %s, %s)', fuzz.tlit(name),
                      coalesce(fuzz.gen_int('batch', tgt = 'batch_size')::text, 'NULL'),
                      coalesce(CASE WHEN tgt = 'max_depth' THEN fuzz.gen_int('depth', true)
                                    WHEN random() < 0.5 THEN 1 + fuzz.rnd(5) END::text, 'NULL'));
    WHEN 'propagate' THEN
        RETURN format('SELECT gametree.propagate(%s, %s)', fuzz.tlit(name),
                      coalesce(fuzz.gen_bool(tgt = 'from_scratch')::text, 'NULL'));
    WHEN 'grow' THEN
        ms := CASE WHEN tgt = 'max_states' THEN fuzz.pick(ARRAY[NULL, -1, 0, 1, -9223372036854775808, 9223372036854775807, 2]::bigint[])
                   ELSE fuzz.pick(ARRAY[NULL, 0, 1, 10, 100, 300]::bigint[]) END;
        md := CASE WHEN tgt = 'max_depth' THEN fuzz.gen_int('depth', true)
                   ELSE fuzz.pick(ARRAY[NULL, 0, 1, 2, 3, 4]::bigint[]) END;
        tl := CASE WHEN tgt = 'time_limit' THEN fuzz.pick(ARRAY[NULL, '0', '-1 s', '-1 us', '1 us', '1 mon -30 days',
                      '-1 mon 31 days', '178000000 years', '-178000000 years', '2147483647 days', '-2147483648 days',
                      '1 ms', '100 ms'])
                   ELSE fuzz.pick(ARRAY[NULL, '50 ms', '1 s']) END;
        -- keep it small whatever the broken limit says (depths may be edited
        -- in the table, so only a count of states or time bounds it)
        IF NOT coalesce(ms BETWEEN 0 AND 300, false) THEN
            IF tgt = 'max_states' THEN
                tl := '200 ms';
            ELSE
                ms := 300;
            END IF;
        END IF;
        RETURN format('CALL gametree.grow(%s, %s, %s, %s)', fuzz.tlit(name), coalesce(ms::text, 'NULL'),
                      coalesce(md::text, 'NULL'), fuzz.lit(tl, 'interval'));
    WHEN 'bestmove', 'analyse' THEN
        -- searches stay short: a broken limit is paired with a small depth or time
        tl := CASE WHEN tgt = 'time_limit' THEN fuzz.pick(ARRAY[NULL, '0', '-1 s', '1 us', '-178000000 years', '10 ms'])
                   ELSE fuzz.pick(ARRAY[NULL, '10 ms', '30 ms']) END;
        md := CASE WHEN tgt = 'max_depth' THEN fuzz.pick(ARRAY[NULL, 0, -1, -2147483648, 2147483647, 1]::bigint[])
                   ELSE fuzz.pick(ARRAY[1, 2, 3]::bigint[]) END;
        IF tl IS NULL AND NOT coalesce(md BETWEEN 1 AND 3, false) THEN
            tl := '20 ms';
        END IF;
        RETURN format('SELECT %sgametree.%s(%s, %s, %s, %s, %s, %s)', CASE WHEN fn = 'analyse' THEN 'count(*) FROM ' ELSE '' END, fn,
                      fuzz.tlit(fuzz.gen_game(tg, tgt = 'game')),
                      fuzz.lit(CASE WHEN tgt = 'state' THEN fuzz.gen_state(tg, true) ELSE fuzz.pool_state(tg) END),
                      fuzz.lit(tl, 'interval'), coalesce(md::text, 'NULL'),
                      fuzz.tlit(CASE WHEN tgt = 'method' THEN fuzz.pick(ARRAY[NULL, 'minimax', '', 'MCTS', 'mcts '])
                                     ELSE fuzz.pick(ARRAY['auto', 'alphabeta', 'mcts']) END),
                      fuzz.tlit(CASE WHEN tgt = 'tree' OR random() < 0.5 THEN name END));
    END CASE;
    RETURN NULL;
END $$;

-- The end of an input that made several calls (tree and game inputs): in a
-- replay, the ROLLBACK that undoes them; in a run, each call's outcome counted.
CREATE FUNCTION fuzz.outcomes(i integer, mode text, out_fn text[], out_arg text[], out_st text[], out_msg text[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF mode <> 'run' THEN
        RAISE NOTICE 'ROLLBACK;';
        RETURN;
    END IF;
    FOR k IN 1..cardinality(out_fn) LOOP
        PERFORM fuzz.note(i, out_fn[k], out_arg[k], out_st[k], out_msg[k]);
    END LOOP;
END $$;

-- One input of a tree function: on one of the small trees of setup, maybe
-- with its tables edited first, the call and perhaps a second one; all of it
-- rolled back.
CREATE FUNCTION fuzz.case_tree(i integer, fn text, mode text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    args text[] := fuzz.args(fn);
    tgt text;
    tk integer := fuzz.rnd((SELECT count(*) FROM fuzz.trees)::integer);
    tn text;
    tg text;
    root bigint;
    setup text;
    ddl boolean := (SELECT c.ddl FROM fuzz.config c);
    tampered boolean := random() < 0.5;
    stmts text[];
    stmt text;
    res record;
    sres record;
    out_fn text[] := '{}';
    out_arg text[] := '{}';
    out_st text[] := '{}';
    out_msg text[] := '{}';
    fn2 text;
    harness text;
BEGIN
    SELECT t.name, t.game, t.root_id, t.setup INTO tn, tg, root, setup FROM fuzz.trees t WHERE t.k = tk;
    tgt := CASE WHEN random() < 0.1 THEN 'none' ELSE fuzz.pick(args) END;
    IF mode <> 'run' THEN
        RAISE NOTICE '%', setup;
        -- in psql, each statement then fails alone, as in the subtransactions here
        RAISE NOTICE '\set ON_ERROR_ROLLBACK on';
        RAISE NOTICE 'BEGIN;';
    END IF;
    BEGIN
        IF random() < 0.1 THEN
            sres := fuzz.apply_settings(mode);
            out_fn := out_fn || sres.fns; out_arg := out_arg || sres.args;
            out_st := out_st || sres.sts; out_msg := out_msg || sres.msgs;
        END IF;
        IF tampered THEN
            FOR k IN 1..1 + fuzz.rnd(3) LOOP
                stmts := fuzz.tamper(tn, tg, root, ddl);
                FOREACH stmt IN ARRAY stmts LOOP
                    res := fuzz.try(mode, stmt);
                    out_fn := out_fn || 'tree_edit'::text; out_arg := out_arg || 'edit'::text;
                    out_st := out_st || res.st; out_msg := out_msg || res.msg;
                END LOOP;
            END LOOP;
        END IF;
        res := fuzz.try(mode, fuzz.tree_call(fn, tgt, tn, tg, root));
        out_fn := out_fn || fn; out_arg := out_arg || (CASE WHEN tampered THEN 'tampered:' ELSE '' END || tgt);
        out_st := out_st || res.st; out_msg := out_msg || res.msg;
        IF random() < 0.35 THEN                  -- what comes next on the same tree
            fn2 := fuzz.pick(ARRAY['expand', 'grow_step', 'propagate', 'propagate', 'grow', 'tree_stats',
                                   'depth_stats', 'outcomes', 'principal_variation', 'drop_tree']);
            res := fuzz.try(mode, fuzz.tree_call(fn2, 'none', CASE WHEN fn = 'create_tree' THEN 'fz_new' ELSE tn END, tg,
                                                 CASE WHEN fn = 'create_tree' THEN 0 ELSE root END));
            out_fn := out_fn || fn2; out_arg := out_arg || 'followup'::text;
            out_st := out_st || res.st; out_msg := out_msg || res.msg;
        END IF;
        RAISE SQLSTATE 'FZ999';                  -- undo it all
    EXCEPTION
        WHEN SQLSTATE 'FZ999' THEN NULL;
        WHEN OTHERS THEN                         -- a fault of this generator, not of gametree
            GET STACKED DIAGNOSTICS harness = MESSAGE_TEXT;
            out_fn := out_fn || 'fuzzer'::text; out_arg := out_arg || 'harness'::text;
            out_st := out_st || 'HARNESS'::text; out_msg := out_msg || harness;
    END;
    PERFORM fuzz.outcomes(i, mode, out_fn, out_arg, out_st, out_msg);
END $$;

-- One input of load_game or unload_game, and what comes after it: calls
-- that use the game by name (its rules, perft, searches, a tree of it grown,
-- unloaded, loaded again); all of it rolled back, as for tree inputs.
--   load_game: a name and a description, one of them (or none) broken.
--   unload_game: a game setup loaded (some have trees), or a broken name;
--   sometimes a new tree of the game first, so that the unload meets it.
CREATE FUNCTION fuzz.case_game(i integer, fn text, mode text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    args text[] := fuzz.args(fn);
    -- unload_game's 'none' unloads a game that setup loaded, its broken
    -- names mostly find nothing: half of each
    tgt text := CASE WHEN random() < CASE WHEN fn = 'unload_game' THEN 0.5 ELSE 0.1 END THEN 'none' ELSE fuzz.pick(args) END;
    gname text;
    gl text;
    stmt text;
    res record;
    sres record;
    out_fn text[] := '{}';
    out_arg text[] := '{}';
    out_st text[] := '{}';
    out_msg text[] := '{}';
    fn2 text;
    grown boolean;
    t record;
    harness text;
BEGIN
    IF mode <> 'run' THEN
        RAISE NOTICE '\set ON_ERROR_ROLLBACK on';
        RAISE NOTICE 'BEGIN;';
    END IF;
    BEGIN
        IF random() < 0.15 THEN
            sres := fuzz.apply_settings(mode);
            out_fn := out_fn || sres.fns; out_arg := out_arg || sres.args;
            out_st := out_st || sres.sts; out_msg := out_msg || sres.msgs;
        END IF;
        IF fn = 'load_game' THEN
            gname := fuzz.gen_gdl_name(tgt = 'name');
            gl := fuzz.lit(gname, 'text');
            stmt := format('SELECT * FROM gametree.load_game(%s, %s)', gl, fuzz.gen_kif(tgt = 'kif'));
        ELSE
            gname := CASE WHEN tgt = 'name' THEN fuzz.gen_gdl_name(true) ELSE fuzz.pick(fuzz.gdl_names()) END;
            gl := fuzz.lit(gname, 'text');
            IF random() < 0.3 THEN
                res := fuzz.try(mode, fuzz.game_call('create_tree', gl));
                out_fn := out_fn || 'create_tree'::text; out_arg := out_arg || 'gdl'::text;
                out_st := out_st || res.st; out_msg := out_msg || res.msg;
            END IF;
            stmt := format('SELECT gametree.unload_game(%s)', gl);
        END IF;
        res := fuzz.try(mode, stmt);
        out_fn := out_fn || fn; out_arg := out_arg || tgt;
        out_st := out_st || res.st; out_msg := out_msg || res.msg;

        FOR k IN 1..fuzz.rnd(6) LOOP             -- what comes next, with the same name
            -- as many draws whatever the calls answered, so that an input
            -- makes the same calls on builds that answer differently
            grown := random() < 0.8;
            IF fn2 = 'create_tree' AND res.st = '00000' AND grown THEN
                -- the new tree grown or searched
                fn2 := fuzz.pick(ARRAY['grow_step', 'grow_step', 'grow', 'bestmove_tree', 'propagate']);
            ELSE
                fn2 := fuzz.pick(ARRAY['initial', 'legal', 'next', 'successors', 'terminal', 'goal', 'control', 'board',
                                       'state_hash', 'canonical', 'heuristic', 'to_fen', 'perft', 'perft', 'bestmove',
                                       'analyse', 'games', 'create_tree', 'create_tree', 'grow_step', 'grow', 'propagate',
                                       'bestmove_tree', 'drop_tree', 'unload_game', 'load_game', 'tree']);
            END IF;
            IF fn2 = 'tree' THEN                 -- a tree of the game that setup made
                SELECT * INTO t FROM fuzz.trees x WHERE x.game = gname ORDER BY random() LIMIT 1;
                CONTINUE WHEN t IS NULL;
                fn2 := fuzz.pick(ARRAY['tree_info', 'tree_stats', 'expand', 'grow_step', 'propagate',
                                       'principal_variation', 'bestmove', 'grow', 'drop_tree']);
                stmt := fuzz.tree_call(fn2, 'none', t.name, t.game, t.root_id);
            ELSE
                stmt := fuzz.game_call(fn2, gl);
            END IF;
            res := fuzz.try(mode, stmt);
            out_fn := out_fn || CASE WHEN fn2 = 'bestmove_tree' THEN 'bestmove' ELSE fn2 END;
            out_arg := out_arg || 'gdl'::text;
            out_st := out_st || res.st; out_msg := out_msg || res.msg;
        END LOOP;
        RAISE SQLSTATE 'FZ999';                  -- undo it all
    EXCEPTION
        WHEN SQLSTATE 'FZ999' THEN NULL;
        WHEN OTHERS THEN                         -- a fault of this generator, not of gametree
            GET STACKED DIAGNOSTICS harness = MESSAGE_TEXT;
            out_fn := out_fn || 'fuzzer'::text; out_arg := out_arg || 'harness'::text;
            out_st := out_st || 'HARNESS'::text; out_msg := out_msg || harness;
    END;
    PERFORM fuzz.outcomes(i, mode, out_fn, out_arg, out_st, out_msg);
END $$;

-- One input of gametree.state's input functions (text, the casts from jsonb
-- and bytea, whose checks binary COPY's receive shares): JSON of a pool
-- state, mutated or not, under a type modifier right or wrong; the bytes of
-- a pool state truncated, with bits flipped or with random bytes after its
-- game's number, or random bytes alone.  A value that is accepted is then
-- printed, cast, hashed and compared.  arg says which.
CREATE FUNCTION fuzz.case_state(i integer, fn text, mode text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    g text := fuzz.pick(fuzz.games() || coalesce(fuzz.gdl_names(), '{}'));
    s jsonb := fuzz.pool_state(g);
    b bytea;
    bit integer;
    typmod text;
    arg text;
    sql text;
    r record;
BEGIN
    -- The valid value's bytes, which the byte mutations start from.
    EXECUTE format('SELECT $1::gametree.state(%L)::bytea', g) INTO b USING s;
    typmod := CASE fuzz.rnd(8)
        WHEN 0 THEN ''
        WHEN 1 THEN format('(%L)', fuzz.pick(fuzz.games() || coalesce(fuzz.gdl_names(), '{}')))
        WHEN 2 THEN format('(%s)', fuzz.rnd(2147483647))
        WHEN 3 THEN format('(%L)', fuzz.gen_gdl_name(true))
        WHEN 4 THEN format('(%L, %1$L)', g)
        WHEN 5 THEN format('(%L)', fuzz.mutate_text(g, 1, e' !''-_0Z\\'))
        ELSE format('(%L)', g) END;
    CASE fuzz.rnd(5)
    WHEN 0 THEN
        arg := 'json';
        IF random() < 0.5 THEN
            s := fuzz.mutate(s, g, 1 + fuzz.rnd(3));
        END IF;
        sql := format('SELECT v::text, v::jsonb, gametree.state_hash(v), gametree.game_of(v), v = v FROM (SELECT %s::gametree.state%s AS v) x',
                      CASE WHEN random() < 0.5 THEN fuzz.lit(s) ELSE quote_literal(s::text) END, typmod);
    ELSE
        CASE fuzz.rnd(4)
        WHEN 0 THEN
            arg := 'bytes truncated';
            b := substr(b, 1, fuzz.rnd(length(b)));
        WHEN 1 THEN
            arg := 'bytes flipped';
            FOR k IN 0 .. fuzz.rnd(3) LOOP
                bit := fuzz.rnd(8 * length(b));
                b := set_bit(b, bit, 1 - get_bit(b, bit));
            END LOOP;
        WHEN 2 THEN
            arg := 'bytes after the number';
            b := substr(b, 1, 4) || decode(repeat('00', fuzz.rnd(40)), 'hex');
            FOR k IN 4 .. length(b) - 1 LOOP
                b := set_byte(b, k, fuzz.rnd(256));
            END LOOP;
        ELSE
            arg := 'bytes';
            b := decode(repeat('00', fuzz.rnd(12)), 'hex');
            FOR k IN 0 .. length(b) - 1 LOOP
                b := set_byte(b, k, fuzz.rnd(256));
            END LOOP;
        END CASE;
        sql := format('SELECT v::text, v::jsonb, v::bytea = %1$s, gametree.state_hash(v), gametree.game_of(v), v = v '
                      'FROM (SELECT %1$s::gametree.state%2$s AS v) x', fuzz.lit(b::text, 'bytea'), typmod);
    END CASE;
    r := fuzz.try(mode, sql);
    PERFORM fuzz.note(i, fn, arg, r.st, r.msg);
END $$;

CREATE FUNCTION fuzz.one(i integer, mode text DEFAULT 'run') RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    seed integer := (SELECT c.seed FROM fuzz.config c);
    fn text;
BEGIN
    PERFORM setseed(hashint8(seed::bigint * 1000003 + i)::float8 / 2147483648.0);
    fn := fuzz.choose_fn();
    IF mode <> 'run' THEN
        RAISE NOTICE '-- input % (seed %): %', i, seed, fn;
        RAISE NOTICE 'SET gametree.gdl_memory = %;', quote_literal(fuzz.session_gdl_memory());
    END IF;
    -- Grounding a hostile description fills gametree.gdl_memory before it
    -- stops: the default 1GB takes about ten seconds, so the sessions of the
    -- run use less (inputs may set it lower still, or higher up to its cap).
    PERFORM set_config('gametree.gdl_memory', fuzz.session_gdl_memory(), false);
    IF fn IN ('create_tree', 'drop_tree', 'tree_info', 'expand', 'grow_step', 'propagate', 'grow',
              'tree_stats', 'depth_stats', 'outcomes', 'principal_variation', 'bestmove', 'analyse') THEN
        PERFORM fuzz.case_tree(i, fn, mode);
    ELSIF fn IN ('load_game', 'unload_game') THEN
        PERFORM fuzz.case_game(i, fn, mode);
    ELSIF fn = 'state_type' THEN
        PERFORM fuzz.case_state(i, fn, mode);
    ELSE
        PERFORM fuzz.case_rules(i, fn, mode);
    END IF;
END $$;

-- The tables that inputs write, for VACUUM between batches.
CREATE FUNCTION fuzz.tables() RETURNS text LANGUAGE sql STABLE AS $$
SELECT string_agg(format('public.%I', t.name || x.suffix), ', ') || ', fuzz.counts, gametree.gdl_games'
FROM fuzz.trees t, unnest(ARRAY['_states', '_moves', '_edges']) x(suffix) $$;

-- Inputs a..b but those in fuzz.skip (which crashed); commits with the
-- statement, so after a crash fuzz.progress says which batch was running.
CREATE FUNCTION fuzz.run(a integer, b integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    skip integer[] := ARRAY(SELECT s.i FROM fuzz.skip s WHERE s.i BETWEEN a AND b);
BEGIN
    UPDATE fuzz.progress SET pid = pg_backend_pid();
    FOR k IN a..b LOOP
        CONTINUE WHEN k = ANY (skip);
        PERFORM fuzz.one(k, 'run');
    END LOOP;
    UPDATE fuzz.progress SET done = b;
    RETURN b;
END $$;

-- Every function once with valid arguments, rolled back: NULL when all work,
-- else the first error (the installed extension does not match this database).
CREATE FUNCTION fuzz.preflight() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    step text;
    s jsonb := gametree.initial('chess');
    root bigint;
    problem text;
BEGIN
    BEGIN
        step := 'games'; PERFORM count(*) FROM gametree.games();
        step := 'legal'; PERFORM count(*) FROM gametree.legal('chess', s);
        step := 'next'; PERFORM gametree.next('chess', s, '"e2e4"');
        step := 'successors'; PERFORM count(*) FROM gametree.successors('chess', s);
        step := 'terminal'; PERFORM gametree.terminal('chess', s);
        step := 'goal'; PERFORM gametree.goal('chess', s);
        step := 'control'; PERFORM gametree.control('chess', s);
        step := 'perft'; PERFORM gametree.perft('chess', s, 2);
        step := 'board'; PERFORM gametree.board('chess', s);
        step := 'state_hash'; PERFORM gametree.state_hash('chess', s);
        step := 'from_fen'; PERFORM gametree.from_fen('checkers', 'B:W21-32:B1-12');
        step := 'to_fen'; PERFORM gametree.to_fen('chess', s);
        step := 'canonical'; PERFORM gametree.canonical('chess', s);
        step := 'heuristic'; PERFORM gametree.heuristic('chess', s);
        step := 'create_tree'; root := gametree.create_tree('fz_preflight', 'tictactoe');
        step := 'expand'; PERFORM gametree.expand('fz_preflight', root);
        step := 'grow_step'; PERFORM gametree.grow_step('fz_preflight', 5);
        step := 'propagate'; PERFORM gametree.propagate('fz_preflight');
        step := 'grow'; CALL gametree.grow('fz_preflight', 100);
        step := 'tree_info'; PERFORM gametree.tree_info('fz_preflight');
        step := 'tree_stats'; PERFORM count(*) FROM gametree.tree_stats('fz_preflight');
        step := 'depth_stats'; PERFORM count(*) FROM gametree.depth_stats('fz_preflight');
        step := 'outcomes'; PERFORM count(*) FROM gametree.outcomes('fz_preflight');
        step := 'principal_variation'; PERFORM count(*) FROM gametree.principal_variation('fz_preflight', root);
        step := 'drop_tree'; PERFORM gametree.drop_tree('fz_preflight');
        step := 'load_game'; PERFORM gametree.load_game('fz_preflight_g', '(role a) (init (p)) (<= (legal a go) (true (p))) '
                                                        '(<= (next (p)) (true (p))) (<= terminal (true (p))) (goal a 100)');
        step := 'initial'; PERFORM gametree.initial('fz_preflight_g');
        step := 'unload_game'; PERFORM gametree.unload_game('fz_preflight_g');
        RAISE SQLSTATE 'FZ999';
    EXCEPTION
        WHEN SQLSTATE 'FZ999' THEN NULL;
        WHEN OTHERS THEN
            GET STACKED DIAGNOSTICS problem = MESSAGE_TEXT;
            RETURN format('%s: %s (%s)', step, problem, SQLSTATE);
    END;
    RETURN NULL;
END $$;

-- ---------------------------------------------------------------------------
-- Setup: pools of valid states, large values and small trees, from the seed.

CREATE FUNCTION fuzz.setup(seed integer, ddl boolean, pool_size integer) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    g text;
    s jsonb;
    succ jsonb[];
    n integer;
    plies integer;
    keep float8;
    fens text[];
    trees text[][];
    cap_value text;
    cap_shown numeric;
BEGIN
    INSERT INTO fuzz.config VALUES (seed, ddl, pool_size);
    INSERT INTO fuzz.progress VALUES (0, NULL);
    -- Games loaded from GDL (fuzz_sql.sh copied the samples in): two-player,
    -- three-player and simultaneous moves.
    IF (SELECT count(*) FROM fuzz.kif) = 0 THEN
        RAISE EXCEPTION 'fuzz.kif is empty: fuzz_sql.sh copies test/data/gdl/*.kif into it before setup';
    END IF;
    INSERT INTO fuzz.gdl VALUES ('fzg_ttt', 'ticTacToe'), ('fzg_nim', 'nim1'), ('fzg_ro', 'roshambo2'),
                                ('fzg_3p', 'tictactoe_3player');
    PERFORM gametree.load_game(g.game, k.kif) FROM fuzz.gdl g JOIN fuzz.kif k ON k.name = g.kif_name;
    INSERT INTO fuzz.roles SELECT x.game, x.roles FROM gametree.games() x;

    -- The settings (gametree's are defined now that the library is loaded),
    -- with their caps in the unit pg_settings shows.
    INSERT INTO fuzz.settings (name, vartype, unit, min_val, max_val, enumvals, boot_val)
    SELECT p.name, p.vartype, p.unit, p.min_val, p.max_val, p.enumvals, p.boot_val
    FROM pg_catalog.pg_settings p WHERE p.name LIKE 'gametree.%';
    INSERT INTO fuzz.settings (name, vartype) VALUES ('search_path', 'string');
    FOR g, cap_value IN SELECT c.name, c.cap FROM fuzz.setting_caps() c JOIN fuzz.settings x ON x.name = c.name LOOP
        BEGIN
            PERFORM set_config(g, cap_value, true);
            SELECT p.setting::numeric INTO cap_shown FROM pg_catalog.pg_settings p WHERE p.name = g;
            RAISE SQLSTATE 'FZ999';              -- set back
        EXCEPTION WHEN SQLSTATE 'FZ999' THEN NULL;
        END;
        UPDATE fuzz.settings x SET cap = cap_value, cap_setting = cap_shown WHERE x.name = g;
    END LOOP;
    PERFORM setseed(hashint8(seed::bigint)::float8 / 2147483648.0);

    -- Positions from FEN (chess: standard test positions, endings, mates; checkers: kings).
    fens := ARRAY[
        'chess|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
        'chess|8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
        'chess|r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1',
        'chess|rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8',
        'chess|8/2P5/p2k4/P5K1/8/8/8/8 b - - 0 45',
        'chess|k7/8/1K6/8/8/8/8/7R w - - 0 1',
        'chess|7k/5Q2/6K1/8/8/8/8/8 b - - 0 1',
        'chess|4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2',
        'chess|4k3/8/8/8/8/8/8/4K2R w K - 99 80',
        'chess|8/8/8/8/8/5k2/8/4K1B1 w - - 0 1',
        'chess|rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2',
        'checkers|W:WK3,21:B1,2',
        'checkers|B:WK10,K15,K19:BK1,K2',
        'checkers|W:W9,10,11:B1,2,3,5,6:H79',
        'checkers|B:W18,19,25,26:B14,15',
        'checkers|W:WK1:B5'];

    FOREACH g IN ARRAY fuzz.games() || fuzz.gdl_names() LOOP
        n := 0;
        FOR f IN 1..cardinality(fens) LOOP
            IF split_part(fens[f], '|', 1) = g THEN
                INSERT INTO fuzz.pool VALUES (g, n, gametree.from_fen(g, split_part(fens[f], '|', 2)));
                n := n + 1;
            END IF;
        END LOOP;
        INSERT INTO fuzz.pool VALUES (g, n, gametree.initial(g));
        n := n + 1;
        keep := CASE g WHEN 'tictactoe' THEN 0.5 WHEN 'chess' THEN 0.07 WHEN 'checkers' THEN 0.07 ELSE 0.3 END;
        -- Random playouts; positions kept at random, terminal ones always.
        WHILE n < pool_size LOOP
            s := gametree.initial(g);
            plies := 0;
            LOOP
                succ := ARRAY(SELECT x.next FROM gametree.successors(g, s) x);
                IF (cardinality(succ) = 0 OR random() < keep)
                   AND NOT EXISTS (SELECT 1 FROM fuzz.pool p WHERE p.game = g AND p.state = s) AND n < pool_size THEN
                    INSERT INTO fuzz.pool VALUES (g, n, s);
                    n := n + 1;
                END IF;
                EXIT WHEN cardinality(succ) = 0 OR plies > 400 OR n >= pool_size;
                s := succ[1 + fuzz.rnd(cardinality(succ))];
                plies := plies + 1;
            END LOOP;
        END LOOP;
    END LOOP;

    -- Large values, each with the expression that makes it (for reproducers).
    INSERT INTO fuzz.big (k, label, expr) VALUES
        (0, 'an array of 2097152 nulls', '(SELECT jsonb_agg(NULL::int) FROM generate_series(1, 2097152))'),
        (1, 'an array of 2097151 nulls', '(SELECT jsonb_agg(NULL::int) FROM generate_series(1, 2097151))'),
        (2, 'an array of 250000 numbers', '(SELECT jsonb_agg(x) FROM generate_series(1, 250000) x)'),
        (3, '100000 control facts', '(SELECT jsonb_agg(jsonb_build_array(''control'', ''xplayer'')) FROM generate_series(1, 100000))'),
        (4, '100000 cell facts', '(SELECT jsonb_agg(jsonb_build_array(''cell'', 1 + x % 8, 1 + x % 6, ''x'')) FROM generate_series(1, 100000) x)'),
        (5, 'arrays nested 10000 deep', '(repeat(''['', 10000) || ''1'' || repeat('']'', 10000))::jsonb'),
        (6, 'a fact with an argument nested 10000 deep', '(''[["cell", '' || repeat(''['', 10000) || repeat('']'', 10000) || '', 1, "x"]]'')::jsonb'),
        (7, 'a string of 1 MB', 'to_jsonb(repeat(''x'', 1048576))'),
        (8, 'a relation name of 1 MB', 'jsonb_build_array(jsonb_build_array(repeat(''c'', 1048576)))'),
        (9, 'a fact with 100000 arguments', '(SELECT jsonb_build_array(jsonb_build_array(''cell'') || jsonb_agg(1)) FROM generate_series(1, 100000))'),
        (10, 'an object of 100000 keys', '(SELECT jsonb_object_agg(''k'' || x, x) FROM generate_series(1, 100000) x)'),
        (11, 'objects nested 10000 deep', '(repeat(''{"a": '', 10000) || ''1'' || repeat(''}'', 10000))::jsonb'),
        (12, 'the chess start repeated 1000 times', '(SELECT jsonb_agg(e) FROM generate_series(1, 1000), jsonb_array_elements(gametree.initial(''chess'')) e)'),
        (13, 'a checkers fact with 1 MB role', '(SELECT jsonb_build_array(jsonb_build_array(''cell'', 1, repeat(''w'', 1048576), ''man''), jsonb_build_array(''control'', ''black'')))'),
        (14, 'a number with 100000 digits', '(''[["halfmove", '' || repeat(''9'', 100000) || '']]'')::jsonb'),
        (15, 'facts nested in facts, 1000 deep', '(repeat(''[["cell", '', 1000) || ''1'' || repeat('']]'', 1000))::jsonb'),
        (16, '1024 cell facts', '(SELECT jsonb_agg(jsonb_build_array(''cell'', 1 + x % 3, 1 + x / 3 % 3, ''b'')) FROM generate_series(0, 1023) x)'),
        (17, '1025 cell facts', '(SELECT jsonb_agg(jsonb_build_array(''cell'', 1 + x % 3, 1 + x / 3 % 3, ''b'')) FROM generate_series(0, 1024) x)');
    FOR n IN 0..17 LOOP
        EXECUTE format('UPDATE fuzz.big SET val = %s WHERE k = %s', (SELECT expr FROM fuzz.big WHERE k = n), n);
    END LOOP;
    INSERT INTO fuzz.bigtext (k, label, expr) VALUES
        (0, '1 MB of board', 'repeat(''8/'', 524288)'),
        (1, 'a FEN clock of 100000 digits', '''rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 '' || repeat(''9'', 100000)'),
        (2, 'a PDN FEN of 100000 squares', '''B:W'' || (SELECT string_agg(x::text, '','') FROM generate_series(1, 100000) x) || '':B1'''),
        (3, 'a PDN FEN range of 20 digits', '''B:W1-99999999999999999999:B1-12'''),
        (4, '1 MB of t', 'repeat(''t'', 1048576)'),
        (5, '100000 colons', 'repeat('':'', 100000)');
    FOR n IN 0..5 LOOP
        EXECUTE format('UPDATE fuzz.bigtext SET val = %s WHERE k = %s', (SELECT expr FROM fuzz.bigtext WHERE k = n), n);
    END LOOP;

    -- Small trees: grown to a fixed depth, so their contents do not depend on timing.
    trees := ARRAY[
        ['fz_t1', 'tictactoe', '[["cell", 1, 1, "x"], ["cell", 2, 2, "o"], ["cell", 1, 3, "x"], ["control", "oplayer"]]', NULL],
        ['fz_t2', 'tictactoe', NULL, '2'],
        ['fz_c4', 'connect4', NULL, '2'],
        ['fz_ch', 'chess', NULL, '1'],
        ['fz_ch2', 'chess', gametree.from_fen('chess', 'k7/8/1K6/8/8/8/8/7R w - - 0 1')::text, '2'],
        ['fz_ck', 'checkers', NULL, '2'],
        ['fz_ck2', 'checkers', gametree.from_fen('checkers', 'W:WK3,21:B1,2')::text, '4'],
        ['fz_g1', 'fzg_ttt', NULL, '2'],
        ['fz_g3', 'fzg_3p', NULL, '1']];
    FOR k IN 1..array_length(trees, 1) LOOP
        INSERT INTO fuzz.trees VALUES (k - 1, trees[k][1], trees[k][2],
            gametree.create_tree(trees[k][1], trees[k][2], trees[k][3]::jsonb),
            format('SELECT gametree.create_tree(%L, %L, %s); CALL gametree.grow(%L, max_depth => %s);',
                   trees[k][1], trees[k][2], fuzz.lit(trees[k][3]::jsonb), trees[k][1], coalesce(trees[k][4], 'NULL')));
        CALL gametree.grow(trees[k][1], NULL, trees[k][4]::integer);
        -- Inputs roll back their writes, which leaves dead rows: fuzz.run's
        -- caller vacuums now and then, and autovacuum stays away, since
        -- the DDL of an input would wait deadlock_timeout to cancel it.
        FOR t IN 1..3 LOOP
            EXECUTE format('ALTER TABLE public.%I SET (autovacuum_enabled = off, toast.autovacuum_enabled = off)',
                           trees[k][1] || (ARRAY['_states', '_moves', '_edges'])[t]);
        END LOOP;
    END LOOP;
    ALTER TABLE fuzz.counts SET (autovacuum_enabled = off);
    RETURN format('%s states, %s trees (%s states), %s games loaded from GDL, %s settings (%s)',
                  (SELECT count(*) FROM fuzz.pool), array_length(trees, 1),
                  (SELECT sum(x.states) FROM fuzz.trees t, gametree.tree_stats(t.name) x),
                  cardinality(fuzz.gdl_names()), (SELECT count(*) FROM fuzz.settings),
                  (SELECT string_agg(x.name || coalesce(' capped at ' || x.cap, ''), ', ' ORDER BY x.name) FROM fuzz.settings x));
END $$;
