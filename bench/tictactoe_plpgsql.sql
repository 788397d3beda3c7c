-- bench/tictactoe_plpgsql.sql: the baseline of bench/tictactoe_plpgsql.sh.
-- Tic-tac-toe grown breadth first and solved bottom up in plain PL/pgSQL and
-- SQL, without the gametree extension: what a user would write.  States,
-- moves, goals, utility, mobility and proven flags are encoded as gametree
-- encodes them, so that the two trees can be compared row for row.
SET client_min_messages = warning;

-- Rules.  A state is a jsonb array of facts: the nine cells in row-major
-- order, ["cell", row, col, "x"|"o"|"b"], then ["control", role] while play
-- goes on.

CREATE FUNCTION plp_initial() RETURNS jsonb
LANGUAGE sql IMMUTABLE
AS $$
    SELECT jsonb_agg(jsonb_build_array('cell', c / 3 + 1, c % 3 + 1, 'b') ORDER BY c)
           || '[["control", "xplayer"]]'::jsonb
    FROM generate_series(0, 8) c
$$;

CREATE FUNCTION plp_other(role text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT
AS $$ SELECT CASE role WHEN 'xplayer' THEN 'oplayer' ELSE 'xplayer' END $$;

-- The mark ("x" or "o") with three in a row; NULL when there is none.
CREATE FUNCTION plp_winner(state jsonb) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT
AS $$
DECLARE
    line int[];
    mark text;
BEGIN
    FOREACH line SLICE 1 IN ARRAY ARRAY[[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7],
                                        [2, 5, 8], [0, 4, 8], [2, 4, 6]] LOOP
        mark := state -> line[1] ->> 3;
        IF mark <> 'b' AND state -> line[2] ->> 3 = mark AND state -> line[3] ->> 3 = mark THEN
            RETURN mark;
        END IF;
    END LOOP;
    RETURN NULL;
END $$;

CREATE FUNCTION plp_terminal(state jsonb) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT
AS $$
BEGIN
    IF plp_winner(state) IS NOT NULL THEN
        RETURN true;
    END IF;
    FOR c IN 0..8 LOOP
        IF state -> c ->> 3 = 'b' THEN
            RETURN false;
        END IF;
    END LOOP;
    RETURN true;
END $$;

-- Goal values of a terminal state; NULL while play goes on.
CREATE FUNCTION plp_goal(state jsonb) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE STRICT
AS $$
DECLARE
    winner text;
BEGIN
    IF NOT plp_terminal(state) THEN
        RETURN NULL;
    END IF;
    winner := plp_winner(state);
    RETURN jsonb_build_object('xplayer', CASE winner WHEN 'x' THEN 100 WHEN 'o' THEN 0 ELSE 50 END,
                              'oplayer', CASE winner WHEN 'o' THEN 100 WHEN 'x' THEN 0 ELSE 50 END);
END $$;

-- Legal joint moves in row-major order: the role in control marks an empty
-- cell, the other plays noop.
CREATE FUNCTION plp_legal(state jsonb) RETURNS SETOF jsonb
LANGUAGE plpgsql IMMUTABLE STRICT
AS $$
DECLARE
    mover text := state -> 9 ->> 1;
    c int;
BEGIN
    IF mover IS NULL THEN
        RETURN;
    END IF;
    FOR c IN 0..8 LOOP
        CONTINUE WHEN state -> c ->> 3 <> 'b';
        RETURN NEXT CASE mover
            WHEN 'xplayer' THEN jsonb_build_array(jsonb_build_array('does', 'xplayer',
                                    jsonb_build_array('mark', c / 3 + 1, c % 3 + 1)),
                                '["does", "oplayer", "noop"]'::jsonb)
            ELSE jsonb_build_array('["does", "xplayer", "noop"]'::jsonb,
                     jsonb_build_array('does', 'oplayer', jsonb_build_array('mark', c / 3 + 1, c % 3 + 1)))
        END;
    END LOOP;
END $$;

CREATE FUNCTION plp_next(state jsonb, move jsonb) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE STRICT
AS $$
DECLARE
    mover text := state -> 9 ->> 1;
    action jsonb := move -> CASE mover WHEN 'xplayer' THEN 0 ELSE 1 END -> 2;
    cell int := 3 * ((action ->> 1)::int - 1) + (action ->> 2)::int - 1;
    after jsonb;
BEGIN
    after := jsonb_set(state - 9, ARRAY[cell::text, '3'],
                       to_jsonb(CASE mover WHEN 'xplayer' THEN 'x' ELSE 'o' END));
    IF plp_terminal(after) THEN
        RETURN after;
    END IF;
    RETURN after || jsonb_build_array(jsonb_build_array('control', plp_other(mover)));
END $$;

-- The tree.

CREATE TABLE plp_states (
    id       bigserial PRIMARY KEY,
    state    jsonb NOT NULL UNIQUE,
    goal     jsonb,
    depth    int NOT NULL,
    control  text,
    utility  jsonb,
    mobility jsonb,
    proven   boolean NOT NULL DEFAULT false,
    best_move bigint
);
CREATE INDEX ON plp_states (depth);

CREATE TABLE plp_moves (
    id   bigserial PRIMARY KEY,
    move jsonb NOT NULL UNIQUE
);

-- No foreign keys, as in gametree's trees: grow writes both ends of each
-- edge itself.
CREATE TABLE plp_graph (
    init_id  bigint NOT NULL,
    move_id  bigint NOT NULL,
    next_id  bigint NOT NULL,
    utility  jsonb,
    mobility jsonb,
    proven   boolean NOT NULL DEFAULT false,
    PRIMARY KEY (init_id, move_id)
);
CREATE INDEX ON plp_graph (next_id);

-- One ply of successors at a time, kept between statements of a level.
CREATE UNLOGGED TABLE plp_step (init_id bigint, move jsonb, next jsonb);

-- Breadth first, one depth per round, set-based within a round; a position
-- reached again (a transposition) is stored once.
CREATE PROCEDURE plp_grow()
LANGUAGE plpgsql
AS $$
DECLARE
    d int := 0;
BEGIN
    INSERT INTO plp_states (state, goal, depth, control)
    SELECT s, plp_goal(s), 0, s -> 9 ->> 1 FROM plp_initial() s;
    LOOP
        TRUNCATE plp_step;
        INSERT INTO plp_step
        SELECT s.id, m.move, plp_next(s.state, m.move)
        FROM plp_states s, plp_legal(s.state) m(move)
        WHERE s.depth = d AND s.goal IS NULL;
        EXIT WHEN NOT FOUND;
        ANALYZE plp_step;
        INSERT INTO plp_moves (move) SELECT DISTINCT move FROM plp_step ORDER BY move
        ON CONFLICT (move) DO NOTHING;
        INSERT INTO plp_states (state, goal, depth, control)
        SELECT n.next, plp_goal(n.next), d + 1, n.next -> 9 ->> 1
        FROM (SELECT DISTINCT next FROM plp_step) n
        ON CONFLICT (state) DO NOTHING;
        INSERT INTO plp_graph (init_id, move_id, next_id)
        SELECT st.init_id, m.id, n.id
        FROM plp_step st JOIN plp_moves m ON m.move = st.move JOIN plp_states n ON n.state = st.next;
        -- Later rounds join the grown tables: plans need current statistics.
        ANALYZE plp_states, plp_moves, plp_graph;
        d := d + 1;
    END LOOP;
END $$;

-- Bottom up, deepest first: in tic-tac-toe every successor is one ply
-- deeper, so a state's edges are settled when its depth comes.  Semantics
-- as in src/propagate.c: max^n for the role in control (ties to a proven
-- edge, then to the least for the other role, then to the smallest move
-- id); proven when the choice is proven and nothing unproven could beat
-- it; mobility of the role in control = edges that are not a proven loss
-- for it, of the other role = its least mobility over the edges.
CREATE PROCEDURE plp_solve()
LANGUAGE plpgsql
AS $$
DECLARE
    d int;
BEGIN
    UPDATE plp_states SET utility = goal, mobility = '{"xplayer": 0, "oplayer": 0}', proven = true
    WHERE goal IS NOT NULL;
    FOR d IN SELECT DISTINCT depth FROM plp_states WHERE goal IS NULL ORDER BY depth DESC LOOP
        -- Edges copy the values of the states they lead to.
        UPDATE plp_graph g SET utility = n.utility, mobility = n.mobility, proven = n.proven
        FROM plp_states s, plp_states n
        WHERE s.depth = d AND s.goal IS NULL AND g.init_id = s.id AND n.id = g.next_id;
        WITH edges AS (
            SELECT s.id, s.control, g.move_id, g.utility, g.mobility, g.proven,
                   (g.utility ->> s.control)::numeric AS own,
                   (g.utility ->> plp_other(s.control))::numeric AS others,
                   (g.mobility ->> plp_other(s.control))::int AS other_mobility
            FROM plp_states s JOIN plp_graph g ON g.init_id = s.id
            WHERE s.depth = d AND s.goal IS NULL
        ), best AS (
            SELECT DISTINCT ON (id) id, move_id, utility, proven, own
            FROM edges
            ORDER BY id, own DESC, proven DESC, others, move_id
        ), agg AS (
            SELECT id, control, bool_and(proven) AS all_proven,
                   count(*) FILTER (WHERE NOT (proven AND own <= 0)) AS own_mobility,
                   min(other_mobility) AS other_mobility
            FROM edges GROUP BY id, control
        )
        UPDATE plp_states s
        SET utility = b.utility, best_move = b.move_id,
            proven = b.proven AND (a.all_proven OR b.own >= 100),
            mobility = jsonb_build_object(a.control, a.own_mobility, plp_other(a.control), a.other_mobility)
        FROM best b JOIN agg a ON a.id = b.id
        WHERE s.id = b.id;
    END LOOP;
END $$;
