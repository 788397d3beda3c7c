/*
 * fen.c: from_fen() and to_fen(), a game's own text notation of positions
 * (FEN for chess, PDN FEN for checkers), through the game's optional hooks.
 */
#include "postgres.h"

#include "fmgr.h"
#include "core/game.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

static void
require_notation(const Game *game, bool present)
{
	if (!present)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("game \"%s\" has no FEN notation", game->name),
				 errhint("Use the JSON facts of gametree.initial('%s') instead.", game->name)));
}

PG_FUNCTION_INFO_V1(gametree_from_fen);
Datum
gametree_from_fen(PG_FUNCTION_ARGS)
{
	const Game *game = gt_game_from_text(PG_GETARG_TEXT_PP(0));
	GameState  *state = gt_state_alloc(game);

	require_notation(game, game->from_fen != NULL);
	game->from_fen(game, text_to_cstring(PG_GETARG_TEXT_PP(1)), state);
	PG_RETURN_JSONB_P(gt_encode_state(game, state));
}

PG_FUNCTION_INFO_V1(gametree_to_fen);
Datum
gametree_to_fen(PG_FUNCTION_ARGS)
{
	const Game *game;
	GameState  *state = gt_state_argument(fcinfo, &game);

	require_notation(game, game->to_fen != NULL);
	PG_RETURN_TEXT_P(cstring_to_text(game->to_fen(game, state)));
}
