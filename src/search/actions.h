/*
 * actions.h: each role's action within a joint move, for the searches that
 * treat the roles of a simultaneous-move state apart (mcts.c, flat.c).
 * Internal to search/.
 */
#ifndef GAMETREE_SEARCH_ACTIONS_H
#define GAMETREE_SEARCH_ACTIONS_H

#include "core/game.h"

/*
 * keys[r]: a 64-bit key of role r's action in move, from state; equal
 * actions have equal keys.  The game codes only joint moves, so the key
 * is the hash of the action's JSON: it allocates in CurrentMemoryContext,
 * which the caller resets.
 */
extern void search_action_keys(const Game *game, const GameState *state, GameMove move, uint64 *keys);

#endif
