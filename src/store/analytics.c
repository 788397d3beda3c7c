/*
 * analytics.c: tree_stats, depth_stats, outcomes and principal_variation,
 * set-returning queries over a tree.  Each opens the tree (which pins
 * search_path), runs one query and returns its rows.  The first three read
 * the counts that writers keep (store/counts.h), a few catalog rows, not
 * the tables: milliseconds on a tree of millions of states.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "store/schema.h"
#include "store/tree.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/tuplestore.h"

/* Runs the tree's query and returns its rows, whose columns match the function's result. */
static Datum
return_rows(FunctionCallInfo fcinfo, Tree *tree, const char *sql, int nargs, Oid *types,
			Datum *values)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	TupleDesc	desc;

	spi_run(sql, nargs, types, values, SPI_OK_SELECT);
	desc = SPI_tuptable->tupdesc;
	if (desc->natts != rsinfo->setDesc->natts)
		elog(ERROR, "gametree: query returns %d columns, the function %d",
			 desc->natts, rsinfo->setDesc->natts);
	for (int i = 0; i < desc->natts; i++)
		if (TupleDescAttr(desc, i)->atttypid != TupleDescAttr(rsinfo->setDesc, i)->atttypid)
			elog(ERROR, "gametree: column %d of the query has the wrong type", i + 1);
	for (uint64 r = 0; r < SPI_processed; r++)
		tuplestore_puttuple(rsinfo->setResult, SPI_tuptable->vals[r]);
	tree_close(tree);
	SPI_finish();
	return (Datum) 0;
}

/*
 * Opens the tree for a query.  The counts come from gametree's catalogs,
 * which everyone may read; a role sees them only as far as it may read the
 * tables they count (reads, a bit mask of TREE_STATES etc.), as when they
 * were counted from the tables.
 */
static Tree *
open_for_rows(FunctionCallInfo fcinfo, int reads)
{
	Tree	   *tree;

	InitMaterializedSRF(fcinfo, 0);
	SPI_connect();
	tree = tree_open(PG_GETARG_TEXT_PP(0), TREE_READ);
	for (int i = 0; i < TREE_TABLES; i++)
		if ((reads & (1 << i)) && pg_class_aclcheck(tree->relids[i], GetUserId(), ACL_SELECT) != ACLCHECK_OK)
			aclcheck_error(ACLCHECK_NO_PRIV, OBJECT_TABLE, get_rel_name(tree->relids[i]));
	return tree;
}

#define READS_ALL ((1 << TREE_TABLES) - 1)

PG_FUNCTION_INFO_V1(gametree_tree_stats);
Datum
gametree_tree_stats(PG_FUNCTION_ARGS)
{
	Tree	   *tree = open_for_rows(fcinfo, READS_ALL);

	return return_rows(fcinfo, tree,
					   psprintf("SELECT $1, t.states, t.edges, t.moves, d.expanded, t.frontier, d.terminal, "
								"d.proven, d.max_depth, round(t.edges::numeric / nullif(d.expanded, 0), 3), "
								"r.utility, r.mobility, r.proven "
								"FROM gametree.trees t, LATERAL (SELECT coalesce(sum(d.expanded), 0)::bigint, "
								"coalesce(sum(d.terminal), 0)::bigint, coalesce(sum(d.proven), 0)::bigint, "
								"max(d.depth) FROM gametree.tree_depths d "
								"WHERE d.schema = t.schema AND d.tree = t.name) d(expanded, terminal, proven, max_depth), "
								"%s r WHERE t.schema = $2 AND t.name = $3 AND r.id = $4", tree->states),
					   4, (Oid[]) {TEXTOID, NAMEOID, TEXTOID, INT8OID},
					   (Datum[]) {CStringGetTextDatum(tree->game->name), name_datum(tree->schema),
					   CStringGetTextDatum(tree->name), Int64GetDatum(tree->root_id)});
}

