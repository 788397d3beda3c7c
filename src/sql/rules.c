/*
 * rules.c: the SQL functions that ask a game about its rules: games(),
 * initial(), legal(), next(), successors(), terminal(), goal(), control(),
 * board(), short_board(), state_hash(), canonical() and heuristic().
 */
#include "postgres.h"

#include "funcapi.h"
#include "sql/game_datum.h"
#include "utils/builtins.h"

PG_FUNCTION_INFO_V1(gametree_games);
Datum
gametree_games(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	InitMaterializedSRF(fcinfo, 0);
	for (int i = 0; i < gt_game_count(); i++)
	{
		const Game *game = gt_game_at(i);
		Datum		values[3];
		bool		nulls[3] = {false, false, false};

		values[0] = CStringGetTextDatum(game->name);
		values[1] = gt_roles_datum(game);
		values[2] = CStringGetTextDatum(game->description);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	gt_list_source_games(rsinfo->setResult, rsinfo->setDesc);
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(gametree_initial);
Datum
gametree_initial(PG_FUNCTION_ARGS)
{
	const Game *game = gt_game_from_text(PG_GETARG_TEXT_PP(0));
	GameState  *state = gt_state_alloc(game);

	game->initial(game, state);
	PG_RETURN_JSONB_P(gt_encode_state(game, state));
}

PG_FUNCTION_INFO_V1(gametree_legal);
Datum
gametree_legal(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	const Game *game;
	GameState  *state = gt_state_argument(fcinfo, &game);
	GameMove   *moves = palloc(game->max_moves * sizeof(GameMove));
	int			n = game->legal(game, state, moves);

	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC | MAT_SRF_BLESS);
	for (int i = 0; i < n; i++)
	{
		Datum		value = JsonbPGetDatum(gt_encode_move(game, state, moves[i]));
		bool		isnull = false;

		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &value, &isnull);
	}
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(gametree_next);
Datum
gametree_next(PG_FUNCTION_ARGS)
{
	const Game *game;
	GameState  *state = gt_state_argument(fcinfo, &game);
	GameMove	move = gt_decode_move(game, state, PG_GETARG_JSONB_P(2));
	GameState  *after = gt_state_alloc(game);

	game->next(game, state, move, after);
	PG_RETURN_JSONB_P(gt_encode_state(game, after));
}

PG_FUNCTION_INFO_V1(gametree_successors);
Datum
gametree_successors(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	const Game *game;
	GameState  *state = gt_state_argument(fcinfo, &game);
	GameMove   *moves = palloc(game->max_moves * sizeof(GameMove));
	GameState  *after = gt_state_alloc(game);
	int			n = game->legal(game, state, moves);

	InitMaterializedSRF(fcinfo, 0);
	for (int i = 0; i < n; i++)
	{
		Datum		values[2];
		bool		nulls[2] = {false, false};

		game->next(game, state, moves[i], after);
		values[0] = JsonbPGetDatum(gt_encode_move(game, state, moves[i]));
		values[1] = JsonbPGetDatum(gt_encode_state(game, after));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(gametree_terminal);
Datum
gametree_terminal(PG_FUNCTION_ARGS)
{
	const Game *game;
	GameState  *state = gt_state_argument(fcinfo, &game);

	PG_RETURN_BOOL(game->terminal(game, state));
}

PG_FUNCTION_INFO_V1(gametree_goal);
Datum
gametree_goal(PG_FUNCTION_ARGS)
{
	const Game *game;
	GameState  *state = gt_state_argument(fcinfo, &game);

	if (!game->terminal(game, state))
		PG_RETURN_NULL();
	PG_RETURN_JSONB_P(gt_encode_goals(game, state));
}

PG_FUNCTION_INFO_V1(gametree_control);
Datum
gametree_control(PG_FUNCTION_ARGS)
{
	const Game *game;
	GameState  *state = gt_state_argument(fcinfo, &game);
	int			role = game->control(game, state);

	if (role == GT_NO_ROLE)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(game->roles[role]));
}

PG_FUNCTION_INFO_V1(gametree_board);
Datum
gametree_board(PG_FUNCTION_ARGS)
{
	const Game *game;
	GameState  *state = gt_state_argument(fcinfo, &game);

	PG_RETURN_TEXT_P(cstring_to_text(game->board(game, state)));
}

/* short_board(game, state): a board small enough for a graph's node, NULL when the game has none. */
PG_FUNCTION_INFO_V1(gametree_short_board);
Datum
gametree_short_board(PG_FUNCTION_ARGS)
{
	const Game *game;
	GameState  *state = gt_state_argument(fcinfo, &game);

	if (game->short_board == NULL)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(game->short_board(game, state)));
}

PG_FUNCTION_INFO_V1(gametree_state_hash);
Datum
gametree_state_hash(PG_FUNCTION_ARGS)
{
	const Game *game;
	GameState  *state = gt_state_argument(fcinfo, &game);

	PG_RETURN_INT64((int64) gt_state_hash(game, state));
}

PG_FUNCTION_INFO_V1(gametree_canonical);
Datum
gametree_canonical(PG_FUNCTION_ARGS)
{
	const Game *game = gt_game_from_text(PG_GETARG_TEXT_PP(0));

	PG_RETURN_JSONB_P(gt_encode_state(game, gt_decode_state(game, PG_GETARG_JSONB_P(1))));
}

PG_FUNCTION_INFO_V1(gametree_heuristic);
Datum
gametree_heuristic(PG_FUNCTION_ARGS)
{
	const Game *game;
	GameState  *state = gt_state_argument(fcinfo, &game);
	Jsonb	   *estimate = gt_encode_heuristic(game, state);

	if (estimate == NULL)
		PG_RETURN_NULL();
	PG_RETURN_JSONB_P(estimate);
}
