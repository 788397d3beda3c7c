/*
 * playouts.c: gametree.playouts(game, state, max_playouts, time_limit,
 * seed), random games to the end from a state (search/playout.c, the
 * playouts Monte Carlo search runs): the mean goals per role, and how many
 * games and state changes were played, the figure GGP engines compare.
 */
#include "postgres.h"

#include "funcapi.h"
#include "search/playout.h"
#include "sql/game_datum.h"
#include "utils/timestamp.h"

enum
{
	PLAYOUTS_UTILITY, PLAYOUTS_PLAYOUTS, PLAYOUTS_STATES, PLAYOUTS_SECONDS, PLAYOUTS_COLUMNS
};

PG_FUNCTION_INFO_V1(gametree_playouts);
Datum
gametree_playouts(PG_FUNCTION_ARGS)
{
	const Game *game;
	GameState  *state;
	Interval   *time_limit = PG_ARGISNULL(3) ? NULL : PG_GETARG_INTERVAL_P(3);
	int64		max_playouts = PG_ARGISNULL(2) ? 0 : PG_GETARG_INT64(2);
	TimestampTz start;
	PlayoutTotals totals;
	TupleDesc	desc;
	Datum		values[PLAYOUTS_COLUMNS];
	bool		nulls[PLAYOUTS_COLUMNS] = {0};
	double		mean[GT_MAX_ROLES];
	uint64		seed;

	state = gt_state_argument_or_initial(fcinfo, &game);
	if (!PG_ARGISNULL(2) && max_playouts <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("max_playouts must be positive, not %lld", (long long) max_playouts),
				 errhint("Give NULL for no limit on the playouts: time_limit then ends them.")));
	if (time_limit != NULL && gt_interval_usecs(time_limit) <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("time_limit must be positive"),
				 errhint("Give NULL for no time limit: max_playouts then ends the playouts.")));
	if (max_playouts == 0 && time_limit == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("playouts needs max_playouts or time_limit"),
				 errhint("Give a number of playouts, a time limit, or both: the first reached ends them.")));
	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "playouts: the result type is not a row");
	/* Without a seed, equal calls with a count play the same games. */
	seed = PG_ARGISNULL(4) ? gt_state_hash(game, state) : (uint64) PG_GETARG_INT64(4);

	start = GetCurrentTimestamp();
	search_playouts(game, state, max_playouts,
					time_limit == NULL ? 0 : start + gt_interval_usecs(time_limit), seed, &totals);

	for (int r = 0; r < game->nroles; r++)
		mean[r] = totals.playouts == 0 ? 0 : totals.goals[r] / totals.playouts;
	nulls[PLAYOUTS_UTILITY] = totals.playouts == 0;
	if (totals.playouts > 0)
		values[PLAYOUTS_UTILITY] = JsonbPGetDatum(gt_encode_role_values(game, mean, NULL));
	values[PLAYOUTS_PLAYOUTS] = Int64GetDatum(totals.playouts);
	values[PLAYOUTS_STATES] = Int64GetDatum(totals.states);
	values[PLAYOUTS_SECONDS] = Float8GetDatum((GetCurrentTimestamp() - start) / 1e6);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}