PG_FUNCTION_INFO_V1(gametree_depth_stats);
Datum
gametree_depth_stats(PG_FUNCTION_ARGS)
{
	Tree	   *tree = open_for_rows(fcinfo, (1 << TREE_STATES) | (1 << TREE_GRAPH));

	return return_rows(fcinfo, tree,
					   "SELECT depth, states, expanded, terminal, proven, edges, "
					   "round(nullif(edges, 0)::numeric / nullif(expanded, 0), 3) "
					   "FROM gametree.tree_depths WHERE schema = $1 AND tree = $2 ORDER BY depth",
					   2, (Oid[]) {NAMEOID, TEXTOID},
					   (Datum[]) {name_datum(tree->schema), CStringGetTextDatum(tree->name)});
}

PG_FUNCTION_INFO_V1(gametree_outcomes);
Datum
gametree_outcomes(PG_FUNCTION_ARGS)
{
	Tree	   *tree = open_for_rows(fcinfo, 1 << TREE_STATES);
	const Game *game = tree->game;
	Datum	   *roles = palloc(game->nroles * sizeof(Datum));

	for (int r = 0; r < game->nroles; r++)
		roles[r] = CStringGetTextDatum(game->roles[r]);
	/* Proven states per proven utility (gametree.tree_values), a few rows. */
	return return_rows(fcinfo, tree,
					   "SELECT r.role, "
					   "coalesce(sum(v.states) FILTER (WHERE (v.utility ->> r.role)::numeric = 100), 0)::bigint, "
					   "coalesce(sum(v.states) FILTER (WHERE (v.utility ->> r.role)::numeric > 0 "
					   "AND (v.utility ->> r.role)::numeric < 100), 0)::bigint, "
					   "coalesce(sum(v.states) FILTER (WHERE (v.utility ->> r.role)::numeric = 0), 0)::bigint, "
					   "t.states - (SELECT coalesce(sum(d.proven), 0) FROM gametree.tree_depths d "
					   "WHERE d.schema = t.schema AND d.tree = t.name)::bigint "
					   "FROM unnest($1) WITH ORDINALITY r(role, n) CROSS JOIN gametree.trees t "
					   "LEFT JOIN gametree.tree_values v ON v.schema = t.schema AND v.tree = t.name "
					   "WHERE t.schema = $2 AND t.name = $3 "
					   "GROUP BY r.role, r.n, t.schema, t.name, t.states ORDER BY r.n",
					   3, (Oid[]) {TEXTARRAYOID, NAMEOID, TEXTOID},
					   (Datum[]) {datum_array(roles, NULL, game->nroles, TEXTOID), name_datum(tree->schema),
					   CStringGetTextDatum(tree->name)});
}

PG_FUNCTION_INFO_V1(gametree_principal_variation);
Datum
gametree_principal_variation(PG_FUNCTION_ARGS)
{
	/* Its query reads the tables themselves. */
	Tree	   *tree = open_for_rows(fcinfo, 0);
	int64		state_id = PG_GETARG_INT64(1);

	spi_run(psprintf("SELECT 1 FROM %s WHERE id = $1", tree->states), 1, (Oid[]) {INT8OID},
			(Datum[]) {Int64GetDatum(state_id)}, SPI_OK_SELECT);
	if (SPI_processed == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("state %lld is not in tree \"%s\"", (long long) state_id, tree->qualified),
				 errhint("State ids are the id column of %s.", tree->states)));
	/* Follows each state's chosen edge (best_move) to a leaf, or to a repeat on a cycle. */
	return return_rows(fcinfo, tree,
					   psprintf("WITH RECURSIVE line(ply, id, path) AS ("
								" SELECT 0, $1, ARRAY[$1]"
								" UNION ALL"
								" SELECT l.ply + 1, g.next_id, l.path || g.next_id"
								" FROM line l JOIN %1$s s ON s.id = l.id"
								" JOIN %2$s g ON g.init_id = s.id AND g.move_id = s.best_move"
								" WHERE g.next_id <> ALL (l.path)) "
								"SELECT l.ply, l.id, m.move, s.utility, s.proven, s.state "
								"FROM line l JOIN %1$s s ON s.id = l.id "
								"LEFT JOIN %3$s m ON m.id = s.best_move ORDER BY l.ply",
								tree->states, tree->graph, tree->moves),
					   1, (Oid[]) {INT8OID}, (Datum[]) {Int64GetDatum(state_id)});
}
