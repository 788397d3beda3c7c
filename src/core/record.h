/*
 * record.h: game records in a game's record format (PGN, PDN), which a
 * game describes in its record_format hook (core/game.h).  The server
 * gives the format and where a record from a position starts; a client
 * writes the record.
 */
#ifndef GAMETREE_RECORD_H
#define GAMETREE_RECORD_H

#include "core/game.h"

/*
 * The number of the turn a record starting in state begins with: the
 * format's turn hook, else 1.  The game must have a record format.
 */
extern int	gt_record_first_turn(const Game *game, const GameState *state);

/*
 * The FEN a record starting in state sets up (its FEN tag), or NULL when
 * state is the game's initial state, which needs none.
 */
extern char *gt_record_setup_fen(const Game *game, const GameState *state);

#endif
