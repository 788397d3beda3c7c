/*
 * playout.h: random games, the depth charges of Monte Carlo search
 * (mcts.c, flat.c).  Internal to search/.
 */
#ifndef GAMETREE_SEARCH_PLAYOUT_H
#define GAMETREE_SEARCH_PLAYOUT_H

#include "common/pg_prng.h"
#include "core/game.h"

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
 * gt_clock_abandoned().
 */
#define PLAYOUT_PLIES 24
#define PLAYOUT_MAX_PLIES 10000
extern void search_playout(const Game *game, GameState **state, GameState **scratch, GameMove *legal,
						   pg_prng_state *prng, bool heuristic_cutoff, double *result);

#endif
