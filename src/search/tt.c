/*
 * tt.c: the transposition table (tt.h).
 *
 * Direct-mapped: a key's entry is at key & mask.  The table starts at
 * TT_START_BYTES and doubles when half of its entries are used, so that a
 * short search touches little memory and a long one gets the budget.
 * Doubling moves each entry to its own index or that plus the old size (the
 * key's next bit), in place after a repalloc, which for large chunks is a
 * realloc that need not copy; nothing is zero-filled up front.
 */
#include "postgres.h"

#include "miscadmin.h"
#include "search/tt.h"
#include "utils/memutils.h"

#define TT_START_BYTES (1024 * 1024)
/* The least table, even where the search's other arrays take its whole budget. */
#define TT_MIN_ENTRIES 1024
/* Entries moved between looks at interrupts while doubling. */
#define TT_CHECK_INTERVAL 65536

struct TTable
{
	TTEntry    *entries;
	uint64		mask;			/* entries - 1, entries a power of two */
	uint64		used;			/* entries written */
	MemoryContext cxt;
	Size		memory;			/* what cxt may hold */
	bool		full;			/* doubling would pass memory */
};

TTable *
tt_create(MemoryContext cxt, Size memory)
{
	TTable	   *tt = MemoryContextAllocZero(cxt, sizeof(TTable));
	Size		held = MemoryContextMemAllocated(cxt, true);
	Size		room = memory > held ? Min(memory - held, TT_START_BYTES) : 0;
	uint64		entries = TT_MIN_ENTRIES;

	while (entries * 2 * sizeof(TTEntry) <= room)
		entries *= 2;
	tt->cxt = cxt;
	tt->memory = memory;
	tt->mask = entries - 1;
	tt->entries = MemoryContextAllocExtended(cxt, entries * sizeof(TTEntry),
											 MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	return tt;
}

/* Doubles the table when its context can hold the other half; else marks it full. */
static void
tt_grow(TTable *tt)
{
	uint64		old = tt->mask + 1;
	Size		bytes = old * sizeof(TTEntry);

	if (MemoryContextMemAllocated(tt->cxt, true) + bytes > tt->memory)
	{
		tt->full = true;
		return;
	}
	tt->entries = repalloc_huge(tt->entries, 2 * bytes);
	for (uint64 i = 0; i < old; i++)
	{
		TTEntry    *low = &tt->entries[i];
		TTEntry    *high = &tt->entries[i + old];

		if (low->used && (low->key & old) != 0)
		{
			*high = *low;
			low->used = false;
		}
		else
			high->used = false;
		if (i % TT_CHECK_INTERVAL == 0)
			CHECK_FOR_INTERRUPTS();
	}
	tt->mask = 2 * old - 1;
}

const TTEntry *
tt_probe(const TTable *tt, uint64 key)
{
	const TTEntry *e = &tt->entries[key & tt->mask];

	return e->used && e->key == key ? e : NULL;
}

void
tt_store(TTable *tt, uint64 key, GameMove move, int32 score, int depth, TTBound bound, bool solved)
{
	TTEntry    *e = &tt->entries[key & tt->mask];

	/* Keep a deeper entry of the same position. */
	if (e->used && e->key == key && e->depth > depth && !solved)
		return;
	if (!e->used || e->key != key || move != GT_NO_MOVE)
		e->move = move;
	if (!e->used)
		tt->used++;
	e->key = key;
	e->score = score;
	e->depth = (int16) depth;
	e->bound = (uint8) bound;
	e->solved = solved;
	e->used = true;
	if (!tt->full && tt->used * 2 > tt->mask + 1)
		tt_grow(tt);
}
