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

char *
gt_record_setup_fen(const Game *game, const GameState *state)
{
	GameState  *initial = gt_state_alloc(game);

	game->initial(game, initial);
	/* games write states canonically: equal positions have equal bytes */
	if (initial->size == state->size && memcmp(initial->data, state->data, state->size) == 0)
		return NULL;
	return gt_state_to_fen(game, state);
}
