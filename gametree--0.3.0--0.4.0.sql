-- gametree 0.3.0 -> 0.4.0: upgrade script
\echo Use "ALTER EXTENSION gametree UPDATE TO '0.4.0'" to load this file. \quit

-- create_tree takes the nodes of a sharded tree.
DROP FUNCTION @extschema@.create_tree(text, text, jsonb);
CREATE FUNCTION @extschema@.create_tree(name text, game text, root jsonb DEFAULT NULL, nodes text[] DEFAULT NULL)
RETURNS bigint
AS 'MODULE_PATHNAME', 'gametree_create_tree'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.create_tree(text, text, jsonb, text[]) IS
'Creates <name>_states, <name>_moves and <name>_edges with the view <name>_graph (owned by the caller, in a permanent schema where it may create tables) with the root (default: the initial state); returns the root id; '
'with nodes (foreign servers of postgres_fdw), a tree sharded over them';

-- Sharded trees (src/store/shard.h): a coordinator's tree whose states and
-- edges are held by several servers, the nodes, each holding a range of the
-- state ids.  The coordinator reaches its nodes through foreign servers of
-- postgres_fdw, with the caller's user mappings, and runs their part of
-- each job through dblink; the functions named shard_* are that part,
-- which the coordinator calls on the nodes.

CREATE TABLE @extschema@.tree_nodes (
    schema name NOT NULL,
    tree   text NOT NULL,
    node   integer NOT NULL CHECK (node > 0),
    server name,
    low    bigint NOT NULL,
    high   bigint NOT NULL CHECK (low <= high),
    PRIMARY KEY (schema, tree, node)
);
COMMENT ON TABLE @extschema@.tree_nodes IS
'Per sharded tree, the servers that hold its states: on the coordinator one row per node with the foreign server that reaches it, '
'on a node one row without a server for the range held there; the ids low..high of a node are whole shards, 64 equal ranges of the ids; '
'written by gametree''s functions only';
GRANT SELECT ON @extschema@.tree_nodes TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('@extschema@.tree_nodes', '');

CREATE FUNCTION @extschema@.shard_create(tree text, game text, node integer, low bigint, high bigint,
                                        root jsonb)
RETURNS bigint
AS 'MODULE_PATHNAME', 'gametree_shard_create'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.shard_create(text, text, integer, bigint, bigint, jsonb) IS
'On a node, called by the coordinator of a sharded tree: creates the node''s part, holding the ids low..high (with the root when its id is among them); '
'returns the root''s id when it is held here; does nothing when that part exists already';

CREATE PROCEDURE @extschema@.shard_grow(tree text, depth integer, max_states bigint, time_limit interval)
AS 'MODULE_PATHNAME', 'gametree_shard_grow'
LANGUAGE C;
COMMENT ON PROCEDURE @extschema@.shard_grow(text, integer, bigint, interval) IS
'On a node, called by the coordinator of a sharded tree: expands the states held here at depth, committing every batch; '
'children other nodes hold are kept in <tree>_ghosts until the coordinator ships them';

CREATE FUNCTION @extschema@.shard_accept(tree text, node integer, ids bigint[], states bytea[], goals jsonb[],
                                        depths integer[], controls text[], expanded boolean[],
                                        utilities jsonb[], mobilities jsonb[], proven boolean[])
RETURNS bigint
AS 'MODULE_PATHNAME', 'gametree_shard_accept'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.shard_accept(text, integer, bigint[], bytea[], jsonb[], integer[], text[], boolean[], jsonb[], jsonb[], boolean[]) IS
'On a node, called by the coordinator of a sharded tree: stores the states node found for this one (those not stored yet) and notes that node holds edges into them; returns the states stored';

CREATE FUNCTION @extschema@.shard_accept_values(tree text, ids bigint[], expanded boolean[], utilities jsonb[],
                                               mobilities jsonb[], proven boolean[])
RETURNS bigint
AS 'MODULE_PATHNAME', 'gametree_shard_accept_values'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.shard_accept_values(text, bigint[], boolean[], jsonb[], jsonb[], boolean[]) IS
'On a node, called by the coordinator of a sharded tree: the new values of states other nodes hold that edges here lead to; returns how many changed, counted pending propagation';


CREATE FUNCTION @extschema@.shard_propagate(tree text, depth integer)
RETURNS void
AS 'MODULE_PATHNAME', 'gametree_shard_propagate'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.shard_propagate(text, integer) IS
'On a node, called by the coordinator of a sharded tree: values the states held here at depth from their edges, those to other nodes'' states by <tree>_ghosts, '
'keeping the part in memory for the next calls of the propagation; a NULL depth ends it and frees that memory';


CREATE FUNCTION @extschema@.shard_written(tree text)
RETURNS bigint[]
AS 'MODULE_PATHNAME', 'gametree_shard_written'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.shard_written(text) IS
'On a node, called by the coordinator of a sharded tree between the steps of a propagation: the ids of the states this session''s last step wrote, NULL when it read the part (any state may have changed)';
