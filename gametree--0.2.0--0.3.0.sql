-- gametree 0.2.0 -> 0.3.0: upgrade script
\echo Use "ALTER EXTENSION gametree UPDATE TO '0.3.0'" to load this file. \quit

-- gametree.state: a position in a few bytes, the game's number and its
-- packing of the state (src/core/compact.c).  Its text form is the state's
-- JSON; a type modifier, the game, says how to read JSON typed into it:
-- '[...]'::gametree.state('tictactoe').  Tree tables store their states as
-- gametree.state('<game>').

CREATE TYPE @extschema@.state;

CREATE FUNCTION @extschema@.state_in(cstring, oid, integer)
RETURNS @extschema@.state
AS 'MODULE_PATHNAME', 'gametree_state_in'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.state_in(cstring, oid, integer) IS
'Input of gametree.state: the state as JSON, read by the game its type modifier names';

CREATE FUNCTION @extschema@.state_out(@extschema@.state)
RETURNS cstring
AS 'MODULE_PATHNAME', 'gametree_state_out'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.state_out(@extschema@.state) IS
'Output of gametree.state: the state as JSON, exactly as gametree''s functions write states';

CREATE FUNCTION @extschema@.state_recv(internal, oid, integer)
RETURNS @extschema@.state
AS 'MODULE_PATHNAME', 'gametree_state_recv'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.state_recv(internal, oid, integer) IS
'Binary input of gametree.state: the game''s number (4 bytes, network order), then its packing; checked as JSON input is';

CREATE FUNCTION @extschema@.state_send(@extschema@.state)
RETURNS bytea
AS 'MODULE_PATHNAME', 'gametree_state_send'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.state_send(@extschema@.state) IS
'Binary output of gametree.state: the game''s number (4 bytes, network order), then its packing';

CREATE FUNCTION @extschema@.state_typmod_in(cstring[])
RETURNS integer
AS 'MODULE_PATHNAME', 'gametree_state_typmod_in'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.state_typmod_in(cstring[]) IS
'Type modifier of gametree.state: the game''s number, from its name (gametree.state(''chess'')) or the number itself';

CREATE FUNCTION @extschema@.state_typmod_out(integer)
RETURNS cstring
AS 'MODULE_PATHNAME', 'gametree_state_typmod_out'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.state_typmod_out(integer) IS
'Type modifier of gametree.state as written: the game''s name, or its number when no loaded game has it';

CREATE TYPE @extschema@.state (
    INPUT = @extschema@.state_in,
    OUTPUT = @extschema@.state_out,
    RECEIVE = @extschema@.state_recv,
    SEND = @extschema@.state_send,
    TYPMOD_IN = @extschema@.state_typmod_in,
    TYPMOD_OUT = @extschema@.state_typmod_out,
    INTERNALLENGTH = VARIABLE,
    ALIGNMENT = int4,
    STORAGE = extended
);
COMMENT ON TYPE @extschema@.state IS
'A game state in a few bytes: the game''s number and the game''s packing of the state; prints as the state''s JSON. gametree.state(''game'') holds states of that game';

CREATE FUNCTION @extschema@.state_to_jsonb(@extschema@.state)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'gametree_state_to_jsonb'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.state_to_jsonb(@extschema@.state) IS
'The state as JSON (the implicit cast from gametree.state to jsonb, so that every function taking a JSON state takes a stored one)';
CREATE CAST (@extschema@.state AS jsonb) WITH FUNCTION @extschema@.state_to_jsonb(@extschema@.state) AS IMPLICIT;
COMMENT ON CAST (@extschema@.state AS jsonb) IS
'A stored state where JSON is expected: state->0, state @> ..., jsonb_array_elements(state) and every function that takes a JSON state';

