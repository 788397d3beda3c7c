/*
 * tt.c: the transposition table (tt.h).
 */
#include "postgres.h"

#include "core/settings.h"
#include "search/tt.h"
#include "utils/memutils.h"

static TTEntry *table;
static uint64 table_mask;
static Size table_bytes;
static uint16 generation;

void
tt_new_search(void)
{
	Size		want = (Size) gt_search_memory * 1024;
	Size		entries = 1;

	while (entries * 2 * sizeof(TTEntry) <= want)
		entries *= 2;
	if (table == NULL || entries * sizeof(TTEntry) != table_bytes)
	{
		if (table != NULL)
			pfree(table);
		table = NULL;
		table = MemoryContextAllocExtended(TopMemoryContext, entries * sizeof(TTEntry),
										   MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
		table_bytes = entries * sizeof(TTEntry);
		table_mask = entries - 1;
		generation = 0;
	}
	/* Generation 0 marks entries never written. */
	if (++generation == 0)
	{
		memset(table, 0, table_bytes);
		generation = 1;
	}
}

const TTEntry *
tt_probe(uint64 key)
{
	const TTEntry *e = &table[key & table_mask];

	return e->generation == generation && e->key == key ? e : NULL;
}

void
tt_store(uint64 key, GameMove move, int32 score, int depth, TTBound bound, bool solved)
{
	TTEntry    *e = &table[key & table_mask];

	/* Keep a deeper entry of the same position from this search. */
	if (e->generation == generation && e->key == key && e->depth > depth && !solved)
		return;
	if (e->generation != generation || e->key != key || move != GT_NO_MOVE)
		e->move = move;
	e->key = key;
	e->score = score;
	e->depth = (int16) depth;
	e->bound = (uint8) bound;
	e->solved = solved;
	e->generation = generation;
}
