/*
 * tt.h: the transposition table of search (tt.c): what earlier visits of a
 * position found, keyed by its 64-bit state hash.  One table per search,
 * in the search's memory context: it starts small and doubles as it fills,
 * while the search's memory stays within its budget, and goes when the
 * search's context does.
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
	bool		used;			/* written by this search */
} TTEntry;

typedef struct TTable TTable;

/*
 * A new, empty table in cxt, the search's context: the table doubles only
 * while everything cxt holds stays within memory bytes.
 */
extern TTable *tt_create(MemoryContext cxt, Size memory);
/* The entry of key, or NULL. */
extern const TTEntry *tt_probe(const TTable *tt, uint64 key);
extern void tt_store(TTable *tt, uint64 key, GameMove move, int32 score, int depth, TTBound bound,
					 bool solved);

#endif
