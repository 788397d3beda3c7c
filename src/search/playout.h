/*
 * playout.h: random games, the depth charges of Monte Carlo search
 * (mcts.c, flat.c), and runs of them for gametree.playouts, the measure of
 * a game's speed that GGP engines quote (state changes per second).
 */
#ifndef GAMETREE_SEARCH_PLAYOUT_H
#define GAMETREE_SEARCH_PLAYOUT_H

#include "common/pg_prng.h"
#include "core/game.h"
#include "datatype/timestamp.h"

/*
 * Plays uniformly random joint moves on from *state (at a simultaneous-move
 * state that is each role's action uniform: the joint moves are every
 * combination of the roles' actions) and writes one result per role: the
 * goals at the end of the game; where the game has a heuristic and
 * heuristic_cutoff is true, its estimate after PLAYOUT_PLIES plies.  A game
 * that has not ended after PLAYOUT_MAX_PLIES counts as a draw.  *state and
 * *scratch are the two buffers it plays in; on return *state holds where it
 * stopped.  legal has room for game->max_moves.  When a game call gives up
 * (core/clock.h) the result is meaningless: the caller looks at
 * gt_clock_abandoned().  Returns the state changes it made.
 */
#define PLAYOUT_PLIES 24
#define PLAYOUT_MAX_PLIES 10000
extern int	search_playout(const Game *game, GameState **state, GameState **scratch, GameMove *legal,
						   pg_prng_state *prng, bool heuristic_cutoff, double *result);

/* What search_playouts played. */
typedef struct PlayoutTotals
{
	int64		playouts;
	int64		states;			/* state changes: calls of next() */
	double		goals[GT_MAX_ROLES];	/* summed over the playouts */
} PlayoutTotals;

/*
 * Plays search_playout's random games to the end from state (no heuristic
 * cutoff) until max_playouts are played (0: no limit) or the deadline
 * (0: none) is past, whichever comes first; at least one of the two is
 * set.  The random numbers come from seed alone.  A playout a game call
 * gave up in at the deadline (core/clock.h) is not counted.
 */
extern void search_playouts(const Game *game, const GameState *state, int64 max_playouts,
							TimestampTz deadline, uint64 seed, PlayoutTotals *totals);

#endif