CREATE FUNCTION @extschema@.jsonb_to_state(jsonb, integer, boolean)
RETURNS @extschema@.state
AS 'MODULE_PATHNAME', 'gametree_jsonb_to_state'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.jsonb_to_state(jsonb, integer, boolean) IS
'A JSON state as gametree.state of the game the type modifier names (the cast from jsonb, also on assignment to a tree''s state column)';
CREATE CAST (jsonb AS @extschema@.state) WITH FUNCTION @extschema@.jsonb_to_state(jsonb, integer, boolean) AS ASSIGNMENT;
COMMENT ON CAST (jsonb AS @extschema@.state) IS
'A JSON state into gametree.state(''game''): state JSON is checked by the game as every function checks it';

CREATE FUNCTION @extschema@.state_of_game(@extschema@.state, integer, boolean)
RETURNS @extschema@.state
AS 'MODULE_PATHNAME', 'gametree_state_of_game'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.state_of_game(@extschema@.state, integer, boolean) IS
'The value itself when it is of the game the type modifier names, else an error: a column of one game holds that game''s states';
CREATE CAST (@extschema@.state AS @extschema@.state) WITH FUNCTION @extschema@.state_of_game(@extschema@.state, integer, boolean) AS IMPLICIT;
COMMENT ON CAST (@extschema@.state AS @extschema@.state) IS
'Checks that a state is of the game of the column it goes into';

CREATE CAST (@extschema@.state AS bytea) WITH FUNCTION @extschema@.state_send(@extschema@.state);
COMMENT ON CAST (@extschema@.state AS bytea) IS
'The binary form of a state, as binary COPY writes it';

CREATE FUNCTION @extschema@.bytea_to_state(bytea, integer, boolean)
RETURNS @extschema@.state
AS 'MODULE_PATHNAME', 'gametree_bytea_to_state'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bytea_to_state(bytea, integer, boolean) IS
'A state from its binary form, accepted only as the game packs a legal position';
CREATE CAST (bytea AS @extschema@.state) WITH FUNCTION @extschema@.bytea_to_state(bytea, integer, boolean);
COMMENT ON CAST (bytea AS @extschema@.state) IS
'A state from its binary form (gametree.state''s cast to bytea), checked as the game checks JSON';

CREATE FUNCTION @extschema@.state_hash(state @extschema@.state)
RETURNS bigint
AS 'MODULE_PATHNAME', 'gametree_state_hash_of_value'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.state_hash(@extschema@.state) IS
'The game''s stable 64-bit hash of a stored state, the id of its row in a tree (the same as state_hash(game, state::jsonb))';

CREATE FUNCTION @extschema@.heuristic(state @extschema@.state)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'gametree_heuristic_of_value'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.heuristic(@extschema@.state) IS
'The game''s estimate {"role": 0..100, ...} of a stored non-terminal state (NULL when terminal or the game has none): the utility of an unexpanded state, which its row does not keep';

CREATE FUNCTION @extschema@.game_of(state @extschema@.state)
RETURNS text
AS 'MODULE_PATHNAME', 'gametree_game_of'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.game_of(@extschema@.state) IS
'The name of the game of a stored state';

