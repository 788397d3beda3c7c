/*
 * propagate.c: the SQL function propagate (store/propagate.c).
 */
#include "postgres.h"

#include "fmgr.h"
#include "store/propagate.h"

PG_FUNCTION_INFO_V1(gametree_propagate);
Datum
gametree_propagate(PG_FUNCTION_ARGS)
{
	int64		evaluations;

	SPI_connect();
	evaluations = propagate_tree(PG_GETARG_TEXT_PP(0), PG_GETARG_BOOL(1));
	SPI_finish();
	PG_RETURN_INT64(evaluations);
}
