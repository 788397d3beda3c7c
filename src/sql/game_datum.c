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
