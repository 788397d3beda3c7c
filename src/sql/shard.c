/*
 * shard.c: the SQL functions a sharded tree's coordinator calls on its
 * nodes (store/shard.h): shard_create, shard_grow, shard_accept,
 * shard_propagate, shard_values and shard_take_values.
 */
#include "postgres.h"

#include "commands/defrem.h"
#include "core/clock.h"
#include "fmgr.h"
#include "funcapi.h"
#include "nodes/parsenodes.h"
#include "store/grow.h"
#include "store/propagate.h"
#include "store/shard.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

/* Arguments no node call takes NULL for. */
static void
require_arguments(FunctionCallInfo fcinfo, int from, int to)
{
	for (int i = from; i < to; i++)
		if (PG_ARGISNULL(i))
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("argument %d of a sharded tree's node call must not be NULL", i + 1),
					 errhint("The coordinator of a sharded tree makes these calls.")));
}

PG_FUNCTION_INFO_V1(gametree_shard_create);
Datum
gametree_shard_create(PG_FUNCTION_ARGS)
{
	bool		holds_root;
	int64		root_id;

	require_arguments(fcinfo, 0, 5);
	SPI_connect();
	root_id = shard_create_part(PG_GETARG_TEXT_PP(0), PG_GETARG_TEXT_PP(1), PG_GETARG_INT32(2),
								PG_GETARG_INT64(3), PG_GETARG_INT64(4),
								PG_ARGISNULL(5) ? NULL : PG_GETARG_JSONB_P(5), &holds_root);
	SPI_finish();
	if (!holds_root)
		PG_RETURN_NULL();
	PG_RETURN_INT64(root_id);
}

PG_FUNCTION_INFO_V1(gametree_shard_grow);
Datum
gametree_shard_grow(PG_FUNCTION_ARGS)
{
	CallContext *call = (CallContext *) fcinfo->context;
	bool		can_commit = call != NULL && IsA(call, CallContext) && !call->atomic;
	Interval   *limit = PG_ARGISNULL(3) ? NULL : PG_GETARG_INTERVAL_P(3);

	require_arguments(fcinfo, 0, 2);
	if ((!PG_ARGISNULL(2) && PG_GETARG_INT64(2) < 0) || PG_GETARG_INT32(1) < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("depth and max_states must not be negative")));
	SPI_connect_ext(can_commit ? SPI_OPT_NONATOMIC : 0);
	grow_node_level(PG_GETARG_TEXT_PP(0), PG_GETARG_INT32(1), PG_ARGISNULL(2) ? -1 : PG_GETARG_INT64(2),
					limit == NULL ? -1 : Max(gt_interval_usecs(limit), 0), can_commit);
	SPI_finish();
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(gametree_shard_accept);
Datum
gametree_shard_accept(PG_FUNCTION_ARGS)
{
	Datum		columns[9];
	int64		stored;

	require_arguments(fcinfo, 0, 11);
	for (int c = 0; c < 9; c++)
		columns[c] = PG_GETARG_DATUM(c + 2);
	SPI_connect();
	stored = shard_accept(PG_GETARG_TEXT_PP(0), PG_GETARG_INT32(1), columns);
	SPI_finish();
	PG_RETURN_INT64(stored);
}

PG_FUNCTION_INFO_V1(gametree_shard_take_values);
Datum
gametree_shard_take_values(PG_FUNCTION_ARGS)
{
	int64		changed;

	require_arguments(fcinfo, 0, 2);
	SPI_connect();
	changed = shard_take_values(PG_GETARG_TEXT_PP(0), PG_GETARG_BYTEA_PP(1));
	SPI_finish();
	PG_RETURN_INT64(changed);
}

PG_FUNCTION_INFO_V1(gametree_shard_propagate);
Datum
gametree_shard_propagate(PG_FUNCTION_ARGS)
{
	require_arguments(fcinfo, 0, 1);
	/* No depth: the propagation is over, and the part kept in memory for it goes. */
	if (PG_ARGISNULL(1))
	{
		tree_forget_kept();
		PG_RETURN_VOID();
	}
	SPI_connect();
	shard_propagate_depth(PG_GETARG_TEXT_PP(0), PG_GETARG_INT32(1));
	SPI_finish();
	PG_RETURN_VOID();
}

/* A row of shard_values' result per batch. */
static void
put_values(void *arg, int32 node, int64 count, bytea *payload)
{
	ReturnSetInfo *rsinfo = arg;

	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc,
						 (Datum[]) {Int32GetDatum(node), Int64GetDatum(count), PointerGetDatum(payload)},
						 (bool[]) {false, false, false});
}

/* Batches of values of at most this many states: a few megabytes each, in the text of a statement. */
#define VALUES_PER_BATCH 100000

PG_FUNCTION_INFO_V1(gametree_shard_values);
Datum
gametree_shard_values(PG_FUNCTION_ARGS)
{
	require_arguments(fcinfo, 0, 1);
	InitMaterializedSRF(fcinfo, 0);
	SPI_connect();
	shard_values(PG_GETARG_TEXT_PP(0), VALUES_PER_BATCH, put_values, fcinfo->resultinfo);
	SPI_finish();
	return (Datum) 0;
}
