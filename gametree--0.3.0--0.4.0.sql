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
'children other nodes hold are kept in <tree>_outbox until the coordinator ships them';

CREATE FUNCTION @extschema@.shard_outbox(tree text, nodes integer[], lows bigint[], highs bigint[])
RETURNS TABLE (node integer, states bigint, payload bytea)
AS 'MODULE_PATHNAME', 'gametree_shard_outbox'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.shard_outbox(text, integer[], bigint[], bigint[]) IS
'On a node, called by the coordinator of a sharded tree: the states in <tree>_outbox, packed in batches per node that holds them '
'(node nodes[i] holds the ids lows[i]..highs[i]), for shard_accept there';

CREATE FUNCTION @extschema@.shard_accept(tree text, node integer, payload bytea)
RETURNS bigint
AS 'MODULE_PATHNAME', 'gametree_shard_accept'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.shard_accept(text, integer, bytea) IS
'On a node, called by the coordinator of a sharded tree: stores the states that shard_outbox packed on node for this one, '
'those not stored yet; returns the states stored';

CREATE FUNCTION @extschema@.shard_part(tree text, from_scratch boolean, nodes integer[], lows bigint[], highs bigint[])
RETURNS TABLE (node integer, states bigint, payload bytea)
AS 'MODULE_PATHNAME', 'gametree_shard_part'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.shard_part(text, boolean, integer[], bigint[], bigint[]) IS
'On a node, called by the coordinator of a sharded tree as a propagation begins: reads the part into this session''s memory, '
'and returns the ids of the other nodes'' states its edges lead to, packed per node (as for shard_outbox), for shard_take_wanted there';

CREATE FUNCTION @extschema@.shard_take_wanted(tree text, node integer, payload bytea)
RETURNS bigint
AS 'MODULE_PATHNAME', 'gametree_shard_take_wanted'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.shard_take_wanted(text, integer, bytea) IS
'On a node, called by the coordinator of a sharded tree during a propagation: notes the states held here whose values node wants '
'(shard_part packed their ids there); returns how many are held here';

CREATE FUNCTION @extschema@.shard_values(tree text)
RETURNS TABLE (node integer, states bigint, payload bytea)
AS 'MODULE_PATHNAME', 'gametree_shard_values'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.shard_values(text) IS
'On a node, called by the coordinator of a sharded tree during a propagation: the values other nodes want of the states held here, '
'all of them the first time, then those the last step wrote, packed per node, for shard_take_values there';

CREATE FUNCTION @extschema@.shard_take_values(tree text, payload bytea)
RETURNS bigint
AS 'MODULE_PATHNAME', 'gametree_shard_take_values'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.shard_take_values(text, bytea) IS
'On a node, called by the coordinator of a sharded tree during a propagation: values shard_values packed on another node, '
'onto the edges to those states of the part this session keeps in memory; returns the edges whose value changed';

CREATE FUNCTION @extschema@.shard_propagate(tree text, depth integer)
RETURNS void
AS 'MODULE_PATHNAME', 'gametree_shard_propagate'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.shard_propagate(text, integer) IS
'On a node, called by the coordinator of a sharded tree during a propagation: values the states held here at depth from their edges '
'(-1: all of them until they settle) in the part this session keeps in memory, and writes what changed; '
'a NULL depth ends the propagation and frees that memory';

-- GGP matches and their terms.  A GGP game manager speaks KIF: from_kif and
-- to_kif turn one term into the JSON of GDL games and back.  gametree.matches
-- records the matches a player (gametree ggp) plays, one row per match and
-- role, written by match_begin, match_move and match_end alone, as the
-- extension's owner, and read by all.

CREATE FUNCTION @extschema@.from_kif(kif text)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'gametree_from_kif'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.from_kif(text) IS
'The JSON of one ground KIF term, as GDL games write states and moves: (mark 2 2) is ["mark", 2, 2], noop and (noop) are "noop"; case-insensitive, symbols lower-cased';

