/*
 * tt.h: the transposition table of search (tt.c): what earlier visits of a
 * position found, keyed by its 64-bit state hash.  One table per backend,
 * of gametree.search_memory; each search starts a new generation, and
 * entries of older ones count as empty, so results do not depend on
 * earlier calls.
 */
#ifndef GAMETREE_TT_H
#define GAMETREE_TT_H

#include "core/game.h"

typedef enum TTBound
{
	TT_EXACT,
	TT_LOWER,					/* the score is at least this */
	TT_UPPER					/* the score is at most this */
} TTBound;

typedef struct TTEntry
{
	uint64		key;
	GameMove	move;			/* best or refuting move; GT_NO_MOVE: none */
	int32		score;
	int16		depth;			/* plies searched below */
	uint8		bound;
	bool		solved;			/* no horizon below: the score bounds the game's value */
	uint16		generation;
} TTEntry;

/* Starts a search: a table of gametree.search_memory, all entries old. */
extern void tt_new_search(void);
/* The entry of key from this search, or NULL. */
extern const TTEntry *tt_probe(uint64 key);
extern void tt_store(uint64 key, GameMove move, int32 score, int depth, TTBound bound, bool solved);

#endif
