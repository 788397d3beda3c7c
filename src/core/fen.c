/*
 * fen.c: a game's own text notation of positions (FEN for chess, PDN FEN
 * for checkers), through the game's optional hooks.
 */
#include "postgres.h"

#include "core/game.h"

static void
require_notation(const Game *game, bool present)
{
	if (!present)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("game \"%s\" has no FEN notation", game->name),
				 errhint("Use the JSON facts of gametree.initial('%s') instead.", game->name)));
}

GameState *
gt_state_from_fen(const Game *game, const char *fen)
{
	GameState  *state = gt_state_alloc(game);

	require_notation(game, game->from_fen != NULL);
	game->from_fen(game, fen, state);
	return state;
}

char *
gt_state_to_fen(const Game *game, const GameState *state)
{
	require_notation(game, game->to_fen != NULL);
	return game->to_fen(game, state);
}