CREATE FUNCTION @extschema@.state_cmp(@extschema@.state, @extschema@.state) RETURNS integer
AS 'MODULE_PATHNAME', 'gametree_state_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.state_cmp(@extschema@.state, @extschema@.state) IS
'Btree support of gametree.state: an order of the stored bytes, which equal states share; not an order of play';
CREATE FUNCTION @extschema@.state_eq(@extschema@.state, @extschema@.state) RETURNS boolean
AS 'MODULE_PATHNAME', 'gametree_state_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.state_eq(@extschema@.state, @extschema@.state) IS 'The = of gametree.state: the same game and position';
CREATE FUNCTION @extschema@.state_ne(@extschema@.state, @extschema@.state) RETURNS boolean
AS 'MODULE_PATHNAME', 'gametree_state_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.state_ne(@extschema@.state, @extschema@.state) IS 'The <> of gametree.state';
CREATE FUNCTION @extschema@.state_lt(@extschema@.state, @extschema@.state) RETURNS boolean
AS 'MODULE_PATHNAME', 'gametree_state_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.state_lt(@extschema@.state, @extschema@.state) IS 'The < of gametree.state (bytewise, for sorting and btree indexes)';
CREATE FUNCTION @extschema@.state_le(@extschema@.state, @extschema@.state) RETURNS boolean
AS 'MODULE_PATHNAME', 'gametree_state_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.state_le(@extschema@.state, @extschema@.state) IS 'The <= of gametree.state (bytewise)';
CREATE FUNCTION @extschema@.state_gt(@extschema@.state, @extschema@.state) RETURNS boolean
AS 'MODULE_PATHNAME', 'gametree_state_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.state_gt(@extschema@.state, @extschema@.state) IS 'The > of gametree.state (bytewise)';
CREATE FUNCTION @extschema@.state_ge(@extschema@.state, @extschema@.state) RETURNS boolean
AS 'MODULE_PATHNAME', 'gametree_state_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.state_ge(@extschema@.state, @extschema@.state) IS 'The >= of gametree.state (bytewise)';
CREATE FUNCTION @extschema@.state_hash_key(@extschema@.state) RETURNS integer
AS 'MODULE_PATHNAME', 'gametree_state_hash_key' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.state_hash_key(@extschema@.state) IS 'Hash support of gametree.state (hash joins, GROUP BY)';
CREATE FUNCTION @extschema@.state_hash_key_extended(@extschema@.state, bigint) RETURNS bigint
AS 'MODULE_PATHNAME', 'gametree_state_hash_key_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.state_hash_key_extended(@extschema@.state, bigint) IS 'Seeded hash support of gametree.state (hash partitioning)';

