-- gametree 0.1.0: install script
\echo Use "CREATE EXTENSION gametree" to load this file. \quit

-- Game rules.  A game name always denotes the same rules, so the functions
-- that only compute from their arguments are IMMUTABLE.

CREATE FUNCTION @extschema@.games()
RETURNS TABLE (game text, roles text[], description text)
AS 'MODULE_PATHNAME', 'games'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.games() IS
'The games this server knows: name, roles in GGP order, description';

CREATE FUNCTION @extschema@.initial(game text)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'initial'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.initial(text) IS
'The initial state of a game, as a canonical JSON array of facts';

CREATE FUNCTION @extschema@.legal(game text, state jsonb)
RETURNS SETOF jsonb
AS 'MODULE_PATHNAME', 'legal'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 30;
COMMENT ON FUNCTION @extschema@.legal(text, jsonb) IS
'The legal joint moves of a state, in the game''s documented order; none when terminal';

CREATE FUNCTION @extschema@.next(game text, state jsonb, move jsonb)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'next'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.next(text, jsonb, jsonb) IS
'The state after a joint move (or the bare action of the role in control)';

CREATE FUNCTION @extschema@.successors(game text, state jsonb)
RETURNS TABLE (move jsonb, next jsonb)
AS 'MODULE_PATHNAME', 'successors'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 30;
COMMENT ON FUNCTION @extschema@.successors(text, jsonb) IS
'Every legal joint move of a state with the state it leads to, in legal() order';

CREATE FUNCTION @extschema@.terminal(game text, state jsonb)
RETURNS boolean
AS 'MODULE_PATHNAME', 'terminal'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.terminal(text, jsonb) IS
'True when play has ended in the state';

CREATE FUNCTION @extschema@.goal(game text, state jsonb)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'goal'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.goal(text, jsonb) IS
'Goal values {"role": 0..100, ...} of a terminal state; NULL when play goes on';

CREATE FUNCTION @extschema@.control(game text, state jsonb)
RETURNS text
AS 'MODULE_PATHNAME', 'control'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.control(text, jsonb) IS
'The role to move; NULL when the state is terminal or moves are simultaneous';

CREATE FUNCTION @extschema@.perft(game text, state jsonb, depth integer,
                                  include_terminal boolean DEFAULT false)
RETURNS bigint
AS 'MODULE_PATHNAME', 'perft'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000000;
COMMENT ON FUNCTION @extschema@.perft(text, jsonb, integer, boolean) IS
'Leaf nodes of the move tree depth plies deep; lines that end earlier count only when include_terminal';

CREATE FUNCTION @extschema@.board(game text, state jsonb)
RETURNS text
AS 'MODULE_PATHNAME', 'board'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.board(text, jsonb) IS
'A picture of the position, for psql';

CREATE FUNCTION @extschema@.state_hash(game text, state jsonb)
RETURNS bigint
AS 'MODULE_PATHNAME', 'state_hash'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.state_hash(text, jsonb) IS
'64-bit hash of a position, stable across runs, builds and machines (storage and shard key)';

CREATE FUNCTION @extschema@.from_fen(game text, fen text)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'from_fen'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.from_fen(text, text) IS
'The state written in the game''s text notation: FEN for chess, PDN FEN for checkers';

CREATE FUNCTION @extschema@.to_fen(game text, state jsonb)
RETURNS text
AS 'MODULE_PATHNAME', 'to_fen'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.to_fen(text, jsonb) IS
'The state in the game''s text notation: FEN for chess, PDN FEN for checkers';
