/*
 * grow.c: the SQL functions expand and grow_step (store/expand.c) and the
 * procedure grow (store/grow.c).
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "core/clock.h"
#include "fmgr.h"
#include "funcapi.h"
#include "nodes/parsenodes.h"
#include "store/expand.h"
#include "store/grow.h"
#include "utils/builtins.h"
#include "utils/datetime.h"

PG_FUNCTION_INFO_V1(gametree_expand);
Datum
gametree_expand(PG_FUNCTION_ARGS)
{
	int64		edges;

	SPI_connect();
	edges = expand_state(PG_GETARG_TEXT_PP(0), PG_GETARG_INT64(1));
	SPI_finish();
	PG_RETURN_INT32((int32) edges);
}

PG_FUNCTION_INFO_V1(gametree_grow_step);
Datum
gametree_grow_step(PG_FUNCTION_ARGS)
{
	ExpansionCounts stored = {0};
	TupleDesc	desc;
	Datum		values[3];
	bool		nulls[3] = {false, false, false};

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		PG_RETURN_NULL();
	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "grow_step must return a row");
	SPI_connect();
	grow_step(PG_GETARG_TEXT_PP(0), PG_GETARG_INT32(1),
			  PG_ARGISNULL(2) ? PG_INT32_MAX : PG_GETARG_INT32(2), &stored);
	SPI_finish();

	values[0] = Int64GetDatum(stored.expanded);
	values[1] = Int64GetDatum(stored.states);
	values[2] = Int64GetDatum(stored.edges);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

PG_FUNCTION_INFO_V1(gametree_grow);
Datum
gametree_grow(PG_FUNCTION_ARGS)
{
	CallContext *call = (CallContext *) fcinfo->context;
	Interval   *limit = PG_ARGISNULL(3) ? NULL : PG_GETARG_INTERVAL_P(3);
	bool		can_commit = call != NULL && IsA(call, CallContext) && !call->atomic;

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("tree must not be NULL")));
	if ((!PG_ARGISNULL(1) && PG_GETARG_INT64(1) < 0) ||
		(!PG_ARGISNULL(2) && PG_GETARG_INT32(2) < 0) ||
		(limit != NULL && gt_interval_usecs(limit) < 0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("grow limits must not be negative"),
				 errdetail("max_states %s, max_depth %s, time_limit %s",
						   PG_ARGISNULL(1) ? "NULL" : psprintf(INT64_FORMAT, PG_GETARG_INT64(1)),
						   PG_ARGISNULL(2) ? "NULL" : psprintf("%d", PG_GETARG_INT32(2)),
						   limit == NULL ? "NULL" :
						   DatumGetCString(DirectFunctionCall1(interval_out, IntervalPGetDatum(limit))))));

	SPI_connect_ext(can_commit ? SPI_OPT_NONATOMIC : 0);
	grow_tree(PG_GETARG_TEXT_PP(0), PG_ARGISNULL(1) ? -1 : PG_GETARG_INT64(1),
			  PG_ARGISNULL(2) ? PG_INT32_MAX : PG_GETARG_INT32(2),
			  limit == NULL ? -1 : gt_interval_usecs(limit), can_commit);
	SPI_finish();
	PG_RETURN_VOID();
}
