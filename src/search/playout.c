/*
 * playout.c: random games to the end (playout.h).
 */
#include "postgres.h"

#include "core/clock.h"
#include "miscadmin.h"
#include "search/playout.h"

int
search_playout(const Game *game, GameState **state, GameState **scratch, GameMove *legal,
			   pg_prng_state *prng, bool heuristic_cutoff, double *result)
{
	for (int ply = 0;; ply++)
	{
		GameState  *swap;
		GameMove	move = 0;
		GtDraw		draw = game->random_move != NULL ?
			game->random_move(game, *state, prng, &move) : GT_DRAW_LIST;

		if (draw == GT_DRAW_LIST)
		{
			int			n = game->legal(game, *state, legal);

			draw = n == 0 ? GT_DRAW_END : GT_DRAW_MOVE;
			if (n > 0)
				move = legal[pg_prng_uint64_range(prng, 0, n - 1)];
		}
		if (draw == GT_DRAW_END)
		{
			int			goals[GT_MAX_ROLES];

			game->goals(game, *state, goals);
			for (int r = 0; r < game->nroles; r++)
				result[r] = goals[r];
			return ply;
		}
		if (heuristic_cutoff && game->heuristic != NULL && ply >= PLAYOUT_PLIES)
		{
			game->heuristic(game, *state, result);
			return ply;
		}
		if (ply >= PLAYOUT_MAX_PLIES)
		{
			for (int r = 0; r < game->nroles; r++)
				result[r] = (GT_GOAL_MIN + GT_GOAL_MAX) / 2.0;
			return ply;
		}
		game->next(game, *state, move, *scratch);
		swap = *state;
		*state = *scratch;
		*scratch = swap;
	}
}

void
search_playouts(const Game *game, const GameState *state, int64 max_playouts,
				TimestampTz deadline, uint64 seed, PlayoutTotals *totals)
{
	GameState  *playing = gt_state_alloc(game);
	GameState  *scratch = gt_state_alloc(game);
	GameMove   *legal = palloc(game->max_moves * sizeof(GameMove));
	pg_prng_state prng;
	GtClock		clock;

	Assert(max_playouts > 0 || deadline != 0);
	memset(totals, 0, sizeof(PlayoutTotals));
	pg_prng_seed(&prng, seed);
	gt_clock_start(&clock, deadline);
	while ((max_playouts == 0 || totals->playouts < max_playouts) && !gt_clock_expired(&clock))
	{
		double		goals[GT_MAX_ROLES];
		int			plies;

		CHECK_FOR_INTERRUPTS();
		gt_state_copy(playing, state);
		plies = search_playout(game, &playing, &scratch, legal, &prng, false, goals);
		if (gt_clock_abandoned())
			break;
		totals->playouts++;
		totals->states += plies;
		for (int r = 0; r < game->nroles; r++)
			totals->goals[r] += goals[r];
	}
	gt_clock_stop();
	pfree(playing);
	pfree(scratch);
	pfree(legal);
}
