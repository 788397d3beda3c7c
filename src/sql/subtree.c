/*
 * subtree.c: the SQL function subtree(tree, state_id, plies), the part of a
 * tree within some plies of a state (store/subtree.h).
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "store/subtree.h"

PG_FUNCTION_INFO_V1(gametree_subtree);
Datum
gametree_subtree(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	InitMaterializedSRF(fcinfo, 0);
	tree_subtree(PG_GETARG_TEXT_PP(0), PG_GETARG_INT64(1), PG_GETARG_INT32(2),
				 rsinfo->setResult, rsinfo->setDesc);
	return (Datum) 0;
}
