-- gametree 0.4.0: install script
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

CREATE FUNCTION @extschema@.play(game text, state jsonb, moves jsonb)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'gametree_play'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.play(text, jsonb, jsonb) IS
'The state after a line of moves from state (a JSON array, each move in any form next() takes, such as analyse''s pv)';

CREATE FUNCTION @extschema@.notation(game text, state jsonb, moves jsonb)
RETURNS text
AS 'MODULE_PATHNAME', 'gametree_notation'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.notation(text, jsonb, jsonb) IS
'A line of moves from state (a JSON array, each move in any form next() takes, such as analyse''s pv) in the game''s notation, separated by blanks: SAN for chess (e4 e5 Nf3), PDN for checkers (11-15), the column for connect four, row,column for tic-tac-toe, the action as JSON for games from GDL';

CREATE FUNCTION @extschema@.short_notation(game text, move jsonb)
RETURNS text
AS 'MODULE_PATHNAME', 'gametree_short_notation'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.short_notation(text, jsonb) IS
'A move (a joint move or an action) without its position, as clients print it: UCI for chess (e2e4), PDN for checkers (11-15), the column for connect four, row,column for tic-tac-toe; the mover''s action (or the joint move, when several roles move) as JSON without blanks otherwise';

CREATE FUNCTION @extschema@.parse_move(game text, input text, OUT move jsonb, OUT expected text)
AS 'MODULE_PATHNAME', 'gametree_parse_move'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.parse_move(text, text) IS
'A move typed as players write it (SAN or UCI for chess, PDN for checkers, the column, row and column) as JSON that next() takes, NULL when input is not written so; expected says what the game reads';

CREATE FUNCTION @extschema@.move_hint(game text)
RETURNS text
AS 'MODULE_PATHNAME', 'gametree_move_hint'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.move_hint(text) IS
'How to type a move of the game, short, for a prompt (SAN or UCI for chess, PDN for checkers, the column, row and column; JSON for games without a short form): what parse_move reads';

CREATE FUNCTION @extschema@.short_board(game text, state jsonb)
RETURNS text
AS 'MODULE_PATHNAME', 'gametree_short_board'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.short_board(text, jsonb) IS
'The board small enough for a node of a drawn graph, one line per row (X.O for tic-tac-toe, R and B for connect four, top row first), NULL for a game without one';

CREATE FUNCTION @extschema@.record_format(game text, state jsonb, OUT format text, OUT tags text,
    OUT first_turn integer, OUT setup_fen text, OUT first_wins text, OUT second_wins text, OUT draw text, OUT unfinished text)
AS 'MODULE_PATHNAME', 'gametree_record_format'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.record_format(text, jsonb) IS
'The game''s record format for a record starting in state (PGN for chess, PDN for checkers): its name, its own tag lines, the number of the first turn, the FEN to set up (NULL for the initial state), the result strings; every column NULL for a game without one';

CREATE FUNCTION @extschema@.centipawns(game text, utility double precision)
RETURNS double precision
AS 'MODULE_PATHNAME', 'gametree_centipawns'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.centipawns(text, double precision) IS
'The evaluation behind a utility of the role to move, in the game''s own unit (chess: centipawns, the inverse of its heuristic''s curve, held within 0.01 and 99.99)';

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

-- Search.  VOLATILE: a time limit makes the result depend on the machine.

CREATE FUNCTION @extschema@.bestmove(game text, state jsonb, time_limit interval DEFAULT '1 second',
                                     max_depth integer DEFAULT NULL, method text DEFAULT 'auto',
                                     tree text DEFAULT NULL)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'gametree_bestmove'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.bestmove(text, jsonb, interval, integer, text, text) IS
'The joint move to play in a state, as next() takes it, by alpha-beta or Monte Carlo search (method) within time_limit and max_depth; with tree, a stored tree of the game is read first and written back after';

CREATE FUNCTION @extschema@.analyse(game text, state jsonb, time_limit interval DEFAULT '1 second',
                                    max_depth integer DEFAULT NULL, method text DEFAULT 'auto',
                                    tree text DEFAULT NULL)
RETURNS TABLE (move jsonb, utility jsonb, proven boolean, mobility jsonb, visits bigint, depth integer,
               pv jsonb)
