/*
 * prove.c: the SQL entry point of proof-number search in memory,
 * prove(game, state, time_limit, max_states): the value of one position
 * under perfect play and a move that keeps it, or the bounds reached
 * within the limits.  The search runs in search/pns.c.
 */
#include "postgres.h"

#include "funcapi.h"
#include "search/pns.h"
#include "search/settings.h"
#include "sql/game_datum.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/timestamp.h"

/* The columns of prove's row. */
enum
{
	PROVE_PROVEN, PROVE_UTILITY, PROVE_BEST_MOVE, PROVE_BOUNDS, PROVE_STATES, PROVE_SEARCHES,
	PROVE_PROOF, PROVE_DISPROOF, PROVE_STOPPED, PROVE_COLUMNS
};

/* {"role": [lowest, highest], ...}: what the bounds on the first role's goal leave each role. */
static Jsonb *
bounds_json(const Game *game, int lo, int hi)
{
	StringInfoData json;

	initStringInfo(&json);
	appendStringInfoChar(&json, '{');
	for (int r = 0; r < game->nroles; r++)
	{
		/* Two roles' goals sum to GT_GOAL_MAX: the second's bounds mirror the first's. */
		int			low = r == 0 ? lo : GT_GOAL_MAX - hi,
					high = r == 0 ? hi : GT_GOAL_MAX - lo;

		if (r > 0)
			appendStringInfoString(&json, ", ");
		escape_json(&json, game->roles[r]);
		appendStringInfo(&json, ": [%d, %d]", low, high);
	}
	appendStringInfoChar(&json, '}');
	return DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(json.data)));
}

static Datum
number_or_null(uint32 n, bool *isnull)
{
	*isnull = n == PNS_INFINITE;
	return Int64GetDatum((int64) n);
}

PG_FUNCTION_INFO_V1(gametree_prove);
Datum
gametree_prove(PG_FUNCTION_ARGS)
{
	const Game *game;
	GameState  *state;
	PnsLimits	limits = {0};
	PnsResult	result;
	Interval   *time_limit = PG_ARGISNULL(2) ? NULL : PG_GETARG_INTERVAL_P(2);
	TupleDesc	desc;
	Datum		values[PROVE_COLUMNS];
	bool		nulls[PROVE_COLUMNS] = {0};
	double		utility[GT_MAX_ROLES];

	state = gt_state_argument_or_initial(fcinfo, &game);
	if (time_limit != NULL && gt_interval_usecs(time_limit) <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("time_limit must be positive"),
				 errhint("Give NULL for no time limit: the search then stops at max_states, or when "
						 "gametree.search_memory is full.")));
	if (!PG_ARGISNULL(3) && PG_GETARG_INT64(3) <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("max_states must be positive, not %lld", (long long) PG_GETARG_INT64(3)),
				 errhint("Give NULL for no limit on the positions kept.")));
	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "prove: the result type is not a row");
	if (time_limit != NULL)
		limits.deadline = GetCurrentTimestamp() + gt_interval_usecs(time_limit);
	limits.max_states = PG_ARGISNULL(3) ? 0 : PG_GETARG_INT64(3);
	limits.memory = gt_memory_limit(&gt_search_memory);

	pns_solve(game, state, &limits, NULL, &result);

	values[PROVE_PROVEN] = BoolGetDatum(result.proven);
	nulls[PROVE_UTILITY] = !result.proven;
	if (result.proven)
	{
		utility[0] = result.lo;
		if (game->nroles == 2)
			utility[1] = GT_GOAL_MAX - result.lo;
		values[PROVE_UTILITY] = JsonbPGetDatum(gt_encode_role_values(game, utility, NULL));
	}
	nulls[PROVE_BEST_MOVE] = result.best_move == GT_NO_MOVE;
	if (result.best_move != GT_NO_MOVE)
		values[PROVE_BEST_MOVE] = JsonbPGetDatum(gt_encode_move(game, state, result.best_move));
	values[PROVE_BOUNDS] = JsonbPGetDatum(bounds_json(game, result.lo, result.hi));
	values[PROVE_STATES] = Int64GetDatum(result.states);
	values[PROVE_SEARCHES] = Int32GetDatum(result.searches);
	values[PROVE_PROOF] = number_or_null(result.proof, &nulls[PROVE_PROOF]);
	values[PROVE_DISPROOF] = number_or_null(result.disproof, &nulls[PROVE_DISPROOF]);
	nulls[PROVE_STOPPED] = result.proven;
	if (!result.proven)
		values[PROVE_STOPPED] = CStringGetTextDatum(pns_stop_name(result.stop));
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}
