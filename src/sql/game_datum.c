/*
 * game_datum.c: the game interface's arguments as Datums (game_datum.h).
 */
#include "postgres.h"

#include "sql/game_datum.h"

GameState *
gt_state_argument(FunctionCallInfo fcinfo, const Game **game)
{
	*game = gt_game_from_text(PG_GETARG_TEXT_PP(0));
	return gt_decode_state(*game, PG_GETARG_JSONB_P(1));
}

GameState *
gt_state_argument_or_initial(FunctionCallInfo fcinfo, const Game **game)
{
	GameState  *state;

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("game must not be NULL")));
	if (!PG_ARGISNULL(1))
		return gt_state_argument(fcinfo, game);
	*game = gt_game_from_text(PG_GETARG_TEXT_PP(0));
	state = gt_state_alloc(*game);
	(*game)->initial(*game, state);
	return state;
}
