/*
 * perft.c: gametree.perft(game, state, depth, include_terminal, draw_rules),
 * the leaf count of the move tree (core/perft.c counts).
 */
#include "postgres.h"

#include "sql/game_datum.h"

PG_FUNCTION_INFO_V1(gametree_perft);
Datum
gametree_perft(PG_FUNCTION_ARGS)
{
	const Game *game;
	GameState  *state = gt_state_argument(fcinfo, &game);

	PG_RETURN_INT64(gt_perft(game, state, PG_GETARG_INT32(2), PG_GETARG_BOOL(3), PG_GETARG_BOOL(4)));
}
