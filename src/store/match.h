/*
 * match.h: the GGP matches a player records in gametree.matches (match.c):
 * begun, moved and ended by the player that plays them, replayed by
 * anyone.  Callers are connected to SPI; what they return is allocated in
 * the SPI procedure's memory (SPI_datumTransfer it out).
 */
#ifndef GAMETREE_MATCH_H
#define GAMETREE_MATCH_H

#include "core/game.h"
#include "datatype/timestamp.h"
#include "utils/tuplestore.h"

/*
 * Checks the match's game, role, clocks and tree (NULL: none) and records
 * it as the session user's, from the game's initial state; its row's id.
 */
extern int64 match_begin(const char *match_id, const char *game, const char *role,
						 const Interval *start_clock, const Interval *play_clock, text *tree);

/* Plays a legal joint move of the match's state: records it; the state after. */
extern Jsonb *match_move(int64 id, Jsonb *joint_move);

/*
 * Ends the match, aborted or done (its state terminal), dropping its tree
 * unless keep_tree; the goals, NULL when aborted before a terminal state.
 */
extern Jsonb *match_end(int64 id, bool aborted, bool keep_tree);

/* Puts the rows of match_replay (ply, move, state, goals) into result. */
extern void match_replay(int64 id, Tuplestorestate *result, TupleDesc desc);

#endif
