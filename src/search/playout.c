/*
 * playout.c: random games to the end (playout.h).
 */
#include "postgres.h"

#include "search/playout.h"

void
search_playout(const Game *game, GameState **state, GameState **scratch, GameMove *legal,
			   pg_prng_state *prng, bool heuristic_cutoff, double *result)
{
	for (int ply = 0;; ply++)
	{
		int			n = game->legal(game, *state, legal);
		GameState  *swap;

		if (n == 0)
		{
			int			goals[GT_MAX_ROLES];

			game->goals(game, *state, goals);
			for (int r = 0; r < game->nroles; r++)
				result[r] = goals[r];
			return;
		}
		if (heuristic_cutoff && game->heuristic != NULL && ply >= PLAYOUT_PLIES)
		{
			game->heuristic(game, *state, result);
			return;
		}
		if (ply >= PLAYOUT_MAX_PLIES)
		{
			for (int r = 0; r < game->nroles; r++)
				result[r] = (GT_GOAL_MIN + GT_GOAL_MAX) / 2.0;
			return;
		}
		game->next(game, *state, legal[pg_prng_uint64_range(prng, 0, n - 1)], *scratch);
		swap = *state;
		*state = *scratch;
		*scratch = swap;
	}
}
