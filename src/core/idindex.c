/*
 * idindex.c: row numbers by 64-bit id (idindex.h).
 */
#include "postgres.h"

#include "core/idindex.h"
#include "utils/memutils.h"

/* Slots for expected ids: a power of two, at most half full. */
static int
slot_bits(int64 expected)
{
	int			bits = 10;

	while (((int64) 1 << bits) < 2 * expected)
		bits++;
	return bits;
}

Size
id_index_size(int64 expected)
{
	return ((Size) 1 << slot_bits(expected)) * sizeof(IdRow);
}

void
id_index_init(IdIndex *ix, int64 expected, MemoryContext cxt)
{
	int			bits = slot_bits(expected);

	ix->slots = MemoryContextAllocExtended(cxt, ((Size) 1 << bits) * sizeof(IdRow), MCXT_ALLOC_HUGE);
	ix->shift = 64 - bits;
	ix->mask = ((uint64) 1 << bits) - 1;
	ix->count = 0;
	ix->cxt = cxt;
	for (uint64 s = 0; s <= ix->mask; s++)
		ix->slots[s].row = -1;
}

void
id_index_free(IdIndex *ix)
{
	pfree(ix->slots);
	ix->slots = NULL;
}

int32
id_index_add(IdIndex *ix, int64 id, int32 row)
{
	uint64		s;

	if (2 * (ix->count + 1) > (int64) ix->mask + 1)
	{
		IdIndex		bigger;

		id_index_init(&bigger, 2 * (ix->count + 1), ix->cxt);
		for (uint64 old = 0; old <= ix->mask; old++)
			if (ix->slots[old].row >= 0)
				id_index_add(&bigger, ix->slots[old].id, ix->slots[old].row);
		id_index_free(ix);
		*ix = bigger;
	}
	for (s = id_index_slot(ix, id); ix->slots[s].row >= 0; s = (s + 1) & ix->mask)
		if (ix->slots[s].id == id)
			return ix->slots[s].row;
	ix->slots[s].id = id;
	ix->slots[s].row = row;
	ix->count++;
	return row;
}

void
id_index_set(IdIndex *ix, int64 id, int32 row)
{
	if (id_index_add(ix, id, row) == row)
		return;
	for (uint64 s = id_index_slot(ix, id);; s = (s + 1) & ix->mask)
		if (ix->slots[s].id == id && ix->slots[s].row >= 0)
		{
			ix->slots[s].row = row;
			return;
		}
}