AS 'MODULE_PATHNAME', 'gametree_analyse'
LANGUAGE C VOLATILE ROWS 30;
COMMENT ON FUNCTION @extschema@.analyse(text, jsonb, interval, integer, text, text) IS
'Every legal move of a state, best first, with its value (utility, proven, non-losing mobility), Monte Carlo visits, the search depth and the expected line (pv)';

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


-- Trees: <name>_states, <name>_moves and <name>_edges with the view <name>_graph, recorded in gametree.trees.
--
-- Everyone may read the catalogs; only gametree's functions write them (as
-- the extension's owner, after checking that the caller may do what the row
-- records), so no role can squat another's tree name, claim to grow its tree
-- or block its growth.  The functions that run SQL (the tree functions, all
-- in C) pin search_path to pg_catalog, pg_temp after finding the tree along
-- the caller's search_path; the others run no SQL.

CREATE TABLE @extschema@.trees (
    schema   name NOT NULL,
    name     text NOT NULL,
    game     text NOT NULL,
    root_id  bigint NOT NULL,
    owner    name NOT NULL,
    created  timestamptz NOT NULL DEFAULT now(),
    states   bigint NOT NULL DEFAULT 1,
    edges    bigint NOT NULL DEFAULT 0,
    frontier bigint NOT NULL,
    pending  bigint NOT NULL DEFAULT 0,
    writes   bigint NOT NULL DEFAULT 0,
    moves    bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (schema, name)
);
COMMENT ON TABLE @extschema@.trees IS
'One row per tree: where its tables are, its game, root and creator, and counters kept by expand and grow; written by gametree''s functions only';
COMMENT ON COLUMN @extschema@.trees.pending IS
'Expansions whose values are not propagated yet: grow and propagate(tree, false) propagate when it is not 0';
COMMENT ON COLUMN @extschema@.trees.writes IS
'Expansions stored so far, propagated or not: a propagation that commits as it goes (grow''s) stops when another session stored one since it read the tree';
GRANT SELECT ON @extschema@.trees TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('@extschema@.trees', '');

COMMENT ON COLUMN @extschema@.trees.moves IS
'Rows of the tree''s _moves table (distinct joint moves)';

-- What tree_stats, depth_stats and outcomes report, kept by the functions
-- that write a tree, in the transaction that writes its rows, so that they
-- read a few rows here instead of counting the tree's tables.
CREATE TABLE @extschema@.tree_depths (
    schema   name NOT NULL,
    tree     text NOT NULL,
    depth    integer NOT NULL,
    states   bigint NOT NULL,
    expanded bigint NOT NULL,
    terminal bigint NOT NULL,
    proven   bigint NOT NULL,
    edges    bigint NOT NULL,
    PRIMARY KEY (schema, tree, depth)
);
COMMENT ON TABLE @extschema@.tree_depths IS
'Per tree and depth: states, expanded (and not terminal), terminal, proven, edges out of them; kept by expand, grow and propagate, read by tree_stats and depth_stats; written by gametree''s functions only';
GRANT SELECT ON @extschema@.tree_depths TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('@extschema@.tree_depths', '');

CREATE TABLE @extschema@.tree_values (
    schema   name NOT NULL,
    tree     text NOT NULL,
    utility  jsonb NOT NULL,
    states   bigint NOT NULL,
    PRIMARY KEY (schema, tree, utility)
);
COMMENT ON TABLE @extschema@.tree_values IS
'Per tree and proven utility: the proven states with that utility; kept by expand, grow and propagate, read by outcomes; written by gametree''s functions only';
GRANT SELECT ON @extschema@.tree_values TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('@extschema@.tree_values', '');

CREATE TABLE @extschema@.grow_progress (
    pid           integer PRIMARY KEY,
    backend_start timestamptz NOT NULL,
    schema        name NOT NULL,
    tree          text NOT NULL,
    started       timestamptz NOT NULL,
    updated       timestamptz NOT NULL,
    expanded      bigint NOT NULL DEFAULT 0,
    states        bigint NOT NULL,
    edges         bigint NOT NULL,
    frontier      bigint NOT NULL,
    rate          double precision,
    done          boolean NOT NULL DEFAULT false,
    owner         name NOT NULL
);
COMMENT ON TABLE @extschema@.grow_progress IS
'One row per session running gametree.grow, committed with every batch so that others can watch: '
'states, edges and frontier of the tree, states expanded and stored per second by this session; '
'rows of ended sessions are removed when a grow starts';
GRANT SELECT ON @extschema@.grow_progress TO PUBLIC;

