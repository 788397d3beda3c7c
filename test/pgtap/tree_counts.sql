-- tree_stats, depth_stats and outcomes read counts that the writers keep
-- (gametree.trees, gametree.tree_depths, gametree.tree_values): after every
-- kind of write they equal what counting the tables gives.
-- Not in one transaction: grow commits, and a cancelled grow keeps what it
-- committed.
SET client_min_messages = warning;
SELECT plan(17);

\ir helpers.psql

-- What tree_stats, depth_stats and outcomes report, counted from the tables
-- (as they did before they kept counts).
CREATE FUNCTION pg_temp.counted(tree text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  result text;
BEGIN
  EXECUTE format($q$
    SELECT concat_ws(' / ',
      (SELECT ROW(count(*), (SELECT count(*) FROM %2$I), (SELECT count(*) FROM %3$I),
                  count(*) FILTER (WHERE expanded AND goal IS NULL), count(*) FILTER (WHERE NOT expanded),
                  count(*) FILTER (WHERE goal IS NOT NULL), count(*) FILTER (WHERE proven), max(depth))::text
       FROM %1$I),
      (SELECT string_agg(ROW(d.depth, d.n, d.e, d.t, d.p, d.edges)::text, ' ' ORDER BY d.depth)
       FROM (SELECT s.depth, count(*) n, count(*) FILTER (WHERE s.expanded AND s.goal IS NULL) e,
                    count(*) FILTER (WHERE s.goal IS NOT NULL) t, count(*) FILTER (WHERE s.proven) p,
                    coalesce(sum(g.n), 0) edges
             FROM %1$I s LEFT JOIN (SELECT init_id, count(*) n FROM %2$I GROUP BY init_id) g ON g.init_id = s.id
             GROUP BY s.depth) d),
      (SELECT string_agg(ROW(r.role, o.w, o.d, o.l, o.u)::text, ' ' ORDER BY r.n)
       FROM unnest((SELECT roles FROM gametree.games() WHERE game = (SELECT game FROM gametree.tree_info(%4$L))))
            WITH ORDINALITY r(role, n),
       LATERAL (SELECT count(*) FILTER (WHERE proven AND (utility ->> r.role)::numeric = 100) w,
                       count(*) FILTER (WHERE proven AND (utility ->> r.role)::numeric > 0
                                        AND (utility ->> r.role)::numeric < 100) d,
                       count(*) FILTER (WHERE proven AND (utility ->> r.role)::numeric = 0) l,
                       count(*) FILTER (WHERE NOT proven) u FROM %1$I) o))$q$,
    tree || '_states', tree || '_graph', tree || '_moves', tree) INTO result;
  RETURN result;
END $$;

-- The same from the functions.
CREATE FUNCTION pg_temp.reported(tree text) RETURNS text LANGUAGE sql AS $$
  SELECT concat_ws(' / ',
    (SELECT ROW(states, edges, moves, expanded, frontier, terminal, proven, max_depth)::text
     FROM gametree.tree_stats(tree)),
    (SELECT string_agg(ROW(depth, states, expanded, terminal, proven, edges)::text, ' ' ORDER BY depth)
     FROM gametree.depth_stats(tree)),
    (SELECT string_agg(ROW(role, wins, draws, losses, unproven)::text, ' ' ORDER BY ord)
     FROM gametree.outcomes(tree) WITH ORDINALITY o(role, wins, draws, losses, unproven, ord)))
$$;

\o /dev/null
SELECT gametree.create_tree('cnt', 'tictactoe');
\o
SELECT is(pg_temp.reported('cnt'), pg_temp.counted('cnt'), 'a new tree: its root');

\o /dev/null
SELECT gametree.expand('cnt', gametree.state_hash('tictactoe', gametree.initial('tictactoe')));
\o
SELECT is(pg_temp.reported('cnt'), pg_temp.counted('cnt'), 'after expand');

\o /dev/null
SELECT * FROM gametree.grow_step('cnt', 30);
SELECT * FROM gametree.grow_step('cnt', 200);
\o
SELECT is(pg_temp.reported('cnt'), pg_temp.counted('cnt'), 'after grow_step, propagation pending');
SELECT cmp_ok((SELECT pending FROM gametree.trees WHERE name = 'cnt'), '>', 0::bigint, '(pending indeed)');

\o /dev/null
SELECT gametree.propagate('cnt', false);
\o
SELECT is(pg_temp.reported('cnt'), pg_temp.counted('cnt'), 'after propagate(tree, false)');

\o /dev/null
CALL gametree.grow('cnt');
\o
SELECT is(pg_temp.reported('cnt'), pg_temp.counted('cnt'), 'after grow to the end: every state proven');
SELECT is((SELECT row(proven, root_proven)::text FROM gametree.tree_stats('cnt')), '(5478,t)',
          'tic-tac-toe solved: 5,478 states proven');

-- Values written by hand, and propagation from scratch writing them back
UPDATE cnt_states SET proven = false WHERE depth = 5 AND goal IS NULL;
\o /dev/null
SELECT gametree.propagate('cnt', true);
\o
SELECT is(pg_temp.reported('cnt'), pg_temp.counted('cnt'),
          'propagate from scratch after values written by hand: the counts are the tables'' again');

-- A search's write-back expands and propagates in the tables
\o /dev/null
SELECT gametree.create_tree('cnt_c4', 'connect4');
CALL gametree.grow('cnt_c4', max_depth => 3);
SELECT gametree.bestmove('connect4', gametree.initial('connect4'), NULL, 4, 'alphabeta', 'cnt_c4');
\o
SELECT is(pg_temp.reported('cnt_c4'), pg_temp.counted('cnt_c4'), 'after a search''s write-back');

-- A grow cancelled mid-way keeps its committed batches, and their counts
SELECT dblink_connect('canceller', pg_temp.connstr());
\o /dev/null
SELECT dblink_exec('canceller', 'SET statement_timeout = ''1500ms''');
SELECT dblink_exec('canceller', 'SET gametree.grow_batch_size = 200');
\o
SELECT is(pg_temp.try($$SELECT dblink_exec('canceller', 'CALL gametree.grow(''cnt_c4'')')$$),
          '57014: canceling statement due to statement timeout', 'a grow cancelled by statement_timeout');
SELECT cmp_ok((SELECT states FROM gametree.trees WHERE name = 'cnt_c4'), '>', 1000::bigint,
              '(it committed batches first)');
SELECT is(pg_temp.reported('cnt_c4'), pg_temp.counted('cnt_c4'), 'after the cancelled grow');
SELECT dblink_disconnect('canceller');

-- Rows written by hand: recount() counts the tables again
DELETE FROM cnt_c4_edges WHERE init_id IN (SELECT id FROM cnt_c4_states WHERE depth = 2);
UPDATE cnt_c4_states SET expanded = false WHERE depth = 2;
SELECT isnt(pg_temp.reported('cnt_c4'), pg_temp.counted('cnt_c4'), 'rows written by hand are not counted');
\o /dev/null
SELECT gametree.recount('cnt_c4');
\o
SELECT is(pg_temp.reported('cnt_c4'), pg_temp.counted('cnt_c4'), 'until recount()');

-- The counts are read only as far as the tables may be
SELECT pg_temp.make_roles('counts_reader');
SELECT is(pg_temp.try_as('counts_reader', $$SELECT * FROM gametree.depth_stats('public.cnt')$$),
          '42501: permission denied for table cnt_states', 'depth_stats: only for those who may read the tables');

-- Dropping a tree drops its counts
\o /dev/null
SELECT gametree.drop_tree('cnt');
SELECT gametree.drop_tree('cnt_c4');
\o
SELECT is((SELECT count(*) FROM gametree.tree_depths WHERE tree IN ('cnt', 'cnt_c4'))
          + (SELECT count(*) FROM gametree.tree_values WHERE tree IN ('cnt', 'cnt_c4')), 0::bigint,
          'drop_tree removes its counts');
SELECT is(pg_temp.try($$SELECT gametree.create_tree('cnt', 'connect4')$$) || ' ' || pg_temp.reported('cnt'),
          'ok ' || pg_temp.counted('cnt'), 'a tree made again under the name starts from its root');

SELECT gametree.drop_tree('cnt') IS NULL AS dropped \gset
SELECT * FROM finish();
