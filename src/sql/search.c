/*
 * search.c: the SQL entry points of search, bestmove(game, state,
 * time_limit, max_depth, method, tree) and analyse(...) with the same
 * arguments: search from a state, for the move to play or for every move
 * with its value and expected line.  The arguments are checked here and
 * the search's limits filled from them and the settings; the search runs
 * in search/ (search_run), with a tree through store/searchtree.c.
 */
#include "postgres.h"

#include "core/jsonfacts.h"
#include "core/line.h"
#include "search/settings.h"
#include "sql/game_datum.h"
#include "funcapi.h"
#include "store/searchtree.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/timestamp.h"

/*
 * The arguments checked, the search run, and with a tree, what the tree
 * knows read before and what the search learned written after.
 */
static void
run_search(FunctionCallInfo fcinfo, bool exact_moves, const Game **game_out, GameState **state_out,
		   SearchResult *result)
{
	const Game *game;
	GameState  *state;
	SearchLimits limits = {0};
	SearchMethod method;
	Interval   *time_limit = PG_ARGISNULL(2) ? NULL : PG_GETARG_INTERVAL_P(2);

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("game and state must not be NULL")));
	state = gt_state_argument(fcinfo, &game);
	if (time_limit != NULL && gt_interval_usecs(time_limit) <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("time_limit must be positive"),
				 errhint("Give NULL for no time limit, with a max_depth.")));
	if (!PG_ARGISNULL(3) && PG_GETARG_INT32(3) <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("max_depth must be positive, not %d", PG_GETARG_INT32(3))));
	if (time_limit == NULL && PG_ARGISNULL(3))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a search needs a time_limit or a max_depth"),
				 errhint("E.g. time_limit => '1 second', or max_depth => 6 for a result that does "
						 "not depend on the machine's speed.")));
	if (game->terminal(game, state))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the state is terminal: there is no move to make"),
				 errhint("gametree.goal(game, state) gives the result.")));
	method = search_method_named(PG_ARGISNULL(4) ? "auto" : text_to_cstring(PG_GETARG_TEXT_PP(4)),
								 game, state);
	if (method == SEARCH_RANDOM && exact_moves)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("analyse: the random player values no move"),
				 errhint("method => 'flat' values every move by random games; "
						 "gametree.legal(game, state) lists them.")));
	if ((method == SEARCH_RANDOM || method == SEARCH_FLAT) && !PG_ARGISNULL(5))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("method '%s' keeps no tree", method == SEARCH_RANDOM ? "random" : "flat"),
				 errhint("method => 'mcts' searches with a tree; give tree => NULL to play without one.")));

	limits.memory = gt_memory_limit(&gt_search_memory);
	limits.max_depth = PG_ARGISNULL(3) ? 0 : PG_GETARG_INT32(3);
	limits.exact_moves = exact_moves;
	if (time_limit != NULL)
		limits.deadline = GetCurrentTimestamp() + gt_interval_usecs(time_limit);
	*game_out = game;
	*state_out = state;
	if (PG_ARGISNULL(5))
		search_run(method, game, state, &limits, result, NULL);
	else
		tree_search(PG_GETARG_TEXT_PP(5), method, game, state, &limits,
					time_limit != NULL ? gt_interval_usecs(time_limit) : 0, result);
}

PG_FUNCTION_INFO_V1(gametree_bestmove);
Datum
gametree_bestmove(PG_FUNCTION_ARGS)
{
	const Game *game;
	GameState  *state;
	SearchResult result;

	run_search(fcinfo, false, &game, &state, &result);
	PG_RETURN_JSONB_P(gt_encode_move(game, state, result.moves[0].move));
}

/* The line as an array of joint moves, played from state. */
static Jsonb *
line_json(const Game *game, const GameState *state, const SearchLine *line)
{
	JsonbParseState *parse = NULL;
	GameLine	played;
	JsonbValue *array;

	gt_line_begin(&played, game, state);
	pushJsonbValue(&parse, WJB_BEGIN_ARRAY, NULL);
	for (int i = 0; i < line->length; i++)
	{
		Jsonb	   *move = gt_encode_move(game, played.at, line->moves[i]);
		JsonbValue	v;

		gt_jsonb_root(move, &v);
		pushJsonbValue(&parse, WJB_ELEM, &v);
		gt_line_play(&played, line->moves[i]);
	}
	array = pushJsonbValue(&parse, WJB_END_ARRAY, NULL);
	return JsonbValueToJsonb(array);
}

PG_FUNCTION_INFO_V1(gametree_analyse);
Datum
gametree_analyse(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	const Game *game;
	GameState  *state;
	SearchResult result;

	run_search(fcinfo, true, &game, &state, &result);
	InitMaterializedSRF(fcinfo, 0);
	for (int i = 0; i < result.nmoves; i++)
	{
		const RootMove *rm = &result.moves[i];
		Datum		values[7];
		bool		nulls[7] = {0};
		double		mobility[GT_MAX_ROLES];
		bool		known[GT_MAX_ROLES];
		bool		any_mobility = false;

		values[0] = JsonbPGetDatum(gt_encode_move(game, state, rm->move));
		if (rm->value.known)
			values[1] = JsonbPGetDatum(gt_encode_role_values(game, rm->value.utility, NULL));
		nulls[1] = !rm->value.known;
		values[2] = BoolGetDatum(rm->value.proven);
		for (int r = 0; r < game->nroles; r++)
		{
			mobility[r] = rm->value.mobility[r];
			known[r] = rm->value.mobility[r] >= 0;
			any_mobility |= known[r];
		}
		if (any_mobility)
			values[3] = JsonbPGetDatum(gt_encode_role_values(game, mobility, known));
		nulls[3] = !any_mobility;
		/* visits: counted by Monte Carlo search, not by alpha-beta */
		values[4] = Int64GetDatum(rm->visits);
		nulls[4] = rm->visits < 0;
		values[5] = Int32GetDatum(rm->depth);
		nulls[5] = rm->depth == 0;
		values[6] = JsonbPGetDatum(line_json(game, state, &rm->pv));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
