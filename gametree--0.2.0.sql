-- gametree 0.2.0: install script
\echo Use "CREATE EXTENSION gametree" to load this file. \quit

-- Everyone may call the functions and grow trees of their own.
GRANT USAGE ON SCHEMA @extschema@ TO PUBLIC;

-- Game rules.  A game name always denotes the same rules, so the functions
-- that only compute from their arguments are IMMUTABLE.

CREATE FUNCTION @extschema@.games()
RETURNS TABLE (game text, roles text[], description text)
AS 'MODULE_PATHNAME', 'gametree_games'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.games() IS
'The games this server knows: name, roles in GGP order, description';

CREATE FUNCTION @extschema@.initial(game text)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'gametree_initial'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.initial(text) IS
'The initial state of a game, as a canonical JSON array of facts';

CREATE FUNCTION @extschema@.legal(game text, state jsonb)
RETURNS SETOF jsonb
AS 'MODULE_PATHNAME', 'gametree_legal'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 30;
COMMENT ON FUNCTION @extschema@.legal(text, jsonb) IS
'The legal joint moves of a state, in the game''s documented order; none when terminal';

CREATE FUNCTION @extschema@.next(game text, state jsonb, move jsonb)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'gametree_next'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.next(text, jsonb, jsonb) IS
'The state after a joint move (or the bare action of the role in control)';

CREATE FUNCTION @extschema@.successors(game text, state jsonb)
RETURNS TABLE (move jsonb, next jsonb)
AS 'MODULE_PATHNAME', 'gametree_successors'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 30;
COMMENT ON FUNCTION @extschema@.successors(text, jsonb) IS
'Every legal joint move of a state with the state it leads to, in legal() order';

CREATE FUNCTION @extschema@.terminal(game text, state jsonb)
RETURNS boolean
AS 'MODULE_PATHNAME', 'gametree_terminal'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.terminal(text, jsonb) IS
'True when play has ended in the state';

CREATE FUNCTION @extschema@.goal(game text, state jsonb)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'gametree_goal'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.goal(text, jsonb) IS
'Goal values {"role": 0..100, ...} of a terminal state; NULL when play goes on';

CREATE FUNCTION @extschema@.control(game text, state jsonb)
RETURNS text
AS 'MODULE_PATHNAME', 'gametree_control'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.control(text, jsonb) IS
'The role to move; NULL when the state is terminal or moves are simultaneous';

CREATE FUNCTION @extschema@.perft(game text, state jsonb, depth integer,
                                  include_terminal boolean DEFAULT false,
                                  draw_rules boolean DEFAULT true)
RETURNS bigint
AS 'MODULE_PATHNAME', 'gametree_perft'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000000;
COMMENT ON FUNCTION @extschema@.perft(text, jsonb, integer, boolean, boolean) IS
'Leaf nodes of the move tree depth plies deep; lines that end earlier count only when include_terminal; with draw_rules false, draws by rule (fifty moves, dead position, checkers draw clock) do not end a line, as in engine perft tables';

CREATE FUNCTION @extschema@.board(game text, state jsonb)
RETURNS text
AS 'MODULE_PATHNAME', 'gametree_board'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.board(text, jsonb) IS
'A picture of the position, for psql';

CREATE FUNCTION @extschema@.state_hash(game text, state jsonb)
RETURNS bigint
AS 'MODULE_PATHNAME', 'gametree_state_hash'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.state_hash(text, jsonb) IS
'64-bit hash of a position, stable across runs, builds and machines (storage and shard key)';

CREATE FUNCTION @extschema@.from_fen(game text, fen text)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'gametree_from_fen'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.from_fen(text, text) IS
'The state written in the game''s text notation: FEN for chess, PDN FEN for checkers';

CREATE FUNCTION @extschema@.to_fen(game text, state jsonb)
RETURNS text
AS 'MODULE_PATHNAME', 'gametree_to_fen'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.to_fen(text, jsonb) IS
'The state in the game''s text notation: FEN for chess, PDN FEN for checkers';

CREATE FUNCTION @extschema@.canonical(game text, state jsonb)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'gametree_canonical'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.canonical(text, jsonb) IS
'The canonical encoding of a state (fixed fact order), as stored in trees';

