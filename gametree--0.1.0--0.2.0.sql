-- gametree 0.1.0 -> 0.2.0: upgrade script
\echo Use "ALTER EXTENSION gametree UPDATE TO '0.2.0'" to load this file. \quit

-- The library exports only the names gametree_* from 0.2.0 on: every C
-- function is bound to its new symbol.  perft gains draw_rules, grow is
-- written in C, create_tree's "already exists" error gains a hint.

CREATE OR REPLACE FUNCTION @extschema@.games()
RETURNS TABLE (game text, roles text[], description text)
AS 'MODULE_PATHNAME', 'gametree_games'
LANGUAGE C STABLE STRICT PARALLEL SAFE;


CREATE OR REPLACE FUNCTION @extschema@.initial(game text)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'gametree_initial'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;


CREATE OR REPLACE FUNCTION @extschema@.legal(game text, state jsonb)
RETURNS SETOF jsonb
AS 'MODULE_PATHNAME', 'gametree_legal'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 30;


CREATE OR REPLACE FUNCTION @extschema@.next(game text, state jsonb, move jsonb)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'gametree_next'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;


CREATE OR REPLACE FUNCTION @extschema@.successors(game text, state jsonb)
RETURNS TABLE (move jsonb, next jsonb)
AS 'MODULE_PATHNAME', 'gametree_successors'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 30;


CREATE OR REPLACE FUNCTION @extschema@.terminal(game text, state jsonb)
RETURNS boolean
AS 'MODULE_PATHNAME', 'gametree_terminal'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;


CREATE OR REPLACE FUNCTION @extschema@.goal(game text, state jsonb)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'gametree_goal'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;


CREATE OR REPLACE FUNCTION @extschema@.control(game text, state jsonb)
RETURNS text
AS 'MODULE_PATHNAME', 'gametree_control'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;


CREATE OR REPLACE FUNCTION @extschema@.board(game text, state jsonb)
RETURNS text
AS 'MODULE_PATHNAME', 'gametree_board'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;


CREATE OR REPLACE FUNCTION @extschema@.state_hash(game text, state jsonb)
RETURNS bigint
AS 'MODULE_PATHNAME', 'gametree_state_hash'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;


CREATE OR REPLACE FUNCTION @extschema@.from_fen(game text, fen text)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'gametree_from_fen'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;


CREATE OR REPLACE FUNCTION @extschema@.to_fen(game text, state jsonb)
RETURNS text
AS 'MODULE_PATHNAME', 'gametree_to_fen'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;


CREATE OR REPLACE FUNCTION @extschema@.canonical(game text, state jsonb)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'gametree_canonical'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;


CREATE OR REPLACE FUNCTION @extschema@.heuristic(game text, state jsonb)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'gametree_heuristic'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;


CREATE OR REPLACE FUNCTION @extschema@.expand(tree text, state_id bigint)
RETURNS integer
AS 'MODULE_PATHNAME', 'gametree_expand'
LANGUAGE C VOLATILE STRICT;


