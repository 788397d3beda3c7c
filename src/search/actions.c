/*
 * actions.c: each role's action within a joint move (actions.h).
 */
#include "postgres.h"

#include "search/actions.h"

void
search_action_keys(const Game *game, const GameState *state, GameMove move, uint64 *keys)
{
	Jsonb	   *joint = gt_encode_move(game, state, move);

	for (int r = 0; r < game->nroles; r++)
	{
		Jsonb	   *json = JsonbValueToJsonb(getIthJsonbValueFromContainer(&joint->root, r));

		keys[r] = gt_hash_bytes((const uint8 *) VARDATA(json), VARSIZE(json) - VARHDRSZ);
	}
}
