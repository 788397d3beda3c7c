/*
 * record.c: game records (record.h).
 */
#include "postgres.h"

#include "core/record.h"

int
gt_record_first_turn(const Game *game, const GameState *state)
{
	Assert(game->record_format != NULL);
	if (game->record_format->turn == NULL)
		return 1;
	return game->record_format->turn(game, state);
}
