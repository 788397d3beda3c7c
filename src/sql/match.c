/*
 * match.c: the SQL functions of recorded GGP matches, match_begin,
 * match_move, match_end and match_replay (store/match.c).
 */
#include "postgres.h"

#include "executor/spi.h"
#include "funcapi.h"
#include "store/match.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/jsonb.h"

/* Ereports when argument i, named name, is NULL: these functions are not STRICT, to say so. */
static void
require_argument(FunctionCallInfo fcinfo, int i, const char *name)
{
	if (PG_ARGISNULL(i))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not be NULL", name)));
}

PG_FUNCTION_INFO_V1(gametree_match_begin);
Datum
gametree_match_begin(PG_FUNCTION_ARGS)
{
	static const char *const names[] = {"match_id", "game", "role", "start_clock", "play_clock"};
	int64		id;

	for (int i = 0; i < lengthof(names); i++)
		require_argument(fcinfo, i, names[i]);
	SPI_connect();
	id = match_begin(text_to_cstring(PG_GETARG_TEXT_PP(0)), text_to_cstring(PG_GETARG_TEXT_PP(1)),
					 text_to_cstring(PG_GETARG_TEXT_PP(2)), PG_GETARG_INTERVAL_P(3),
					 PG_GETARG_INTERVAL_P(4), PG_ARGISNULL(5) ? NULL : PG_GETARG_TEXT_PP(5));
	SPI_finish();
	PG_RETURN_INT64(id);
}

PG_FUNCTION_INFO_V1(gametree_match_move);
Datum
gametree_match_move(PG_FUNCTION_ARGS)
{
	Datum		state;

	require_argument(fcinfo, 0, "id");
	require_argument(fcinfo, 1, "joint_move");
	SPI_connect();
	state = SPI_datumTransfer(JsonbPGetDatum(match_move(PG_GETARG_INT64(0), PG_GETARG_JSONB_P(1))),
							  false, -1);
	SPI_finish();
	PG_RETURN_DATUM(state);
}

PG_FUNCTION_INFO_V1(gametree_match_end);
Datum
gametree_match_end(PG_FUNCTION_ARGS)
{
	Jsonb	   *goals;
	Datum		result = (Datum) 0;

	require_argument(fcinfo, 0, "id");
	require_argument(fcinfo, 1, "aborted");
	require_argument(fcinfo, 2, "keep_tree");
	SPI_connect();
	goals = match_end(PG_GETARG_INT64(0), PG_GETARG_BOOL(1), PG_GETARG_BOOL(2));
	if (goals != NULL)
		result = SPI_datumTransfer(JsonbPGetDatum(goals), false, -1);
	SPI_finish();
	if (goals == NULL)
		PG_RETURN_NULL();
	PG_RETURN_DATUM(result);
}

PG_FUNCTION_INFO_V1(gametree_match_replay);
Datum
gametree_match_replay(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	InitMaterializedSRF(fcinfo, 0);
	SPI_connect();
	match_replay(PG_GETARG_INT64(0), rsinfo->setResult, rsinfo->setDesc);
	SPI_finish();
	return (Datum) 0;
}
