/*
 * shard.c: the SQL functions a sharded tree's coordinator calls on its
 * nodes (store/shard.h): shard_create, shard_grow, shard_outbox,
 * shard_accept, and the steps of a propagation: shard_part,
 * shard_take_wanted, shard_values, shard_take_values, shard_propagate.
 */
#include "postgres.h"

#include "commands/defrem.h"
#include "core/clock.h"
#include "fmgr.h"
#include "funcapi.h"
#include "nodes/parsenodes.h"
#include "store/grow.h"
#include "store/shard.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

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

/* A row of a payload function's result per payload. */
static void
put_payload(void *arg, int32 to, int64 rows, bytea *payload)
{
	ReturnSetInfo *rsinfo = arg;

	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc,
						 (Datum[]) {Int32GetDatum(to), Int64GetDatum(rows), PointerGetDatum(payload)},
						 (bool[]) {false, false, false});
}

PG_FUNCTION_INFO_V1(gametree_shard_outbox);
Datum
gametree_shard_outbox(PG_FUNCTION_ARGS)
{
	require_arguments(fcinfo, 0, 4);
	InitMaterializedSRF(fcinfo, 0);
	SPI_connect();
	shard_outbox(PG_GETARG_TEXT_PP(0), PG_GETARG_DATUM(1), PG_GETARG_DATUM(2), PG_GETARG_DATUM(3), put_payload,
				 fcinfo->resultinfo);
	SPI_finish();
	return (Datum) 0;
}

/* A node call that takes what another node packed (tree, sender, payload) and returns a count. */
static Datum
take_payload(FunctionCallInfo fcinfo, int64 (*take) (text *name, int32 node, const bytea *payload))
{
	int64		taken;

	require_arguments(fcinfo, 0, 3);
	SPI_connect();
	taken = take(PG_GETARG_TEXT_PP(0), PG_GETARG_INT32(1), PG_GETARG_BYTEA_PP(2));
	SPI_finish();
	PG_RETURN_INT64(taken);
}

PG_FUNCTION_INFO_V1(gametree_shard_accept);
Datum
gametree_shard_accept(PG_FUNCTION_ARGS)
{
	return take_payload(fcinfo, shard_accept);
}

PG_FUNCTION_INFO_V1(gametree_shard_part);
Datum
gametree_shard_part(PG_FUNCTION_ARGS)
{
	require_arguments(fcinfo, 0, 5);
	InitMaterializedSRF(fcinfo, 0);
	SPI_connect();
	shard_read_part(PG_GETARG_TEXT_PP(0), PG_GETARG_BOOL(1), PG_GETARG_DATUM(2), PG_GETARG_DATUM(3),
					PG_GETARG_DATUM(4), put_payload, fcinfo->resultinfo);
	SPI_finish();
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(gametree_shard_take_wanted);
Datum
gametree_shard_take_wanted(PG_FUNCTION_ARGS)
{
	return take_payload(fcinfo, shard_take_wanted);
}

PG_FUNCTION_INFO_V1(gametree_shard_values);
Datum
gametree_shard_values(PG_FUNCTION_ARGS)
{
	require_arguments(fcinfo, 0, 1);
	InitMaterializedSRF(fcinfo, 0);
	SPI_connect();
	shard_values(PG_GETARG_TEXT_PP(0), put_payload, fcinfo->resultinfo);
	SPI_finish();
	return (Datum) 0;
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
	SPI_connect();
	/* No depth: the propagation is over, and the part kept in memory for it goes. */
	if (PG_ARGISNULL(1))
		shard_end_propagation(PG_GETARG_TEXT_PP(0));
	else
		shard_propagate_depth(PG_GETARG_TEXT_PP(0), PG_GETARG_INT32(1));
	SPI_finish();
	PG_RETURN_VOID();
}