CREATE OPERATOR @extschema@.= (LEFTARG = @extschema@.state, RIGHTARG = @extschema@.state,
    FUNCTION = @extschema@.state_eq, COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
    RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
COMMENT ON OPERATOR @extschema@.= (@extschema@.state, @extschema@.state) IS 'The same game and position';
CREATE OPERATOR @extschema@.<> (LEFTARG = @extschema@.state, RIGHTARG = @extschema@.state,
    FUNCTION = @extschema@.state_ne, COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
    RESTRICT = neqsel, JOIN = neqjoinsel);
COMMENT ON OPERATOR @extschema@.<> (@extschema@.state, @extschema@.state) IS 'Another game or position';
CREATE OPERATOR @extschema@.< (LEFTARG = @extschema@.state, RIGHTARG = @extschema@.state,
    FUNCTION = @extschema@.state_lt, COMMUTATOR = OPERATOR(@extschema@.>), NEGATOR = OPERATOR(@extschema@.>=),
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
COMMENT ON OPERATOR @extschema@.< (@extschema@.state, @extschema@.state) IS 'Before in the bytewise order of stored states';
CREATE OPERATOR @extschema@.<= (LEFTARG = @extschema@.state, RIGHTARG = @extschema@.state,
    FUNCTION = @extschema@.state_le, COMMUTATOR = OPERATOR(@extschema@.>=), NEGATOR = OPERATOR(@extschema@.>),
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
COMMENT ON OPERATOR @extschema@.<= (@extschema@.state, @extschema@.state) IS 'Not after, in the bytewise order of stored states';
CREATE OPERATOR @extschema@.> (LEFTARG = @extschema@.state, RIGHTARG = @extschema@.state,
    FUNCTION = @extschema@.state_gt, COMMUTATOR = OPERATOR(@extschema@.<), NEGATOR = OPERATOR(@extschema@.<=),
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
COMMENT ON OPERATOR @extschema@.> (@extschema@.state, @extschema@.state) IS 'After in the bytewise order of stored states';
CREATE OPERATOR @extschema@.>= (LEFTARG = @extschema@.state, RIGHTARG = @extschema@.state,
    FUNCTION = @extschema@.state_ge, COMMUTATOR = OPERATOR(@extschema@.<=), NEGATOR = OPERATOR(@extschema@.<),
    RESTRICT = scalargesel, JOIN = scalargejoinsel);
COMMENT ON OPERATOR @extschema@.>= (@extschema@.state, @extschema@.state) IS 'Not before, in the bytewise order of stored states';

CREATE OPERATOR CLASS @extschema@.state_ops DEFAULT FOR TYPE @extschema@.state USING btree AS
    OPERATOR 1 @extschema@.<, OPERATOR 2 @extschema@.<=, OPERATOR 3 @extschema@.=,
    OPERATOR 4 @extschema@.>=, OPERATOR 5 @extschema@.>,
    FUNCTION 1 @extschema@.state_cmp(@extschema@.state, @extschema@.state);
COMMENT ON OPERATOR CLASS @extschema@.state_ops USING btree IS 'Sorting and indexing stored states (bytewise)';
CREATE OPERATOR CLASS @extschema@.state_ops DEFAULT FOR TYPE @extschema@.state USING hash AS
    OPERATOR 1 @extschema@.=,
    FUNCTION 1 @extschema@.state_hash_key(@extschema@.state),
    FUNCTION 2 @extschema@.state_hash_key_extended(@extschema@.state, bigint);
COMMENT ON OPERATOR CLASS @extschema@.state_ops USING hash IS 'Hash joins, hash aggregation and hash partitioning of stored states';

-- Trees store their states as gametree.state('<game>'): each tree's states
-- column is rewritten from JSONB (read by the game, as any JSON state is),
-- and its CHECK names the new state_hash, as create_tree writes it.  The
-- three steps are one ALTER TABLE, so a table is rewritten once.  The CHECK
-- is left unnamed, as create_tree leaves it: PostgreSQL names it
-- <table>_check, the name the old one had.
DO $upgrade$
DECLARE
    t record;
    states_table text;
    old_check text;
BEGIN
    FOR t IN SELECT schema, name, game FROM @extschema@.trees LOOP
        states_table := pg_catalog.format('%I.%I', t.schema, t.name || '_states');
        CONTINUE WHEN pg_catalog.to_regclass(states_table) IS NULL;
        SELECT pg_catalog.string_agg(pg_catalog.format('DROP CONSTRAINT %I, ', c.conname), '')
          INTO old_check
          FROM pg_catalog.pg_constraint c
         WHERE c.conrelid = states_table::pg_catalog.regclass AND c.contype = 'c'
           AND pg_catalog.pg_get_constraintdef(c.oid) LIKE '%state_hash(%';
        -- One rewrite: the states packed, and an unexpanded state's utility
        -- cleared (its row keeps none: its estimate is computed).
        EXECUTE pg_catalog.format(
            'ALTER TABLE %1$s %2$s ALTER COLUMN state TYPE @extschema@.state(%3$L) USING state::@extschema@.state(%3$L), '
            'ALTER COLUMN utility TYPE jsonb USING CASE WHEN expanded THEN utility END, '
            'ADD CHECK (id = @extschema@.state_hash(state))',
            states_table, COALESCE(old_check, ''), t.game);
    END LOOP;
END
$upgrade$;

-- Edges keep no copy of the value of the state they lead to: each tree's
-- _graph table becomes _edges without the copies (utility, mobility,
-- proven), indexed on init_id instead of keyed by (init_id, move_id), and
-- the view _graph shows every edge with that state's value, as create_tree
-- makes them (src/store/schema.c).  The view belongs to the tree's
-- owner, who grants it as the table was granted, and not to the extension.
DO $upgrade$
DECLARE
    t record;
    edges regclass;
    owner name;
    grantee record;
BEGIN
    FOR t IN SELECT schema, name, game FROM @extschema@.trees LOOP
        CONTINUE WHEN pg_catalog.to_regclass(pg_catalog.format('%I.%I', t.schema, t.name || '_graph')) IS NULL;
        CONTINUE WHEN (SELECT relkind FROM pg_catalog.pg_class
                       WHERE oid = pg_catalog.format('%I.%I', t.schema, t.name || '_graph')::pg_catalog.regclass) <> 'r';
        EXECUTE pg_catalog.format('ALTER TABLE %I.%I RENAME TO %I', t.schema, t.name || '_graph', t.name || '_edges');
        edges := pg_catalog.format('%I.%I', t.schema, t.name || '_edges')::pg_catalog.regclass;
        SELECT r.rolname INTO owner FROM pg_catalog.pg_class c JOIN pg_catalog.pg_roles r ON r.oid = c.relowner
        WHERE c.oid = edges;
        EXECUTE pg_catalog.format('ALTER TABLE %s DROP CONSTRAINT IF EXISTS %I, DROP COLUMN utility, '
                                  'DROP COLUMN mobility, DROP COLUMN proven, RESET (fillfactor)',
                                  edges, t.name || '_graph_pkey');
        -- A rewrite, so that the dropped columns take no room.
        EXECUTE pg_catalog.format('ALTER TABLE %s ALTER COLUMN visits TYPE integer USING visits + 0', edges);
        EXECUTE pg_catalog.format('ALTER INDEX IF EXISTS %I.%I RENAME TO %I', t.schema,
                                  t.name || '_graph_next_id_idx', t.name || '_edges_next_id_idx');
        EXECUTE pg_catalog.format('CREATE INDEX %I ON %s (init_id)', t.name || '_edges_init_id_idx', edges);
        EXECUTE pg_catalog.format('COMMENT ON TABLE %s IS %L', edges,
                                  pg_catalog.format('gametree %s tree %s: edges state -> move -> state with Monte Carlo visits and totals',
                                                    t.game, t.name));
        EXECUTE pg_catalog.format('CREATE VIEW %I.%I WITH (security_invoker = true) AS '
                                  'SELECT e.init_id, e.move_id, e.next_id, '
                                  'CASE WHEN s.expanded THEN s.utility ELSE @extschema@.heuristic(s.state) END AS utility, '
                                  's.mobility, e.visits, e.total, '
                                  'coalesce(s.proven, false) AS proven '
                                  'FROM %s e LEFT JOIN %I.%I s ON s.id = e.next_id',
                                  t.schema, t.name || '_graph', edges, t.schema, t.name || '_states');
        EXECUTE pg_catalog.format('ALTER EXTENSION gametree DROP VIEW %I.%I', t.schema, t.name || '_graph');
        EXECUTE pg_catalog.format('COMMENT ON VIEW %I.%I IS %L', t.schema, t.name || '_graph',
                                  pg_catalog.format('gametree %s tree %s: edges state -> move -> state with utility, mobility, visits, total',
                                                    t.game, t.name));
        EXECUTE pg_catalog.format('ALTER VIEW %I.%I OWNER TO %I', t.schema, t.name || '_graph', owner);
        FOR grantee IN SELECT a.grantee, a.privilege_type FROM pg_catalog.pg_class c,
                       LATERAL pg_catalog.aclexplode(c.relacl) a
                       WHERE c.oid = edges AND a.grantee <> c.relowner AND a.privilege_type = 'SELECT' LOOP
            EXECUTE pg_catalog.format('GRANT SELECT ON %I.%I TO %s', t.schema, t.name || '_graph',
                                      CASE WHEN grantee.grantee = 0 THEN 'PUBLIC'
                                           ELSE pg_catalog.quote_ident(pg_catalog.pg_get_userbyid(grantee.grantee)) END);
        END LOOP;
    END LOOP;
END
$upgrade$;

COMMENT ON FUNCTION @extschema@.create_tree(text, text, jsonb) IS
'Creates <name>_states, <name>_moves and <name>_edges with the view <name>_graph (owned by the caller, in a permanent schema where it may create tables) with the root (default: the initial state); returns the root id';