CREATE OR REPLACE FUNCTION @extschema@.grow_step(tree text, batch_size integer, max_depth integer DEFAULT NULL,
                                      OUT expanded bigint, OUT states bigint, OUT edges bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'gametree_grow_step'
LANGUAGE C VOLATILE;


CREATE OR REPLACE FUNCTION @extschema@.propagate(tree text, from_scratch boolean DEFAULT true)
RETURNS bigint
AS 'MODULE_PATHNAME', 'gametree_propagate'
LANGUAGE C VOLATILE STRICT;


DROP FUNCTION @extschema@.perft(text, jsonb, integer, boolean);

CREATE FUNCTION @extschema@.perft(game text, state jsonb, depth integer,
                                  include_terminal boolean DEFAULT false,
                                  draw_rules boolean DEFAULT true)
RETURNS bigint
AS 'MODULE_PATHNAME', 'gametree_perft'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000000;
COMMENT ON FUNCTION @extschema@.perft(text, jsonb, integer, boolean, boolean) IS
'Leaf nodes of the move tree depth plies deep; lines that end earlier count only when include_terminal; with draw_rules false, draws by rule (fifty moves, dead position, checkers draw clock) do not end a line, as in engine perft tables';


CREATE OR REPLACE PROCEDURE @extschema@.grow(tree text, max_states bigint DEFAULT NULL, max_depth integer DEFAULT NULL,
                                  time_limit interval DEFAULT NULL)
AS 'MODULE_PATHNAME', 'gametree_grow'
LANGUAGE C;
COMMENT ON PROCEDURE @extschema@.grow(text, bigint, integer, interval) IS
'Batch job: expands the frontier breadth first, committing every batch (in one transaction inside a '
'transaction block or a function); stops at max_states states, states max_depth plies deep, time_limit, '
'or an empty frontier; resumable; sessions may share one tree';


CREATE OR REPLACE FUNCTION @extschema@.create_tree(name text, game text, root jsonb DEFAULT NULL)
RETURNS bigint
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    parts text[] := parse_ident(name);
    sch name;
    base text;
    start jsonb;
    root_id bigint;
    over boolean;
    zeros jsonb;
BEGIN
    IF name IS NULL OR game IS NULL THEN
        RAISE EXCEPTION 'tree name and game must not be NULL' USING ERRCODE = '22004';
    END IF;
    IF cardinality(parts) > 2 THEN
        RAISE EXCEPTION 'invalid tree name "%"', name USING ERRCODE = '22023',
            HINT = 'A tree is named name or schema.name.';
    END IF;
    sch := CASE WHEN cardinality(parts) = 2 THEN parts[1] ELSE current_schema() END;
    IF sch IS NULL THEN
        RAISE EXCEPTION 'no schema to create tree "%" in', name USING ERRCODE = '3F000',
            HINT = 'Qualify the name or set search_path.';
    END IF;
    base := parts[cardinality(parts)];
    IF length(base) > 56 THEN
        RAISE EXCEPTION 'tree name "%" is too long', base USING ERRCODE = '42622',
            DETAIL = 'Its tables are named with suffixes such as _states, within 63 bytes.';
    END IF;
    -- Validates the game and the root; the tree stores canonical states.
    start := @extschema@.canonical(game, coalesce(root, @extschema@.initial(game)));
    IF EXISTS (SELECT 1 FROM @extschema@.trees t WHERE t.schema = sch AND t.name = base) THEN
        RAISE EXCEPTION 'tree "%.%" already exists', sch, base USING ERRCODE = '42P07',
            HINT = format('Pick another name, or drop it first: SELECT gametree.drop_tree(%L);',
                          format('%I.%I', sch, base));
    END IF;

    EXECUTE format($ddl$
        CREATE TABLE %1$I.%2$I (
            id       bigint PRIMARY KEY,
            state    jsonb NOT NULL,
            goal     jsonb,
            depth    integer NOT NULL,
            control  text,
            expanded boolean NOT NULL DEFAULT false,
            utility  jsonb,
            mobility jsonb,
            proven   boolean NOT NULL DEFAULT false,
            best_move bigint,
            stale    boolean NOT NULL DEFAULT false,
            -- The id is the position's hash, so the key keeps positions unique.
            CHECK (id = @extschema@.state_hash(%5$L, state))
        );
        CREATE INDEX ON %1$I.%2$I (depth, id) WHERE NOT expanded;
        CREATE INDEX ON %1$I.%2$I (depth, id) WHERE stale;
        CREATE TABLE %1$I.%3$I (
            id   bigint PRIMARY KEY,
            move jsonb NOT NULL UNIQUE
        );
        CREATE TABLE %1$I.%4$I (
            -- References to states and moves are kept by expand(), which writes
            -- an edge in the transaction that stores both ends; foreign keys
            -- would cost a lookup per row and halve the insert rate.
            init_id  bigint NOT NULL,
            move_id  bigint NOT NULL,
            next_id  bigint NOT NULL,
            utility  jsonb,
            mobility jsonb,
            visits   integer NOT NULL DEFAULT 0,
            total    jsonb,
            proven   boolean NOT NULL DEFAULT false,
            PRIMARY KEY (init_id, move_id)
        ) WITH (fillfactor = 80);  -- room for propagation's in-page (HOT) updates
        CREATE INDEX ON %1$I.%4$I (next_id);
        $ddl$, sch, base || '_states', base || '_moves', base || '_graph', game);
    EXECUTE format('COMMENT ON TABLE %I.%I IS %L', sch, base || '_states',
        format('gametree %s tree %s: one row per distinct position, id = gametree.state_hash', game, base));
    EXECUTE format('COMMENT ON TABLE %I.%I IS %L', sch, base || '_moves',
        format('gametree %s tree %s: joint moves', game, base));
    EXECUTE format('COMMENT ON TABLE %I.%I IS %L', sch, base || '_graph',
        format('gametree %s tree %s: edges state -> move -> state with utility, mobility, visits, total', game, base));

    root_id := @extschema@.state_hash(game, start);
    over := @extschema@.terminal(game, start);
    SELECT jsonb_object_agg(r, 0) INTO zeros
    FROM @extschema@.games() g, unnest(g.roles) r WHERE g.game = create_tree.game;
    EXECUTE format('INSERT INTO %I.%I (id, state, goal, depth, control, expanded, utility, mobility, proven) '
                   'VALUES ($1, $2, $3, 0, $4, $5, $6, $7, $5)', sch, base || '_states')
    USING root_id, start, @extschema@.goal(game, start), @extschema@.control(game, start), over,
          coalesce(@extschema@.goal(game, start), @extschema@.heuristic(game, start)),
          CASE WHEN over THEN zeros END;
    INSERT INTO @extschema@.trees (schema, name, game, root_id, frontier)
    VALUES (sch, base, game, root_id, CASE WHEN over THEN 0 ELSE 1 END);
    RETURN root_id;
END $$;