-- Games loaded from GDL.  Like the tree catalogs, gdl_games is read by all
-- and written by load_game, compile_network and unload_game alone, as the
-- extension's owner.

CREATE TABLE @extschema@.gdl_games (
    name        text PRIMARY KEY,
    kif         text NOT NULL,
    kif_sha256  bytea NOT NULL,
    roles       text[] NOT NULL,
    description text NOT NULL,
    engine      text NOT NULL CHECK (engine IN ('network', 'prover')),
    loaded_by   name NOT NULL,
    loaded_at   timestamptz NOT NULL DEFAULT now(),
    network     bytea
);
COMMENT ON TABLE @extschema@.gdl_games IS
'One row per game loaded from GDL: its KIF text, roles, the engine load_game chose (every backend compiles the game for it), who loaded it and when; written by load_game, compile_network and unload_game only';
-- Names differ in more than case: GDL's symbols are case-insensitive, and
-- CHESS beside chess would read as the built-in game.
CREATE UNIQUE INDEX gdl_games_lower_name ON @extschema@.gdl_games (pg_catalog.lower(name));
COMMENT ON COLUMN @extschema@.gdl_games.kif_sha256 IS
'SHA-256 of kif: backends compare it, not the text, to tell whether the rules they compiled are still the loaded ones';
COMMENT ON COLUMN @extschema@.gdl_games.network IS
'The compiled network of a game on the network engine, in this build''s format (NULL on the prover, or loaded before 0.4.0): a backend reads it instead of compiling kif again';
GRANT SELECT ON @extschema@.gdl_games TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('@extschema@.gdl_games', '');
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

CREATE FUNCTION @extschema@.load_game(name text, kif text,
                                      OUT game text, OUT roles text[], OUT facts integer,
                                      OUT actions integer, OUT rules integer, OUT nodes integer,
                                      OUT engine text)
RETURNS record
AS 'MODULE_PATHNAME', 'gametree_load_game'
LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION @extschema@.load_game(text, text) IS
'Parses, checks and compiles a GDL game description (KIF text) and stores it in gametree.gdl_games under name, for every session; returns its roles, the size of the compiled rules and the engine that evaluates them (network, or prover when the network would need more than half of gametree.gdl_memory or was not built within gametree.gdl_network_time)';

CREATE FUNCTION @extschema@.compile_network(name text,
                                            OUT game text, OUT roles text[], OUT facts integer,
                                            OUT actions integer, OUT rules integer, OUT nodes integer,
                                            OUT engine text)
RETURNS record
AS 'MODULE_PATHNAME', 'gametree_compile_network'
LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION @extschema@.compile_network(text) IS
'Compiles the network of a loaded game and stores it in gametree.gdl_games as its engine, for a game that load_game left on the prover (gametree.gdl_network_time, gametree.gdl_memory); fails when the network still does not fit or is late, for a game on the prover while trees use it, and for roles other than the one that loaded it (or a superuser)';

CREATE FUNCTION @extschema@.unload_game(name text)
RETURNS void
AS 'MODULE_PATHNAME', 'gametree_unload_game'
LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION @extschema@.unload_game(text) IS
'Removes a game loaded from GDL; refused while a tree uses it, and to roles other than the one that loaded it (or a superuser)';

CREATE FUNCTION @extschema@.tree_info(tree text)
RETURNS @extschema@.trees
AS 'MODULE_PATHNAME', 'gametree_tree_info'
LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION @extschema@.tree_info(text) IS
'The gametree.trees row of a tree (unqualified names are looked up along search_path)';

