/*
 * analytics.c: tree_stats, depth_stats, outcomes and principal_variation,
 * set-returning queries over a tree's tables.  Each opens the tree (which
 * pins search_path), runs one query and returns its rows.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "store/tree.h"
#include "utils/array.h"
#include "utils/builtins.h"
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

static Tree *
open_for_rows(FunctionCallInfo fcinfo)
{
	InitMaterializedSRF(fcinfo, 0);
	SPI_connect();
	return tree_open(PG_GETARG_TEXT_PP(0), TREE_READ);
}

PG_FUNCTION_INFO_V1(gametree_tree_stats);
Datum
gametree_tree_stats(PG_FUNCTION_ARGS)
{
	Tree	   *tree = open_for_rows(fcinfo);

	return return_rows(fcinfo, tree,
					   psprintf("SELECT $1, count(*), (SELECT count(*) FROM %3$s), "
								"(SELECT count(*) FROM %2$s), "
								"count(*) FILTER (WHERE s.expanded AND s.goal IS NULL), "
								"count(*) FILTER (WHERE NOT s.expanded), "
								"count(*) FILTER (WHERE s.goal IS NOT NULL), "
								"count(*) FILTER (WHERE s.proven), max(s.depth), "
								"round((SELECT count(*) FROM %3$s)::numeric "
								"/ nullif(count(*) FILTER (WHERE s.expanded AND s.goal IS NULL), 0), 3), "
								"r.utility, r.mobility, r.proven "
								"FROM %1$s s, %1$s r WHERE r.id = $2 "
								"GROUP BY r.utility, r.mobility, r.proven",
								tree->states, tree->moves, tree->graph),
					   2, (Oid[]) {TEXTOID, INT8OID},
					   (Datum[]) {CStringGetTextDatum(tree->game->name), Int64GetDatum(tree->root_id)});
}

PG_FUNCTION_INFO_V1(gametree_depth_stats);
Datum
gametree_depth_stats(PG_FUNCTION_ARGS)
{
	Tree	   *tree = open_for_rows(fcinfo);

	return return_rows(fcinfo, tree,
					   psprintf("SELECT s.depth, count(*), "
								"count(*) FILTER (WHERE s.expanded AND s.goal IS NULL), "
								"count(*) FILTER (WHERE s.goal IS NOT NULL), "
								"count(*) FILTER (WHERE s.proven), coalesce(sum(e.n), 0)::bigint, "
								"round(sum(e.n)::numeric "
								"/ nullif(count(*) FILTER (WHERE s.expanded AND s.goal IS NULL), 0), 3) "
								"FROM %s s LEFT JOIN "
								"(SELECT init_id, count(*) AS n FROM %s GROUP BY init_id) e "
								"ON e.init_id = s.id GROUP BY s.depth ORDER BY s.depth",
								tree->states, tree->graph),
					   0, NULL, NULL);
}

PG_FUNCTION_INFO_V1(gametree_outcomes);
Datum
gametree_outcomes(PG_FUNCTION_ARGS)
{
	Tree	   *tree = open_for_rows(fcinfo);
	const Game *game = tree->game;
	Datum	   *roles = palloc(game->nroles * sizeof(Datum));

	for (int r = 0; r < game->nroles; r++)
		roles[r] = CStringGetTextDatum(game->roles[r]);
	return return_rows(fcinfo, tree,
					   psprintf("SELECT r.role, "
								"count(*) FILTER (WHERE s.proven AND (s.utility ->> r.role)::numeric = 100), "
								"count(*) FILTER (WHERE s.proven AND (s.utility ->> r.role)::numeric > 0 "
								"AND (s.utility ->> r.role)::numeric < 100), "
								"count(*) FILTER (WHERE s.proven AND (s.utility ->> r.role)::numeric = 0), "
								"count(*) FILTER (WHERE NOT s.proven) "
								"FROM unnest($1) WITH ORDINALITY r(role, n) CROSS JOIN %s s "
								"GROUP BY r.role, r.n ORDER BY r.n", tree->states),
					   1, (Oid[]) {TEXTARRAYOID},
					   (Datum[]) {datum_array(roles, NULL, game->nroles, TEXTOID)});
}

PG_FUNCTION_INFO_V1(gametree_principal_variation);
Datum
gametree_principal_variation(PG_FUNCTION_ARGS)
{
	Tree	   *tree = open_for_rows(fcinfo);
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
