/*
 * counts.c: the SQL function recount (store/counts.c).
 */
#include "postgres.h"

#include "fmgr.h"
#include "store/counts.h"

PG_FUNCTION_INFO_V1(gametree_recount);
Datum
gametree_recount(PG_FUNCTION_ARGS)
{
	SPI_connect();
	recount_tree(PG_GETARG_TEXT_PP(0));
	SPI_finish();
	PG_RETURN_VOID();
}