CREATE FUNCTION @extschema@.create_tree(name text, game text, root jsonb DEFAULT NULL, nodes text[] DEFAULT NULL)
RETURNS bigint
AS 'MODULE_PATHNAME', 'gametree_create_tree'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.create_tree(text, text, jsonb, text[]) IS
'Creates <name>_states, <name>_moves and <name>_edges with the view <name>_graph (owned by the caller, in a permanent schema where it may create tables) with the root (default: the initial state); returns the root id; '
'with nodes (foreign servers of postgres_fdw), a tree sharded over them';

CREATE FUNCTION @extschema@.drop_tree(name text)
RETURNS void
AS 'MODULE_PATHNAME', 'gametree_drop_tree'
LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION @extschema@.drop_tree(text) IS
'Drops a tree''s tables (those left) and its catalog row; for the owner of its tables';

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
'Recomputes every utility, mobility and proven flag from scratch, and counts the tables again as recount does (or, with from_scratch false, only what stale states need), deepest states first; returns the evaluations made';

CREATE PROCEDURE @extschema@.grow(tree text, max_states bigint DEFAULT NULL, max_depth integer DEFAULT NULL,
                                  time_limit interval DEFAULT NULL)
AS 'MODULE_PATHNAME', 'gametree_grow'
LANGUAGE C;
COMMENT ON PROCEDURE @extschema@.grow(text, bigint, integer, interval) IS
'Batch job: expands the frontier breadth first, committing every batch (in one transaction inside a '
'transaction block or a function); stops at max_states states, states max_depth plies deep, time_limit, '
'or an empty frontier; resumable; sessions may share one tree';

CREATE FUNCTION @extschema@.recount(tree text)
RETURNS void
AS 'MODULE_PATHNAME', 'gametree_recount'
LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION @extschema@.recount(text) IS
'Counts a tree''s tables again and sets its counters (gametree.trees, tree_depths, tree_values) to what they hold: after rows were written by hand';

-- Analytics over a tree's tables.

CREATE FUNCTION @extschema@.tree_stats(tree text)
RETURNS TABLE (game text, states bigint, edges bigint, moves bigint, expanded bigint, frontier bigint,
               terminal bigint, proven bigint, max_depth integer, branching numeric,
               root_utility jsonb, root_mobility jsonb, root_proven boolean)
AS 'MODULE_PATHNAME', 'gametree_tree_stats'
LANGUAGE C STABLE STRICT ROWS 1;
COMMENT ON FUNCTION @extschema@.tree_stats(text) IS
'Counts of a tree (states, edges, distinct moves, expanded, frontier, terminal, proven), its depth, mean branching factor and the root''s value';

CREATE FUNCTION @extschema@.depth_stats(tree text)
RETURNS TABLE (depth integer, states bigint, expanded bigint, terminal bigint, proven bigint,
               edges bigint, branching numeric)
AS 'MODULE_PATHNAME', 'gametree_depth_stats'
LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION @extschema@.depth_stats(text) IS
'Per depth (plies from the root when first reached): states, expanded, terminal, proven, edges out and branching factor';

CREATE FUNCTION @extschema@.outcomes(tree text)
RETURNS TABLE (role text, wins bigint, draws bigint, losses bigint, unproven bigint)
AS 'MODULE_PATHNAME', 'gametree_outcomes'
LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION @extschema@.outcomes(text) IS
'Per role: positions proven won (goal 100), drawn or shared (between), lost (0), and not proven';

CREATE FUNCTION @extschema@.principal_variation(tree text, state_id bigint)
RETURNS TABLE (ply integer, id bigint, move jsonb, utility jsonb, proven boolean, state jsonb)
AS 'MODULE_PATHNAME', 'gametree_principal_variation'
LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION @extschema@.principal_variation(text, bigint) IS
'The expected line of play from a state: each row a state, its value and the move its role in control chooses';

CREATE FUNCTION @extschema@.subtree(tree text, state_id bigint, plies integer)
RETURNS TABLE (id bigint, ply integer, depth integer, state jsonb, expanded boolean, terminal boolean,
               control text, utility jsonb, mobility jsonb, proven boolean, moves jsonb)
AS 'MODULE_PATHNAME', 'gametree_subtree'
LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION @extschema@.subtree(text, bigint, integer) IS
'The states within plies of a state (no rows when it is not in the tree), nearest first, each with its edges as a JSON array of {to, move, utility, proven, visits, best} in move order when it is nearer than plies';

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
