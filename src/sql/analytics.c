/*
 * analytics.c: the set-returning SQL functions tree_stats, depth_stats,
 * outcomes and principal_variation, which return the rows of their queries
 * (store/analytics.c).
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "store/analytics.h"
#include "utils/tuplestore.h"

/*
 * Returns the query's rows (SPI_tuptable), whose columns match the
 * function's result, and closes the tree.
 */
static Datum
return_rows(FunctionCallInfo fcinfo, Tree *tree)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	TupleDesc	desc = SPI_tuptable->tupdesc;

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

/* The result's tuplestore and an SPI connection, before the query runs. */
static void
begin_rows(FunctionCallInfo fcinfo)
{
	InitMaterializedSRF(fcinfo, 0);
	SPI_connect();
}

PG_FUNCTION_INFO_V1(gametree_tree_stats);
Datum
gametree_tree_stats(PG_FUNCTION_ARGS)
{
	begin_rows(fcinfo);
	return return_rows(fcinfo, query_tree_stats(PG_GETARG_TEXT_PP(0)));
}

PG_FUNCTION_INFO_V1(gametree_depth_stats);
Datum
gametree_depth_stats(PG_FUNCTION_ARGS)
{
	begin_rows(fcinfo);
	return return_rows(fcinfo, query_depth_stats(PG_GETARG_TEXT_PP(0)));
}

PG_FUNCTION_INFO_V1(gametree_outcomes);
Datum
gametree_outcomes(PG_FUNCTION_ARGS)
{
	begin_rows(fcinfo);
	return return_rows(fcinfo, query_outcomes(PG_GETARG_TEXT_PP(0)));
}

PG_FUNCTION_INFO_V1(gametree_principal_variation);
Datum
gametree_principal_variation(PG_FUNCTION_ARGS)
{
	begin_rows(fcinfo);
	return return_rows(fcinfo, query_principal_variation(PG_GETARG_TEXT_PP(0), PG_GETARG_INT64(1)));
}
