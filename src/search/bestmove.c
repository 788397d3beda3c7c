/*
 * bestmove.c: bestmove(game, state, time_limit, max_depth, method, tree)
 * and analyse(...) with the same arguments: search from a state, for the
 * move to play or for every move with its value and expected line.
 */
#include "postgres.h"

#include "search/settings.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "search/mcts.h"
#include "store/searchtree.h"
#include "sql/game_datum.h"	/* until its entry points move to src/sql/ (issue 22) */
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/timestamp.h"


typedef enum SearchMethod
{
	METHOD_AUTO,
	METHOD_ALPHABETA,
	METHOD_MAXN,
	METHOD_MCTS
} SearchMethod;

static const char *const method_names[] = {"auto", "alphabeta", "maxn", "mcts"};

/*
 * 'auto': alpha-beta for two roles that take turns where it sees more than
 * the ends of the game it reaches: the game has a heuristic for the
 * positions at its horizon, or is tic-tac-toe, the built-in game without
 * one, which it solves from any position in a millisecond.  Elsewhere,
 * games loaded from GDL among them, every position short of an end counts
 * 50/50 to it, and it plays the first legal move: Monte Carlo search, whose
 * random games value every position, beat it there (bench/gdl_match.sh).
 */
static SearchMethod
auto_method(const Game *game, const GameState *state)
{
	if (!search_alphabeta_applies(game, state))
		return METHOD_MCTS;
	return game->heuristic != NULL || gt_game_is_builtin(game) ? METHOD_ALPHABETA : METHOD_MCTS;
}

static SearchMethod
method_argument(FunctionCallInfo fcinfo, const Game *game, const GameState *state)
{
	const char *name = PG_ARGISNULL(4) ? "auto" : text_to_cstring(PG_GETARG_TEXT_PP(4));
	int			method = 0;

	while (method < lengthof(method_names) && strcmp(name, method_names[method]) != 0)
		method++;
	if (method == lengthof(method_names))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown search method \"%s\"", gt_abbreviate(name)),
				 errhint("The methods are 'auto', 'alphabeta', 'maxn' and 'mcts'.")));
	if (method == METHOD_AUTO)
		return auto_method(game, state);
	if (method == METHOD_ALPHABETA && !search_alphabeta_applies(game, state))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s: alpha-beta needs two roles that take turns", game->name),
				 errhint("method => 'mcts' plays any game.")));
	if (method == METHOD_MAXN && !search_maxn_applies(game, state))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s: max^n needs a role in control, and the roles move at once here", game->name),
				 errhint("method => 'mcts' plays any game.")));
	return (SearchMethod) method;
}

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
	TreeSearch *ts = NULL;
	MctsTree   *mcts = NULL;
	TimestampTz deadline = 0;	/* of the call: the search's and the write-back's */
	TimestampTz began;
	double		seconds;

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
	method = method_argument(fcinfo, game, state);

	limits.memory = gt_memory_limit(&gt_search_memory);
	limits.max_depth = PG_ARGISNULL(3) ? 0 : PG_GETARG_INT32(3);
	limits.exact_moves = exact_moves;
	if (time_limit != NULL)
		limits.deadline = deadline = GetCurrentTimestamp() + gt_interval_usecs(time_limit);
	*game_out = game;
	*state_out = state;

	if (!PG_ARGISNULL(5))
	{
		MemoryContext caller = CurrentMemoryContext;

		SPI_connect();
		ts = tree_search_begin(PG_GETARG_TEXT_PP(5), game, state);
		MemoryContextSwitchTo(caller);
		if (ts->root_proven && !exact_moves)
		{
			/* The tree has solved the position: its best move is the answer. */
			result->nmoves = 1;
			result->moves = palloc0(sizeof(RootMove));
			result->moves[0].move = ts->stored_best;
			tree_close(ts->tree);
			SPI_finish();
			return;
		}
		limits.prior = ts->prior;
		limits.nprior = ts->nprior;
		/* The search leaves the write-back its share of the time. */
		if (time_limit != NULL)
			limits.deadline -= tree_search_reserve(gt_interval_usecs(time_limit));
	}
	began = GetCurrentTimestamp();
	if (method == METHOD_ALPHABETA)
		search_alphabeta(game, state, &limits, result);
	else if (method == METHOD_MAXN)
		search_maxn(game, state, &limits, result);
	else
		mcts = search_mcts(game, state, &limits, result);
	seconds = Max(GetCurrentTimestamp() - began, 1) / 1e6;
	/* For benchmarks and tuning (bench/search_speed.sh). */
	elog(DEBUG1, "gametree search: %s %s, depth %d, %lld %s in %.3f s, %.0f per second",
		 game->name, method_names[method], result->depth, (long long) result->nodes,
		 method == METHOD_MCTS ? "iterations" : "nodes", seconds, result->nodes / seconds);
	if (ts != NULL)
	{
		tree_search_end(ts, state, result, mcts, deadline);
		SPI_finish();
	}
	if (mcts != NULL)
		search_mcts_free(mcts);
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
line_json(const Game *game, const GameState *state, const RootMove *rm)
{
	JsonbParseState *parse = NULL;
	GameState  *at = gt_state_alloc(game);
	GameState  *after = gt_state_alloc(game);
	JsonbValue *array;

	gt_state_copy(at, state);
	pushJsonbValue(&parse, WJB_BEGIN_ARRAY, NULL);
	for (int i = 0; i < rm->pv_length; i++)
	{
		Jsonb	   *move = gt_encode_move(game, at, rm->pv[i]);
		JsonbValue	v;

		v.type = jbvBinary;
		v.val.binary.data = &move->root;
		v.val.binary.len = VARSIZE(move) - VARHDRSZ;
		pushJsonbValue(&parse, WJB_ELEM, &v);
		game->next(game, at, rm->pv[i], after);
		gt_state_copy(at, after);
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
		values[6] = JsonbPGetDatum(line_json(game, state, rm));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
