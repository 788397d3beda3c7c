/*
 * notation.c: the SQL functions of the games' own notations: notation() of
 * a line of moves, from_fen() and to_fen() of a position.
 */
#include "postgres.h"

#include "core/line.h"
#include "sql/game_datum.h"
#include "utils/builtins.h"

/* notation(game, state, moves): the line's moves as players write them. */
PG_FUNCTION_INFO_V1(gametree_notation);
Datum
gametree_notation(PG_FUNCTION_ARGS)
{
	const Game *game;
	GameState  *state = gt_state_argument(fcinfo, &game);

	PG_RETURN_TEXT_P(cstring_to_text(gt_line_notation(game, state, PG_GETARG_JSONB_P(2))));
}

PG_FUNCTION_INFO_V1(gametree_from_fen);
Datum
gametree_from_fen(PG_FUNCTION_ARGS)
{
	const Game *game = gt_game_from_text(PG_GETARG_TEXT_PP(0));

	PG_RETURN_JSONB_P(gt_encode_state(game, gt_state_from_fen(game, text_to_cstring(PG_GETARG_TEXT_PP(1)))));
}

PG_FUNCTION_INFO_V1(gametree_to_fen);
Datum
gametree_to_fen(PG_FUNCTION_ARGS)
{
	const Game *game;
	GameState  *state = gt_state_argument(fcinfo, &game);

	PG_RETURN_TEXT_P(cstring_to_text(gt_state_to_fen(game, state)));
}
