/*
 * solve.c: the SQL entry point of proof-number search in a tree, the
 * procedure solve(tree, state, time_limit, max_states) (store/solve.h).
 */
#include "postgres.h"

#include "core/game.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "nodes/parsenodes.h"
#include "store/solve.h"
#include "utils/jsonb.h"
#include "utils/timestamp.h"

PG_FUNCTION_INFO_V1(gametree_solve);
Datum
gametree_solve(PG_FUNCTION_ARGS)
{
	CallContext *call = (CallContext *) fcinfo->context;
	Interval   *time_limit = PG_ARGISNULL(2) ? NULL : PG_GETARG_INTERVAL_P(2);
	bool		can_commit = call != NULL && IsA(call, CallContext) && !call->atomic;

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("tree must not be NULL")));
	if (time_limit != NULL && gt_interval_usecs(time_limit) <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("time_limit must be positive"),
				 errhint("Give NULL for no time limit: the search then stops at max_states, or when what it "
						 "keeps of its proofs fills half of gametree.search_memory.")));
	if (!PG_ARGISNULL(3) && PG_GETARG_INT64(3) <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("max_states must be positive, not %lld", (long long) PG_GETARG_INT64(3)),
				 errhint("Give NULL for no limit on the positions held at once.")));

	SPI_connect_ext(can_commit ? SPI_OPT_NONATOMIC : 0);
	solve_tree(PG_GETARG_TEXT_PP(0), PG_ARGISNULL(1) ? NULL : PG_GETARG_JSONB_P(1),
			   time_limit == NULL ? -1 : gt_interval_usecs(time_limit), PG_ARGISNULL(3) ? -1 : PG_GETARG_INT64(3),
			   can_commit);
	SPI_finish();
	PG_RETURN_VOID();
}