CREATE FUNCTION @extschema@.heuristic(game text, state jsonb)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'gametree_heuristic'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.heuristic(text, jsonb) IS
'The game''s estimate {"role": 0..100, ...} of a non-terminal state; NULL when terminal or the game has none';

-- Trees: <name>_states, <name>_moves and <name>_graph, recorded in gametree.trees.

CREATE TABLE @extschema@.trees (
    schema   name NOT NULL,
    name     text NOT NULL,
    game     text NOT NULL,
    root_id  bigint NOT NULL,
    owner    name NOT NULL DEFAULT current_user,
    created  timestamptz NOT NULL DEFAULT now(),
    states   bigint NOT NULL DEFAULT 1,
    edges    bigint NOT NULL DEFAULT 0,
    frontier bigint NOT NULL,
    PRIMARY KEY (schema, name)
);
COMMENT ON TABLE @extschema@.trees IS
'One row per tree: where its tables are, its game and root, and counters kept by expand and grow';
-- Everyone may create trees; a row belongs to the role that created the tree.
ALTER TABLE @extschema@.trees ENABLE ROW LEVEL SECURITY;
CREATE POLICY trees_read ON @extschema@.trees FOR SELECT USING (true);
CREATE POLICY trees_own ON @extschema@.trees FOR ALL USING (owner = current_user)
    WITH CHECK (owner = current_user);
GRANT SELECT, INSERT, UPDATE, DELETE ON @extschema@.trees TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('@extschema@.trees', '');

CREATE TABLE @extschema@.grow_progress (
    pid      integer PRIMARY KEY,
    schema   name NOT NULL,
    tree     text NOT NULL,
    started  timestamptz NOT NULL,
    updated  timestamptz NOT NULL,
    expanded bigint NOT NULL DEFAULT 0,
    states   bigint NOT NULL,
    edges    bigint NOT NULL,
    frontier bigint NOT NULL,
    rate     double precision,
    done     boolean NOT NULL DEFAULT false,
    owner    name NOT NULL DEFAULT current_user
);
COMMENT ON TABLE @extschema@.grow_progress IS
'One row per session running gametree.grow, committed with every batch so that others can watch: '
'states, edges and frontier of the tree, states expanded and stored per second by this session';
ALTER TABLE @extschema@.grow_progress ENABLE ROW LEVEL SECURITY;
CREATE POLICY grow_progress_read ON @extschema@.grow_progress FOR SELECT USING (true);
CREATE POLICY grow_progress_own ON @extschema@.grow_progress FOR ALL USING (owner = current_user)
    WITH CHECK (owner = current_user);
GRANT SELECT, INSERT, UPDATE, DELETE ON @extschema@.grow_progress TO PUBLIC;

CREATE FUNCTION @extschema@.tree_info(tree text)
RETURNS @extschema@.trees
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    parts text[] := parse_ident(tree);
    result @extschema@.trees;
BEGIN
    IF cardinality(parts) > 2 THEN
        RAISE EXCEPTION 'invalid tree name "%"', tree USING ERRCODE = '22023',
            HINT = 'A tree is named name or schema.name.';
    END IF;
    -- An unqualified name is looked up along search_path, like a table.
    SELECT t.* INTO result FROM @extschema@.trees t
    WHERE t.name = parts[cardinality(parts)]
      AND (cardinality(parts) = 1 OR t.schema = parts[1])
      AND (cardinality(parts) = 2 OR t.schema = ANY (current_schemas(true)))
    ORDER BY array_position(current_schemas(true), t.schema)
    LIMIT 1;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown tree "%"', tree USING ERRCODE = '22023',
            HINT = 'SELECT * FROM gametree.trees lists the trees; gametree.create_tree() makes one.';
    END IF;
    RETURN result;
END $$;
COMMENT ON FUNCTION @extschema@.tree_info(text) IS
'The gametree.trees row of a tree (unqualified names are looked up along search_path)';

CREATE FUNCTION @extschema@.create_tree(name text, game text, root jsonb DEFAULT NULL)
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
COMMENT ON FUNCTION @extschema@.create_tree(text, text, jsonb) IS
'Creates <name>_states, <name>_moves and <name>_graph (owned by the caller) with the root (default: the initial state); returns the root id';

CREATE FUNCTION @extschema@.drop_tree(name text)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT
AS $$
DECLARE
    t @extschema@.trees := @extschema@.tree_info(name);