CREATE FUNCTION @extschema@.to_kif(term jsonb)
RETURNS text
AS 'MODULE_PATHNAME', 'gametree_to_kif'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.to_kif(jsonb) IS
'The KIF text of a term''s JSON, lower-case with single spaces: ["mark", 2, 2] is (mark 2 2), "noop" is noop; the inverse of from_kif';

CREATE TABLE @extschema@.matches (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    match_id    text NOT NULL,
    game        text NOT NULL,
    role        text NOT NULL,
    player      name NOT NULL,
    start_clock interval NOT NULL,
    play_clock  interval NOT NULL,
    tree        text,
    moves       jsonb NOT NULL,
    state       jsonb NOT NULL,
    goals       jsonb,
    status      text NOT NULL CHECK (status IN ('playing', 'done', 'aborted')),
    started_at  timestamptz NOT NULL,
    ended_at    timestamptz
);
COMMENT ON TABLE @extschema@.matches IS
'One row per GGP match a player played, and role it played: the game manager''s match id, the game, the clocks, the joint moves played (as legal() writes them), the state now, the goals at the end; '
'written by match_begin, match_move and match_end only';
COMMENT ON COLUMN @extschema@.matches.player IS
'The session user who played the match: only that role (or a superuser) moves and ends it';
COMMENT ON COLUMN @extschema@.matches.tree IS
'The qualified name of the match''s tree while it is kept; match_end drops it unless keep_tree';
-- A player that comes back to a match knows the game manager's id.
CREATE INDEX matches_match_id ON @extschema@.matches (match_id);
GRANT SELECT ON @extschema@.matches TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('@extschema@.matches', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.matches_id_seq', '');

CREATE FUNCTION @extschema@.match_begin(match_id text, game text, role text, start_clock interval,
                                        play_clock interval, tree text DEFAULT NULL)
RETURNS bigint
AS 'MODULE_PATHNAME', 'gametree_match_begin'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.match_begin(text, text, text, interval, interval, text) IS
'Records a match the caller (the session user) plays as role of game, from its initial state, with the tree it searches (one of the game''s the caller can read); returns the row''s id in gametree.matches';

CREATE FUNCTION @extschema@.match_move(id bigint, joint_move jsonb)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'gametree_match_move'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.match_move(bigint, jsonb) IS
'Plays a legal joint move of the state of a match the caller plays: records it and returns the state it leads to';

CREATE FUNCTION @extschema@.match_end(id bigint, aborted boolean DEFAULT false, keep_tree boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'gametree_match_end'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.match_end(bigint, boolean, boolean) IS
'Ends a match the caller plays, done (its state terminal) or aborted; drops its tree unless keep_tree; returns the goals (NULL when aborted before a terminal state)';

CREATE FUNCTION @extschema@.match_replay(id bigint)
RETURNS TABLE (ply integer, move jsonb, state jsonb, goals jsonb)
AS 'MODULE_PATHNAME', 'gametree_match_replay'
LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION @extschema@.match_replay(bigint) IS
'A recorded match step by step, recomputed from its moves: ply 0 the initial state, then each joint move and the state it leads to, with the goals of a terminal state';

-- Proof-number search in memory.
CREATE FUNCTION @extschema@.prove(game text, state jsonb DEFAULT NULL, time_limit interval DEFAULT NULL,
                                  max_states bigint DEFAULT NULL,
                                  OUT proven boolean, OUT utility jsonb, OUT best_move jsonb, OUT bounds jsonb,
                                  OUT states bigint, OUT searches integer, OUT proof_number bigint,
                                  OUT disproof_number bigint, OUT stopped text)
RETURNS record
AS 'MODULE_PATHNAME', 'gametree_prove'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.prove(text, jsonb, interval, bigint) IS
'The value of a state (NULL: the initial one) under perfect play, proven by proof-number search in memory, with a move that keeps it; or the bounds reached within time_limit, max_states and gametree.search_memory. Games of one role, or of two whose goals sum to 100';


-- Random games to the end: what Monte Carlo search plays, and the speed GGP engines quote.
CREATE FUNCTION @extschema@.playouts(game text, state jsonb DEFAULT NULL, max_playouts bigint DEFAULT NULL,
                                     time_limit interval DEFAULT NULL, seed bigint DEFAULT NULL,
                                     OUT utility jsonb, OUT playouts bigint, OUT states bigint,
                                     OUT seconds double precision)
RETURNS record
AS 'MODULE_PATHNAME', 'gametree_playouts'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.playouts(text, jsonb, bigint, interval, bigint) IS
'Uniformly random games from a state (NULL: the initial one) to their end, until max_playouts or time_limit: the mean goal per role, the games played, the state changes made (next moves) and the seconds taken; seed (NULL: the state''s hash) fixes the games';


-- Proof-number search in a tree: what it proved is kept in <tree>_proof.
CREATE PROCEDURE @extschema@.solve(tree text, state jsonb DEFAULT NULL, time_limit interval DEFAULT NULL,
                                   max_states bigint DEFAULT NULL)
AS 'MODULE_PATHNAME', 'gametree_solve'
LANGUAGE C;
COMMENT ON PROCEDURE @extschema@.solve(text, jsonb, interval, bigint) IS
'Batch job: proves the value of a state of the tree (NULL: its root) by proof-number search, storing the states the proof needs, '
'bounds and proof numbers in <tree>_proof, and proven values in utility, proven and best_move; commits every few seconds '
'(in one transaction inside a transaction block or a function); stops when proven, at time_limit, max_states positions held, '
'or gametree.search_memory; resumable';

COMMENT ON FUNCTION @extschema@.load_game(text, text) IS
'Parses, checks and compiles a GDL game description (KIF text) and stores it in gametree.gdl_games under name, for every session; returns its roles, the size of the compiled rules and the engine that evaluates them (network, or prover when the network would need more than half of gametree.gdl_memory or was not built within gametree.gdl_network_time)';

-- The compiled network beside the description: a new backend reads it
-- instead of grounding the rules again.  Games loaded before keep NULL and
-- are compiled from their text, as before.
ALTER TABLE @extschema@.gdl_games ADD COLUMN network bytea;
COMMENT ON COLUMN @extschema@.gdl_games.network IS
'The compiled network of a game on the network engine, in this build''s format (NULL on the prover, or loaded before 0.4.0): a backend reads it instead of compiling kif again';
-- Written once per load and read by every new backend: lz4 compresses
-- chess.kif's 30 MB network in a quarter of pglz's time (0.12 s against
-- 0.45 s), and smaller (16.6 MB against 18.9 MB).  A server built without
-- lz4 keeps its default.
DO $$
BEGIN
    ALTER TABLE @extschema@.gdl_games ALTER COLUMN network SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
    NULL;
END
$$;

COMMENT ON TABLE @extschema@.gdl_games IS
'One row per game loaded from GDL: its KIF text, roles, the engine load_game chose (every backend compiles the game for it), who loaded it and when; written by load_game, compile_network and unload_game only';

CREATE FUNCTION @extschema@.compile_network(name text,
                                            OUT game text, OUT roles text[], OUT facts integer,
                                            OUT actions integer, OUT rules integer, OUT nodes integer,
                                            OUT engine text)
RETURNS record
AS 'MODULE_PATHNAME', 'gametree_compile_network'
LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION @extschema@.compile_network(text) IS
'Compiles the network of a loaded game and stores it in gametree.gdl_games as its engine, for a game that load_game left on the prover (gametree.gdl_network_time, gametree.gdl_memory); fails when the network still does not fit or is late, for a game on the prover while trees use it, and for roles other than the one that loaded it (or a superuser)';
