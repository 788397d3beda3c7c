/*
 * analytics.c: the queries of tree_stats, depth_stats, outcomes and
 * principal_variation (analytics.h).  Each opens the tree (which pins
 * search_path) and runs one query.  The first three read the counts that
 * writers keep (store/counts.h), a few catalog rows, not the tables:
 * milliseconds on a tree of millions of states.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "store/analytics.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

/*
 * Opens the tree for a query.  The counts come from gametree's catalogs,
 * which everyone may read; a role sees them only as far as it may read the
 * tables they count (reads, a bit mask of TREE_STATES etc.), as when they
 * were counted from the tables.
 */
static Tree *
open_for_rows(text *name, int reads)
{
	Tree	   *tree = tree_open(name, TREE_READ);

	for (int i = 0; i < TREE_TABLES; i++)
		if ((reads & (1 << i)) && pg_class_aclcheck(tree->relids[i], GetUserId(), ACL_SELECT) != ACLCHECK_OK)
			aclcheck_error(ACLCHECK_NO_PRIV, OBJECT_TABLE, get_rel_name(tree->relids[i]));
	return tree;
}

#define READS_ALL ((1 << TREE_TABLES) - 1)

Tree *
query_tree_stats(text *name)
{
	Tree	   *tree = open_for_rows(name, READS_ALL);

	tree_run(tree, RUN_PLAIN,
			 psprintf("SELECT $3, t.states, t.edges, t.moves, d.expanded, t.frontier, d.terminal, "
					  "d.proven, d.max_depth, round(t.edges::numeric / nullif(d.expanded, 0), 3), "
					  "%s, r.mobility, r.proven "
					  "FROM gametree.trees t, LATERAL (SELECT coalesce(sum(d.expanded), 0)::bigint, "
					  "coalesce(sum(d.terminal), 0)::bigint, coalesce(sum(d.proven), 0)::bigint, "
					  "max(d.depth) FROM gametree.tree_depths d "
					  "WHERE d.schema = t.schema AND d.tree = t.name) d(expanded, terminal, proven, max_depth), "
					  "%s r WHERE " TREE_KEY("t.") " AND r.id = $4", tree_utility_sql("r"), tree->states),
			 2, (Oid[]) {TEXTOID, INT8OID},
			 (Datum[]) {CStringGetTextDatum(tree->game->name), Int64GetDatum(tree->root_id)},
			 SPI_OK_SELECT);
	return tree;
}

Tree *
query_depth_stats(text *name)
{
	Tree	   *tree = open_for_rows(name, (1 << TREE_STATES) | (1 << TREE_EDGES));

	tree_run(tree, RUN_PLAIN,
			 "SELECT depth, states, expanded, terminal, proven, edges, "
			 "round(nullif(edges, 0)::numeric / nullif(expanded, 0), 3) "
			 "FROM gametree.tree_depths WHERE " TREE_ROWS_KEY " ORDER BY depth",
			 0, NULL, NULL, SPI_OK_SELECT);
	return tree;
}

Tree *
query_outcomes(text *name)
{
	Tree	   *tree = open_for_rows(name, 1 << TREE_STATES);
	const Game *game = tree->game;
	Datum	   *roles = palloc(game->nroles * sizeof(Datum));

	for (int r = 0; r < game->nroles; r++)
		roles[r] = CStringGetTextDatum(game->roles[r]);
	/* Proven states per proven utility (gametree.tree_values), a few rows. */
	tree_run(tree, RUN_PLAIN,
			 "SELECT r.role, "
			 "coalesce(sum(v.states) FILTER (WHERE (v.utility ->> r.role)::numeric = 100), 0)::bigint, "
			 "coalesce(sum(v.states) FILTER (WHERE (v.utility ->> r.role)::numeric > 0 "
			 "AND (v.utility ->> r.role)::numeric < 100), 0)::bigint, "
			 "coalesce(sum(v.states) FILTER (WHERE (v.utility ->> r.role)::numeric = 0), 0)::bigint, "
			 "t.states - (SELECT coalesce(sum(d.proven), 0) FROM gametree.tree_depths d "
			 "WHERE d.schema = t.schema AND d.tree = t.name)::bigint "
			 "FROM unnest($3) WITH ORDINALITY r(role, n) CROSS JOIN gametree.trees t "
			 "LEFT JOIN gametree.tree_values v ON v.schema = t.schema AND v.tree = t.name "
			 "WHERE " TREE_KEY("t.") " "
			 "GROUP BY r.role, r.n, t.schema, t.name, t.states ORDER BY r.n",
			 1, (Oid[]) {TEXTARRAYOID}, (Datum[]) {datum_array(roles, NULL, game->nroles, TEXTOID)},
			 SPI_OK_SELECT);
	return tree;
}

Tree *
query_principal_variation(text *name, int64 state_id)
{
	/* Its query reads the tables themselves. */
	Tree	   *tree = open_for_rows(name, 0);

	spi_run(psprintf("SELECT 1 FROM %s WHERE id = $1", tree->states), 1, (Oid[]) {INT8OID},
			(Datum[]) {Int64GetDatum(state_id)}, SPI_OK_SELECT);
	if (SPI_processed == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("state %lld is not in tree \"%s\"", (long long) state_id, tree->qualified),
				 errhint("State ids are the id column of %s.", tree->states)));
	/* Follows each state's chosen edge (best_move) to a leaf, or to a repeat on a cycle. */
	spi_run(psprintf("WITH RECURSIVE line(ply, id, path) AS ("
					 " SELECT 0, $1, ARRAY[$1]"
					 " UNION ALL"
					 " SELECT l.ply + 1, g.next_id, l.path || g.next_id"
					 " FROM line l JOIN %1$s s ON s.id = l.id"
					 " JOIN %2$s g ON g.init_id = s.id AND g.move_id = s.best_move"
					 " WHERE g.next_id <> ALL (l.path)) "
					 "SELECT l.ply, l.id, m.move, %4$s, s.proven, s.state::jsonb "
					 "FROM line l JOIN %1$s s ON s.id = l.id "
					 "LEFT JOIN %3$s m ON m.id = s.best_move ORDER BY l.ply",
					 tree->states, tree->edges, tree->moves, tree_utility_sql("s")),
			1, (Oid[]) {INT8OID}, (Datum[]) {Int64GetDatum(state_id)}, SPI_OK_SELECT);
	return tree;
}