BEGIN
    EXECUTE format('DROP TABLE %I.%I, %I.%I, %I.%I', t.schema, t.name || '_graph',
                   t.schema, t.name || '_moves', t.schema, t.name || '_states');
    DELETE FROM @extschema@.trees WHERE schema = t.schema AND trees.name = t.name;
    DELETE FROM @extschema@.grow_progress WHERE schema = t.schema AND tree = t.name;
END $$;
COMMENT ON FUNCTION @extschema@.drop_tree(text) IS
'Drops a tree''s three tables and its catalog row';

CREATE FUNCTION @extschema@.expand(tree text, state_id bigint)
RETURNS integer
AS 'MODULE_PATHNAME', 'gametree_expand'
LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION @extschema@.expand(text, bigint) IS
'Adds every successor of one state (reusing existing states and moves), then propagates upward; returns the edges added (0 when already expanded)';

CREATE FUNCTION @extschema@.grow_step(tree text, batch_size integer, max_depth integer DEFAULT NULL,
                                      OUT expanded bigint, OUT states bigint, OUT edges bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'gametree_grow_step'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.grow_step(text, integer, integer) IS
'One batch of grow: expands up to batch_size frontier states, shallowest first, that no other session holds, and marks them stale for propagate(tree, false)';

CREATE FUNCTION @extschema@.propagate(tree text, from_scratch boolean DEFAULT true)
RETURNS bigint
AS 'MODULE_PATHNAME', 'gametree_propagate'
LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION @extschema@.propagate(text, boolean) IS
'Recomputes every utility, mobility and proven flag from scratch (or, with from_scratch false, only what stale states need), deepest states first; returns the evaluations made';

CREATE PROCEDURE @extschema@.grow(tree text, max_states bigint DEFAULT NULL, max_depth integer DEFAULT NULL,
                                  time_limit interval DEFAULT NULL)
AS 'MODULE_PATHNAME', 'gametree_grow'
LANGUAGE C;
COMMENT ON PROCEDURE @extschema@.grow(text, bigint, integer, interval) IS
'Batch job: expands the frontier breadth first, committing every batch (in one transaction inside a '
'transaction block or a function); stops at max_states states, states max_depth plies deep, time_limit, '
'or an empty frontier; resumable; sessions may share one tree';

-- Analytics over a tree's tables.

CREATE FUNCTION @extschema@.tree_stats(tree text)
RETURNS TABLE (game text, states bigint, edges bigint, moves bigint, expanded bigint, frontier bigint,
               terminal bigint, proven bigint, max_depth integer, branching numeric,
               root_utility jsonb, root_mobility jsonb, root_proven boolean)
LANGUAGE plpgsql STABLE STRICT
AS $$
DECLARE
    t @extschema@.trees := @extschema@.tree_info(tree);
BEGIN
    RETURN QUERY EXECUTE format($q$
        SELECT %1$L::text, count(*), (SELECT count(*) FROM %2$I.%4$I), (SELECT count(*) FROM %2$I.%5$I),
               count(*) FILTER (WHERE s.expanded AND s.goal IS NULL),
               count(*) FILTER (WHERE NOT s.expanded),
               count(*) FILTER (WHERE s.goal IS NOT NULL),
               count(*) FILTER (WHERE s.proven),
               max(s.depth),
               round((SELECT count(*) FROM %2$I.%4$I)::numeric
                     / nullif(count(*) FILTER (WHERE s.expanded AND s.goal IS NULL), 0), 3),
               r.utility, r.mobility, r.proven
        FROM %2$I.%3$I s, %2$I.%3$I r
        WHERE r.id = %6$s
        GROUP BY r.utility, r.mobility, r.proven
        $q$, t.game, t.schema, t.name || '_states', t.name || '_graph', t.name || '_moves', t.root_id);
END $$;
COMMENT ON FUNCTION @extschema@.tree_stats(text) IS
'Counts of a tree (states, edges, distinct moves, expanded, frontier, terminal, proven), its depth, mean branching factor and the root''s value';

CREATE FUNCTION @extschema@.depth_stats(tree text)
RETURNS TABLE (depth integer, states bigint, expanded bigint, terminal bigint, proven bigint,
               edges bigint, branching numeric)
LANGUAGE plpgsql STABLE STRICT
AS $$
DECLARE
    t @extschema@.trees := @extschema@.tree_info(tree);
BEGIN
    RETURN QUERY EXECUTE format($q$
        SELECT s.depth, count(*), count(*) FILTER (WHERE s.expanded AND s.goal IS NULL),
               count(*) FILTER (WHERE s.goal IS NOT NULL), count(*) FILTER (WHERE s.proven),
               coalesce(sum(e.n), 0)::bigint,
               round(sum(e.n)::numeric / nullif(count(*) FILTER (WHERE s.expanded AND s.goal IS NULL), 0), 3)
        FROM %1$I.%2$I s
        LEFT JOIN (SELECT init_id, count(*) AS n FROM %1$I.%3$I GROUP BY init_id) e ON e.init_id = s.id
        GROUP BY s.depth ORDER BY s.depth
        $q$, t.schema, t.name || '_states', t.name || '_graph');
END $$;
COMMENT ON FUNCTION @extschema@.depth_stats(text) IS
'Per depth (plies from the root when first reached): states, expanded, terminal, proven, edges out and branching factor';

CREATE FUNCTION @extschema@.outcomes(tree text)
RETURNS TABLE (role text, wins bigint, draws bigint, losses bigint, unproven bigint)
LANGUAGE plpgsql STABLE STRICT
AS $$
DECLARE
    t @extschema@.trees := @extschema@.tree_info(tree);
BEGIN
    RETURN QUERY EXECUTE format($q$
        SELECT r.role, count(*) FILTER (WHERE s.proven AND (s.utility ->> r.role)::numeric = 100),
               count(*) FILTER (WHERE s.proven AND (s.utility ->> r.role)::numeric > 0
                                AND (s.utility ->> r.role)::numeric < 100),
               count(*) FILTER (WHERE s.proven AND (s.utility ->> r.role)::numeric = 0),
               count(*) FILTER (WHERE NOT s.proven)
        FROM unnest((SELECT g.roles FROM @extschema@.games() g WHERE g.game = %1$L))
             WITH ORDINALITY r(role, n)
        CROSS JOIN %2$I.%3$I s
        GROUP BY r.role, r.n ORDER BY r.n
        $q$, t.game, t.schema, t.name || '_states');
END $$;
COMMENT ON FUNCTION @extschema@.outcomes(text) IS
'Per role: positions proven won (goal 100), drawn or shared (between), lost (0), and not proven';

CREATE FUNCTION @extschema@.principal_variation(tree text, state_id bigint)
RETURNS TABLE (ply integer, id bigint, move jsonb, utility jsonb, proven boolean, state jsonb)
LANGUAGE plpgsql STABLE STRICT
AS $$
DECLARE
    t @extschema@.trees := @extschema@.tree_info(tree);
BEGIN
    EXECUTE format('SELECT count(*) FROM %I.%I WHERE id = $1', t.schema, t.name || '_states')
        INTO ply USING principal_variation.state_id;
    IF ply = 0 THEN
        RAISE EXCEPTION 'state % is not in tree "%"', principal_variation.state_id, tree
            USING ERRCODE = '22023';
    END IF;
    -- Follows each state's chosen edge (best_move) until a leaf, or a repeat on a cycle.
    RETURN QUERY EXECUTE format($q$
        WITH RECURSIVE line(ply, id, path) AS (
            SELECT 0, $1, ARRAY[$1]
            UNION ALL
            SELECT l.ply + 1, g.next_id, l.path || g.next_id
            FROM line l
            JOIN %1$I.%2$I s ON s.id = l.id
            JOIN %1$I.%3$I g ON g.init_id = s.id AND g.move_id = s.best_move
            WHERE g.next_id <> ALL (l.path)
        )
        SELECT l.ply, l.id, m.move, s.utility, s.proven, s.state
        FROM line l
        JOIN %1$I.%2$I s ON s.id = l.id
        LEFT JOIN %1$I.%4$I m ON m.id = s.best_move
        ORDER BY l.ply
        $q$, t.schema, t.name || '_states', t.name || '_graph', t.name || '_moves')
        USING principal_variation.state_id;
END $$;
COMMENT ON FUNCTION @extschema@.principal_variation(text, bigint) IS
'The expected line of play from a state: each row a state, its value and the move its role in control chooses';
